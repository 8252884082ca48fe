package host

import (
	"bytes"
	"encoding/hex"
	"fmt"
	netmail "net/mail"
	"slices"
	"strings"
	"time"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/store"
	"navarch/templates"
)

// replace hands a player's side to someone else (REPLACE PLAYER ADDRESS [ZONE], DESIGN
// 3.6): the new address gets a new key and a welcome mail with the game's commitment and
// first checkpoint; the old address and key no longer count.
func (h *Host) replace(tx *store.Tx, a *actor) (string, error) {
	args := a.req.Args
	if len(args) < 2 || len(args) > 3 {
		return "", refused("write REPLACE PLAYER ADDRESS [ZONE], like REPLACE bob carol@example.org Europe/Paris")
	}
	var p *player
	for i := range a.g.Players {
		if a.g.Players[i].ID == args[0] {
			p = &a.g.Players[i]
		}
	}
	if p == nil {
		return "", refused(fmt.Sprintf("there is no player %q in game %s", args[0], a.g.Tag))
	}
	addr, err := netmail.ParseAddress(args[1])
	if err != nil {
		return "", refused(fmt.Sprintf("%q is not a mail address", args[1]))
	}
	to := strings.ToLower(addr.Address)
	if err := h.ownAddressError("REPLACE", to); err != nil {
		return "", refused(err.Error())
	}
	if a.g.player(to) != nil || slices.Contains(a.g.Referees, to) {
		return "", refused(fmt.Sprintf("%s already takes part in game %s", to, a.g.Tag))
	}
	zone := p.Zone
	if len(args) == 3 {
		if _, err := time.LoadLocation(args[2]); err != nil {
			return "", refused(fmt.Sprintf("%q is not a time zone (like Europe/Paris)", args[2]))
		}
		zone = args[2]
	}
	key, err := newKey(h.cfg.Rand)
	if err != nil {
		return "", err
	}
	if err := store.PutPlayerKey(tx, a.id, p.ID, key); err != nil {
		return "", err
	}
	old := p.Address
	p.Address, p.Zone, p.AbsentFrom, p.AbsentTo = to, zone, time.Time{}, time.Time{}
	if err := h.rewelcome(tx, a, p, key); err != nil {
		return "", err
	}
	if err := h.notice(tx, a.g, recipient{address: old}, "", fmt.Sprintf(
		"You no longer play %s (%s) in game %s: the referee has handed the side to another player. "+
			"Your key no longer counts, and mail from you is no longer applied to this game. Thank you for playing.", p.ID, p.Side, a.g.Tag)); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s (%s) is now played from %s instead of %s.", p.ID, p.Side, to, old), nil
}

// rewelcome is the welcome mail of a player who takes over a side in play: the key, the
// commitment and the genesis checkpoint from the log, the order language.
func (h *Host) rewelcome(tx *store.Tx, a *actor, p *player, key string) error {
	var buf bytes.Buffer
	if err := ledger.Export(tx, a.id, ledger.View{}, &buf); err != nil {
		return err
	}
	f, err := gamelog.ParseFile(buf.Bytes())
	if err != nil {
		return fmt.Errorf("replace: %w", err)
	}
	body := templates.Welcome{Key: key, Deadlines: h.policy(a.g), ReplyTokens: h.cfg.ReplyTokens}
	for _, e := range f.Entries {
		switch r := e.Record; {
		case r == nil:
		case r.Type == gamelog.TypeGenesis:
			body.Commitment, body.Verifier = hex.EncodeToString(r.Bytes("commitment")), hex.EncodeToString(r.Bytes("verifier"))
		case r.Type == gamelog.TypeCheckpoint && body.Checkpoint == "":
			body.Checkpoint = gamelog.CheckpointFromRecord(a.id, r).Block()
		}
	}
	for _, q := range a.g.Players {
		body.Players = append(body.Players, templates.PlayerLine{ID: q.ID, Side: q.Side})
	}
	eng, err := h.engine(tx, a.id)
	if err != nil {
		return err
	}
	body.Help = eng.Help(p.Side)
	return h.queue(tx, a.g, recipient{p: p}, "welcome", "welcome", body, "", nil)
}
