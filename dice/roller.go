package dice

import (
	"fmt"
	"navarch/ident"
	"slices"
)

// Roll is one engine request and its outcome: the raw values of a plain die and, where the
// engine set them, what it made of them. One Roll becomes one roll record in the game log.
type Roll struct {
	Seq    int    // position within the activation, from 0; recorded, never hashed
	Label  string // unique within the activation: what the roll is for
	Sides  int
	Count  int
	Values []int // raw values, each 1..Sides

	As    string   // "" (plain), AsAverage, AsD10Zero or AsDraw: how Values are read
	Items []string // with AsDraw: the cup or deck in its canonical order
	Rule  string   // the rule section that called for the roll, e.g. "9.5"
	Note  string   // what the engine made of the roll: modifiers, table, result
}

// How the raw values of a roll are read (docs/DICE.md 4).
const (
	AsAverage = "average" // d6 read as 2,3,3,4,4,5
	AsD10Zero = "d10zero" // d10 whose 10 reads 0
	AsDraw    = "draw"    // d(n) picking from n items in canonical order
)

// Shown returns the values as the rules read them: mapped for special dice, raw otherwise.
func (r *Roll) Shown() ([]string, error) {
	out := make([]string, len(r.Values))
	for i, v := range r.Values {
		s, err := MapValue(r.As, r.Sides, r.Items, v)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

var averageFaces = [6]int{2, 3, 3, 4, 4, 5}

// MapValue reads raw value v of a d(sides) the way `as` says.
func MapValue(as string, sides int, items []string, v int) (string, error) {
	if v < 1 || v > sides {
		return "", fmt.Errorf("value %d outside 1..%d", v, sides)
	}
	switch as {
	case "":
		return fmt.Sprint(v), nil
	case AsAverage:
		if sides != 6 {
			return "", fmt.Errorf("average die needs a d6, not a d%d", sides)
		}
		return fmt.Sprint(averageFaces[v-1]), nil
	case AsD10Zero:
		if sides != 10 {
			return "", fmt.Errorf("d10zero needs a d10, not a d%d", sides)
		}
		return fmt.Sprint(v % 10), nil
	case AsDraw:
		if len(items) != sides {
			return "", fmt.Errorf("draw of d%d over %d items", sides, len(items))
		}
		return items[v-1], nil
	}
	return "", fmt.Errorf("unknown die reading %q", as)
}

// Roller is the one way an engine gets randomness. Roll asks for count values of a d(sides)
// under a label unique within the activation; the returned Roll may be annotated (Rule, Note)
// by the engine until the activation is committed.
type Roller interface {
	Roll(label string, sides, count int) (*Roll, error)
}

// Average rolls the average die (2,3,3,4,4,5) once.
func Average(r Roller, label string) (int, *Roll, error) {
	return mapped(r, label, 6, AsAverage, nil, func(v int) int { return averageFaces[v-1] })
}

// D10Zero rolls a d10 whose 10 reads 0.
func D10Zero(r Roller, label string) (int, *Roll, error) {
	return mapped(r, label, 10, AsD10Zero, nil, func(v int) int { return v % 10 })
}

// Draw picks one of items, which must be in the canonical order the rules define (the log
// shows that order). It returns the index of the drawn item.
func Draw(r Roller, label string, items []string) (int, *Roll, error) {
	if len(items) == 0 {
		return 0, nil, fmt.Errorf("%w: draw %q from an empty cup", ErrBadRequest, label)
	}
	return mapped(r, label, len(items), AsDraw, slices.Clone(items), func(v int) int { return v - 1 })
}

func mapped(r Roller, label string, sides int, as string, items []string, f func(int) int) (int, *Roll, error) {
	roll, err := r.Roll(label, sides, 1)
	if err != nil {
		return 0, nil, err
	}
	roll.As, roll.Items = as, items
	return f(roll.Values[0]), roll, nil
}

// Shuffle returns items in a random order by drawing without replacement: draw k (label
// "<label>/k") picks from the items not yet drawn, in their canonical order.
func Shuffle(r Roller, label string, items []string) ([]string, error) {
	rest := slices.Clone(items)
	out := make([]string, 0, len(items))
	for k := 0; len(rest) > 0; k++ {
		i, _, err := Draw(r, fmt.Sprintf("%s/%d", label, k), rest)
		if err != nil {
			return nil, err
		}
		out = append(out, rest[i])
		rest = slices.Delete(rest, i, i+1)
	}
	return out, nil
}

// Activation is the Roller of one activation (turn t, activation a): it derives every roll
// from K_{t,a} and keeps them, in request order, for the log.
type Activation struct {
	Turn, Act uint32
	deriver   *Deriver
	labels    map[string]bool
	rolls     []*Roll
}

// NewActivation returns the Roller for an activation whose key is K_{t,a}.
func NewActivation(turn, act uint32, key ident.Hash) *Activation {
	return &Activation{Turn: turn, Act: act, deriver: NewDeriver(key), labels: map[string]bool{}}
}

// Roll implements Roller. A label used before in this activation is refused.
func (a *Activation) Roll(label string, sides, count int) (*Roll, error) {
	if a.labels[label] {
		return nil, fmt.Errorf("%w: label %q used twice in turn %d activation %d", ErrBadRequest, label, a.Turn, a.Act)
	}
	vals, err := a.deriver.Derive(label, sides, count)
	if err != nil {
		return nil, err
	}
	a.labels[label] = true
	r := &Roll{Seq: len(a.rolls), Label: label, Sides: sides, Count: count, Values: vals}
	a.rolls = append(a.rolls, r)
	return r, nil
}

// Rolls returns the rolls made so far, in request order.
func (a *Activation) Rolls() []*Roll { return a.rolls }
