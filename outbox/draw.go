package outbox

import (
	"encoding/hex"
	"fmt"
	"image"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"navarch/adjudicator"
	"navarch/ident"
	"navarch/mail"
	"navarch/render"
	"navarch/store"
)

// Maps are drawn after commit (docs/DESIGN.md 5): the transaction that resolves a step
// queues its reports with each map as a drawing order (mail.Attachment.Draw, a MapOrder),
// and the outbox draws it just before sending, outside any write transaction, from the
// game's state at that size of its log. The state at a size of the log is the log's (it is
// rebuilt by replay when the engine kept in memory is not that state), and the drawing is
// deterministic: a mail drawn again after a crash is the same mail.

// MapOrder is what a queued map shows.
type MapOrder struct {
	Game ident.GameID
	Size uint64 // the log's length when the mail was queued: the state drawn
	Side string // "" for the referee's map
	Full bool
	Tag  string
}

// String is the order as a mail.Attachment's Draw.
func (d MapOrder) String() string {
	side := d.Side
	if side == "" {
		side = "-"
	}
	return fmt.Sprintf("map %x %d %s %t %s", d.Game[:], d.Size, side, d.Full, d.Tag)
}

// ParseMapOrder reads a drawing order written by MapOrder.String.
func ParseMapOrder(s string) (MapOrder, error) {
	f := strings.Fields(s)
	var d MapOrder
	if len(f) != 6 || f[0] != "map" {
		return d, fmt.Errorf("drawing order %q: not a map", s)
	}
	if b, err := hex.DecodeString(f[1]); err != nil || len(b) != len(d.Game) {
		return d, fmt.Errorf("drawing order %q: game id", s)
	}
	hex.Decode(d.Game[:], []byte(f[1]))
	var err error
	if d.Size, err = strconv.ParseUint(f[2], 10, 64); err != nil {
		return d, fmt.Errorf("drawing order %q: %w", s, err)
	}
	if d.Full, err = strconv.ParseBool(f[4]); err != nil {
		return d, fmt.Errorf("drawing order %q: %w", s, err)
	}
	d.Side, d.Tag = strings.TrimPrefix(f[3], "-"), f[5]
	return d, nil
}

// States gives the drawer a game's engine at a size of its log (the host: its engine cache
// and replay).
type States interface {
	// Lend returns the engine kept in memory when it is the game's state after the log's
	// first size records, for the caller alone until it calls give back; ok is false when
	// none is.
	Lend(id ident.GameID, size uint64) (eng adjudicator.Game, giveBack func(), ok bool)
	// Replay rebuilds the game's state after the log's first size records.
	Replay(id ident.GameID, size uint64) (adjudicator.Game, error)
}

// drawer draws the maps of queued mails, on a pool of workers, one drawing of a game at a
// time. A drawing uses the engine States lends when it is the state the map shows;
// otherwise one rebuilt by replay, of which the drawer keeps a few by game and log size,
// each used by one drawing at a time.
type drawer struct {
	o       *Outbox
	workers chan struct{} // a slot a drawing, one a core
	mu      sync.Mutex
	free    map[drawKey][]adjudicator.Game
	busy    map[ident.GameID]chan struct{} // a game's drawing under way
}

type drawKey struct {
	id   ident.GameID
	size uint64
}

// maxFreeEngines bounds the engines a drawer keeps between drawings.
const maxFreeEngines = 8

func newDrawer(o *Outbox) *drawer {
	return &drawer{o: o, workers: make(chan struct{}, max(1, runtime.GOMAXPROCS(0))),
		free: map[drawKey][]adjudicator.Game{}, busy: map[ident.GameID]chan struct{}{}}
}

// hasOrders reports whether a mail has maps to draw.
func hasOrders(o mail.Outgoing) bool {
	return slices.ContainsFunc(o.Attachments, func(a mail.Attachment) bool { return a.Draw != "" })
}

// fill draws every attachment of o that is a drawing order. A map that cannot be drawn is
// left out (and logged): the mail still goes, with its text.
func (d *drawer) fill(o *mail.Outgoing) {
	var kept []mail.Attachment
	for _, a := range o.Attachments {
		if a.Draw != "" && a.Data == nil {
			data, err := d.draw(a.Draw)
			if err != nil {
				d.o.log.Error("drawing a map failed; the mail goes without it", "message-id", o.MessageID, "err", err)
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
func (d *drawer) draw(spec string) ([]byte, error) {
	s, err := ParseMapOrder(spec)
	if err != nil {
		return nil, err
	}
	ruleset, err := d.ruleset(s.Game)
	if err != nil {
		return nil, err
	}
	m := d.o.cfg.Maps[ruleset]
	if m == nil || d.o.cfg.States == nil {
		return nil, fmt.Errorf("draw %s: %w", spec, render.ErrNoMap)
	}
	unlock := d.lock(s.Game)
	d.workers <- struct{}{}
	defer func() { <-d.workers }()
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

// image draws the picture of the game's state at s.Size.
func (d *drawer) image(m render.Map, s MapOrder) (image.Image, error) {
	eng, release, err := d.engine(s.Game, s.Size)
	if err != nil {
		return nil, err
	}
	defer release()
	p, err := m.Picture(eng, s.Tag, s.Side, s.Full)
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
// caller alone until it calls release: the drawer's own, or one lent (given back on
// release), or one rebuilt by replay.
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
	if eng, giveBack, ok := d.o.cfg.States.Lend(id, size); ok {
		return eng, giveBack, nil
	}
	eng, err := d.o.cfg.States.Replay(id, size)
	if err != nil {
		return nil, nil, err
	}
	return eng, func() { d.release(k, eng) }, nil
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

// ruleset returns the ruleset id of a game, from its genesis record.
func (d *drawer) ruleset(id ident.GameID) (string, error) {
	var rs string
	err := d.o.cfg.Store.View(func(tx *store.Tx) error {
		g, err := store.Record(tx, id, 0)
		rs = g.Get("ruleset")
		return err
	})
	return rs, err
}

// Draw draws the map of one drawing order (a mail.Attachment's Draw), as a send does.
func (o *Outbox) Draw(order string) ([]byte, error) { return o.drawer.draw(order) }
