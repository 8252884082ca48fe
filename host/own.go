package host

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"navarch/mail"
	"navarch/store"
)

// navarch's own mail is known by the Message-IDs it writes, never by their domain (a club's
// players may share navarch's domain, and their clients write Message-IDs @ that domain):
// each Message-ID's local part ends in a MAC of the rest under the installation's
// Message-ID key (store.MessageIDKey), so that recognition needs no lookup and no one
// without the key writes a Message-ID that passes for navarch's.
//
//	<local>.k<MAC>@<domain>   MAC: the first macBytes of HMAC-SHA256(key, "navarch message-id " ‖ local), hex
//
// A game's mail has the local part <seq>.<tag>, and while a step waits for orders
// .s<turn>-<act>-<opened> after it (opened: the log's length when the step opened, which
// tells apart two steps of one turn and activation), so that a reply says which step's mail
// it answers (answered).

// macBytes is the MAC's length in a Message-ID: 80 bits.
const macBytes = 10

// idKey holds the Message-ID key, read from the store at its first use.
type idKey struct {
	mu  sync.Mutex
	key []byte
}

// idKey returns the installation's Message-ID key, read in tx (or, without one, in a read
// transaction of its own) the first time. The store makes it when it opens a file for
// writing; if it cannot be read (a store not opened by store.Open), nil, and no Message-ID
// counts as ours.
func (h *Host) idKey(tx *store.Tx) []byte {
	h.ids.mu.Lock()
	defer h.ids.mu.Unlock()
	if h.ids.key != nil {
		return h.ids.key
	}
	read := func(tx *store.Tx) error {
		k, err := store.MessageIDKey(tx)
		h.ids.key = k
		return err
	}
	var err error
	if tx != nil {
		err = read(tx)
	} else {
		err = h.s.View(read)
	}
	if err != nil {
		h.log.Error("the Message-ID key cannot be read", "err", err)
	}
	return h.ids.key
}

func idMAC(key []byte, local string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("navarch message-id "))
	m.Write([]byte(local))
	return hex.EncodeToString(m.Sum(nil)[:macBytes])
}

// messageID is the Message-ID navarch writes for a local part (without <>).
func (h *Host) messageID(tx *store.Tx, local string) string {
	return local + ".k" + idMAC(h.idKey(tx), local) + "@" + h.cfg.Domain
}

// gameMessageID is the Message-ID of a game's latest mail (number g.Seq), naming the step
// that waits for orders, if any.
func (h *Host) gameMessageID(tx *store.Tx, g *game) string {
	local := fmt.Sprintf("%d.%s", g.Seq, g.Tag)
	if g.Step != nil && g.Step.Opened > 0 {
		local += fmt.Sprintf(".s%d-%d-%d", g.Step.Turn, g.Step.Act, g.Step.Opened)
	}
	return h.messageID(tx, local)
}

// ownLocal returns the local part navarch wrote, MAC removed, if id is a Message-ID it wrote
// (tx: the transaction the caller is in, or nil).
func (h *Host) ownLocal(tx *store.Tx, id string) (string, bool) {
	id = strings.Trim(strings.TrimSpace(id), "<>")
	at := strings.LastIndexByte(id, '@')
	if at < 0 || !strings.EqualFold(id[at+1:], h.cfg.Domain) {
		return "", false
	}
	local, mac, ok := cutLast(id[:at], ".k")
	key := h.idKey(tx)
	if !ok || key == nil || len(mac) != 2*macBytes {
		return "", false
	}
	return local, hmac.Equal([]byte(strings.ToLower(mac)), []byte(idMAC(key, local)))
}

func cutLast(s, sep string) (before, after string, ok bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// own reports whether a Message-ID is one navarch wrote (outside a transaction: mail.Parse).
func (h *Host) own(id string) bool {
	_, ok := h.ownLocal(nil, id)
	return ok
}

// stepRef is the step a mail of navarch's was written for.
type stepRef struct {
	Turn, Act uint32
	Opened    uint64
}

// answered is the step named by the mail of game tag that in answers: its In-Reply-To, or
// else the latest of its References, that navarch wrote and that names a step.
func (h *Host) answered(tx *store.Tx, in *mail.Incoming, tag string) (stepRef, bool) {
	ids := append([]string(nil), in.InReplyTo...)
	for i := len(in.References) - 1; i >= 0; i-- {
		ids = append(ids, in.References[i])
	}
	for _, id := range ids {
		local, ok := h.ownLocal(tx, id)
		if !ok {
			continue
		}
		f := strings.Split(local, ".")
		if len(f) != 3 || f[1] != tag || !strings.HasPrefix(f[2], "s") {
			continue
		}
		n := strings.Split(f[2][1:], "-")
		if len(n) != 3 {
			continue
		}
		turn, err1 := strconv.ParseUint(n[0], 10, 32)
		act, err2 := strconv.ParseUint(n[1], 10, 32)
		opened, err3 := strconv.ParseUint(n[2], 10, 64)
		if err1 == nil && err2 == nil && err3 == nil {
			return stepRef{uint32(turn), uint32(act), opened}, true
		}
	}
	return stepRef{}, false
}

// IsOwnAddress reports whether address is navarch's own address own, with or without a
// subaddress (local+token@domain, the tokenized reply address): mail from it is never
// answered, so no player, referee or game master may have it.
func IsOwnAddress(own, address string) bool {
	local, domain, ok := strings.Cut(strings.ToLower(own), "@")
	if !ok {
		return false
	}
	l, d, _ := strings.Cut(strings.ToLower(address), "@")
	l, _, _ = strings.Cut(l, "+")
	return l == local && d == domain
}
