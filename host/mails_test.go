package host

import (
	"strings"
	"testing"

	"navarch/store"
)

// mailTurns is how many game turns TestMailsPerTurn plays.
const mailTurns = 2

// playTurns plays the game by NONE orders from the set-up until game turn mailTurns is over,
// and returns the mails each player got on the way.
func playTurns(t *testing.T, f *fixture, keys map[string]string) map[string][]string {
	t.Helper()
	got := map[string][]string{}
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "NONE\nKEY "+keys[who]) // the set-up
	}
	for i := 0; i < 400; i++ {
		mails := f.outbox()
		for _, m := range mails {
			if m.To[0] != "ref@example.net" {
				got[m.To[0]] = append(got[m.To[0]], m.Subject)
			}
		}
		if f.turn() > mailTurns {
			return got
		}
		answered := false
		for _, m := range mails {
			if strings.Contains(m.Subject, "orders due") {
				f.send(m.To[0], "NONE\nKEY "+keys[m.To[0]])
				answered = true
			}
		}
		if !answered {
			t.Fatalf("the game waits, and no one was asked: %v", subjects(mails))
		}
	}
	t.Fatal("the game did not get through its turns")
	return nil
}

// turn is the game turn of the step the game waits for, mailTurns+1 once it is over.
func (f *fixture) turn() uint32 {
	f.t.Helper()
	var n uint32 = mailTurns + 1
	f.s.View(func(tx *store.Tx) error {
		g, err := loadGame(tx, store.Games(tx)[0])
		if err == nil && g.Step != nil {
			n = g.Step.Turn
		}
		return err
	})
	return n
}

// perTurn is the mails per player per game turn.
func perTurn(got map[string][]string) float64 {
	n := 0
	for _, s := range got {
		n += len(s)
	}
	return float64(n) / float64(len(got)) / mailTurns
}

// TestMailsPerTurn: a game of Lepanto played through the host, two game turns,
// every step answered by NONE: a report and the next request go as one mail, so each player
// gets fewer mails per game turn; with DIGEST ON, fewer still (one per step that needs him).
// The figures are in docs/BENCHMARKS.md.
func TestMailsPerTurn(t *testing.T) {
	f, keys := started(t)
	plain := perTurn(playTurns(t, f, keys))
	t.Logf("mails per player per game turn: %.1f", plain)

	d, dkeys := started(t)
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		d.send(who, "DIGEST ON\nKEY "+dkeys[who])
		if m := find(d.outbox(), who, "notice"); m == nil || !strings.Contains(m.Text, "Digest on") {
			t.Fatalf("DIGEST ON was not acknowledged")
		}
	}
	got := playTurns(t, d, dkeys)
	digest := perTurn(got)
	t.Logf("with DIGEST ON: %.1f", digest)
	for who, subjects := range got {
		for _, s := range subjects {
			if !strings.Contains(s, "your move") && !strings.Contains(s, "orders accepted") {
				t.Errorf("%s got %q with a digest: only requests and receipts are due", who, s)
			}
		}
	}
	if plain > 17 || digest >= plain { // 23.2 before reports carried the next request
		t.Errorf("%.1f mails per player per game turn, %.1f with a digest: want at most 17, and fewer with a digest", plain, digest)
	}
}
