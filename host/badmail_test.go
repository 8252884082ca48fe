package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"navarch/store"
)

// The bad-mail corpus (mail/testdata) through the host. A corpus
// mail may hold {{NAME}} fields, filled in from vars.
func (f *fixture) corpus(name string, vars map[string]string) {
	f.t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "mail", "testdata", name))
	if err != nil {
		f.t.Fatal(err)
	}
	s := string(raw)
	for k, v := range vars {
		s = strings.ReplaceAll(s, "{{"+k+"}}", v)
	}
	if err := f.h.Handle([]byte(s)); err != nil {
		f.t.Fatalf("Handle %s: %v", name, err)
	}
}

// afterSetUp plays the set-up (both sides NONE) and returns who is asked for orders now and
// who is not, with a unit of each.
func afterSetUp(t *testing.T) (f *fixture, keys map[string]string, asked, other, askedUnit, otherUnit string) {
	t.Helper()
	f, keys = started(t)
	alice, bob := "alice@example.org", "bob@example.com"
	f.send(alice, "KEY "+keys[alice]+"\nNONE")
	f.send(bob, "KEY "+keys[bob]+"\nNONE")
	if find(f.outbox(), alice, "your move") != nil {
		return f, keys, alice, bob, "BAR-VEN1", "SIR-EGY1"
	}
	return f, keys, bob, alice, "SIR-EGY1", "BAR-VEN1"
}

// 12.4: a mail from navarch's own address (here with a reply token) is never answered, even
// with a foreign Message-ID and no Auto-Submitted header.
func TestOwnAddressNeverAnswered(t *testing.T) {
	f := duelFixture(t)
	f.outbox()
	f.corpus("own-address.eml", nil)
	if n := len(f.outbox()); n != 0 {
		t.Errorf("a mail from our own address was answered %d times", n)
	}
}

