package medieval

import (
	"fmt"
	"strings"

	"navarch/adjudicator/table"
)

// BotOrders returns orders a simple, always-legal player would send for the current step,
// using the moves a player has: on a Sail/Fight card each free ship of the Division weighs
// its paths (straight on, one turn of 10-30 degrees, two of 15 or 30, three of 30) by
// botScore, which closes with the nearest enemy as a ship must sail (close-hauled when the
// enemy is upwind, wearing round rather than into the wind's eye, clear of the table's
// edge) and brings a loaded broadside to bear; then it shoots at an enemy in missile range
// and fires each loaded broadside at the enemy in its arc that it reaches with the most
// dice. Ships in contact grapple (their standing wish) and board. On a Command and Control
// card it keeps the default (fires fought, the emptiest broadside reloaded) and cuts free
// of a stronger enemy or passes Combat to a friend fighting short of it (botCommand).
// Every line it returns passes Validate.
func (g *Game) BotOrders(side string) string {
	st := g.Next()
	if len(st.Sides) != 1 || st.Sides[0] != side {
		return ""
	}
	div, _ := cardDivision(g.Card)
	if isCommand(g.Card) {
		return strings.Join(g.botCommand(div), "\n")
	}
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
	if len(s.Grappled) == 0 && len(s.Lashed) == 0 {
		bestScore := g.botScore(s, s.Pose)
		for _, path := range g.candidatePaths(s) {
			if g.checkPath(s, path) != nil {
				continue
			}
			poses := table.Apply(s.Pose, path)
			at := poses[len(poses)-1]
			if !g.sc.Table.Inside(s.Base.Corners(at)) {
				continue // the bot never sails off the table
			}
			if sc := g.botScore(s, at); sc < bestScore && g.legalLine(side, before, s.ID+" "+path.String()) {
				best, bestScore, end = path, sc, at
			}
		}
	}
	line := s.ID
	if len(best) > 0 {
		line += " " + best.String()
	}
	if !g.inBoarding(s) {
		line = g.botShots(side, s, end, before, line)
	} else if es := g.boarders(s); len(es) > 1 {
		// both dice, and her standing choice when the enemy is phasing, at the weakest
		// enemy in contact (rule "Boarding"): the one nearest to striking
		weakest := es[0]
		for _, e := range es[1:] {
			if e.F.Combat < weakest.F.Combat {
				weakest = e
			}
		}
		cand := line + " FIGHT " + weakest.ID
		if s.Against != weakest.ID {
			cand += " AGAINST " + weakest.ID
		}
		if g.legalLine(side, before, cand) {
			line = cand
		}
	}
	if line == s.ID {
		return ""
	}
	return line
}

// botScore rates a pose for s, lower is better: the way to the nearest enemy as a ship
// must sail it (upwind by tacks, reading 1: a bearing into the wind costs the longer way
// close-hauled), the turns her heading still needs to point that way (through the wind's
// eye is not a way, rule "Movement": she wears round through downwind), a bow pointed at a
// near table edge, and,
// against all that, a loaded broadside bearing on an enemy in range.
func (g *Game) botScore(s *Ship, at table.Pose) int64 {
	e, d := g.nearestEnemy(s, at)
	if e == nil {
		return 0
	}
	want := bearing(e.Pose.At.X-at.At.X, e.Pose.At.Y-at.At.Y)
	nogo := g.data.Rules.Points.NoGo
	score := int64(d)
	if off := table.OffWind(want, g.Wind); off < nogo { // upwind: sail close-hauled, the longer way
		score = score * int64(table.Cos(off)) / int64(table.Cos(nogo))
		if table.Diff(want, g.Wind) < 0 {
			want = table.Norm(g.Wind - nogo)
		} else {
			want = table.Norm(g.Wind + nogo)
		}
	}
	// three inches a 30-degree turn still to make; room to wear round before the edge
	score += int64(g.turnsTo(at.Heading, want)) * 300
	if ray := g.rayToEdge(at); ray < 12*table.Inch {
		score += int64(12*table.Inch-ray) * 2
	}
	for _, a := range []table.Arc{table.Port, table.Starboard} {
		if s.Loaded[sideIndex(a)] == NNE {
			continue
		}
		for _, t := range g.Ships {
			if t.Side == s.Side || !t.Active() || !s.Base.InArc(at, a, t.Corners(), gunReach) {
				continue
			}
			if n, _ := band(table.Distance(s.Base.Corners(at), t.Corners())); n > 0 {
				score -= int64(n) * 150 // a broadside to fire: worth an inch and a half a die
				break
			}
		}
	}
	return score
}

// turnsTo counts the 30-degree turns from heading h to want that never head into the wind,
// turning the way that can (through downwind when the short way crosses the wind's eye).
func (g *Game) turnsTo(h, want table.Deg) int {
	d := table.Diff(h, want) // the short way, clockwise positive
	step := table.Deg(30)
	if d < 0 {
		step = -30
	}
	turn := abs(d)
	for x := table.Norm(h + step); table.Diff(x, want)*int(step) > 0; x = table.Norm(x + step) {
		if table.OffWind(x, g.Wind) < g.data.Rules.Points.NoGo {
			turn = 360 - turn // the short way crosses the wind's eye: the long way round
			break
		}
	}
	return (int(turn) + 29) / 30
}

