package adjtest

import (
	"fmt"
	"slices"

	"navarch/dice"
)

// Scripted is a dice.Roller that hands out given values by label, as a rule case gives its
// dice: a roll it was not given is an error, and Left names the ones given but never asked
// for. Values are checked against the die asked for.
type Scripted struct {
	Rolls map[string][]int // values by label; each is handed out once
	Asked []string         // the labels asked for, in order
}

// Roll implements dice.Roller.
func (s *Scripted) Roll(label string, sides, count int) (*dice.Roll, error) {
	v, ok := s.Rolls[label]
	if !ok {
		return nil, fmt.Errorf("no die given for %q (%dd%d)", label, count, sides)
	}
	if len(v) != count {
		return nil, fmt.Errorf("roll %q: %d values given for %dd%d", label, len(v), count, sides)
	}
	for _, x := range v {
		if x < 1 || x > sides {
			return nil, fmt.Errorf("roll %q: %d is not a d%d value", label, x, sides)
		}
	}
	s.Asked = append(s.Asked, label)
	delete(s.Rolls, label)
	return &dice.Roll{Label: label, Sides: sides, Count: count, Values: slices.Clone(v)}, nil
}

// Left returns the labels given but never asked for, sorted.
func (s *Scripted) Left() []string {
	var out []string
	for l := range s.Rolls {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// FromRolls is a Scripted that hands out rolls made before (an activation's), by label.
func FromRolls(rolls []*dice.Roll) *Scripted {
	s := &Scripted{Rolls: map[string][]int{}}
	for _, r := range rolls {
		s.Rolls[r.Label] = slices.Clone(r.Values)
	}
	return s
}
