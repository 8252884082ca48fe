package adjudicator

import "testing"

type weighed struct{ Game }

func (weighed) Weight(e Event) int {
	return Weigh([]Weight{{Rule: "9.6", Text: "sunk", N: 8}, {Rule: "9", N: 5}, {Text: "moves", N: 2}}, e)
}

// TestHeadline: the first of the heaviest events, by the table's first matching line; the
// first event for a game without a ranking.
func TestHeadline(t *testing.T) {
	ev := []Event{{Rule: "2.2", Text: "Group BAR is activated"}, {Rule: "3", Text: "BAR-VEN1 moves"},
		{Rule: "9.5", Text: "Hit on SIR-EGY1"}, {Rule: "9.6", Text: "SIR-EGY1 has sunk"}, {Rule: "9.6", Text: "SIR-EGY2 has sunk"},
		{Rule: "9.6", Text: "SIR-EGY3 flees"}}
	for _, c := range []struct {
		g    Game
		ev   []Event
		want int
	}{{weighed{}, ev, 3}, {weighed{}, ev[:3], 2}, {weighed{}, ev[:2], 1}, {weighed{}, ev[5:], 0}, {weighed{}, ev[:1], 0},
		{weighed{}, nil, -1}, {nil, ev, 0}} {
		if got := Headline(c.g, c.ev); got != c.want {
			t.Errorf("Headline of %d events (ranked %t) = %d, want %d", len(c.ev), c.g != nil, got, c.want)
		}
	}
	if w := (weighed{}).Weight(Event{Rule: "9.6", Text: "SIR-EGY3 flees"}); w != 5 {
		t.Errorf("a 9.6 event without the text weighs %d, want the next line's 5", w)
	}
}
