package lepanto

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator"
)

// BotOrders returns orders a simple, always-legal player would send for the current step,
// using every kind of order a player has: each unit of the activated group rows towards the
// nearest enemy, hex by hex while each step stays legal, stops when it is adjacent to one,
// and then fires at an enemy in its arc or, its guns spent, attacks the enemy in its bow hex
// (a galleass rams, a single ship rams and grapples, a squadron grapples). A fury chit activates
// again the first group it may; at a Disengage chit the damaged (Mast Down or burning)
// engaged units row out; the Boarding chit's order is the order of battle's. Leader moves
// are declined. The self-play tests and the demo game use it; every line it returns
// passes Validate.
func (g *Game) BotOrders(side string) string {
	if !slices.Contains(g.WaitSides, side) {
		return ""
	}
	switch g.Wait {
	case waitGroup:
		return g.botGroup(side, g.WaitGroup, nil)
	case waitFury:
		groups := g.furyGroups(g.WaitGroup)
		if len(groups) == 0 {
			return ""
		}
		head := "ACTIVATE " + groups[0]
		return strings.TrimSpace(head + "\n" + g.botGroup(side, groups[0], []string{head}))
	case waitDisengage:
		return g.botDisengage(side)
	case waitBoarding:
		var lines []string
		for _, p := range g.engagedPairs() {
			lines = append(lines, "BOARD "+p[0].ID+" "+p[1].ID)
		}
		return strings.Join(lines, "\n")
	}
	return ""
}

// botGroup is the lines of a group's units, after the lines before (a fury's ACTIVATE).
func (g *Game) botGroup(side, group string, before []string) string {
	var lines []string
	for _, u := range g.Units {
		if u.Group == group && u.InPlay() {
			if line := g.botLine(side, u, append(slices.Clone(before), lines...)); line != "" {
				lines = append(lines, line)
			}
		}
	}
	return strings.Join(lines, "\n")
}

// botDisengage rows the side's damaged engaged units out of their engagements (2.4.4), by
// the first hex around them that makes a legal way out.
func (g *Game) botDisengage(side string) string {
	var lines []string
	for _, id := range g.engagedUnits(side) {
		u := g.unit(id)
		if !u.MastDown && !u.OnFire {
			continue
		}
		for _, d := range []Dir{u.Facing.Opposite(), u.Facing, u.Facing.Turn(-1), u.Facing.Turn(1)} {
			line := fmt.Sprintf("%s DISENGAGE %s", u.ID, u.Hex.Neighbor(d))
			orders, perr := g.Parse(side, strings.Join(append(slices.Clone(lines), line), "\n"))
			if len(perr) == 0 && len(g.Validate(side, orders)) == 0 {
				lines = append(lines, line)
				break
			}
		}
	}
	return strings.Join(lines, "\n")
}

// botLine builds one unit's line: the longest legal greedy path, then a fire order.
func (g *Game) botLine(side string, u *Unit, before []string) string {
	legal := func(line string) bool {
		orders, perr := g.Parse(side, strings.Join(append(before, line), "\n"))
		return len(perr) == 0 && len(g.Validate(side, orders)) == 0
	}
	path := []string{}
	p := position{u.Hex, u.Facing, u.Sailing}
	if u.Sailing && g.enemyWithin(u, u.Hex, 3) {
		path, p.sailing = append(path, "ROW"), false // 12.3
	}
	for len(g.enemiesAround(u, p.hex)) == 0 {
		next, ok := g.botStep(u, p)
		if !ok || !legal(fmt.Sprintf("%s MOVE %s", u.ID, strings.Join(append(path, next.hex.String()), " "))) {
			break
		}
		path, p = append(path, next.hex.String()), next
	}
	line := u.ID + " PASS"
	if len(path) == 1 && path[0] == "ROW" && !legal(u.ID+" MOVE ROW") {
		path = nil
	}
	if len(path) > 0 {
		line = fmt.Sprintf("%s MOVE %s", u.ID, strings.Join(path, " "))
	}
	base := strings.Replace(line, " PASS", "", 1)
	for _, t := range g.enemiesAround(u, p.hex) {
		if withFire := base + " FIRE " + t; legal(withFire) {
			return withFire
		}
	}
	for _, t := range g.unitsAt(p.hex.Neighbor(p.facing)) { // guns spent: close in
		if t.Side == side {
			continue
		}
		attack := map[bool]string{true: " RAM " + t.ID + " GRAPPLE", false: " GRAPPLE " + t.ID}[u.Single()]
		if u.Galleass() {
			attack = " RAM " + t.ID
		}
		if legal(base + attack) {
			return base + attack
		}
	}
	return line
}

// botStep picks the hex ahead or beside the bow that comes nearest the nearest enemy.
func (g *Game) botStep(u *Unit, p position) (position, bool) {
	best, bestD := position{}, 1<<30
	for _, d := range []Dir{p.facing, p.facing.Turn(-1), p.facing.Turn(1)} {
		h := p.hex.Neighbor(d)
		if !g.onMap(h) {
			continue
		}
		if dist := g.nearestEnemy(u, h); dist < bestD {
			best, bestD = position{hex: h, facing: d, sailing: p.sailing}, dist
		}
	}
	return best, bestD < g.nearestEnemy(u, p.hex)
}

func (g *Game) nearestEnemy(u *Unit, h Hex) int {
	best := 1 << 30
	for _, o := range g.Units {
		if o.InPlay() && o.Side != u.Side {
			best = min(best, h.Distance(o.Hex))
		}
	}
	return best
}

// enemiesAround lists enemy units adjacent to h.
func (g *Game) enemiesAround(u *Unit, h Hex) []string {
	var out []string
	for d := N; d <= NW; d++ {
		for _, o := range g.unitsAt(h.Neighbor(d)) {
			if o.Side != u.Side {
				out = append(out, o.ID)
			}
		}
	}
	return out
}

var _ adjudicator.Game = (*Game)(nil)
