package medieval

import (
	"fmt"
	"strings"

	"navarch/adjudicator/table"
)

// Kinds of Trace.
const (
	TraceMove  = "move"  // a ship's move, run or drift: Poses from the start to the end
	TraceFire  = "fire"  // a broadside fired at Target (rule "Gunnery")
	TraceShoot = "shoot" // missiles shot at Target (rule "Missile shooting")
	TraceBoard = "board" // boarding dice thrown at Target (rule "Boarding")
)

// Trace is one thing the last card's phase did that a map draws: a move with the poses the
// ship passed through, or a shot or boarding attack with the hits it made. Game.Last holds
// them from the start of the last card's resolution through the end of turn that may follow
// it (a burning hulk's drift), in the order they happened.
type Trace struct {
	Kind, Ship, Target string
	Hits               int
	Poses              []table.Pose
}

func (t Trace) String() string {
	target := t.Target
	if target == "" {
		target = "-"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s %d", t.Kind, t.Ship, target, t.Hits)
	for _, p := range t.Poses {
		fmt.Fprintf(&b, " %d,%d,%d", p.At.X, p.At.Y, p.Heading)
	}
	return b.String()
}

// traceMove records a move of s from pose from through the poses passed (the last is where
// she stopped).
func (p *phase) traceMove(s *Ship, from table.Pose, poses ...table.Pose) {
	all := append([]table.Pose{from}, poses...)
	p.g.Last = append(p.g.Last, Trace{Kind: TraceMove, Ship: s.ID, Poses: all})
}

// traceShot records a shot or boarding attack of s at t with its hits.
func (p *phase) traceShot(kind string, s, t *Ship, hits int) {
	p.g.Last = append(p.g.Last, Trace{Kind: kind, Ship: s.ID, Target: t.ID, Hits: hits})
}