// 12.5: a stranger is answered with fixed text that echoes nothing of the mail, at most once
// a day; a player who names no game is still told what was wrong.
func TestStrangerAnsweredOnceADayWithFixedText(t *testing.T) {
	f := duelFixture(t)
	f.outbox()
	f.corpus("stranger-echo.eml", nil)
	ms := f.outbox()
	if len(ms) != 1 || ms[0].To[0] != "eve@example.net" {
		t.Fatalf("the stranger was answered %d times: %v", len(ms), subjects(ms))
	}
	m := ms[0]
	for _, echo := range []string{"cheap", "pills", "spam-1"} {
		if strings.Contains(m.Text+m.HTML+m.Subject+m.MessageID+m.InReplyTo+strings.Join(m.References, " "), echo) {
			t.Errorf("the answer echoes %q:\n%s", echo, m.Text)
		}
	}
	if !strings.Contains(flat(m.Text), "names no game you play here") {
		t.Errorf("the answer is not the fixed text:\n%s", m.Text)
	}
	for i := range 3 {
		raw := fmt.Sprintf("From: eve@example.net\r\nSubject: x\r\nMessage-ID: <again-%d@example.net>\r\n\r\nGAME other-%d\r\n", i, i)
		if err := f.h.Handle([]byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(f.outbox()); n != 0 {
		t.Errorf("the stranger was answered %d more times the same day", n)
	}
	if notes, counts := f.dropped(); len(notes) != 3 || notes[0].From != "eve@example.net" || counts[DropStranger] != 3 {
		t.Errorf("the stranger's mails not answered were not noted: %+v, %v", notes, counts)
	}
	f.now = f.now.Add(24 * time.Hour)
	f.send("eve@example.net", "GAME lep-0000\nNONE")
	if n := len(f.outbox()); n != 1 {
		t.Errorf("the stranger was answered %d times the next day, want 1", n)
	}
	raw := "From: alice@example.org\r\nSubject: orders\r\nMessage-ID: <no-tag@example.org>\r\n\r\nNONE\r\n"
	for range 2 {
		if err := f.h.Handle([]byte(strings.Replace(raw, "no-tag", fmt.Sprint("no-tag-", f.n), 1))); err != nil {
			t.Fatal(err)
		}
		f.n++
	}
	ms = f.outbox()
	// alice plays one game: her mail is answered about it, here that it lacks her key.
	if len(ms) != 2 || !strings.Contains(ms[0].Subject, f.tag) || !strings.Contains(flat(ms[0].Text), "it needs your key") {
		t.Errorf("a player naming no game was not told what was wrong each time: %d mails %v", len(ms), subjects(ms))
	}
}

// 12.6: when a player's mail carries the opponent's key, the opponent is warned (as when a
// stranger uses it), and the mail is not applied.
func TestOpponentUsingYourKeyIsReported(t *testing.T) {
	f, keys := started(t)
	f.corpus("opponent-key.eml", map[string]string{"FROM": "bob@example.com", "TAG": f.tag, "KEY": keys["alice@example.org"]})
	ms := f.outbox()
	if m := find(ms, "alice@example.org", "notice"); m == nil || !strings.Contains(flat(m.Text), "bob@example.com (bob, playing ottoman) used your key") {
		t.Errorf("alice was not warned: %v", subjects(ms))
	}
	if m := find(ms, "bob@example.com", "notice"); m == nil || !strings.Contains(flat(m.Text), "is not your key") {
		t.Errorf("bob was not refused: %v", subjects(ms))
	}
}

// 12.7: advance orders naming a unit of the other side or a unit that does not exist are
// refused by line; nothing is held.
func TestAdvanceOrdersForOthersUnitsRefused(t *testing.T) {
	f, keys, _, other, askedUnit, otherUnit := afterSetUp(t)
	f.corpus("advance-not-mine.eml", map[string]string{"FROM": other, "TAG": f.tag, "KEY": keys[other], "MINE": otherUnit, "THEIRS": askedUnit})
	m := find(f.outbox(), other, "refused")
	if m == nil {
		t.Fatal("advance orders for units not the player's were held")
	}
	text := flat(m.Text)
	for _, want := range []string{askedUnit + " PASS", "NOPE-NOPE9 PASS", "held only for units of your side"} {
		if !strings.Contains(text, want) {
			t.Errorf("the refusal does not name %q:\n%s", want, m.Text)
		}
	}
	if strings.Contains(text, "line 2:") || strings.Contains(text, "Line 2") {
		t.Errorf("the player's own unit's line was refused:\n%s", m.Text)
	}
	f.s.View(func(tx *store.Tx) error {
		g, _ := loadGame(tx, store.Games(tx)[0])
		if len(g.Held) != 0 {
			t.Errorf("held: %+v", g.Held)
		}
		return nil
	})
}

// 12.8: orders for a step already resolved (a reply to its request, a GAME line naming it,
// a Date before the side's last step was resolved) are refused as stale, saying what is
// open now; they are not held.
func TestStaleOrdersRefused(t *testing.T) {
	for _, c := range []struct{ name, file string }{{"reply", "stale-reply.eml"}, {"game line", "stale-game-line.eml"}, {"old date", ""}} {
		t.Run(c.name, func(t *testing.T) {
			f, keys, _, other, _, otherUnit := afterSetUp(t)
			var st *step
			f.s.View(func(tx *store.Tx) error {
				g, _ := loadGame(tx, store.Games(tx)[0])
				st = g.Step
				return nil
			})
			if c.file == "" {
				f.now = f.now.Add(time.Hour)
				f.sendDated(other, f.now.Add(-2*time.Hour), "KEY "+keys[other]+"\n"+otherUnit+" PASS")
			} else {
				f.corpus(c.file, map[string]string{"FROM": other, "TAG": f.tag, "KEY": keys[other], "MINE": otherUnit,
					"STEP": fmt.Sprintf("T%d A%d", st.Turn, st.Act-1)})
			}
			m := find(f.outbox(), other, "notice")
			if m == nil || !strings.Contains(flat(m.Text), "stale") || !strings.Contains(flat(m.Text), fmt.Sprintf("Open now: T%d A%d", st.Turn, st.Act)) {
				t.Fatalf("stale orders were not refused as stale: %+v", m)
			}
			f.s.View(func(tx *store.Tx) error {
				g, _ := loadGame(tx, store.Games(tx)[0])
				if len(g.Held) != 0 {
					t.Errorf("held: %+v", g.Held)
				}
				return nil
			})
		})
	}
}

// 12.9: control characters of a mail are shown visibly in the answer, which says so.
func TestControlCharactersShownVisibly(t *testing.T) {
	f, keys := started(t)
	f.corpus("control-chars.eml", map[string]string{"TAG": f.tag, "KEY": keys["alice@example.org"], "FROM": "alice@example.org"})
	m := find(f.outbox(), "alice@example.org", "refused")
	if m == nil {
		t.Fatal("the bad line was not answered")
	}
	for _, part := range []string{m.Text, m.HTML} {
		if strings.ContainsAny(part, "\x00\x1b\u202e") {
			t.Errorf("control characters echoed:\n%q", part)
		}
	}
	if !strings.Contains(m.Text, `MO\x00VE \x1b[31m0610\u202e`) || !strings.Contains(m.Text, `shown as \x00`) {
		t.Errorf("the line is not shown visibly, or the answer does not say so:\n%s", m.Text)
	}
}
