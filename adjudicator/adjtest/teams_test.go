package adjtest_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/adjtest"
	"navarch/dice"
)

// pair is a game of two sides of two ships each, "red-a" and "red-b": every turn each ship
// ordered GO scores a point. Its flaws make a weaker Teams implementation.
type pair struct {
	score map[string]int
	turn  int
	flaw  string // "", "error-partial", "acting", "units"
}

type goOrder struct {
	line int
	unit string
}

func (o goOrder) Line() int      { return o.line }
func (o goOrder) String() string { return o.unit + " GO" }

var pairSides = []string{"red", "blue"}

func (g *pair) Next() adjudicator.Step {
	if g.turn >= 5 {
		return adjudicator.Step{Kind: adjudicator.Over}
	}
	return adjudicator.Step{Turn: uint32(g.turn + 1), Act: 1, Kind: adjudicator.NeedOrders, Sides: pairSides}
}

func (g *pair) Parse(side, text string) ([]adjudicator.Order, []adjudicator.LineError) {
	return adjudicator.ParseLines(text, []string{"UNIT GO"}, func(l adjudicator.Line) (adjudicator.Order, error) {
		if len(l.Words) != 2 || l.Words[1] != "GO" {
			return nil, fmt.Errorf("want UNIT GO")
		}
		return goOrder{l.N, strings.ToLower(l.Words[0])}, nil
	})
}

func (g *pair) Validate(side string, orders []adjudicator.Order) []adjudicator.LineError {
	var errs []adjudicator.LineError
	for _, o := range orders {
		if !strings.HasPrefix(o.(goOrder).unit, side+"-") {
			errs = append(errs, adjudicator.LineError{Line: o.Line(), Text: o.String(), Err: adjudicator.ErrIllegal})
		}
	}
	return errs
}

func (g *pair) Resolve(orders map[string][]adjudicator.Order, r dice.Roller) ([]adjudicator.Event, error) {
	var events []adjudicator.Event
	for _, side := range pairSides {
		if len(orders[side]) == 1 && g.flaw == "error-partial" {
			return nil, fmt.Errorf("%s: orders for one ship", side)
		}
		for _, o := range orders[side] {
			g.score[o.(goOrder).unit]++
			events = append(events, adjudicator.Event{Text: o.String()})
		}
	}
	g.turn++
	return events, nil
}

func (g *pair) Encode() []byte               { return fmt.Appendf(nil, "%d %v", g.turn, g.score) }
func (g *pair) Help(string) string           { return "" }
func (g *pair) BotOrders(side string) string { return side + "-a GO\n" + side + "-b GO" }

func (g *pair) Commands(side string) []adjudicator.Command {
	return []adjudicator.Command{{ID: "A", Units: []string{side + "-a"}}, {ID: "B", Units: []string{side + "-b"}}}
}

func (g *pair) Acting(side string) []string {
	if g.flaw == "acting" {
		return []string{side + "-a"}
	}
	return []string{side + "-a", side + "-b"}
}

func (g *pair) Chooses(string) bool { return false }

func (g *pair) OrderUnits(side string, o adjudicator.Order) []string {
	if g.flaw == "units" {
		return nil
	}
	return []string{o.(goOrder).unit}
}

// TestTeamPlayCatches: TeamPlay and LatePlay pass a game whose Teams keeps its promise and
// fail one whose Resolve errs on a part of a side's orders, asks too few units or gives an
// order to none. (A Resolve that quietly ignores a part is for the rule cases to catch: the
// harness cannot know the rules' default.)
func TestTeamPlayCatches(t *testing.T) {
	for _, c := range []struct{ flaw, team, late string }{
		{"", "", ""},
		{"error-partial", "", "resolve"},
		{"acting", "not among the units asked", "not among the units asked"},
		{"units", "gives orders to no unit", "gives orders to no unit"},
	} {
		newGame := func() adjudicator.Game { return &pair{score: map[string]int{}, flaw: c.flaw} }
		for _, run := range []struct {
			want string
			fn   func(tb testing.TB)
		}{
			{c.team, func(tb testing.TB) { adjtest.TeamPlay(tb, newGame, 2, 10, "pair", adjtest.LastPlayerFirst) }},
			{c.late, func(tb testing.TB) { adjtest.LatePlay(tb, newGame, 2, 1, 10, "pair", adjtest.LastPlayerFirst) }},
		} {
			got := failures(t, run.fn)
			if run.want == "" && got != "" || !strings.Contains(got, run.want) {
				t.Errorf("flaw %q: reported %q, want %q", c.flaw, got, run.want)
			}
		}
	}
	g := &pair{score: map[string]int{}}
	if owner := adjtest.Split(g, "red", 2); owner["red-a"] != 1 || owner["red-b"] != 0 {
		t.Errorf("Split: %v, want the commander (player 0) to take the last command", owner)
	}
	if !slices.Equal(g.Acting("red"), []string{"red-a", "red-b"}) {
		t.Error("pair's Acting")
	}
}
