package host

import (
	"strings"
	"testing"

	"navarch/store"
	"navarch/test/racesplit"
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
			got[m.To[0]] = append(got[m.To[0]], m.Subject)
		}
		if f.turn() > mailTurns {
			return got
		}
		answered := false
		for _, m := range mails {
			if strings.Contains(m.Subject, "Your move") {
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

// perTurn is the mails per player per game turn (the referee's left out).
func perTurn(got map[string][]string) float64 {
	n, players := 0, 0
	for who, s := range got {
		if who != "ref@example.net" {
			n += len(s)
			players++
		}
	}
	return float64(n) / float64(players) / mailTurns
}

// TestMailsPerTurn: a game of Lepanto played through the host, two game turns, every step
// answered by NONE. With REPORTS EACH a player gets every step's report (the report and the
// next request in one mail); by default (moment.go) he gets his requests, the answers to his
// own mails (the receipt, which leads the report of the step his orders completed) and at
// most one more mail a game turn (its summary), and the referee one digest a game turn. The
// figures are in docs/BENCHMARKS.md.
func TestMailsPerTurn(t *testing.T) {
	racesplit.Long(t) // on one goroutine (Handle on the test's): the detector finds nothing
	e, ekeys := startedAs(t, true)
	each := perTurn(playTurns(t, e, ekeys))
	t.Logf("with REPORTS EACH: %.1f mails per player per game turn", each)

	d, dkeys := startedAs(t, false)
	got := playTurns(t, d, dkeys)
	digest := perTurn(got)
	t.Logf("by default: %.1f", digest)
	for who, subjects := range got {
		more := 0
		for _, s := range subjects {
			_, s, _ = strings.Cut(s, "] ")
			if !strings.HasPrefix(s, subjectYourMove) && !strings.HasPrefix(s, subjectAccepted) && !strings.HasPrefix(s, subjectResolved) {
				more++
			}
			if n := len([]rune(s)) + len("[navarch lep-0000] "); n > subjectMax {
				t.Errorf("%s got a subject of %d characters: %q", who, n, s)
			}
		}
		t.Logf("%s: %d mails, %d of them neither requests nor answers: %q", who, len(subjects), more, subjects)
		if more > mailTurns {
			t.Errorf("%s got %d mails besides his requests and answers in %d game turns: %q", who, more, mailTurns, subjects)
		}
	}
	if ref := got["ref@example.net"]; len(ref) != mailTurns || !strings.Contains(ref[0], "Game turn 1 begins") {
		t.Errorf("the referee got %q: want one digest a game turn, the first from the turn's beginning", ref)
	}
	if digest >= each || each > 17 {
		t.Errorf("%.1f mails per player per game turn by default, %.1f with REPORTS EACH: want fewer by default, and at most 17 with each", digest, each)
	}
}
