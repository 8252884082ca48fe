package host

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"navarch/ident"
	"navarch/mail"
	"navarch/store"
	"navarch/test/racesplit"
)

// TestDueIndexFollowsEveryChange is a property check of the deadline pass's index:
// three games with different deadline policies go through a random sequence of what can
// happen to them (orders, NONE, PAUSE with and without hours, RESUME, EXTEND, PROCEED,
// ABSENT, time passing, deadline passes), and after each step
//   - the index equals what a full scan of the games computes (nextLook), and
//   - a game the index does not list as due would not be changed by tick (run in a
//     transaction rolled back): the pass misses nothing by reading only the due entries.
func TestDueIndexFollowsEveryChange(t *testing.T) {
	racesplit.Long(t) // on one goroutine (Handle on the test's): the detector finds nothing
	f, tags := threeGames(t)
	f.checkDueIndex("after the joins")
	seen := map[string]int{}
	f.randomSteps(tags, rand.New(rand.NewPCG(14, 5)), 400, seen, func(label string, passed bool) {
		if passed {
			f.checkDueIndex(label)
		} else {
			f.checkIdleUntilDue(label)
		}
	})
	// The sequence reached what the index must foresee.
	for _, want := range []string{"pass kind: reminder", "pass kind: late", "pass kind: nmr", "pass kind: announcement"} {
		if seen[want] == 0 {
			t.Errorf("no %q in the sequence: %v", want, seen)
		}
	}
	if !anyPrefix(seen, "pass: notice: The deadline for") {
		t.Errorf("the referee was never asked by a pass: %v", seen)
	}
}

// threeGames is the fixture's game and two more with other deadline policies (the
// referee's decision at a deadline, 24 hours' deadlines; 2 hours' deadlines), all joined;
// it returns their tags.
func threeGames(t *testing.T) (*fixture, []string) {
	t.Helper()
	f := newFixture(t)
	tags := []string{f.tag}
	for _, spec := range []GameSpec{
		{NoOrders: NoOrdersReferee, DeadlineHours: 24, ReminderHours: 6},
		{DeadlineHours: 2, ReminderHours: 1},
	} {
		spec.Ruleset, spec.Scenario, spec.Referees = "lepanto1571", "lions-at-sea", []string{"ref@example.net"}
		spec.Players = []PlayerSpec{{"alice", "christian", "alice@example.org", "Europe/Rome"}, {"bob", "ottoman", "bob@example.com", "UTC"}}
		tag, err := f.h.CreateGame(spec)
		if err != nil {
			t.Fatal(err)
		}
		tags = append(tags, tag)
	}
	for _, tag := range tags {
		f.tag = tag
		for _, p := range []string{"alice", "bob"} {
			f.send(map[string]string{"alice": "alice@example.org", "bob": "bob@example.com"}[p], "JOIN\nKEY "+f.playerKey(p))
		}
	}
	f.outbox()
	return f, tags
}

