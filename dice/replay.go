package dice

import (
	"errors"
	"fmt"
	"slices"
)

// ErrReplay reports an engine that asked for a roll other than the one logged next.
var ErrReplay = errors.New("dice: replay diverges from the log")

// Replay is a Roller that hands out logged rolls in order. Each request must match the next
// logged (label, sides, count) exactly; it returns the logged values. A replay that asks for
// more, fewer or other rolls than the log holds has found an inserted, dropped or re-labelled
// roll, or non-determinism in the engine.
type Replay struct {
	logged []Roll
	next   int
	rolls  []*Roll
}

// NewReplay returns a Replay over one activation's logged rolls, in seq order.
func NewReplay(logged []Roll) *Replay { return &Replay{logged: logged} }

// Roll implements Roller.
func (r *Replay) Roll(label string, sides, count int) (*Roll, error) {
	if r.next >= len(r.logged) {
		return nil, fmt.Errorf("%w: the engine asks for %q %dd%d, the log has no more rolls", ErrReplay, label, count, sides)
	}
	l := r.logged[r.next]
	if l.Label != label || l.Sides != sides || l.Count != count {
		return nil, fmt.Errorf("%w: roll %d: the engine asks for %q %dd%d, the log has %q %dd%d",
			ErrReplay, r.next, label, count, sides, l.Label, l.Count, l.Sides)
	}
	out := l
	out.Seq = r.next
	out.Values = slices.Clone(l.Values)
	r.next++
	r.rolls = append(r.rolls, &out)
	return &out, nil
}

// Rolls returns the rolls handed out, in order, as the engine left them (with the reading,
// rule and result it gave each), so that replay can re-derive each roll record.
func (r *Replay) Rolls() []*Roll { return r.rolls }

// Done reports an error when logged rolls were left unasked.
func (r *Replay) Done() error {
	if r.next < len(r.logged) {
		return fmt.Errorf("%w: the engine asked for %d of %d logged rolls; next unasked %q", ErrReplay, r.next, len(r.logged), r.logged[r.next].Label)
	}
	return nil
}
