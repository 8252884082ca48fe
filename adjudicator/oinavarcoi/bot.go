package oinavarcoi

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator"
	"navarch/adjudicator/table"
)

// BotOrders returns orders a simple, always-legal player would send for the current step:
// at deployment it keeps the scenario's places, writes ENGAGE signals for its wings and a
// standing NAVARCH order that spares its strategos's squadron, OMEN and SHARE orders and
// INITIATIVE FIRST; it
// moves first when it wins the initiative; in movement each squadron heads for the nearest
// enemy (wheeling or turning towards it, trying diekplous or periplous where the rules
// allow; an epi mias close ahead of it engages IF its die lets it reach, else holds), reforms or rallies when out of reach, and freighters sail for their exit. Every
// line it returns passes Validate; the self-play tests use it.
func (g *Game) BotOrders(side string) string {
	st := g.Next()
	if st.Kind != adjudicator.NeedOrders || !slices.Contains(st.Sides, side) {
		return ""
	}
	var lines []string
	legal := func(line string) bool {
		orders, perr := g.Parse(side, strings.Join(append(slices.Clone(lines), line), "\n"))
		return len(perr) == 0 && len(g.Validate(side, orders)) == 0
	}
	add := func(cands ...string) {
		for _, c := range cands {
			if legal(c) {
				lines = append(lines, c)
				return
			}
		}
	}
	i := g.sc.SideIndex(side)
	switch {
	case !g.Deployed:
		for _, s := range g.Squadrons {
			if s.Side == side && !s.Freighter && s.Status != Beached {
				add(fmt.Sprintf("DEPLOY %s AT %v FACING %d %s", s.ID, s.Pose.At, s.Pose.Heading, s.Formation))
			}
		}
		for _, w := range Wings {
			add("SIGNAL ENGAGE WING " + w)
		}
		var spare []string // a navarch killed falls first where the strategos is not
		for _, s := range g.Squadrons {
			if s.Side == side && !s.Freighter && !s.Strategos {
				spare = append(spare, s.ID)
			}
		}
		if len(spare) > 0 {
			add("NAVARCH " + strings.Join(spare, " "))
		}
		add("INITIATIVE FIRST") // won initiatives need no mail of their own
		if lines := g.botPreferences(side); len(lines) > 0 {
			add(lines[0])
			add(lines[1])
		}
	case g.Phase == phaseChoose:
		if side == g.Winner {
			add("MOVE FIRST")
		}
		for _, p := range g.Phalanxes {
			if p.Side == side && !p.Routed {
				add(g.botPhalanx(p)...)
			}
		}
	default:
		for _, e := range g.Signals[i] {
			if !e.Used && e.Kind == "ENGAGE" && g.wingNearEnemy(side, e.Wing) {
				add(fmt.Sprintf("SIGNAL %s WING %s", e.Kind, e.Wing))
				break
			}
		}
		for _, s := range g.Squadrons {
			if s.Side == side && s.InPlay() && len(s.Melee) == 0 && !s.Hold && s.Pursuing == "" {
				add(g.botLines(s)...)
			}
		}
	}
	return strings.Join(lines, "\n")
}

func (g *Game) wingNearEnemy(side, wing string) bool {
	for _, s := range g.Squadrons {
		if s.Side == side && s.Wing == wing && s.InPlay() && len(g.enemiesInReach(s)) > 0 {
			return true
		}
	}
	return false
}

// nearestEnemy returns the nearest enemy war squadron in play, or nil.
func (g *Game) nearestEnemy(s *Squadron) (*Squadron, table.Len) {
	var best *Squadron
	var bestD table.Len
	for _, e := range g.Squadrons {
		if e.Side == s.Side || !e.InPlay() {
			continue
		}
		if d := table.Distance(g.corners(s), g.corners(e)); best == nil || d < bestD {
			best, bestD = e, d
		}
	}
	return best, bestD
}

