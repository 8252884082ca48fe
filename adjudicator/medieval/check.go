package medieval

import (
	"fmt"

	"navarch/adjudicator"
	"navarch/adjudicator/table"
)

// Check answers a CHECK: where side's orders for the turned card would put each ship, and
// what she would then have in range, without rolling a die or changing the game.
// Ships move in the order of the lines, each against the others' places so far, as Resolve
// moves them; the result of any shot is not foreseen.
func (g *Game) Check(side string, orders []adjudicator.Order) []string {
	if errs := g.Validate(side, orders); len(errs) > 0 {
		var out []string
		for _, e := range errs {
			out = append(out, e.Error())
		}
		return out
	}
	moved := map[*Ship]table.Pose{}
	pose := func(s *Ship) table.Pose {
		if p, ok := moved[s]; ok {
			return p
		}
		return s.Pose
	}
	var out []string
	for _, ord := range orders {
		o := ord.(*Order)
		s := g.ship(o.Ship)
		if len(o.Path) == 0 {
			out = append(out, fmt.Sprintf("%s stays at %v", s.ID, s.Pose))
			continue
		}
		var polys []table.Polygon
		var ships []*Ship
		for _, x := range g.Ships {
			if x != s && g.onTable(x) {
				polys, ships = append(polys, x.Base.Corners(pose(x))), append(ships, x)
			}
		}
		if len(s.Lashed) > 0 { // a raft: the same vector for all, checked when resolved
			for _, r := range g.raft(s) {
				moved[r] = r.Pose.Drift(table.Downwind(g.Wind), o.Path[0].Move)
			}
			out = append(out, fmt.Sprintf("%s and the ships lashed to her would run to %v", s.ID, moved[s]))
			continue
		}
		poses, blk := s.Base.Follow(s.Pose, o.Path, polys)
		end := s.Pose
		if len(poses) > 0 {
			end = poses[len(poses)-1]
		}
		moved[s] = end
		line := fmt.Sprintf("%s would end at %v", s.ID, end)
		if blk != nil {
			line += fmt.Sprintf(", stopped in contact with %s", ships[blk.Obstacle].ID)
		}
		if g.sc.Table.Off(s.Base.Corners(end)) {
			line += ", off the table (out of the battle)"
		}
		out = append(out, line)
	}
	return out
}
