package medieval

import (
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/table"
	"navarch/dice"
)

// lowDice rolls every die as 2 (1 on a one-sided die): no hits, no 0s.
type lowDice struct{}

func (lowDice) Roll(label string, sides, count int) (*dice.Roll, error) {
	v := make([]int, count)
	for i := range v {
		v[i] = min(2, sides)
	}
	return &dice.Roll{Label: label, Sides: sides, Count: count, Values: v}, nil
}

// TestLastPhaseTraces: a card's resolution records its moves (with every pose passed) and
// its shots in Game.Last, for the map; Encode carries them; the next card starts afresh.
func TestLastPhaseTraces(t *testing.T) {
	g := newScenario(t, "sluys-1340")
	g.Wind = 270 // the west wind the moves below are written for
	keep := []string{"THOMAS", "EDWARD", "CHRIST"}
	g.Ships = slices.DeleteFunc(g.Ships, func(s *Ship) bool { return !slices.Contains(keep, s.ID) })
	g.ship("CHRIST").Lashed = nil
	g.ship("THOMAS").Pose = table.Pose{At: table.Point{X: 2000, Y: 2000}}
	g.ship("CHRIST").Pose = table.Pose{At: table.Point{X: 2600, Y: 2100}}
	g.Turn, g.Act, g.Card, g.Deck = 1, 1, "E-MAIN/SF1", []string{"E-MAIN/SF2"}
	orders, errs := g.Parse("english", "THOMAS MOVE 1 TURN S10 MOVE 1 FIRE STARBOARD CHRIST")
	if errs = append(errs, g.Validate("english", orders)...); len(errs) > 0 {
		t.Fatal(errs)
	}
	if _, err := g.Resolve(map[string][]adjudicator.Order{"english": orders}, lowDice{}); err != nil {
		t.Fatal(err)
	}
	want := []Trace{
		{Kind: TraceMove, Ship: "THOMAS", Poses: []table.Pose{{At: table.Point{X: 2000, Y: 2000}}, {At: table.Point{X: 2000, Y: 2100}}, {At: table.Point{X: 2000, Y: 2100}, Heading: 10}, {At: table.Point{X: 2017, Y: 2198}, Heading: 10}}},
		{Kind: TraceFire, Ship: "THOMAS", Target: "CHRIST"},
	}
	if len(g.Last) != len(want) || g.Last[0].String() != want[0].String() || g.Last[1].String() != want[1].String() {
		t.Fatalf("traces %v, want %v", g.Last, want)
	}
	if !strings.Contains(string(g.Encode()), "\nlast move THOMAS - 0 2000,2000,0 2000,2100,0 2000,2100,10 2017,2198,10\nlast fire THOMAS CHRIST 0\n") {
		t.Errorf("Encode lacks the traces:\n%s", g.Encode())
	}
	if _, err := g.Resolve(nil, lowDice{}); err != nil {
		t.Fatal(err)
	}
	if len(g.Last) != 0 {
		t.Errorf("a card with no orders kept the last card's traces: %v", g.Last)
	}
}