// botLines lists a squadron's candidate lines, best first.
func (g *Game) botLines(s *Squadron) []string {
	id := s.ID
	if s.Freighter {
		return g.freighterLines(s)
	}
	e, d := g.nearestEnemy(s)
	switch {
	case e == nil:
		return []string{id + " HOLD"}
	case s.Formation == Kyklos:
		return []string{id + " EPI-MIAS", id + " HOLD"}
	case s.Formation == Unformed && d > 10*table.Inch:
		return []string{id + " REFORM EPI-MIAS", id + " HOLD"}
	case s.Formation == Unformed:
		return []string{id + " MOVE", id + " HOLD"}
	case s.Disordered && d > reach:
		return []string{id + " HOLD"}
	}
	diff := table.Diff(s.Pose.Heading, bearing(e.Pose.At.Sub(s.Pose.At)))
	dir, deg := "R", diff
	if diff < 0 {
		dir, deg = "L", -diff
	}
	var out []string
	if deg <= 20 {
		out = append(out, id+" DIEKPLOUS "+e.ID)
		if s.Quality > 0 {
			out = append(out, id+" PERIPLOUS "+e.ID)
		}
		if need := (d + table.Inch - 1) / table.Inch; d <= 5*table.Inch && need > 1 {
			// epi mias's move is rolled: engage only if the die lets it reach, else wait
			out = append(out, fmt.Sprintf("%s IF %d+ MOVE ELSE HOLD", id, need))
		}
		out = append(out, id+" MOVE")
	}
	switch s.Formation {
	case Keras:
		out = append(out, fmt.Sprintf("%s MOVE 2 TURN %s %d MOVE", id, dir, min(deg, 90)))
	default:
		out = append(out, fmt.Sprintf("%s WHEEL %s %d MOVE", id, dir, min(deg, 45)))
	}
	return append(out, id+" MOVE", id+" HOLD")
}

// freighterLines sail for the exit edge: the course whose heading is nearest the exit.
func (g *Game) freighterLines(s *Squadron) []string {
	i := g.sc.SideIndex(s.Side)
	exit := g.sc.Exit[i]
	if exit < 0 {
		return []string{s.ID + " HOLD"}
	}
	want := table.Deg(exit * 90)
	best, bestDiff := "", 999
	for _, c := range []struct {
		how string
		h   table.Deg
	}{{"DOWNWIND", table.Downwind(g.sc.Wind)}, {"LEFT", table.Norm(g.sc.Wind + 90)}, {"RIGHT", table.Norm(g.sc.Wind - 90)}} {
		if d := table.Diff(c.h, want); max(d, -d) < bestDiff {
			best, bestDiff = c.how, max(d, -d)
		}
	}
	return []string{s.ID + " SAIL " + best, s.ID + " HOLD"}
}

// botPhalanx: march on until the Respect area, then deploy, then redress after a push-back.
func (g *Game) botPhalanx(p *Phalanx) []string {
	in := g.inRespect(p, g.phalanxCorners(p)) != nil
	switch {
	case !in && p.Order != PhMove:
		return []string{"PHALANX " + p.ID + " " + PhMove}
	case in && !p.Deployed:
		return []string{"PHALANX " + p.ID + " " + PhDeploy}
	case in && p.Pushes > 0:
		return []string{"PHALANX " + p.ID + " " + PhRedress}
	}
	return nil
}

// botPreferences are the bot's standing OMEN and SHARE orders: good omens to its poorly
// motivated squadrons first; the odd half stand of a shared loss to its best crews first.
func (g *Game) botPreferences(side string) []string {
	var own []*Squadron
	for _, s := range g.Squadrons {
		if s.Side == side && !s.Freighter {
			own = append(own, s)
		}
	}
	if len(own) == 0 {
		return nil
	}
	ids := func(l []*Squadron) string {
		var out []string
		for _, s := range l {
			out = append(out, s.ID)
		}
		return strings.Join(out, " ")
	}
	byMorale := slices.Clone(own)
	slices.SortStableFunc(byMorale, func(a, b *Squadron) int { return a.Morale - b.Morale })
	byQuality := slices.Clone(own)
	slices.SortStableFunc(byQuality, func(a, b *Squadron) int { return b.Quality - a.Quality })
	return []string{"OMEN " + ids(byMorale), "SHARE " + ids(byQuality)}
}
