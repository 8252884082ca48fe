package host

import (
	"slices"
	"testing"

	"navarch/adjudicator"
)

// stubTeams answers Acting and OrderUnits from tables; a step's other questions are not asked.
type stubTeams struct {
	adjudicator.Teams
	acting map[string][]string // side: the units the step asks of it
	units  map[string][]string // an order's text: the units it gives orders to
}

func (s stubTeams) Acting(side string) []string { return s.acting[side] }
func (s stubTeams) OrderUnits(side string, o adjudicator.Order) []string {
	return s.units[o.String()]
}

type stubOrder string

func (o stubOrder) Line() int      { return 1 }
func (o stubOrder) String() string { return string(o) }

// TestActingNow: a team player's line that gives orders only to units the open step asks
// of his side is that step's order (a fury chit asks a group's commander, docs/LEPANTO.md
// "Team games"); a line that also names a unit not asked, or names none (a choice the whole
// side makes), or comes when nothing is asked of the side stays an advance order.
func TestActingNow(t *testing.T) {
	teams := stubTeams{
		acting: map[string][]string{"venice": {"V1", "V2"}},
		units: map[string][]string{
			"V1 MOVE 1507":      {"V1"},
			"V1 V2 FIRE":        {"V1", "V2"},
			"V1 V3 FIRE":        {"V1", "V3"},
			"DISENGAGE":         nil,
			"V3 MOVE 1408":      {"V3"},
			"O1 MOVE 2010":      {"O1"},
			"V2 BOARD O1 OTT-1": {"V2"},
		},
	}
	for _, c := range []struct {
		name      string
		side      string
		later     []string
		now, kept []string
	}{
		{"only asked units", "venice", []string{"V1 MOVE 1507", "V1 V2 FIRE", "V2 BOARD O1 OTT-1"}, []string{"V1 MOVE 1507", "V1 V2 FIRE", "V2 BOARD O1 OTT-1"}, nil},
		{"a unit not asked beside", "venice", []string{"V1 V3 FIRE"}, nil, []string{"V1 V3 FIRE"}},
		{"no unit", "venice", []string{"DISENGAGE"}, nil, []string{"DISENGAGE"}},
		{"units not asked", "venice", []string{"V3 MOVE 1408", "V1 MOVE 1507"}, []string{"V1 MOVE 1507"}, []string{"V3 MOVE 1408"}},
		{"nothing asked of the side", "ottoman", []string{"O1 MOVE 2010"}, nil, []string{"O1 MOVE 2010"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var later []adjudicator.Order
			for _, l := range c.later {
				later = append(later, stubOrder(l))
			}
			had := []adjudicator.Order{stubOrder("V2 MOVE 1506")}
			now, kept := actingNow(teams, c.side, slices.Clone(had), later)
			if want := append(slices.Clone(had), stubOrders(c.now)...); !slices.Equal(now, want) {
				t.Errorf("now %v, want %v", now, want)
			}
			if want := stubOrders(c.kept); !slices.Equal(kept, want) {
				t.Errorf("kept for later %v, want %v", kept, want)
			}
		})
	}
}

func stubOrders(lines []string) []adjudicator.Order {
	var out []adjudicator.Order
	for _, l := range lines {
		out = append(out, stubOrder(l))
	}
	return out
}