// randomSteps runs n random steps over the games of tags: orders, NONE, PAUSE with and
// without hours, RESUME, EXTEND, PROCEED, ABSENT, time passing, each followed by a deadline
// pass. It calls check before each pass (passed false) and after it, and counts in seen what
// was done and each mail's subject.
func (f *fixture) randomSteps(tags []string, rng *rand.Rand, n int, seen map[string]int, check func(label string, passed bool)) {
	f.t.Helper()
	for step := range n {
		f.tag = tags[rng.IntN(len(tags))]
		who := []string{"alice", "bob"}[rng.IntN(2)]
		addr := map[string]string{"alice": "alice@example.org", "bob": "bob@example.com"}[who]
		var what string
		switch rng.IntN(10) {
		case 0, 1:
			what = "time"
			f.now = f.now.Add(time.Duration(rng.IntN(30*60)) * time.Minute)
		case 2:
			what = "minutes"
			f.now = f.now.Add(time.Duration(rng.IntN(90)) * time.Minute)
		case 3:
			what = "NONE"
			f.send(addr, "NONE\nKEY "+f.playerKey(who))
		case 4:
			what = "PAUSE"
			f.ref(strings.TrimSpace(fmt.Sprintf("PAUSE %s", []string{"", "3", "30"}[rng.IntN(3)])))
		case 5:
			what = "RESUME"
			f.ref("RESUME")
		case 6:
			what = "EXTEND"
			f.ref(fmt.Sprintf("EXTEND %d", 1+rng.IntN(40)))
		case 7:
			what = "PROCEED"
			f.ref("PROCEED")
		case 8:
			what = "ABSENT"
			from := f.now.Add(time.Duration(rng.IntN(72)) * time.Hour)
			f.send(addr, fmt.Sprintf("ABSENT %s %s\nKEY %s", from.Format("2006-01-02"), from.Add(time.Duration(24+rng.IntN(72))*time.Hour).Format("2006-01-02"), f.playerKey(who)))
		case 9:
			what = "pass"
		}
		seen[what]++
		for _, m := range f.drain() {
			seen["mail: "+strings.SplitN(m.Subject, "] ", 2)[1]]++
		}
		label := fmt.Sprintf("step %d (%s, game %s)", step, what, f.tag)
		check(label, false)
		if err := f.h.Tick(); err != nil {
			f.t.Fatalf("%s: Tick: %v", label, err)
		}
		for _, m := range f.drain() {
			seen["pass: "+strings.SplitN(m.Subject, "] ", 2)[1]]++
			seen["pass kind: "+m.Kind]++
		}
		check(label, true)
	}
}

// drain returns the mails queued since the last call and takes them out of the outbox
// (f.outbox reads the whole outbox each time).
func (f *fixture) drain() []mail.Outgoing {
	f.t.Helper()
	out := f.outbox()
	f.s.Update(func(tx *store.Tx) error {
		for _, e := range store.Outbox(tx) {
			if err := store.OutboxDone(tx, e.Seq); err != nil {
				return err
			}
		}
		return nil
	})
	f.sent = 0
	return out
}

