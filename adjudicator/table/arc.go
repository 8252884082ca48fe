package table

import "fmt"

// Arc is one of the regions the lines of a base divide the table into (the medieval rules'
// "extending the ship's base front and rear lines"; Oi Navarcoi's "behind the enemy's front").
type Arc int

// The arcs: ahead of the bow line; behind the stern line; and the two bands between the bow
// and stern lines extended, beyond the port and starboard sides. With the base itself they
// cover the table, and they share only their boundary lines.
const (
	Bow Arc = iota
	Starboard
	Stern
	Port
)

var arcNames = [...]string{"bow", "starboard", "stern", "port"}

func (a Arc) String() string {
	if a < Bow || a > Port {
		return fmt.Sprintf("arc(%d)", int(a))
	}
	return arcNames[a]
}

// Arcs lists the arcs in order.
var Arcs = []Arc{Bow, Starboard, Stern, Port}

// ArcRegion returns arc a of the base at pose p as a convex polygon bounded by the base's
// lines extended (exactly: through its integer corners, along its integer edge vectors) and
// reaching at least reach beyond the base in every direction the arc opens to.
func (b Base) ArcRegion(p Pose, a Arc, reach Len) Polygon {
	c := b.Corners(p)
	bp, bs, ss, sp := c[BowPort], c[BowStarboard], c[SternStarboard], c[SternPort]
	// Multiples of the beam and length vectors that pass reach: a rounded side is at most
	// 2 shorter than the nominal one, and sides are at least MinSide.
	kb := reach/(b.Beam-2) + 2
	kl := reach/(b.Length-2) + 2
	switch a {
	case Starboard:
		return Polygon{bs, bs.Add(bs.Sub(bp).Scale(kb)), ss.Add(ss.Sub(sp).Scale(kb)), ss}
	case Port:
		return Polygon{sp, sp.Add(sp.Sub(ss).Scale(kb)), bp.Add(bp.Sub(bs).Scale(kb)), bp}
	case Bow:
		l, r := bp.Add(bp.Sub(bs).Scale(kb)), bs.Add(bs.Sub(bp).Scale(kb))
		return Polygon{l, l.Add(bp.Sub(sp).Scale(kl)), r.Add(bs.Sub(ss).Scale(kl)), r}
	}
	l, r := sp.Add(sp.Sub(ss).Scale(kb)), ss.Add(ss.Sub(sp).Scale(kb))
	return Polygon{r, r.Add(ss.Sub(bs).Scale(kl)), l.Add(sp.Sub(bp).Scale(kl)), l}
}

// InArc reports whether part of target (its interior) lies in arc a of the base at p, within
// reach. A target straddling a line is in both arcs; one merely touching a line is not in
// the arc beyond it.
func (b Base) InArc(p Pose, a Arc, target Polygon, reach Len) bool {
	return Overlap(b.ArcRegion(p, a, reach), target)
}

// ArcsOf returns the arcs of the base at p that target lies in, in Arcs order.
func (b Base) ArcsOf(p Pose, target Polygon, reach Len) []Arc {
	var out []Arc
	for _, a := range Arcs {
		if b.InArc(p, a, target, reach) {
			out = append(out, a)
		}
	}
	return out
}

// Edge returns the side of the base at p that faces arc a (bow line, starboard side, stern
// line, port side) as a segment.
func (b Base) Edge(p Pose, a Arc) Polygon {
	c := b.Corners(p)
	i := int(a)
	if a < Bow || a > Port {
		i = 0
	}
	return Polygon{c[i], c[(i+1)%4]}
}

// Directly returns the band directly ahead (ahead true) or directly astern of the base at p:
// between its port and starboard sides extended, beyond its bow (or stern) line, reaching at
// least reach (Oi Navarcoi's "within 6 inches directly behind"; a ship moving straight ahead
// sweeps the band ahead).
func (b Base) Directly(p Pose, ahead bool, reach Len) Polygon {
	c := b.Corners(p)
	bp, bs, ss, sp := c[BowPort], c[BowStarboard], c[SternStarboard], c[SternPort]
	kl := reach/(b.Length-2) + 2
	if ahead {
		return Polygon{bp, bs, bs.Add(bs.Sub(ss).Scale(kl)), bp.Add(bp.Sub(sp).Scale(kl))}
	}
	return Polygon{ss, sp, sp.Add(sp.Sub(bp).Scale(kl)), ss.Add(ss.Sub(bs).Scale(kl))}
}

// DirectlyBehind reports whether part of target lies directly astern of the base at p and
// within d of it.
func (b Base) DirectlyBehind(p Pose, target Polygon, d Len) bool {
	return Distance(b.Corners(p), target) <= d && Overlap(b.Directly(p, false, d), target)
}
