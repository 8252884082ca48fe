package host

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"image"
	"strconv"
	"strings"
	"sync"

	"navarch/adjudicator"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/mail"
	"navarch/play"
	"navarch/render"
	"navarch/store"
)

// Maps are drawn after commit: the transaction that resolves a step queues its
// reports with each map as a drawing order (mail.Attachment.Draw: the game, the log's size
// when the mail was queued, the side, whole or cropped), and the outbox draws it just before
// sending, outside any write transaction, from the game's state at that size of its log.
// The state at a size of the log is the log's (it is rebuilt by replay when the engine kept
// in memory is not that state), and the drawing is deterministic: a mail drawn again after a
// crash is the same mail.

// drawSpec is what a queued map shows.
type drawSpec struct {
	id   ident.GameID
	size uint64 // the log's length when the mail was queued: the state drawn
	side string // "" for the referee's map
	full bool
	tag  string
}

func (d drawSpec) String() string {
	side := d.side
	if side == "" {
		side = "-"
	}
	return fmt.Sprintf("map %x %d %s %t %s", d.id[:], d.size, side, d.full, d.tag)
}

func parseDraw(s string) (drawSpec, error) {
	f := strings.Fields(s)
	var d drawSpec
	if len(f) != 6 || f[0] != "map" {
		return d, fmt.Errorf("drawing order %q: not a map", s)
	}
	if b, err := hex.DecodeString(f[1]); err != nil || len(b) != len(d.id) {
		return d, fmt.Errorf("drawing order %q: game id", s)
	}
	hex.Decode(d.id[:], []byte(f[1]))
	var err error
	if d.size, err = strconv.ParseUint(f[2], 10, 64); err != nil {
		return d, fmt.Errorf("drawing order %q: %w", s, err)
	}
	if d.full, err = strconv.ParseBool(f[4]); err != nil {
		return d, fmt.Errorf("drawing order %q: %w", s, err)
	}
	d.side, d.tag = strings.TrimPrefix(f[3], "-"), f[5]
	return d, nil
}

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
	d := drawSpec{id: id, size: n, side: side, full: full, tag: g.Tag}
	return []mail.Attachment{{Name: name, ContentType: "image/png", Inline: true, Draw: d.String()}}, nil
}

// drawer draws the maps of queued mails, on a pool of workers, one drawing of a game at a
// time. A drawing uses the game's engine from the host's cache (engines.go) when it is the
// state the map shows, taking it out of the cache while it draws (no other user can change
// it meanwhile) and giving it back after; otherwise it rebuilds the state by replay, and keeps
// a few such engines by game and log size, each used by one drawing at a time.
type drawer struct {
	h    *Host
	mu   sync.Mutex
	free map[drawKey][]adjudicator.Game
	busy map[ident.GameID]chan struct{} // a game's drawing under way
}

type drawKey struct {
	id   ident.GameID
	size uint64
}

// maxFreeEngines bounds the engines a drawer keeps between drawings.
const maxFreeEngines = 8

func (h *Host) newDrawer() *drawer {
	return &drawer{h: h, free: map[drawKey][]adjudicator.Game{}, busy: map[ident.GameID]chan struct{}{}}
}

// fill draws every attachment of o that is a drawing order, each on a worker (a slot of
// workers). A map that cannot be drawn is left out (and logged): the mail still goes, with
// its text.
func (d *drawer) fill(o *mail.Outgoing, workers chan struct{}) {
	var kept []mail.Attachment
	for _, a := range o.Attachments {
		if a.Draw != "" && a.Data == nil {
			data, err := d.draw(a.Draw, workers)
			if err != nil {
				d.h.log.Error("drawing a map failed; the mail goes without it", "message-id", o.MessageID, "err", err)
				continue
			}
			a.Data, a.Draw = data, ""
		}
		kept = append(kept, a)
	}
	o.Attachments = kept
}

// draw draws one map: its picture while it has the game to itself and the engine in hand, on a
// worker, then its encoding. The game is taken before the worker, so that a drawing waiting
// for the game's engine holds no worker.
func (d *drawer) draw(spec string, workers chan struct{}) ([]byte, error) {
	s, err := parseDraw(spec)
	if err != nil {
		return nil, err
	}
	ruleset, err := d.ruleset(s.id)
	if err != nil {
		return nil, err
	}
	m := d.h.cfg.Maps[ruleset]
	if m == nil {
		return nil, fmt.Errorf("draw %s: %w", spec, render.ErrNoMap)
	}
	unlock := d.lock(s.id)
	workers <- struct{}{}
	defer func() { <-workers }()
	img, err := d.image(m, s)
	unlock()
	if err != nil {
		return nil, fmt.Errorf("draw %s: %w", spec, err)
	}
	data, err := render.Encode(img) // render.Game's bytes: render.Encode(render.Image(picture))
	render.Release(img)             // its pixels serve the next map
	if err != nil {
		return nil, fmt.Errorf("draw %s: %w", spec, err)
	}
	return data, nil
}

// image draws the picture of the game's state at s.size.
func (d *drawer) image(m render.Map, s drawSpec) (image.Image, error) {
	eng, release, err := d.engine(s.id, s.size)
	if err != nil {
		return nil, err
	}
	defer release()
	p, err := m.Picture(eng, s.tag, s.side, s.full)
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	return render.Image(p), nil
}

// lock waits until no other drawing of the game is under way, and takes the game.
func (d *drawer) lock(id ident.GameID) (unlock func()) {
	for {
		d.mu.Lock()
		busy := d.busy[id]
		if busy == nil {
			done := make(chan struct{})
			d.busy[id] = done
			d.mu.Unlock()
			return func() {
				d.mu.Lock()
				delete(d.busy, id)
				d.mu.Unlock()
				close(done)
			}
		}
		d.mu.Unlock()
		<-busy
	}
}

// engine returns an engine at the game's state after the log's first size records, for the
// caller alone until it calls release: the drawer's own, or the host's (given back to its
// cache on release), or one rebuilt by replay.
func (d *drawer) engine(id ident.GameID, size uint64) (adjudicator.Game, func(), error) {
	k := drawKey{id, size}
	d.mu.Lock()
	if list := d.free[k]; len(list) > 0 {
		eng := list[len(list)-1]
		d.free[k] = list[:len(list)-1]
		d.mu.Unlock()
		return eng, func() { d.release(k, eng) }, nil
	}
	d.mu.Unlock()
	if c := d.h.engines.lend(id); c != nil {
		ok := false
		d.h.s.View(func(tx *store.Tx) error { ok = sameLogState(tx, id, c, size); return nil })
		if ok {
			return c.eng, func() { d.h.engines.giveBack(id, c) }, nil
		}
		d.h.engines.giveBack(id, c)
	}
	eng, err := d.h.engineAt(id, size)
	if err != nil {
		return nil, nil, err
	}
	return eng, func() { d.release(k, eng) }, nil
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

func (d *drawer) release(k drawKey, eng adjudicator.Game) {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for _, l := range d.free {
		n += len(l)
	}
	if n < maxFreeEngines {
		d.free[k] = append(d.free[k], eng)
	}
}

// engineAt rebuilds a game's state after the first size records of its log, in a read
// transaction: the log is replayed up to there.
func (h *Host) engineAt(id ident.GameID, size uint64) (adjudicator.Game, error) {
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

// ruleset returns the ruleset id of a game, from its genesis record.
func (d *drawer) ruleset(id ident.GameID) (string, error) {
	var rs string
	err := d.h.s.View(func(tx *store.Tx) error {
		g, err := store.Record(tx, id, 0)
		rs = g.Get("ruleset")
		return err
	})
	return rs, err
}
