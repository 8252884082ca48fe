package medieval

import "navarch/adjudicator/table"

// edgeDistance returns how far the centre of a base at p is from the nearest table edge.
func (g *Game) edgeDistance(p table.Pose) table.Len {
	d := g.sc.Table.ToEdge(p.At, table.North)
	for _, s := range []table.Side{table.East, table.South, table.West} {
		d = min(d, g.sc.Table.ToEdge(p.At, s))
	}
	return d
}

// leavingPath returns the course a leaving ship with no orders takes in her Division's
// Sail/Fight phase (rule "Damage": she "will otherwise take no further part in the battle,
// attempting to leave the table"; the course is a designed rule): of the legal paths
// straight on, one turn, or two turns of up to 30 degrees either way, the one that ends
// nearest a table edge; nil if none moves her.
func (g *Game) leavingPath(s *Ship) table.Path {
	var best table.Path
	bestD := g.edgeDistance(s.Pose)
	a := movement[s.F.Sea]
	try := func(p table.Path) {
		if g.checkPath(s, p) != nil {
			return
		}
		poses := table.Apply(s.Pose, p)
		if d := g.edgeDistance(poses[len(poses)-1]); d < bestD {
			best, bestD = p, d
		}
	}
	for _, full := range []table.Len{a.run, a.beat} {
		try(table.Path{{Move: full}})
		for _, t := range []table.Deg{30, -30} {
			try(table.Path{{Move: full / 2}, {Turn: t}, {Move: full / 2}})
			try(table.Path{{Turn: t}, {Move: full / 2}, {Turn: t}, {Move: full / 2}})
		}
	}
	return best
}
