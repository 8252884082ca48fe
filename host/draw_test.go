package host

import (
	"bytes"
	"context"
	"image/png"
	"strings"
	"testing"

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
		if !strings.Contains(o.Subject, "report") {
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
