package host

import (
	"bytes"
	"context"
	"image/png"
	"strconv"
	"strings"
	"sync"
	"testing"

	"navarch/ident"
	"navarch/mail"
	"navarch/render"
	"navarch/render/lepantomap"
	"navarch/store"
)

// capture is a Sender that keeps what it sends.
type capture struct{ sent []mail.Outgoing }

func (c *capture) Send(_ context.Context, o mail.Outgoing) error {
	c.sent = append(c.sent, o)
	return nil
}

// Issue 14: the transaction that resolves a step queues its reports with drawing orders, not
// pictures; the outbox draws each map when it sends the mail, from the game as it was when
// the mail was queued, even when the game has moved on since (as after a crash between the
// commit and the drawing, when the restarted daemon handles more mail before it sends).
func TestMapsDrawnAfterCommitFromTheQueuedState(t *testing.T) {
	f, keys, asked, _, _, _ := afterSetUp(t)
	f.s.View(func(tx *store.Tx) error {
		for e, ok := store.OutboxNext(tx, 0); ok; e, ok = store.OutboxNext(tx, e.Seq) {
			o, _ := mail.UnmarshalOutgoing(e.Mail)
			for _, a := range o.Attachments {
				if a.ContentType == "image/png" && (a.Data != nil || a.Draw == "") {
					t.Errorf("%s: a map drawn inside the transaction (%d bytes, order %q)", o.Subject, len(a.Data), a.Draw)
				}
			}
		}
		return nil
	})
	// The map the reports must show: the game as it stands now, drawn the old way.
	var want map[string][]byte
	f.s.View(func(tx *store.Tx) error {
		id, g, _ := findGame(tx, f.tag)
		eng, err := h(f).engine(tx, id)
		if err != nil {
			t.Fatal(err)
		}
		want = map[string][]byte{}
		for _, side := range []string{"christian", "ottoman", ""} {
			if want[side], err = render.Game(lepantomap.Map, eng, g.Tag, side, false); err != nil {
				t.Fatal(err)
			}
		}
		return nil
	})
	// The game moves on before anything is sent.
	f.send(asked, "KEY "+keys[asked]+"\nNONE")
	c := &capture{}
	if err := f.h.Flush(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	reports := 0
	for _, o := range c.sent {
		if !mailIs(o, "report") {
			continue
		}
		reports++
		if len(o.Attachments) != 1 || o.Attachments[0].Draw != "" {
			t.Fatalf("%s to %v: attachments %+v", o.Subject, o.To, o.Attachments)
		}
		data := o.Attachments[0].Data
		if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			t.Fatalf("%s to %v: the map does not decode: %v", o.Subject, o.To, err)
		}
		if reports <= 3 && !bytesIn(data, want) {
			t.Errorf("%s to %v: the map is not the game as it was when the mail was queued", o.Subject, o.To)
		}
	}
	if reports < 4 {
		t.Errorf("%d reports sent, want those of two steps", reports)
	}
}

func h(f *fixture) *Host { return f.h }

func bytesIn(b []byte, m map[string][]byte) bool {
	for _, v := range m {
		if bytes.Equal(b, v) {
			return true
		}
	}
	return false
}

