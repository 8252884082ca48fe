package host

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"slices"
	"strings"

	"navarch/ident"
	"navarch/mail"
	"navarch/store"
)

// Reply tokens (docs/DESIGN.md 4, the diplicity practice): with Config.ReplyTokens, every mail to a
// player carries a Reply-To of navarch's own address with a token, local+TOKEN@domain, and a
// reply from the player's address to it needs no KEY line. The token is derived from the
// player's key, so a new key (REPLACE) makes a new token, and it reveals nothing of the key.
// The receiving server must deliver subaddressed mail (local+anything@domain) to navarch's
// mailbox.

// replyToken is a player's token: 16 base32 letters (80 bits) of HMAC-SHA256 under the key.
func replyToken(id ident.GameID, key string) string {
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte("navarch reply token "))
	m.Write(id[:])
	return strings.ToLower(base32.StdEncoding.EncodeToString(m.Sum(nil))[:16])
}

// replyAddress is navarch's address with a token.
func (h *Host) replyAddress(token string) string {
	local, domain, _ := strings.Cut(h.cfg.Address, "@")
	return local + "+" + token + "@" + domain
}

// tokenUsed says whether the mail was sent to navarch's address with the player's token.
func (h *Host) tokenUsed(in *mail.Incoming, id ident.GameID, key string) bool {
	if !h.cfg.ReplyTokens || key == "" {
		return false
	}
	return slices.Contains(in.Recipients, strings.ToLower(h.replyAddress(replyToken(id, key))))
}

// replyTo is the Reply-To of a mail to r: the player's or the referee's tokenized address,
// or none.
func (h *Host) replyTo(tx *store.Tx, g *game, r recipient) (string, error) {
	if !h.cfg.ReplyTokens || r.p == nil && !g.isReferee(r.address) {
		return "", nil
	}
	id := h.gameID(g)
	key, err := r.key(tx, id)
	if err != nil || key == "" {
		return "", err
	}
	return h.replyAddress(replyToken(id, key)), nil
}

// key is the recipient's key: a player's, a referee's, or "" for anyone else.
func (r recipient) key(tx *store.Tx, id ident.GameID) (string, error) {
	if r.p != nil {
		return keyOf(tx, id, r.p.ID)
	}
	return refereeKey(tx, id, r.address)
}
