package medieval

import (
	"fmt"
	"strings"

	"navarch/adjudicator/table"
)

// BotOrders returns orders a simple, always-legal player would send for the current step:
// on a Sail/Fight card each free ship of the Division takes, of a few legal paths (straight
// on, or turning up to 30 degrees towards the nearest enemy in the one-turn pattern), the one
// that ends nearest that enemy, then shoots at the nearest enemy in missile range and fires
// each loaded broadside at an enemy in its arc from where the path ends. On a Command and
// Control card it sends nothing (the default reloads and fights fires). Every line it returns
// passes Validate.
func (g *Game) BotOrders(side string) string {
	st := g.Next()
	if len(st.Sides) != 1 || st.Sides[0] != side || isCommand(g.Card) {
		return ""
	}
	div, _ := cardDivision(g.Card)
	var lines []string
	for _, s := range g.Ships {
		if s.Division != div || !s.Active() {
			continue
		}
		if line := g.botLine(side, s, lines); line != "" {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}

func (g *Game) legalLine(side string, before []string, line string) bool {
	orders, errs := g.Parse(side, strings.Join(append(before, line), "\n"))
	return len(errs) == 0 && len(g.Validate(side, orders)) == 0
}

func (g *Game) nearestEnemy(s *Ship, at table.Pose) (*Ship, table.Len) {
	var best *Ship
	var bd table.Len
	pg := s.Base.Corners(at)
	for _, e := range g.Ships {
		if e.Side == s.Side || !e.Active() {
			continue
		}
		if d := table.Distance(pg, e.Corners()); best == nil || d < bd {
			best, bd = e, d
		}
	}
	return best, bd
}

func (g *Game) botLine(side string, s *Ship, before []string) string {
	target, _ := g.nearestEnemy(s, s.Pose)
	if target == nil {
		return ""
	}
	var best table.Path
	end := s.Pose
	if len(s.Grappled) == 0 {
		var bestD table.Len = -1
		for _, path := range g.candidatePaths(s, target) {
			if !g.legalLine(side, before, s.ID+" "+path.String()) {
				continue
			}
			poses := table.Apply(s.Pose, path)
			if !g.sc.Table.Inside(s.Base.Corners(poses[len(poses)-1])) {
				continue // the bot never sails off the table
			}
			_, d := g.nearestEnemy(s, poses[len(poses)-1])
			if bestD < 0 || d < bestD {
				best, bestD, end = path, d, poses[len(poses)-1]
			}
		}
	}
	line := s.ID
	if len(best) > 0 {
		line += " " + best.String()
	}
	if !g.inBoarding(s) {
		line = g.botShots(side, s, end, before, line)
	}
	if line == s.ID {
		return ""
	}
	return line
}

// candidatePaths: straight on at full and half allowance, the one-turn pattern turning up
// to 30 degrees towards target, and two 30-degree turns either way.
func (g *Game) candidatePaths(s *Ship, target *Ship) []table.Path {
	a, _ := g.allowance(s, s.Pose.Heading)
	var out []table.Path
	if a > 0 {
		out = append(out, table.Path{{Move: a}}, table.Path{{Move: a / 2}})
	}
	dx, dy := target.Pose.At.X-s.Pose.At.X, target.Pose.At.Y-s.Pose.At.Y
	want := bearing(dx, dy)
	turn := max(-30, min(30, table.Diff(s.Pose.Heading, want)))
	if turn != 0 && movement[s.F.Sea].turns > 0 {
		h2 := table.Norm(s.Pose.Heading + turn)
		a2, _ := g.allowance(s, h2)
		half := min(a, a2) / 2
		if half > 0 {
			out = append(out, table.Path{{Move: half}, {Turn: turn}, {Move: half}}, table.Path{{Move: half / 2}, {Turn: turn}, {Move: half / 2}})
		}
	}
	if movement[s.F.Sea].turns >= 2 { // two turns, turn first: how a ship turns out of the wind
		for _, t := range []table.Deg{30, -30} {
			h1, h2 := table.Norm(s.Pose.Heading+t), table.Norm(s.Pose.Heading+2*t)
			a1, _ := g.allowance(s, h1)
			a2, _ := g.allowance(s, h2)
			if a1 > 0 && a2 > 0 {
				out = append(out, table.Path{{Turn: t}, {Move: a1 / 2}, {Turn: t}, {Move: a2 / 2}})
			}
		}
	}
	return out
}

// bearing returns the whole-degree compass bearing nearest the direction (dx, dy), found on
// the integer sine table (no floating point).
func bearing(dx, dy table.Len) table.Deg {
	best, bestV := 0, int64(-1<<62)
	for h := 0; h < 360; h++ {
		// the projection of (dx, dy) on the unit vector of h: greatest nearest the direction
		along := dx*table.Sin(h) + dy*table.Cos(h)
		if along > bestV {
			best, bestV = h, along
		}
	}
	return best
}

func (g *Game) botShots(side string, s *Ship, end table.Pose, before []string, line string) string {
	for _, e := range g.Ships {
		if e.Side == s.Side || !e.Active() {
			continue
		}
		if table.Distance(s.Base.Corners(end), e.Corners()) <= g.data.Rules.MissileRange && s.F.Missile > NNE {
			if cand := line + " SHOOT " + e.ID; g.legalLine(side, before, cand) {
				line = cand
				break
			}
		}
	}
	for _, side2 := range []table.Arc{table.Port, table.Starboard} {
		if s.Loaded[sideIndex(side2)] == NNE {
			continue
		}
		for _, e := range g.Ships {
			if e.Side == s.Side || !e.Active() {
				continue
			}
			d := table.Distance(s.Base.Corners(end), e.Corners())
			if d <= gunReach && s.Base.InArc(end, side2, e.Corners(), gunReach) {
				if cand := fmt.Sprintf("%s FIRE %s %s", line, broadsideWord(side2), e.ID); g.legalLine(side, before, cand) {
					line = cand
					break
				}
			}
		}
	}
	return line
}

// BotAdvanceOrders returns what a player who orders ahead would send now: the bot's orders
// for the card turned and, for each other Division of side, the Sail/Fight lines the bot
// would give it if its card were turned now, twice, for its two Sail/Fight cards, and for
// each of its Divisions a reload for its Command and Control card (botReload); Applicable
// uses them when their cards come, if they are still legal then.
func (g *Game) BotAdvanceOrders(side string) string {
	lines := []string{g.BotOrders(side)}
	card := g.Card
	defer func() { g.Card = card }()
	active, _ := g.ActiveDivision()
	for _, d := range g.sc.Divisions {
		if d.Side != side || d.ID == active || !g.divisionCanAct(d.ID) {
			continue
		}
		g.Card = d.ID + "/" + cardSF1
		text := g.BotOrders(side)
		lines = append(lines, text, text) // for both its Sail/Fight cards

	}
	for _, d := range g.sc.Divisions {
		if d.Side == side {
			lines = append(lines, g.botReload(d.ID))
		}
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// botReload is a Command and Control line for division div's card: its first ship with a
// broadside reloads the one furthest below its Gunnery (port when both are full); the
// Division's other ships then take the no-orders default. "" if no ship has a broadside.
func (g *Game) botReload(div string) string {
	for _, s := range g.Ships {
		if s.Division != div || !s.Active() || (s.F.GunPort == NNE && s.F.GunStarboard == NNE) {
			continue
		}
		side, ok := defaultReload(s)
		if !ok {
			side = table.Port
		}
		return s.ID + " RELOAD " + broadsideWord(side)
	}
	return ""
}
