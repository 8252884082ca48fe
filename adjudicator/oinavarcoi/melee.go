package oinavarcoi

import (
	"fmt"
	"slices"

	"navarch/adjudicator/table"

	"navarch/adjudicator"
)

// endOfTurn runs the melee phase, the morale phase and the end of the turn (rule
// Sequence.turn).
func (rs *resolver) endOfTurn() error {
	g := rs.g
	if err := rs.melee(); err != nil {
		return err
	}
	if err := rs.phalanxMelee(); err != nil {
		return err
	}
	if err := rs.morale(); err != nil {
		return err
	}
	rs.rally()
	g.Phase = ""
	g.checkEnd()
	if g.Over {
		rs.event("Designed.victory", "%s", g.Result)
	}
	return nil
}

// inMelee lists the squadrons in melee, in the scenario's order.
func (g *Game) inMelee() []*Squadron {
	var out []*Squadron
	for _, s := range g.Squadrons {
		if s.InPlay() && len(s.Melee) > 0 {
			out = append(out, s)
		}
	}
	return out
}

func (g *Game) enemiesOf(s *Squadron) []*Squadron {
	var out []*Squadron
	for _, e := range g.Squadrons {
		if slices.Contains(s.Melee, e.ID) && e.InPlay() {
			out = append(out, e)
		}
	}
	return out
}

// battleResult returns the half stands a Battle test total inflicts (rule Melee.battle): 6-8
// half a stand, 9-10 one, 11+ one and a half; 0 for a failure (5 or less).
func battleResult(total int) int {
	switch {
	case total >= 11:
		return 3
	case total >= 9:
		return 2
	case total >= 6:
		return 1
	}
	return 0
}

// melee: every squadron in contact takes a Battle test at once; results are applied
// together (rules Melee.battle, Melee.modifiers, Melee.two, Flank.*). A squadron that fought
// this turn already, in the immediate melee of a diekplous, takes no second test; its
// enemies still take theirs against it.
func (rs *resolver) melee() error {
	var fighters []*Squadron
	for _, s := range rs.g.inMelee() {
		if !s.Fought {
			fighters = append(fighters, s)
		}
	}
	if err := rs.battle(fighters); err != nil {
		return err
	}
	rs.formLine()
	return nil
}

// battle has each of fighters take its Battle test against the enemies it is in melee with,
// and applies the results together.
func (rs *resolver) battle(fighters []*Squadron) error {
	g := rs.g
	loss := map[string]int{}
	var failed []*Squadron
	for _, s := range fighters {
		enemies := g.enemiesOf(s)
		if len(enemies) == 0 {
			continue
		}
		if rs.outnumbered(s, enemies) {
			continue
		}
		n, v, err := rs.twoD6("battle/"+s.ID, "Melee.battle")
		if err != nil {
			return err
		}
		mod := s.Quality - boolInt(s.Disordered)
		best := rank(enemies[0].Formation)
		for _, e := range enemies {
			best = min(best, rank(e.Formation))
		}
		diff := rank(s.Formation) - best
		first := s.MeleeTurns == 0
		// the flank attacker ignores the formation differential for as long as that melee
		// lasts, and its own failure in the first turn only (rule Flank.attacker: "ignores
		// formation differential and first-turn failure effects"; DESIGNED reading)
		if diff > 0 && !s.FlankAttacker {
			mod -= diff
		}
		total := n + mod
		switch {
		case s.Flanked || s.Formation == Unformed && first:
			rs.event("Flank.victim", "%s fights as if flanked and fails its first Battle test (%v)", s.ID, v)
			total = 0
			s.Flanked = false
		}
		h := battleResult(total)
		if h == 0 {
			if s.FlankAttacker && first {
				rs.event("Flank.attacker", "%s's Battle test %v%+d = %d fails, without effect in the first turn of its flank attack", s.ID, v, mod, n+mod)
				continue
			}
			if total > 0 {
				rs.event("Melee.battle", "%s's Battle test %v%+d = %d fails: Disordered, it must test morale", s.ID, v, mod, total)
			}
			failed = append(failed, s)
			continue
		}
		if g.full {
			h *= 2
		}
		rs.eventAs(adjudicator.KindHit, "Melee.battle", "%s's Battle test %v%+d = %d: the enemy loses %s stands", s.ID, v, mod, total, halvesText(h))
		for k, e := range g.shareOrder(enemies) {
			share := h / len(enemies)
			if k < h%len(enemies) {
				share++
			}
			loss[e.ID] += share
		}
	}
	for _, s := range failed {
		s.Failed = true
		rs.disorder(s, "Melee.battle")
	}
	hit := slices.Clone(fighters)
	for _, s := range g.Squadrons {
		if loss[s.ID] > 0 && !slices.Contains(hit, s) {
			hit = append(hit, s)
		}
	}
	for _, s := range hit {
		if l := loss[s.ID]; l > 0 {
			s.Halves -= min(l, s.Halves)
			rs.event("Melee.two", "%s loses %s stands (%s left)", s.ID, halvesText(l), s.Stands())
		}
	}
	for _, s := range fighters {
		s.MeleeTurns++
		s.Fought = true
	}
	for _, s := range hit {
		if s.Halves == 0 && s.Status != Sunk {
			rs.sink(s)
		}
	}
	return nil
}