func anyPrefix(m map[string]int, prefix string) bool {
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

// playerKey is a player's order key in the fixture's current game (f.tag).
func (f *fixture) playerKey(player string) string {
	f.t.Helper()
	var key string
	f.s.View(func(tx *store.Tx) error {
		id, _, err := findGame(tx, f.tag)
		if err == nil {
			key, err = store.PlayerKey(tx, id, player)
		}
		if err != nil || key == "" {
			f.t.Fatalf("no key for %s: %v", player, err)
		}
		return nil
	})
	return key
}

// checkDueIndex fails unless the store's due index is what a scan of every game computes.
func (f *fixture) checkDueIndex(label string) {
	f.t.Helper()
	f.s.View(func(tx *store.Tx) error {
		index := store.DueIndex(tx)
		want := map[ident.GameID]time.Time{}
		for _, id := range store.Games(tx) {
			g, err := loadGame(tx, id)
			if err != nil {
				f.t.Fatal(err)
			}
			if at, ok := f.h.nextLook(g, f.now); ok {
				want[id] = at
			}
		}
		for id, at := range want {
			if got, ok := index[id]; !ok || !got.Equal(at) && !(at.Before(time.Unix(0, 0)) && got.Equal(time.Unix(0, 0))) {
				f.t.Errorf("%s: game %x is indexed at %v (%t), a scan says %v", label, id[:2], got, ok, at)
			}
		}
		for id := range index {
			if _, ok := want[id]; !ok {
				f.t.Errorf("%s: game %x is indexed, a scan says nothing is due", label, id[:2])
			}
		}
		return nil
	})
}

var errRollback = errors.New("rolled back")

// checkIdleUntilDue fails if tick would change a game that the due index says is not due
// yet (each tick run in a transaction that is rolled back).
func (f *fixture) checkIdleUntilDue(label string) {
	f.t.Helper()
	err := f.s.Update(func(tx *store.Tx) error {
		index := store.DueIndex(tx)
		for _, id := range store.Games(tx) {
			if at, ok := index[id]; ok && !at.After(f.now) {
				continue // due: the pass looks at it
			}
			before, _ := store.Settings(tx, id)
			queued := store.OutboxLen(tx)
			if err := f.h.tick(tx, id); err != nil {
				return err
			}
			after, _ := store.Settings(tx, id)
			if !bytes.Equal(before, after) || store.OutboxLen(tx) != queued {
				f.t.Errorf("%s: game %x is not due (index %v, now %v), but tick changed it", label, id[:2], index[id], f.now)
			}
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		f.t.Fatalf("%s: %v", label, err)
	}
}

// TestTickRebuildsAnIndexBuiltAnotherWay: an index the host did not stamp (an upgraded
// file, whose games are all due at once, or one built with other reminder hours) is
// rebuilt by the next pass before it is read, so that a game left with a late moment is
// not missed; the pass then sends what is due and nothing else.
func TestTickRebuildsAnIndexBuiltAnotherWay(t *testing.T) {
	f, _ := started(t)
	id := f.gameID()
	d := f.deadline()
	tcheck := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	tcheck(f.h.Tick())
	f.checkDueIndex("first pass")
	// A stale, late entry, as an index of another way would hold.
	tcheck(f.s.Update(func(tx *store.Tx) error {
		if err := store.PutDue(tx, id, d.Add(1000*time.Hour), true); err != nil {
			return err
		}
		return store.PutDueStamp(tx, "")
	}))
	f.now = d.Add(-time.Hour) // in the reminder window
	tcheck(f.h.Tick())
	if m := f.outbox(); len(m) != 2 || find(m, "alice@example.org", "reminder") == nil {
		t.Errorf("the pass after the rebuild sent %v, want the two reminders", subjects(m))
	}
	f.checkDueIndex("after the rebuild")
	// Other reminder hours: the index is rebuilt with them.
	f.h.cfg.ReminderHours = 2
	tcheck(f.s.Update(func(tx *store.Tx) error { return store.PutDue(tx, id, d.Add(1000*time.Hour), true) }))
	tcheck(f.h.Tick())
	f.checkDueIndex("other reminder hours")
	var stamp string
	f.s.View(func(tx *store.Tx) error { stamp = store.DueStamp(tx); return nil })
	if stamp != f.h.dueStamp() || !strings.Contains(stamp, "reminder=2h") {
		t.Errorf("stamp %q after the rebuild", stamp)
	}
}

// TestOnlyGameByIndexAfterReplace: the players index (which onlyGame reads instead of every
// game) follows a REPLACE: the new player's mail naming no game is taken for his game, and
// the replaced address no longer plays it.
func TestOnlyGameByIndexAfterReplace(t *testing.T) {
	f, _ := started(t)
	f.ref("REPLACE bob carol@example.net")
	var key string
	for _, m := range f.outbox() {
		if k := keyRE.FindStringSubmatch(m.Text); k != nil && m.To[0] == "carol@example.net" {
			key = k[1]
		}
	}
	if key == "" {
		t.Fatal("carol got no key")
	}
	f.s.View(func(tx *store.Tx) error {
		if got := store.PlayerGames(tx, "carol@example.net"); len(got) != 1 || got[0] != f.gameID() {
			t.Errorf("carol's games in the index: %x", got)
		}
		return nil
	})
	for i, from := range []string{"carol@example.net", "bob@example.com"} {
		raw := fmt.Sprintf("From: %s\r\nTo: navarch@host.example\r\nSubject: my orders\r\nMessage-ID: <replaced%d@example.org>\r\n\r\nSTATUS\r\nKEY %s\r\n", from, i, key)
		if err := f.h.Handle([]byte(raw)); err != nil {
			t.Fatal(err)
		}
		m := find(f.outbox(), from, "")
		if taken := m != nil && strings.Contains(m.Text, "The game waits for:"); taken != (from == "carol@example.net") {
			t.Errorf("%s's mail naming no game: taken for the game %t: %+v", from, taken, m)
		}
	}
}
