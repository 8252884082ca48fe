package medieval

import (
	"fmt"

	"navarch/adjudicator/table"
)

// edgeBearing is the bearing straight off the table across each edge.
var edgeBearing = [...]table.Deg{table.North: 0, table.East: 90, table.South: 180, table.West: 270}

// nearestEdge returns the table edge nearest the centre of a base at p (north, east, south,
// west on a tie) and how far it is.
func (g *Game) nearestEdge(p table.Pose) (table.Side, table.Len) {
	best, bd := table.North, g.sc.Table.ToEdge(p.At, table.North)
	for _, e := range []table.Side{table.East, table.South, table.West} {
		if d := g.sc.Table.ToEdge(p.At, e); d < bd {
			best, bd = e, d
		}
	}
	return best, bd
}

// pathEnd is where path would put s if nothing stopped her: a raft runs downwind (rule
// "Lashing").
func (g *Game) pathEnd(s *Ship, path table.Path) table.Pose {
	if len(s.Lashed) > 0 {
		return s.Pose.Drift(table.Downwind(g.Wind), path[0].Move)
	}
	poses := table.Apply(s.Pose, path)
	return poses[len(poses)-1]
}

// leaveRank says how well path, legal for the leaving s, serves her "attempting to leave
// the table" (rule "Damage"): ok if it takes her off the table, ends nearer the edge now
// nearest her, or, where it does not, turns her bow towards that edge; among the ok paths
// a lower (nearer, then turned further) rank is better.
func (g *Game) leaveRank(s *Ship, path table.Path) (ok bool, rank [3]int64) {
	edge, d0 := g.nearestEdge(s.Pose)
	end := g.pathEnd(s, path)
	if g.sc.Table.Off(s.Base.Corners(end)) {
		return true, [3]int64{0, 0, 0}
	}
	d1 := g.sc.Table.ToEdge(end.At, edge)
	if d1 < d0 {
		return true, [3]int64{1, int64(d1), 0}
	}
	off := func(h table.Deg) int64 { return int64(abs(table.Diff(h, edgeBearing[edge]))) }
	if off(end.Heading) < off(s.Pose.Heading) {
		return true, [3]int64{2, off(end.Heading), int64(d1)}
	}
	return false, rank
}

func abs(d table.Deg) table.Deg {
	if d < 0 {
		return -d
	}
	return d
}

// leavingError says why path is not a leaving ship's attempt to leave the table, or nil.
func (g *Game) leavingError(s *Ship, path table.Path) error {
	if ok, _ := g.leaveRank(s, path); ok {
		return nil
	}
	edge, d := g.nearestEdge(s.Pose)
	return fmt.Errorf("%s takes no further part in the battle and attempts to leave the table (rule Damage): her move must end nearer the %v edge (%s\" off) or turn her towards it", s.ID, edge, table.FormatInches(d))
}

// leavingPath returns the course a leaving ship with no orders takes in her Division's
// Sail/Fight phase (rule "Damage": she "will otherwise take no further part in the battle,
// attempting to leave the table"; the course is a designed rule): of the legal paths
// straight on, one turn, or two turns of up to 30 degrees either way, the best by
// leaveRank; nil if none serves. A lashed ship has none: her lashings hold her, and her
// raft's run is for her friends' lines (she may be cut free in Command and Control).
func (g *Game) leavingPath(s *Ship) table.Path {
	var best table.Path
	var bestRank [3]int64
	try := func(p table.Path) {
		if g.checkPath(s, p) != nil {
			return
		}
		if ok, r := g.leaveRank(s, p); ok && (best == nil || less(r, bestRank)) {
			best, bestRank = p, r
		}
	}
	if len(s.Lashed) > 0 {
		return nil
	}
	a := movement[s.F.Sea]
	for _, full := range []table.Len{a.run, a.beat} {
		try(table.Path{{Move: full}})
		for _, t := range []table.Deg{30, -30} {
			try(table.Path{{Move: full / 2}, {Turn: t}, {Move: full / 2}})
			try(table.Path{{Turn: t}, {Move: full / 2}, {Turn: t}, {Move: full / 2}})
		}
	}
	return best
}

func less(a, b [3]int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