// shareOrder returns the squadrons sharing a loss (all of one side, in the fleet list's
// order) in the order that takes the odd half stand: their side's SHARE standing order first,
// then the fleet list's (rule Melee.two: "2-vs-1 fights share losses"; which squadron takes
// the odd half is the owner's choice).
func (g *Game) shareOrder(enemies []*Squadron) []*Squadron {
	if len(enemies) < 2 {
		return enemies
	}
	var out []*Squadron
	for _, id := range g.SharePrefer[g.sc.SideIndex(enemies[0].Side)] {
		if k := slices.IndexFunc(enemies, func(e *Squadron) bool { return e.ID == id }); k >= 0 {
			out = append(out, enemies[k])
		}
	}
	for _, e := range enemies {
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// outnumbered: a squadron of one stand or less facing three stands or more routs at once
// (rule Flank.outnumbered); in full-size play two stands or less facing six or more
// (DESIGNED reading, docs/OINAVARCOI.md: the numbers double with the stands).
func (rs *resolver) outnumbered(s *Squadron, enemies []*Squadron) bool {
	if s.Halves > 2*(1+boolInt(rs.g.full)) {
		return false
	}
	t := 0
	for _, e := range enemies {
		t += e.Halves
	}
	if t < 6*(1+boolInt(rs.g.full)) {
		return false
	}
	s.Failed = true
	s.Katastrophe = true
	rs.event("Flank.outnumbered", "%s (%s stands) faces %s stands: it routs", s.ID, s.Stands(), halvesText(t))
	s.Broken = true
	return true
}

func halvesText(h int) string {
	if h%2 == 1 {
		return fmt.Sprintf("%d.5", h/2)
	}
	return fmt.Sprint(h / 2)
}

func (rs *resolver) sink(s *Squadron) {
	g := rs.g
	s.Status = Sunk
	rs.event("Stands.squadron", "%s has lost every stand", s.ID)
	rs.leaveMelee(s)
	g.Flotsam = append(g.Flotsam, Flotsam{Pose: s.Pose})
}

func (rs *resolver) leaveMelee(s *Squadron) {
	for _, e := range rs.g.Squadrons {
		if slices.Contains(s.Melee, e.ID) {
			e.Melee = removeID(e.Melee, s.ID)
			if len(e.Melee) == 0 {
				e.MeleeTurns, e.Frontal, e.FlankAttacker = 0, false, false
			}
		}
	}
	s.Melee, s.MeleeTurns, s.Frontal, s.FlankAttacker = nil, 0, false, false
}

// formLine: squadrons in epi pollon or epi keras engaged frontally form line for the next
// turn (rule Melee.ranks).
func (rs *resolver) formLine() {
	g := rs.g
	for _, s := range g.inMelee() {
		if s.Frontal && (s.Formation == Pollon || s.Formation == Keras) {
			g.setFormation(s, Mias)
			rs.event("Melee.ranks", "%s, engaged frontally, forms line (epi mias)", s.ID)
		}
	}
}

// moraleTest rolls 2d6, 6+, crew morale +/-1, Katastrophe -1, Pursuing -2 (rule Morale.test).
func (rs *resolver) moraleTest(s *Squadron, label, why string, pursuing bool) (bool, int, error) {
	n, v, err := rs.twoD6(label, "Morale.test")
	if err != nil {
		return false, 0, err
	}
	mod := s.Morale
	if s.Katastrophe || s.Formation == Unformed {
		mod--
	}
	if pursuing {
		mod -= 2
	}
	ok := n+mod >= 6
	rs.event("Morale.test", "%s tests morale (%s): %v%+d = %d, %s", s.ID, why, v, mod, n+mod, map[bool]string{true: "passes", false: "fails"}[ok])
	return ok, n + mod, nil
}

// morale: squadrons that failed a Battle test (and, in full-size play, those in melee with
// four stands or fewer) test; one squadron must survive each melee; routers spread disorder
// behind them, leave flotsam, and their enemies test to pursue; routers and pursuers move;
// then the earlier pursuers test to stop (rules Sequence.turn, Morale.*, Rout.*, Pursuit.*).
func (rs *resolver) morale() error {
	g := rs.g
	totals := map[string]int{}
	var routs []*Squadron
	for _, s := range g.Squadrons {
		if s.Broken && s.InPlay() {
			routs = append(routs, s)
		}
	}
	for _, s := range g.Squadrons {
		// every squadron that failed a Battle test this turn tests, even when its enemy sank
		// in the same melee phase and it is out of melee now (rule Morale.test)
		if !s.InPlay() || len(s.Melee) == 0 && !s.Failed || slices.Contains(routs, s) {
			continue
		}
		why := ""
		switch {
		case s.Failed:
			why = "failed Battle test"
		case g.full && s.Halves <= 8:
			why = "four stands or fewer, full-size play"
		default:
			continue
		}
		ok, t, err := rs.moraleTest(s, "morale/"+s.ID, why, false)
		if err != nil {
			return err
		}
		totals[s.ID] = t
		if !ok {
			routs = append(routs, s)
		}
	}
	routs = rs.survivor(routs, totals)
	var earlier []*Squadron // pursuing since an earlier morale phase (rule Pursuit.stop)
	for _, s := range g.Squadrons {
		if s.InPlay() && s.Pursuing != "" {
			earlier = append(earlier, s)
		}
	}
	for _, r := range g.Squadrons {
		if !slices.Contains(routs, r) {
			continue
		}
		if err := rs.rout(r); err != nil {
			return err
		}
	}
	if err := rs.moveRouters(); err != nil {
		return err
	}
	return rs.stopPursuit(earlier)
}

// stopPursuit: after the routers move, each squadron that was pursuing before this morale
// phase and still is tests morale, -2 Pursuing, and stops on a pass (rules Pursuit.stop,
// Sequence.turn: "squadrons that failed Battle tests test morale, routers move, and
// pursuers test to stop").
func (rs *resolver) stopPursuit(earlier []*Squadron) error {
	for _, s := range earlier {
		if !s.InPlay() || s.Pursuing == "" {
			continue
		}
		ok, _, err := rs.moraleTest(s, "stop/"+s.ID, "to stop pursuing", true)
		if err != nil {
			return err
		}
		if ok {
			s.Pursuing = ""
			rs.event("Pursuit.stop", "%s stops pursuing", s.ID)
		}
	}
	return nil
}

// survivor applies "one squadron must survive each melee": if every squadron of a melee
// would rout, the one with the highest morale roll stays (ties: more stands, then the
// scenario's order; SUBSTITUTE).
func (rs *resolver) survivor(routs []*Squadron, totals map[string]int) []*Squadron {
	g := rs.g
	done := map[string]bool{}
	for _, s := range g.inMelee() {
		if done[s.ID] {
			continue
		}
		group := g.meleeGroup(s)
		all := true
		for _, x := range group {
			done[x.ID] = true
			all = all && slices.Contains(routs, x)
		}
		if !all {
			continue
		}
		var best *Squadron
		for _, x := range group {
			if best == nil || totals[x.ID] > totals[best.ID] || totals[x.ID] == totals[best.ID] && x.Halves > best.Halves {
				best = x
			}
		}
		routs = slices.DeleteFunc(routs, func(x *Squadron) bool { return x == best })
		rs.event("Morale.survive", "Every squadron of the melee would rout: %s, with the highest roll, stays", best.ID)
	}
	return routs
}

// meleeGroup returns the squadrons joined to s by melee, in the scenario's order.
func (g *Game) meleeGroup(s *Squadron) []*Squadron {
	in := map[string]bool{s.ID: true}
	for changed := true; changed; {
		changed = false
		for _, x := range g.Squadrons {
			if !in[x.ID] {
				continue
			}
			for _, id := range x.Melee {
				if !in[id] {
					in[id], changed = true, true
				}
			}
		}
	}
	var out []*Squadron
	for _, x := range g.Squadrons {
		if in[x.ID] && x.InPlay() {
			out = append(out, x)
		}
	}
	return out
}

// rout turns r into a router (rule Rout.move): squadrons within 6" directly behind it are
// disordered (rule Rout.behind), flotsam marks the melee (rule Flotsam), and each enemy in
// melee with it tests morale: a failure pursues, Unformed (rule Pursuit.start).
func (rs *resolver) rout(r *Squadron) error {
	g := rs.g
	enemies := g.enemiesOf(r)
	rs.eventAs(adjudicator.KindBreak, "Rout.move", "%s routs", r.ID)
	b := g.base(r)
	for _, s := range g.Squadrons {
		if s == r || !s.InPlay() || slices.Contains(r.Melee, s.ID) || s.Freighter {
			continue
		}
		pg := g.corners(s)
		if table.Distance(b.Corners(r.Pose), pg) <= 6*table.Inch && b.InArc(r.Pose, table.Stern, pg, 6*table.Inch) &&
			!b.InArc(r.Pose, table.Port, pg, 6*table.Inch) && !b.InArc(r.Pose, table.Starboard, pg, 6*table.Inch) {
			rs.event("Rout.behind", "%s is directly behind the routing %s", s.ID, r.ID)
			rs.disorder(s, "Rout.behind")
		}
	}
	g.Flotsam = append(g.Flotsam, Flotsam{Pose: r.Pose})
	rs.event("Flotsam", "Flotsam marks where %s fought", r.ID)
	r.Fled = slices.Clone(r.Melee)
	rs.leaveMelee(r)
	r.Status, r.Pursuing, r.Hold, r.Reform = Routing, "", false, ""
	for _, e := range enemies {
		if !e.InPlay() || e.Pursuing != "" {
			continue
		}
		ok, _, err := rs.moraleTest(e, "pursue/"+e.ID+"/"+r.ID, "in melee with a router", false)
		if err != nil {
			return err
		}
		if !ok && len(e.Melee) == 0 {
			e.Pursuing, e.Hold = r.ID, true
			if e.Formation != Unformed {
				rs.unform(e)
			}
			rs.event("Pursuit.start", "%s pursues %s, Unformed", e.ID, r.ID)
		}
	}
	return nil
}

// moveRouters: routers move 2Avd directly away from the enemy, through other squadrons
// (rule Rout.move); pursuers follow into contact (rule Pursuit.start).
func (rs *resolver) moveRouters() error {
	g := rs.g
	moved := map[string]table.Len{}
	for _, r := range g.Squadrons {
		if r.Status != Routing {
			continue
		}
		d := 0
		for k := 1; k <= 2; k++ {
			v, err := rs.avd(fmt.Sprintf("rout/%s/%d", r.ID, k), "Rout.move")
			if err != nil {
				return err
			}
			d += v
		}
		r.Pose.Heading = g.awayFrom(r)
		r.Pose = r.Pose.Forward(table.Len(d) * table.Inch)
		moved[r.ID] = table.Len(d) * table.Inch
		rs.event("Rout.move", "%s flees %d\" to %v", r.ID, d, r.Pose.At)
		rs.offTable(r)
		rs.ashore(r)
	}
	for _, p := range g.Squadrons {
		r := g.sq(p.Pursuing)
		if r == nil || !p.InPlay() {
			continue
		}
		if r.Status != Routing {
			p.Pursuing = ""
			rs.event("Pursuit.stop", "%s's quarry is gone: the pursuit ends", p.ID)
			continue
		}
		p.Pose.Heading = bearing(r.Pose.At.Sub(p.Pose.At))
		p.Moved = true // its turn was not stationary: it does not reform (rule Formations.unformed)
		poses, _ := g.base(p).Follow(p.Pose, table.Path{{Move: moved[r.ID]}}, []table.Polygon{g.corners(r)})
		if len(poses) > 0 {
			p.Pose = poses[len(poses)-1]
		}
		rs.event("Pursuit.start", "%s pursues to %v", p.ID, p.Pose.At)
		rs.offTable(p)
	}
	return nil
}

// awayFrom returns the heading directly away from the nearest enemy r fled from, or from
// the nearest enemy squadron in play if none of those is left (rule Rout.move).
func (g *Game) awayFrom(r *Squadron) table.Deg {
	var best *Squadron
	var bestD table.Len
	for _, fled := range []bool{true, false} {
		for _, e := range g.Squadrons {
			if e.Side == r.Side || !e.InPlay() || e.Freighter || fled && !slices.Contains(r.Fled, e.ID) {
				continue
			}
			if d := table.Distance(g.corners(r), g.corners(e)); best == nil || d < bestD {
				best, bestD = e, d
			}
		}
		if best != nil {
			break
		}
	}
	if best == nil {
		return r.Pose.Heading
	}
	v := r.Pose.At.Sub(best.Pose.At)
	if v == (table.Point{}) {
		return table.Norm(r.Pose.Heading + 180)
	}
	return bearing(v)
}

// offTable settles a squadron that has reached past a table edge (rule Rout.edges): lost by
// an enemy edge, saved by a friendly one, by a neutral edge it rolls 7+ on 2d6 per remaining
// stand for the voyage home; a freighter leaving by its exit edge has exited (rule
// Scenarios.convoy). It reports whether s left.
func (rs *resolver) offTable(s *Squadron) bool {
	g := rs.g
	over := g.sc.Table.Over(g.corners(s))
	if len(over) == 0 || !s.OnTable() {
		return false
	}
	e := over[0]
	i := g.sc.SideIndex(s.Side)
	rs.leaveMelee(s)
	s.Pursuing, s.RaceWith = "", ""
	switch st := g.sc.Edges[i][e]; {
	case s.Freighter && int(e) == g.sc.Exit[i]:
		s.Status = Exited
		rs.event("Scenarios.convoy", "%s leaves by the %s edge: the convoy gets through", s.ID, e)
	case st == "friendly":
		s.Status = Saved
		rs.event("Rout.edges", "%s leaves by the friendly %s edge: saved", s.ID, e)
	case st == "enemy":
		s.Status = Lost
		rs.eventAs(adjudicator.KindLoss, "Rout.edges", "%s leaves by the enemy %s edge: lost", s.ID, e)
	default:
		rs.voyage(s, e)
	}
	return true
}

// voyage: 7+ on 2d6 for each remaining stand to survive the long voyage home.
func (rs *resolver) voyage(s *Squadron, e table.Side) {
	stands := (s.Halves + 1) / 2
	kept := 0
	for k := 1; k <= stands; k++ {
		n, v, err := rs.twoD6(fmt.Sprintf("home/%s/%d", s.ID, k), "Rout.edges")
		if err != nil {
			rs.err = err
			return
		}
		if n >= 7 {
			kept++
		}
		rs.event("Rout.edges", "%s stand %d on the voyage home: %v", s.ID, k, v)
	}
	s.Halves = min(s.Halves, kept*2)
	s.Status = Saved
	if kept == 0 {
		s.Status = Lost
	}
	rs.event("Rout.edges", "%s leaves by the neutral %s edge: %d of %d stands get home", s.ID, e, kept, stands)
}

// ashore: a router driven onto a hostile beach is lost (rule Rout.edges); onto the cape it is
// wrecked (SUBSTITUTE); onto its own beach it is saved (SUBSTITUTE).
func (rs *resolver) ashore(r *Squadron) {
	g := rs.g
	if r.Status != Routing {
		return
	}
	i := g.sc.SideIndex(r.Side)
	pg := g.corners(r)
	switch {
	case len(g.sc.Beach[1-i]) > 0 && table.Overlap(pg, g.sc.Beach[1-i]):
		r.Status = Lost
		rs.eventAs(adjudicator.KindLoss, "Rout.edges", "%s is driven onto a hostile beach: lost", r.ID)
	case len(g.sc.Cape) > 0 && table.Overlap(pg, g.sc.Cape):
		r.Status = Lost
		rs.eventAs(adjudicator.KindLoss, "Rout.edges", "%s is driven onto the cape: wrecked", r.ID)
	case len(g.sc.Beach[i]) > 0 && table.Overlap(pg, g.sc.Beach[i]):
		r.Status = Saved
		rs.event("Rout.edges", "%s runs onto its own beach: saved", r.ID)
	}
}

// rally: a Disordered squadron that spent the movement phase stationary and out of melee
// recovers at the end of the turn (rule Disorder.rally) — disordered before that phase began
// (a disorder after it waits for the next stationary phase: SUBSTITUTE reading); an unformed one that did so reforms
// ("must spend a stationary turn to reform", rule Formations.unformed), whether it was ordered
// REFORM F, HOLD or nothing: in F, else in epi mias, still Disordered (DESIGNED reading,
// docs/OINAVARCOI.md).
func (rs *resolver) rally() {
	g := rs.g
	for _, s := range g.Squadrons {
		still := s.InPlay() && !s.Moved && !s.Fresh && len(s.Melee) == 0 && s.Pursuing == "" && !s.Freighter
		switch {
		case still && s.Formation == Unformed:
			f, how := s.Reform, "as ordered"
			if f == "" {
				f, how = Mias, "the line, with no REFORM order"
			}
			g.setFormation(s, f)
			rs.event("Formations.unformed", "%s reforms in %s (%s), still Disordered", s.ID, f, how)
		case still && s.Disordered && s.Formation != Unformed:
			s.Disordered = false
			rs.event("Disorder.rally", "%s rallies from Disorder", s.ID)
		}
		s.Moved, s.Failed, s.Katastrophe, s.Reform, s.Fought, s.Broken = false, false, false, "", false, false
	}
}

// checkEnd ends the game (rule Designed.victory, SUBSTITUTE): when a side has no squadron
// left afloat and in order, when the convoy has no freighter left on the table, or after the
// scenario's last turn; the side that lost fewer squadrons wins (the convoy's side needs half
// its freighters through).
func (g *Game) checkEnd() {
	var inPlay, lost [2]int
	for _, s := range g.Squadrons {
		i := g.sc.SideIndex(s.Side)
		if s.Freighter {
			continue
		}
		if s.InPlay() || s.Status == Beached || s.Status == Racing {
			inPlay[i]++
		} else {
			lost[i]++
		}
	}
	switch a := g.armyRouted(); {
	case a != "":
		g.end(fmt.Sprintf("%s wins: the %s army routs, two of its wings broken", g.enemy(a), a))
	case inPlay[0] == 0 && inPlay[1] == 0:
		g.end("a draw: neither fleet has a squadron left in order")
	case inPlay[0] == 0 || inPlay[1] == 0:
		w := 0
		if inPlay[0] == 0 {
			w = 1
		}
		g.end(fmt.Sprintf("%s wins: the %s fleet has no squadron left in order", g.side(w), g.side(1-w)))
	case g.convoyDone():
		g.end(g.convoyResult())
	case g.Turn >= g.sc.Turns:
		switch {
		case lost[0] == lost[1]:
			g.end(fmt.Sprintf("a draw after %d turns: each fleet lost %d squadrons", g.Turn, lost[0]))
		default:
			w := 0
			if lost[1] < lost[0] {
				w = 1
			}
			g.end(fmt.Sprintf("%s wins after %d turns: %d squadrons lost against %d", g.side(w), g.Turn, lost[w], lost[1-w]))
		}
	}
}

func (g *Game) convoyDone() bool {
	has := false
	for _, s := range g.Squadrons {
		if s.Freighter {
			has = true
			if s.OnTable() {
				return false
			}
		}
	}
	return has
}

func (g *Game) convoyResult() string {
	total, out := 0, 0
	side := ""
	for _, s := range g.Squadrons {
		if s.Freighter {
			side = s.Side
			total++
			out += boolInt(s.Status == Exited)
		}
	}
	if 2*out >= total {
		return fmt.Sprintf("%s wins: %d of %d freighters got through", side, out, total)
	}
	return fmt.Sprintf("%s wins: only %d of %d freighters got through", g.enemy(side), out, total)
}
