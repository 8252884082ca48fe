package oinavarcoi

import (
	"fmt"

	"navarch/adjudicator"
)

// Summary implements adjudicator.Summarizer: for each of side's squadrons on the table, its
// formation, state and stands, then the enemies within reach with the distance and whether
// it would strike their front, flank or rear, so that nobody has to measure the map (issue
// 18). It tells nothing the side does not see: positions and formations are on the table for
// both; signals and undeployed squadrons are not listed.
func (g *Game) Summary(side string) adjudicator.Summary {
	return adjudicator.Summary{{Heading: "Positions", Lines: g.positions(side)}}
}

// positions are the summary's lines.
func (g *Game) positions(side string) []string {
	var out []string
	for _, s := range g.Squadrons {
		if s.Side != side || !s.OnTable() {
			continue
		}
		out = append(out, fmt.Sprintf("%s (%s), %s wing: %s, %s stands, at %v facing %d%s", s.ID, s.Name, s.Wing,
			g.stateText(s), s.Stands(), s.Pose.At, s.Pose.Heading, statusText(s)))
		for _, line := range g.enemiesInReach(s) {
			out = append(out, "  "+line)
		}
	}
	return out
}
