package adjudicator

import "testing"

// TestHeadline: the subject names the first event of the heaviest kind; a standing order
// told back never leads, and an event of no kind weighs as a note.
func TestHeadline(t *testing.T) {
	ev := func(kinds ...Kind) []Event {
		var out []Event
		for _, k := range kinds {
			out = append(out, Event{Kind: k})
		}
		return out
	}
	for _, c := range []struct {
		ev   []Event
		want int
	}{
		{nil, -1},
		{ev(KindMove, KindLoss, KindHit, KindLoss), 1},
		{ev(KindTold, KindNote), 1},
		{ev(KindTold, ""), 1},
		{ev("", KindRoutine), 1},
		{ev(KindNote, KindMove, KindEnd), 2},
	} {
		if got := Headline(c.ev); got != c.want {
			t.Errorf("Headline(%v) = %d, want %d", c.ev, got, c.want)
		}
	}
	if KindEnd.Weight() != 9 || KindNote.Weight() != 0 || KindTold.Weight() != -1 || Kind("other").Weight() != 0 {
		t.Error("the kinds' weights moved")
	}
}

// TestKindOf: a rule's kind is its section's, the first line that holds it; "" for a rule
// no line holds.
func TestKindOf(t *testing.T) {
	table := []KindRule{{"9.6", KindLoss}, {"9", KindHit}, {"Fires", KindAction}}
	for rule, want := range map[string]Kind{"9.6": KindLoss, "9.6.2": KindLoss, "9.60": KindHit, "9.1": KindHit,
		"Fires.4": KindAction, "FiresX": "", "10.1": ""} {
		if got := KindOf(table, rule); got != want {
			t.Errorf("KindOf(%q) = %q, want %q", rule, got, want)
		}
	}
}