// Issue 14: the outbox draws a map from the engine the host keeps in memory when that is the
// state the map shows, instead of replaying the log, and gives the engine back to the cache
// for the next mail; the maps are those a replay gives, byte for byte.
func TestMapsDrawnFromTheKeptEngine(t *testing.T) {
	f, keys, asked, other, _, _ := afterSetUp(t)
	if err := f.h.Flush(context.Background(), &capture{}); err != nil { // the set-up's mails
		t.Fatal(err)
	}
	f.send(asked, "KEY "+keys[asked]+"\nNONE")
	var id ident.GameID
	var orders []string
	f.s.View(func(tx *store.Tx) error {
		id, _, _ = findGame(tx, f.tag)
		for e, ok := store.OutboxNext(tx, 0); ok; e, ok = store.OutboxNext(tx, e.Seq) {
			o, _ := mail.UnmarshalOutgoing(e.Mail)
			for _, a := range o.Attachments {
				if a.Draw != "" {
					orders = append(orders, a.Draw)
				}
			}
		}
		return nil
	})
	e := f.h.engines
	counts := func() (replays, hits int, kept bool) {
		e.mu.Lock()
		defer e.mu.Unlock()
		return e.drawReplays, e.hits, e.games[id] != nil
	}
	replays, hits, kept := counts()
	if !kept {
		t.Fatal("no engine kept after the step")
	}
	c := &capture{}
	if err := f.h.Flush(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	var maps [][]byte
	for _, o := range c.sent {
		for _, a := range o.Attachments {
			if a.ContentType == "image/png" {
				maps = append(maps, a.Data)
			}
		}
	}
	if len(maps) != len(orders) || len(maps) < 3 { // both sides and the referee
		t.Fatalf("%d maps sent for %d drawing orders", len(maps), len(orders))
	}
	if r, _, kept := counts(); r != replays || !kept {
		t.Errorf("%d maps drawn with %d replays; the engine kept after: %v", len(maps), r-replays, kept)
	}
	// The same drawing orders drawn from replayed engines: the same bytes.
	d, err := f.h.newOutbox(&capture{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	saved := e.lend(id)
	for i, spec := range orders {
		data, err := d.Draw(spec)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, maps[i]) {
			t.Errorf("map %s: drawn from the kept engine, it differs from the replayed one", spec)
		}
	}
	if r, _, _ := counts(); r == replays {
		t.Fatal("the drawings without the kept engine did not replay: nothing was compared")
	}
	e.giveBack(id, saved)
	// The engine given back serves the next mail.
	f.send(other, "KEY "+keys[other]+"\nHELP")
	if _, h, _ := counts(); h != hits+1 {
		t.Errorf("the next mail did not use the kept engine (%d uses, want %d)", h, hits+1)
	}
}

// The outbox draws from the engines the host keeps while mail is handled: a drawing has its
// engine to itself (run with -race), every mail is sent once, and every map decodes.
func TestDrawingWhileMailIsHandled(t *testing.T) {
	f, keys, _, _, _, _ := afterSetUp(t)
	if err := f.h.Flush(context.Background(), &capture{}); err != nil { // the set-up's mails
		t.Fatal(err)
	}
	seq := func() (n int) {
		f.s.View(func(tx *store.Tx) error { _, g, _ := findGame(tx, f.tag); n = g.Seq; return nil })
		return n
	}
	first := seq() + 1
	var mu sync.Mutex
	c := &capture{}
	locked := senderFunc(func(ctx context.Context, o mail.Outgoing) error {
		mu.Lock()
		defer mu.Unlock()
		return c.Send(ctx, o)
	})
	stop := make(chan struct{})
	done := make(chan error)
	go func() {
		for {
			err := f.h.Flush(context.Background(), locked)
			select {
			case <-stop:
				done <- err
				return
			default:
			}
		}
	}()
	for range 6 {
		var asked string
		f.s.View(func(tx *store.Tx) error {
			_, g, _ := findGame(tx, f.tag)
			asked = g.sidePlayers(g.Step.Sides[0])[0].Address
			return nil
		})
		f.send(asked, "KEY "+keys[asked]+"\nNONE")
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := f.h.Flush(context.Background(), locked); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{} // by the mail's number in the game (own.go: <seq>.<tag>...)
	for _, o := range c.sent {
		ids[strings.SplitN(o.MessageID, ".", 2)[0]] = true
		for _, a := range o.Attachments {
			if a.ContentType != "image/png" {
				continue
			}
			if _, err := png.Decode(bytes.NewReader(a.Data)); err != nil {
				t.Errorf("%s: the map does not decode: %v", o.Subject, err)
			}
		}
	}
	last := seq()
	for n := first; n <= last; n++ {
		if !ids[strconv.Itoa(n)] {
			t.Errorf("mail %d of the game was not sent", n)
		}
	}
	if len(c.sent) != last-first+1 || len(ids) != len(c.sent) || last-first < 12 {
		t.Errorf("%d mails sent (%d distinct), %d queued", len(c.sent), len(ids), last-first+1)
	}
}

type senderFunc func(context.Context, mail.Outgoing) error

func (s senderFunc) Send(ctx context.Context, o mail.Outgoing) error { return s(ctx, o) }
