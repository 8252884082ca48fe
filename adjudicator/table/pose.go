package table

import (
	"errors"
	"fmt"
)

// Point is a position on the table.
type Point struct{ X, Y Len }

// Add returns p+q.
func (p Point) Add(q Point) Point { return Point{p.X + q.X, p.Y + q.Y} }

// Sub returns p-q.
func (p Point) Sub(q Point) Point { return Point{p.X - q.X, p.Y - q.Y} }

// Scale returns p·k.
func (p Point) Scale(k int64) Point { return Point{p.X * k, p.Y * k} }

func (p Point) String() string { return FormatInches(p.X) + "," + FormatInches(p.Y) }

// Pose is a base's position (its centre) and heading.
type Pose struct {
	At      Point
	Heading Deg // 0..359
}

func (p Pose) String() string { return fmt.Sprintf("%v h%03d", p.At, p.Heading) }

// ErrOutOfBounds is returned for poses and bases outside the package's bounds.
var ErrOutOfBounds = errors.New("outside the geometry's bounds")

// Valid reports whether p is inside the bounds the package computes exactly.
func (p Pose) Valid() error {
	if p.At.X < -MaxCoord || p.At.X > MaxCoord || p.At.Y < -MaxCoord || p.At.Y > MaxCoord || p.Heading != Norm(p.Heading) {
		return fmt.Errorf("%w: pose %v", ErrOutOfBounds, p)
	}
	return nil
}

// Offset returns the vector of d along heading h, rounded: Offset(h, -d) == -Offset(h, d).
func Offset(h Deg, d Len) Point {
	return Point{divRound(d*Sin(h), Scale), divRound(d*Cos(h), Scale)}
}

// Forward returns p moved d along its heading (backwards for negative d), heading unchanged.
func (p Pose) Forward(d Len) Pose { return Pose{p.At.Add(Offset(p.Heading, d)), p.Heading} }

// Turn returns p turned by d degrees about its centre: positive to starboard (clockwise).
func (p Pose) Turn(d Deg) Pose { return Pose{p.At, Norm(p.Heading + d)} }

// Drift returns p moved d towards bearing b, its heading unchanged (a ship drifting
// downwind drifts towards the wind's direction + 180).
func (p Pose) Drift(b Deg, d Len) Pose { return Pose{p.At.Add(Offset(b, d)), p.Heading} }

// Base is a rectangular base: Length along the heading, Beam across it.
type Base struct{ Length, Beam Len }

// MinSide is the least side of a base (a tenth of an inch): a shorter side could round to
// nothing at some headings.
const MinSide Len = 10

// Valid reports whether b's sides are within MinSide..MaxSide.
func (b Base) Valid() error {
	if b.Length < MinSide || b.Beam < MinSide || b.Length > MaxSide || b.Beam > MaxSide {
		return fmt.Errorf("%w: base %dx%d", ErrOutOfBounds, b.Length, b.Beam)
	}
	return nil
}

// Corner indexes of a base polygon.
const (
	BowPort = iota
	BowStarboard
	SternStarboard
	SternPort
)

// Corners returns the base at pose p as a polygon: bow-port, bow-starboard, stern-starboard,
// stern-port (clockwise). Each corner is the centre plus ±Length/2 along the heading and
// ±Beam/2 across it, rounded half away from zero.
func (b Base) Corners(p Pose) Polygon {
	s, c := Sin(p.Heading), Cos(p.Heading)
	corner := func(along, across int64) Point { // along, across: ±1
		// forward (s, c), starboard (c, -s); halves folded into the divisor 2·Scale
		x := along*b.Length*s + across*b.Beam*c
		y := along*b.Length*c - across*b.Beam*s
		return p.At.Add(Point{divRound(x, 2*Scale), divRound(y, 2*Scale)})
	}
	return Polygon{corner(1, -1), corner(1, 1), corner(-1, 1), corner(-1, -1)}
}

// cornerOffset returns the vector from a base's centre to its corner k at heading h, rounded
// exactly as Corners rounds it.
func (b Base) cornerOffset(h Deg, k int) Point {
	return b.Corners(Pose{Heading: h})[k]
}

// Wheel returns the base at p turned by d degrees (positive to starboard) about its corner k
// (BowPort, BowStarboard, SternStarboard or SternPort), as a line abreast wheels about a
// flank. The pivot corner stays exactly where it was, and wheeling back by -d about the same
// corner returns exactly to p.
func (b Base) Wheel(p Pose, k int, d Deg) Pose {
	pivot := p.At.Add(b.cornerOffset(p.Heading, k))
	h := Norm(p.Heading + d)
	return Pose{pivot.Sub(b.cornerOffset(h, k)), h}
}
