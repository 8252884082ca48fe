package host

import (
	"bytes"
	"fmt"

	"navarch/adjudicator"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/mail"
	"navarch/outbox"
	"navarch/play"
	"navarch/store"
)

// mapFile is the map attachment of a mail to side: a drawing order, drawn when the mail is
// sent; none for a ruleset without maps.
func (h *Host) mapFile(tx *store.Tx, id ident.GameID, eng adjudicator.Game, g *game, side string, full bool) ([]mail.Attachment, error) {
	if h.cfg.Maps[g.Ruleset] == nil {
		return nil, nil
	}
	n, err := store.Len(tx, id)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("%s-%s.png", g.Tag, map[bool]string{true: "referee", false: side}[side == ""])
	d := outbox.MapOrder{Game: id, Size: n, Side: side, Full: full, Tag: g.Tag}
	return []mail.Attachment{{Name: name, ContentType: "image/png", Inline: true, Draw: d.String()}}, nil
}

// drawStates gives the outbox's drawer the games' engines: the host's kept engine when it is
// the state a map shows, lent while it draws (no other user can change it meanwhile), or
// one rebuilt by replay.
type drawStates struct{ h *Host }

// Lend lends the host's kept engine of the game when it is the state after size records.
func (d drawStates) Lend(id ident.GameID, size uint64) (adjudicator.Game, func(), bool) {
	c := d.h.engines.lend(id)
	if c == nil {
		return nil, nil, false
	}
	ok := false
	d.h.s.View(func(tx *store.Tx) error { ok = sameLogState(tx, id, c, size); return nil })
	if !ok {
		d.h.engines.giveBack(id, c)
		return nil, nil, false
	}
	return c.eng, func() { d.h.engines.giveBack(id, c) }, true
}

// sameLogState reports whether the engine kept in c is the game's state after the log's first
// size records: c's log is this log, and no close record lies between the two lengths (see
// sameState).
func sameLogState(tx *store.Tx, id ident.GameID, c *cached, size uint64) bool {
	n, err := store.Len(tx, id)
	if err != nil || c.size > n || size > n {
		return false
	}
	head, err := store.HeadAt(tx, id, c.size)
	return err == nil && head == c.head && noClose(tx, id, min(c.size, size), max(c.size, size))
}

// Replay rebuilds a game's state after the first size records of its log, in a read
// transaction: the log is replayed up to there.
func (d drawStates) Replay(id ident.GameID, size uint64) (adjudicator.Game, error) {
	h := d.h
	var buf bytes.Buffer
	if err := h.s.View(func(tx *store.Tx) error { return ledger.Export(tx, id, ledger.View{Full: true}, &buf) }); err != nil {
		return nil, fmt.Errorf("game %x at %d: %w", id[:], size, err)
	}
	f, err := gamelog.ParseFile(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("game %x at %d: %w", id[:], size, err)
	}
	n := 0
	for n < len(f.Entries) && f.Entries[n].Index < size {
		n++
	}
	f.Entries = f.Entries[:n]
	rep, err := play.Replay(f, h.rulesets)
	if err != nil {
		return nil, fmt.Errorf("game %x at %d: %w", id[:], size, err)
	}
	h.engines.mu.Lock()
	h.engines.drawReplays++
	h.engines.mu.Unlock()
	return rep.Game, nil
}
