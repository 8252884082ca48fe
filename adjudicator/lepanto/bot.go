package lepanto

import (
	"fmt"
	"strings"

	"navarch/adjudicator"
)

// BotOrders returns orders a simple, always-legal player would send for the current step:
// each unit of the activated group rows towards the nearest enemy, hex by hex while each
// step stays legal, stops when it is adjacent to one, and fires at an enemy in its arc if
// it can. Leader moves and fury chits are declined. The self-play tests and the demo game
// use it; every line it returns passes Validate.
func (g *Game) BotOrders(side string) string {
	if g.Wait != waitGroup || g.WaitSides[0] != side {
		return ""
	}
	var lines []string
	for _, u := range g.Units {
		if u.Group == g.WaitGroup && u.InPlay() {
			if line := g.botLine(side, u, lines); line != "" {
				lines = append(lines, line)
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
	for _, t := range g.enemiesAround(u, p.hex) {
		withFire := strings.Replace(line, " PASS", "", 1) + " FIRE " + t
		if legal(withFire) {
			return withFire
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
