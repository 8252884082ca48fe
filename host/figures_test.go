package host

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"navarch/store"
	"navarch/test/racesplit"
)

// game list shows state, whose move, the deadline and who is late; Figures
// counts the same for the metrics.
func TestListAndFigures(t *testing.T) {
	f := newFixture(t)
	list := func() string {
		t.Helper()
		lines, err := f.h.List()
		if err != nil || len(lines) != 1 {
			t.Fatalf("List: %q, %v", lines, err)
		}
		return lines[0]
	}
	if l := list(); !strings.HasPrefix(l, fmt.Sprintf("%-10s lepanto1571 lions-at-sea joining", f.tag)) || strings.Contains(l, "to move") {
		t.Errorf("a game waiting for its players: %q", l)
	}
	welcome := f.outbox()
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keyRE.FindStringSubmatch(find(welcome, who, "welcome").Text)[1])
	}
	queued := len(f.outbox())
	fig, err := f.h.Figures()
	if err != nil {
		t.Fatal(err)
	}
	if fig.Games["playing"] != 1 || fig.Deadlines != 1 || fig.Overdue != 0 || fig.OutboxDepth != queued+len(welcome) || len(fig.OutboxSeqs) != fig.OutboxDepth {
		t.Errorf("figures of a game in play: %+v, want 1 playing with its deadline and %d queued", fig, queued+len(welcome))
	}
	l := list()
	if !strings.Contains(l, " playing; T1 A0; to move: ") || !strings.Contains(l, "christian (alice)") || !strings.Contains(l, "ottoman (bob)") ||
		!strings.Contains(l, "; deadline 2026-12-04 09:00 UTC") || strings.Contains(l, "late") {
		t.Errorf("a game in play: %q", l)
	}
	f.now = f.now.Add(80 * time.Hour) // past the deadline, before the deadline loop acts
	if l := list(); !strings.Contains(l, "; late: christian (alice), ottoman (bob)") {
		t.Errorf("a game past its deadline: %q", l)
	}
	if fig, _ := f.h.Figures(); fig.Overdue != 1 {
		t.Errorf("figures past the deadline: %+v, want 1 overdue", fig)
	}
	f.ref("PAUSE")
	if l := list(); !strings.Contains(l, " paused") || strings.Contains(l, "late") {
		t.Errorf("a paused game: %q", l)
	}
	if fig, _ := f.h.Figures(); fig.Games["paused"] != 1 || fig.Deadlines != 0 {
		t.Errorf("figures of a paused game: %+v, want 1 paused, no deadline running", fig)
	}
}

// TestGameCountsFollowEveryChange is a property check of the game counts (which Figures reads
// instead of every game's settings): over a game left joining and three games going through
// the random sequence of TestDueIndexFollowsEveryChange, then one ended by a resignation,
// before and after each deadline pass, Figures counts what a scan of every game counts,
// overdue games included. Counts the host did not stamp (a file written before them) are
// made again by the next Figures, a game whose settings cannot be read counted as unreadable.
func TestGameCountsFollowEveryChange(t *testing.T) {
	racesplit.Long(t) // on one goroutine (Handle on the test's): the detector finds nothing
	f, tags := threeGames(t)
	if _, err := f.h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea",
		Players: []PlayerSpec{{"carol", "christian", "carol@example.org", "UTC"}, {"dave", "ottoman", "dave@example.com", "UTC"}}}); err != nil {
		t.Fatal(err)
	}
	f.outbox()
	seen := map[string]int{}
	check := func(label string, _ bool) {
		t.Helper()
		fig := f.checkFigures(label)
		for state, n := range fig.Games {
			seen[state] += n
		}
		seen["overdue"] += fig.Overdue
	}
	check("after the joins", false)
	rng := rand.New(rand.NewPCG(16, 3))
	f.randomSteps(tags, rng, 150, map[string]int{}, check)
	f.tag = tags[0]
	f.send("bob@example.com", "RESIGN CONFIRM\nKEY "+f.playerKey("bob"))
	check("after a resignation", false)
	f.randomSteps(tags, rng, 150, map[string]int{}, check)
	for _, state := range []string{"joining", "playing", "paused", "waiting", "over", "overdue"} {
		if seen[state] == 0 {
			t.Errorf("the sequence never counted %s: %v", state, seen)
		}
	}
	// A file written before the counts: no stamp, a wrong count; one game unreadable.
	if err := f.s.Update(func(tx *store.Tx) error {
		id, _, err := findGame(tx, tags[1])
		if err != nil {
			return err
		}
		if err := store.PutSettings(tx, id, tags[1], []byte("{not json")); err != nil {
			return err
		}
		if err := store.PutGameFigure(tx, store.Games(tx)[0], store.GameFigure{State: "playing", Clock: true}); err != nil {
			return err
		}
		return store.PutFiguresStamp(tx, "")
	}); err != nil {
		t.Fatal(err)
	}
	if fig := f.checkFigures("counted again"); fig.Games["unreadable"] != 1 {
		t.Errorf("after counting again: %+v, want one unreadable game", fig)
	}
}

// checkFigures fails unless Figures counts what a scan of every game counts (the scan the
// counts replaced); it returns the figures.
func (f *fixture) checkFigures(label string) Figures {
	f.t.Helper()
	fig, err := f.h.Figures()
	if err != nil {
		f.t.Fatalf("%s: Figures: %v", label, err)
	}
	want := Figures{Games: map[string]int{}}
	f.s.View(func(tx *store.Tx) error {
		for _, id := range store.Games(tx) {
			g, err := loadGame(tx, id)
			if err != nil || g == nil {
				want.Games["unreadable"]++
				continue
			}
			state := gameState(g)
			want.Games[state]++
			if state == "playing" && g.Step != nil {
				want.Deadlines++
				if f.now.After(g.Step.Deadline) {
					want.Overdue++
				}
			}
		}
		return nil
	})
	if !maps.Equal(fig.Games, want.Games) || fig.Deadlines != want.Deadlines || fig.Overdue != want.Overdue {
		f.t.Errorf("%s: Figures counts %v, %d deadlines, %d overdue; a scan %v, %d, %d", label,
			fig.Games, fig.Deadlines, fig.Overdue, want.Games, want.Deadlines, want.Overdue)
	}
	return fig
}
