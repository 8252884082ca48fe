package adjudicator

import (
	"slices"

	"navarch/dice"
)

// RollNotes is a dice.Roller that notes the label of every roll made through it, so that
// each event can name the rolls behind it (Event.Rolls): Take returns the labels noted since
// the last Take. A ruleset's resolver rolls through it and takes the notes as it records each
// event.
type RollNotes struct {
	r       dice.Roller
	pending []string
}

// NoteRolls returns a RollNotes rolling with r.
func NoteRolls(r dice.Roller) *RollNotes { return &RollNotes{r: r} }

// Roll rolls with the wrapped roller and notes the label of a roll made.
func (n *RollNotes) Roll(label string, sides, count int) (*dice.Roll, error) {
	roll, err := n.r.Roll(label, sides, count)
	if err == nil {
		n.pending = append(n.pending, label)
	}
	return roll, err
}

// Take returns the labels of the rolls made since the last Take (nil if none) and forgets
// them; a nil RollNotes (a resolver that rolls no dice) has none.
func (n *RollNotes) Take() []string {
	if n == nil {
		return nil
	}
	out := n.pending
	n.pending = nil
	return out
}

// Equal reports whether two events are the same: rule, side, text, kind and rolls.
func (e Event) Equal(o Event) bool {
	return e.Rule == o.Rule && e.Side == o.Side && e.Text == o.Text && e.Kind == o.Kind && slices.Equal(e.Rolls, o.Rolls)
}