// rayToEdge is how far ahead of her bow the table's edge lies.
func (g *Game) rayToEdge(p table.Pose) table.Len {
	lo, hi := table.Len(0), g.sc.Table.Width+g.sc.Table.Height
	for lo < hi {
		mid := (lo + hi + 1) / 2
		q := p.Forward(mid).At
		if q.X >= 0 && q.Y >= 0 && q.X <= g.sc.Table.Width && q.Y <= g.sc.Table.Height {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// candidatePaths are the paths the bot weighs: straight on at full and half allowance,
// the one-turn pattern at 10, 20 and 30 degrees either way, the two-turn pattern with turns
// of 15 or 30 degrees in any combination, and three turns of 30 the same way; each move the
// largest the heading allows.
func (g *Game) candidatePaths(s *Ship) []table.Path {
	a, _ := g.allowance(s, s.Pose.Heading)
	half := func(h table.Deg) table.Len { x, _ := g.allowance(s, table.Norm(h)); return x / 2 }
	var out []table.Path
	if a > 0 {
		out = append(out, table.Path{{Move: a}}, table.Path{{Move: a / 2}})
	}
	turns := movement[s.F.Sea].turns
	h := s.Pose.Heading
	for _, t := range []table.Deg{10, -10, 20, -20, 30, -30} {
		if turns >= 1 && a > 0 {
			if m := min(a/2, half(h+t)); m > 0 {
				out = append(out, table.Path{{Move: a / 2}, {Turn: t}, {Move: m}})
			}
		}
	}
	if turns >= 2 {
		for _, t1 := range []table.Deg{15, -15, 30, -30} {
			for _, t2 := range []table.Deg{15, -15, 30, -30} {
				if m1, m2 := half(h+t1), half(h+t1+t2); m1 > 0 && m2 > 0 {
					out = append(out, table.Path{{Turn: t1}, {Move: m1}, {Turn: t2}, {Move: m2}})
				}
			}
		}
	}
	if turns >= 3 {
		for _, t := range []table.Deg{30, -30} {
			if m1, m2 := half(h+t), half(h+2*t); m1 > 0 && m2 > 0 {
				out = append(out, table.Path{{Turn: t}, {Move: m1}, {Turn: t}, {Move: m2}, {Turn: t}})
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
		var target *Ship
		var most int
		for _, e := range g.Ships { // the enemy in the arc whose band gives the most dice
			if e.Side == s.Side || !e.Active() || !s.Base.InArc(end, side2, e.Corners(), gunReach) {
				continue
			}
			if n, _ := band(table.Distance(s.Base.Corners(end), e.Corners())); n > most {
				target, most = e, n
			}
		}
		if target != nil {
			if cand := fmt.Sprintf("%s FIRE %s %s", line, broadsideWord(side2), target.ID); g.legalLine(side, before, cand) {
				line = cand
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
		if d.Side == side && !(d.ID == active && isCommand(card)) {
			if cc := g.botCommand(d.ID); len(cc) > 0 {
				lines = append(lines, strings.Join(cc, "\n"))
			} else {
				lines = append(lines, g.botReload(d.ID))
			}
		}
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// botCommand is what the bot does on division div's Command and Control card beyond the
// no-orders default, which it keeps (the fire fought, the emptiest broadside reloaded): a
// ship grappled with an enemy stronger in Combat tries to cut free of the strongest (rule
// "Cutting Free"); a ship in no boarding action passes a level of Combat to a friend lashed
// to her or in contact who is fighting one below her starting Combat, if she keeps two
// levels herself (rules "Passing Crew Components", "Boarding": "only to fill gaps").
func (g *Game) botCommand(div string) []string {
	var lines []string
	for _, s := range g.Ships {
		if s.Division != div || !s.Active() {
			continue
		}
		o := &Order{Ship: s.ID, Douse: s.Burning}
		if arc, ok := defaultReload(s); ok {
			o.Reload, o.Reloading = arc, true
		}
		var strongest *Ship
		for _, id := range s.Grappled {
			if e := g.ship(id); e != nil && e.F.Combat > s.F.Combat && (strongest == nil || e.F.Combat > strongest.F.Combat) {
				strongest = e
			}
		}
		switch {
		case strongest != nil:
			o.Cut = []string{strongest.ID}
		case !g.inBoarding(s) && s.F.Combat >= WKN:
			for _, t := range g.Ships {
				if t != s && t.Side == s.Side && t.Active() && g.inBoarding(t) && t.F.Combat < t.Start.Combat &&
					(contains(s.Lashed, t.ID) || table.Contact(s.Corners(), t.Corners())) {
					o.Pass = []PassOrder{{"COMBAT", t.ID}}
					break
				}
			}
		}
		if len(o.Cut) > 0 || len(o.Pass) > 0 {
			lines = append(lines, o.String())
		}
	}
	return lines
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
