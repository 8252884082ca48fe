package host

import (
	"bytes"
	"encoding/hex"
	"fmt"
	netmail "net/mail"
	"slices"
	"strings"
	"time"

	"navarch/adjudicator"
	"navarch/gamelog"
	"navarch/ledger"
	"navarch/mail"
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
	p.Name, _, _ = strings.Cut(addr.Address, "@")
	if addr.Name != "" {
		p.Name = addr.Name
	}
	p.TookOver = p.Joined
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
	var files []mail.Attachment
	if p.TookOver {
		if body.TakeOver, files, err = h.takeOver(tx, a, eng, p); err != nil {
			return err
		}
	}
	return h.queue(tx, a.g, recipient{p: p}, "welcome", welcomeSubject(a.g, p), body, "", files)
}

// called is what mails call a player: his own name if he took the side over from another
// (REPLACE), else his player id.
func called(p *player) string {
	if p.Name != "" {
		return p.Name
	}
	return p.ID
}

// welcomeSubject is a welcome's subject: what the mail wants first.
func welcomeSubject(g *game, p *player) string {
	switch {
	case !p.TookOver:
		return "welcome"
	case asked(g, recipient{p: p}):
		return fmt.Sprintf("welcome: you take over %s (%s), your move", p.Side, p.ID)
	}
	return fmt.Sprintf("welcome: you take over %s (%s)", p.Side, p.ID)
}

// takeOver is what a player who takes over a side in play is told: where the game stands,
// what is due from him (the request for his orders, with the map, if they are due now) and
// the state of play for his side.
func (h *Host) takeOver(tx *store.Tx, a *actor, eng adjudicator.Game, p *player) (*templates.TakeOver, []mail.Attachment, error) {
	t := &templates.TakeOver{From: p.ID, Summary: summary(eng, p.Side)}
	if a.g.Status != store.StatusPlaying {
		for _, q := range a.g.Players {
			if !q.Joined {
				t.Joining = append(t.Joining, q.ID)
			}
		}
		return t, nil, nil
	}
	if a.g.Step != nil {
		t.What, t.Sides = a.g.Step.What, a.g.Step.Sides
		_, t.Received = a.g.Step.Orders[orderKey(a.g.Step, p)]
	}
	if !asked(a.g, recipient{p: p}) {
		return t, nil, nil
	}
	req := requestBody(a.g, eng, p.Side)
	t.Request = &req
	files, err := h.mapFile(tx, a.id, eng, a.g, p.Side, false)
	if err == nil && len(files) > 0 {
		req.Map = files[0].Name
	}
	return t, files, err
}

// joinAnswer is the answer to a JOIN that adds nothing: to a game that is over, from a
// player who took over a side in play, or from one who joined already.
func joinAnswer(g *game, p *player) string {
	switch {
	case g.Status == store.StatusOver:
		return fmt.Sprintf("Game %s is over; there is nothing to join. HISTORY sends the game in words, LOG its log.", g.Tag)
	case p.TookOver:
		return fmt.Sprintf("You need not JOIN: you took over %s (%s) in play, and your orders count already.", p.ID, p.Side)
	}
	return "You have joined this game already."
}
