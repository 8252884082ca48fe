package oinavarcoi

import "navarch/adjudicator/table"

// divRound divides rounding half away from zero (as the table package does).
func divRound(n, d int64) int64 {
	if (n < 0) != (d < 0) {
		return -((abs(n) + abs(d)/2) / abs(d))
	}
	return (abs(n) + abs(d)/2) / abs(d)
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// rotate turns p about pivot by deg degrees clockwise (to starboard), rounded.
func rotate(p, pivot table.Point, deg table.Deg) table.Point {
	v := p.Sub(pivot)
	s, c := table.Sin(deg), table.Cos(deg)
	return pivot.Add(table.Point{X: divRound(v.X*c+v.Y*s, table.Scale), Y: divRound(v.Y*c-v.X*s, table.Scale)})
}

// bearing returns the whole-degree compass bearing of v (0 north, clockwise) nearest its
// direction: the degree whose unit vector has the greatest dot product with v, the lowest
// on a tie; 0 for the zero vector.
func bearing(v table.Point) table.Deg {
	best, bestDot := 0, int64(-1)<<62
	for h := 0; h < 360; h++ {
		if d := v.X*table.Sin(h) + v.Y*table.Cos(h); d > bestDot {
			best, bestDot = h, d
		}
	}
	return best
}

// wheel returns the pose after a wheel of deg degrees (positive right) pivoting on the inner
// front corner, and the distance the outer flank travels: beam·|deg|·π/180, π read as
// 355/113 (rule Turning.wheel; data/rules.txt).
func wheel(b table.Base, p table.Pose, deg table.Deg) (table.Pose, table.Len) {
	c := b.Corners(p)
	pivot := c[table.BowStarboard]
	if deg < 0 {
		pivot = c[table.BowPort]
	}
	return table.Pose{At: rotate(p.At, pivot, deg), Heading: table.Norm(p.Heading + deg)}, wheelCost(b, deg)
}

func wheelCost(b table.Base, deg table.Deg) table.Len {
	return divRound(b.Beam*int64(max(deg, -deg))*355, 113*180)
}

// faceNormal returns the outward bearing of a base's side a.
func faceNormal(p table.Pose, a table.Arc) table.Deg {
	return table.Norm(p.Heading + 90*int(a))
}

// conform returns the pose of an attacker of base ab whose front is laid against side a of
// the target (base tb at tp), centred on that side (rule Melee.contact: contact is made by
// moving straight ahead and conforming).
func conform(ab table.Base, tb table.Base, tp table.Pose, a table.Arc) table.Pose {
	n := faceNormal(tp, a)
	half := tb.Length / 2
	if a == table.Port || a == table.Starboard {
		half = tb.Beam / 2
	}
	return table.Pose{At: tp.At.Add(table.Offset(n, half+ab.Length/2)), Heading: table.Norm(n + 180)}
}

// frontPoint returns the centre of a base's bow line.
func frontPoint(b table.Base, p table.Pose) table.Point {
	return p.At.Add(table.Offset(p.Heading, b.Length/2))
}

// keepFront returns the pose of base nb whose bow line centre is where base ob's was.
func keepFront(ob, nb table.Base, p table.Pose) table.Pose {
	return table.Pose{At: frontPoint(ob, p).Add(table.Offset(p.Heading, -nb.Length/2)), Heading: p.Heading}
}
