package table

import (
	"fmt"
	"strings"
)

// Step is one element of a movement path: a turn about the base's centre (positive to
// starboard) or a move along the heading (negative backs water).
type Step struct {
	Turn Deg
	Move Len
}

func (s Step) String() string {
	switch {
	case s.Turn > 0:
		return fmt.Sprintf("TURN S%d", s.Turn)
	case s.Turn < 0:
		return fmt.Sprintf("TURN P%d", -s.Turn)
	}
	return "MOVE " + FormatInches(s.Move)
}

// Path is a sequence of steps.
type Path []Step

func (p Path) String() string {
	parts := make([]string, len(p))
	for i, s := range p {
		parts[i] = s.String()
	}
	return strings.Join(parts, " ")
}

// Reverse returns the path that undoes p: its steps backwards, each negated. Applying p and
// then p.Reverse() returns a pose to itself exactly.
func (p Path) Reverse() Path {
	out := make(Path, len(p))
	for i, s := range p {
		out[len(p)-1-i] = Step{Turn: -s.Turn, Move: -s.Move}
	}
	return out
}

// Distance returns the total of the path's moves (backing counted positive).
func (p Path) Distance() Len {
	var d Len
	for _, s := range p {
		d += max(s.Move, -s.Move)
	}
	return d
}

// Turns returns how many turns the path makes.
func (p Path) Turns() int {
	n := 0
	for _, s := range p {
		if s.Turn != 0 {
			n++
		}
	}
	return n
}

// Apply returns the poses after each step of path from start (len(path) poses).
func Apply(start Pose, path Path) []Pose {
	out := make([]Pose, 0, len(path))
	p := start
	for _, s := range path {
		if s.Turn != 0 {
			p = p.Turn(s.Turn)
		} else {
			p = p.Forward(s.Move)
		}
		out = append(out, p)
	}
	return out
}

// Blocker is what stopped a move: the index of the obstacle first overlapped.
type Blocker struct {
	Step     int // the path step during which the base met the obstacle
	Obstacle int // index into the obstacles
}

// Follow moves the base b along path from start and stops where it would first overlap one
// of obstacles: a move stops at the last hundredth of an inch before overlap (so the bases
// then touch: Distance <= Touch), a turn that would overlap is not made. It returns the
// poses after each step taken and, if the path was cut short, what stopped it.
func (b Base) Follow(start Pose, path Path, obstacles []Polygon) ([]Pose, *Blocker) {
	out := make([]Pose, 0, len(path))
	p := start
	for i, s := range path {
		if s.Turn != 0 {
			q := p.Turn(s.Turn)
			if j := firstOverlap(b.Corners(q), obstacles); j >= 0 {
				return out, &Blocker{i, j}
			}
			p = q
			out = append(out, p)
			continue
		}
		q, j := b.advance(p, p.Heading, s.Move, obstacles)
		out = append(out, q)
		if j >= 0 {
			return out, &Blocker{i, j}
		}
		p = q
	}
	return out, nil
}

// Slide moves the base at p by d towards bearing, its heading unchanged (a drift), and stops
// as Follow does at the last hundredth of an inch before it would overlap an obstacle; it
// returns the pose reached and the index of the obstacle met, or -1.
func (b Base) Slide(p Pose, bearing Deg, d Len, obstacles []Polygon) (Pose, int) {
	return b.advance(p, bearing, d, obstacles)
}

// advance moves p by d towards bearing unless an obstacle is met on the way: then it returns
// the last pose, in whole hundredths of an inch along the way, that overlaps nothing, and the
// obstacle's index.
func (b Base) advance(p Pose, bearing Deg, d Len, obstacles []Polygon) (Pose, int) {
	end := p.Drift(bearing, d)
	swept := Hull(append(append(Polygon{}, b.Corners(p)...), b.Corners(end)...))
	hit := false
	for _, o := range obstacles {
		hit = hit || Overlap(swept, o)
	}
	if !hit {
		return end, -1
	}
	sign := Len(1)
	if d < 0 {
		sign, d = -1, -d
	}
	for t := Len(1); t <= d; t++ {
		q := p.Drift(bearing, sign*t)
		if j := firstOverlap(b.Corners(q), obstacles); j >= 0 {
			return p.Drift(bearing, sign*(t-1)), j
		}
	}
	return end, -1
}

func firstOverlap(pg Polygon, obstacles []Polygon) int {
	for j, o := range obstacles {
		if Overlap(pg, o) {
			return j
		}
	}
	return -1
}

// Touch is the greatest distance at which two bases count as in contact: a move stopped by
// Follow ends within it of the obstacle (one hundredth of an inch of travel, plus the
// rounding of both bases' corners).
const Touch Len = 3

// Contact reports whether two bases touch: they overlap or lie within Touch of each other.
func Contact(a, b Polygon) bool { return Distance(a, b) <= Touch }

// Clear reports whether the straight line from a to b crosses the interior of none of
// others (a line grazing a base's edge or corner is clear).
func Clear(a, b Point, others []Polygon) bool {
	return firstOverlap(Polygon{a, b}, others) < 0
}

// BeamToBeam reports whether the bases a (at pa) and b (at pb) lie side by side: parallel
// or opposite headings, a side (port or starboard) of each within Touch of a side of the
// other, and overlapping along their length (not merely corner to corner).
func BeamToBeam(a Base, pa Pose, b Base, pb Pose) bool {
	if d := Diff(pa.Heading, pb.Heading); d != 0 && d != 180 {
		return false
	}
	for _, sa := range []Arc{Port, Starboard} {
		for _, sb := range []Arc{Port, Starboard} {
			if Distance(a.Edge(pa, sa), b.Edge(pb, sb)) <= Touch && alongOverlap(a, pa, b, pb) {
				return true
			}
		}
	}
	return false
}

// alongOverlap reports whether the bases' extents along a's heading overlap by more than
// Touch.
func alongOverlap(a Base, pa Pose, b Base, pb Pose) bool {
	axis := Point{Sin(pa.Heading), Cos(pa.Heading)}
	alo, ahi := a.Corners(pa).project(axis)
	blo, bhi := b.Corners(pb).project(axis)
	return min(ahi, bhi)-max(alo, blo) > Touch*Scale
}
