package oinavarcoi

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator/table"

	"navarch/adjudicator"
)

// enemyNear reports whether an enemy squadron in play is within the manoeuvre test's 8".
func (g *Game) enemyNear(s *Squadron) bool {
	for _, e := range g.Squadrons {
		if e.Side != s.Side && e.InPlay() && !e.Freighter && table.Distance(g.corners(s), g.corners(e)) <= g.data.Rules.EnemyNear {
			return true
		}
	}
	return false
}

// manoeuvre tests s on 2d6, 6+, crew quality +/-1, Disordered -1, -2 within 8" of an enemy
// (rule Manoeuvre.test). On a failure the manoeuvre still happens and the squadron is
// Disordered, or Unformed if it already was.
func (rs *resolver) manoeuvre(s *Squadron, label, rule, what string) (bool, error) {
	n, v, err := rs.twoD6(label, "Manoeuvre.test")
	if err != nil {
		return false, err
	}
	mod := s.Quality - boolInt(s.Disordered)
	near := rs.g.enemyNear(s)
	if near {
		mod -= 2
	}
	ok := n+mod >= 6
	res := "passes"
	if !ok {
		res = "fails"
	}
	rs.event(rule, "%s tests manoeuvre for %s: %v%+d = %d, %s", s.ID, what, v, mod, n+mod, res)
	if !ok {
		rs.disorder(s, "Manoeuvre.test")
	}
	return ok, nil
}

// disorder disorders s, or makes it Unformed if it already was (rule Disorder.effects).
func (rs *resolver) disorder(s *Squadron, rule string) {
	if s.Freighter {
		return
	}
	s.Fresh = true
	switch {
	case !s.Disordered:
		s.Disordered = true
		rs.event(rule, "%s is Disordered", s.ID)
	case s.Formation != Unformed:
		rs.unform(s)
		rs.event(rule, "%s, already Disordered, becomes Unformed", s.ID)
	}
}

func (rs *resolver) unform(s *Squadron) {
	g := rs.g
	nb := g.footprint(s, Unformed)
	s.Pose = keepFront(g.base(s), nb, s.Pose)
	s.Formation, s.Disordered = Unformed, true
}

// setFormation changes s's formation keeping its front's centre.
func (g *Game) setFormation(s *Squadron, f string) {
	s.Pose = keepFront(g.base(s), g.footprint(s, f), s.Pose)
	s.Formation = f
}

// obstacle is something a moving squadron stops at.
type obstacle struct {
	pg   table.Polygon
	sq   *Squadron // nil for land and the edges
	edge bool
}

// outside returns four strips just beyond the table's edges.
func (g *Game) outside() []table.Polygon {
	w, h, m := g.sc.Table.Width, g.sc.Table.Height, 100*table.Inch
	rect := func(x0, y0, x1, y1 table.Len) table.Polygon {
		return table.Polygon{{X: x0, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}, {X: x1, Y: y0}}
	}
	return []table.Polygon{rect(-m, h, w+m, h+m), rect(w, -m, w+m, h+m), rect(-m, -m, w+m, 0), rect(-m, -m, 0, h+m)}
}

// obstacles lists what s may not move through: the other squadrons on the table that are
// not routing (routers are passed through, rule Rout.move), the cape and the beaches; and for
// a warship the table's edges (only routers, racers and freighters leave the table:
// SUBSTITUTE).
func (g *Game) obstacles(s *Squadron) []obstacle {
	var out []obstacle
	if !s.Freighter {
		for _, pg := range g.outside() {
			out = append(out, obstacle{pg: pg, edge: true})
		}
	}
	for _, o := range g.Squadrons {
		if o != s && o.OnTable() && o.Status != Routing {
			out = append(out, obstacle{pg: g.corners(o), sq: o})
		}
	}
	for _, pg := range append([]table.Polygon{g.sc.Cape}, g.sc.Beach[:]...) {
		if len(pg) > 0 {
			out = append(out, obstacle{pg: pg})
		}
	}
	return out
}

func polys(obs []obstacle) []table.Polygon {
	out := make([]table.Polygon, len(obs))
	for i, o := range obs {
		out[i] = o.pg
	}
	return out
}

// crossesFlotsam reports whether the area swept from p over d crosses a flotsam marker.
func (g *Game) crossesFlotsam(b table.Base, p table.Pose, d table.Len) bool {
	end := p.Forward(d)
	swept := table.Hull(append(append(table.Polygon{}, b.Corners(p)...), b.Corners(end)...))
	for _, f := range g.Flotsam {
		if table.Overlap(swept, g.flotsamBase().Corners(f.Pose)) {
			return true
		}
	}
	return false
}

// flotsamBase is the size of a squadron in epi mias (rule Flotsam).
func (g *Game) flotsamBase() table.Base {
	fp := g.data.Rules.Footprint[Mias]
	return table.Base{Length: fp[1] * g.data.Rules.StandDepth / 100, Beam: fp[0] * g.data.Rules.StandWidth / 100}
}

// mover moves one squadron through its order's steps.
type mover struct {
	rs      *resolver
	s       *Squadron
	o       *Order
	left    table.Len
	rolled  bool
	engage  bool          // the ENGAGE signal was given to its wing (no test to engage)
	start   table.Polygon // where it stood when its move began (rule Flank.only)
	tests   int
	stopped bool
}

// allowance is the squadron's move (rule Formations.mias, pollon, keras, unformed): epi mias
// 1Avd, epi pollon and epi keras 8", unformed 1Avd-1; Disordered -1 (not again for Unformed).
func (m *mover) allowance() error {
	if m.rolled {
		return nil
	}
	m.rolled = true
	s := m.s
	switch s.Formation {
	case Pollon, Keras:
		m.left = 8 * table.Inch
	case Mias, Unformed:
		v, err := m.rs.avd("move/"+s.ID, "Dice.average")
		if err != nil {
			return err
		}
		m.left = table.Len(v) * table.Inch
		rule := "Formations.mias"
		if s.Formation == Unformed {
			m.left -= table.Inch
			rule = "Formations.unformed"
		}
		m.rs.event(rule, "%s rolls the average die: %d", s.ID, v)
	}
	if s.Disordered && s.Formation != Unformed {
		m.left -= table.Inch
	}
	m.left = max(m.left, 0)
	return nil
}

func (m *mover) test(what, rule string) error {
	m.tests++
	_, err := m.rs.manoeuvre(m.s, fmt.Sprintf("manoeuvre/%s/%d", m.s.ID, m.tests), rule, what)
	return err
}

// squadronOrder carries out one squadron's order.
func (rs *resolver) squadronOrder(o *Order, engage bool) error {
	m := &mover{rs: rs, s: rs.g.sq(o.Sq), o: o, engage: engage}
	return m.run(o)
}

// run carries out o: a conditional order rolls the squadron's move first, then carries out
// the branch that move chooses.
func (m *mover) run(o *Order) error {
	rs, g, s := m.rs, m.rs.g, m.s
	if o.If > 0 {
		if err := m.allowance(); err != nil {
			return err
		}
		pick, res := o.Else, "less"
		if m.left >= o.If {
			then := *o
			then.If, then.Else = 0, nil
			pick, res = &then, "enough"
		}
		rs.event("Formations.mias", "%s may move %s\" (IF %s+: %s): %s", s.ID, table.FormatInches(m.left), table.FormatInches(o.If), res,
			strings.TrimPrefix(pick.String(), s.ID+" "))
		m.o = pick
		return m.run(pick)
	}
	switch {
	case o.Hold:
		rs.event("Movement.each", "%s holds", s.ID)
		return nil
	case o.Reform != "":
		s.Reform = o.Reform
		rs.event("Formations.unformed", "%s stays stationary to reform in %s", s.ID, o.Reform)
		return nil
	case o.Sail != "":
		return rs.sail(s, o.Sail)
	case o.Formation != "":
		s.Moved = true
		if err := m.test("a change of formation", "Formations.change"); err != nil {
			return err
		}
		if s.Formation != Unformed {
			g.setFormation(s, o.Formation)
			rs.event("Formations.change", "%s forms %s (the whole move)", s.ID, o.Formation)
		}
		return nil
	}
	s.Moved = true
	m.start = g.corners(s)
	for _, st := range o.Steps {
		if m.stopped {
			break
		}
		if err := m.step(st); err != nil {
			return err
		}
	}
	if o.Attack != "" && !m.stopped {
		return m.step(mstep{Kind: stMove})
	}
	return nil
}

func (m *mover) step(st mstep) error {
	rs, s, g := m.rs, m.s, m.rs.g
	b := g.base(s)
	switch st.Kind {
	case stAbout:
		if err := m.test("about face", "Formations.change"); err != nil {
			return err
		}
		s.Pose = s.Pose.Turn(180)
		rs.event("Formations.change", "%s about faces (the whole move)", s.ID)
	case stTurn:
		if s.Formation != Keras {
			rule := "Formations.pollon"
			if s.Formation == Mias {
				rule = "Turning.front"
			}
			if err := m.test("a change of front", rule); err != nil {
				return err
			}
			s.Pose = s.Pose.Turn(st.Deg)
			rs.event(rule, "%s turns %s to heading %d (the whole move)", s.ID, st, s.Pose.Heading)
			return nil
		}
		np := table.Pose{At: rotate(s.Pose.At, frontPoint(b, s.Pose), st.Deg), Heading: table.Norm(s.Pose.Heading + st.Deg)}
		s.Pose = np
		rs.event("Formations.keras", "%s turns in succession behind the lead ship to heading %d", s.ID, s.Pose.Heading)
	case stWheel:
		return m.wheel(st.Deg)
	case stBack:
		if err := m.test("backing water", "Formations.mias"); err != nil {
			return err
		}
		d := min(st.Dist, 2*table.Inch-table.Inch*table.Len(boolInt(s.Disordered)))
		poses, _ := b.Follow(s.Pose, table.Path{{Move: -d}}, polys(g.obstacles(s)))
		if len(poses) > 0 {
			s.Pose = poses[len(poses)-1]
		}
		rs.event("Formations.mias", "%s backs water to %v", s.ID, s.Pose.At)
	case stMove:
		return m.move(st.Dist)
	}
	return nil
}

// wheel pivots on the inner front corner; the outer flank's travel counts against the move;
// a wheel that would touch another squadron or land is not made: contact cannot be made by
// wheeling (rule Turning.wheel), and a wheel not made takes no manoeuvre test.
func (m *mover) wheel(deg table.Deg) error {
	rs, s, g := m.rs, m.s, m.rs.g
	if err := m.allowance(); err != nil {
		return err
	}
	b := g.base(s)
	for deg != 0 && wheelCost(b, deg) > m.left {
		deg -= sign(deg)
	}
	if deg == 0 {
		rs.event("Turning.wheel", "%s has no move left to wheel", s.ID)
		m.stopped = true
		return nil
	}
	np, cost := wheel(b, s.Pose, deg)
	for _, o := range g.obstacles(s) {
		if table.Distance(b.Corners(np), o.pg) <= table.Touch {
			rs.event("Turning.wheel", "%s cannot wheel into contact (or off the table): the wheel is not made", s.ID)
			m.stopped = true
			return nil
		}
	}
	// the test is for a wheel that is made: one not made cannot disorder (rule Manoeuvre.test)
	if err := m.test("wheeling", "Turning.wheel"); err != nil {
		return err
	}
	s.Pose, m.left = np, m.left-cost
	way := "right"
	if deg < 0 {
		way = "left"
	}
	rs.event("Turning.wheel", "%s wheels %d degrees to the %s, to heading %d (%s\" of its move)", s.ID, max(deg, -deg), way, s.Pose.Heading, table.FormatInches(cost))
	return nil
}

func sign(d int) int {
	if d < 0 {
		return -1
	}
	return 1
}

// move goes straight ahead up to d (0: the whole allowance left); crossing flotsam halves the
// distance and disorders a squadron not Disordered already (rule Flotsam); meeting an enemy is contact (rule Melee.contact).
func (m *mover) move(d table.Len) error {
	rs, s, g := m.rs, m.s, m.rs.g
	if err := m.allowance(); err != nil {
		return err
	}
	if d == 0 || d > m.left {
		d = m.left
	}
	if d <= 0 {
		return nil
	}
	b := g.base(s)
	m.left -= d
	if g.crossesFlotsam(b, s.Pose, d) {
		d /= 2
		rs.event("Flotsam", "%s crosses flotsam: half speed", s.ID)
		if !s.Disordered { // "is Disordered, if not already": never Unformed by flotsam (rule Flotsam)
			rs.disorder(s, "Flotsam")
		}
	}
	obs := g.obstacles(s)
	poses, blk := b.Follow(s.Pose, table.Path{{Move: d}}, polys(obs))
	if len(poses) > 0 {
		s.Pose = poses[len(poses)-1]
	}
	rs.eventAs(adjudicator.KindMove, "Movement.each", "%s moves to %v", s.ID, s.Pose.At)
	var k int
	if blk != nil {
		k = blk.Obstacle
	} else {
		k = g.touchedAhead(s, obs)
	}
	if k < 0 {
		return nil
	}
	m.stopped = true
	t := obs[k].sq
	if obs[k].edge {
		rs.event("Movement.each", "%s stops at the table's edge", s.ID)
		return nil
	}
	if t == nil || t.Side == s.Side || s.Freighter || !t.InPlay() {
		rs.event("Movement.each", "%s stops short of %s", s.ID, nameOf(t))
		return nil
	}
	if t.Freighter {
		t.Status = Lost
		rs.eventAs(adjudicator.KindAction, "Freighters", "%s takes the freighter %s", s.ID, t.ID)
		return nil
	}
	return m.contact(t, m.start)
}

// touchedAhead returns the index of an enemy squadron in play that a move ending exactly
// against it touches with its bow (contact made by moving straight ahead), or -1.
func (g *Game) touchedAhead(s *Squadron, obs []obstacle) int {
	b := g.base(s)
	pg := b.Corners(s.Pose)
	for i, o := range obs {
		if o.sq != nil && o.sq.Side != s.Side && o.sq.InPlay() && table.Contact(pg, o.pg) &&
			table.Distance(b.Edge(s.Pose, table.Bow), o.pg) <= table.Touch {
			return i
		}
	}
	return -1
}

func nameOf(t *Squadron) string {
	if t == nil {
		return "the shore"
	}
	return t.ID
}

// face returns which side of t an attacker that stood at before strikes (rule Flank.only): its
// front unless the attacker was wholly behind the enemy's front line.
func (g *Game) face(t *Squadron, before table.Polygon) table.Arc {
	arcs := g.base(t).ArcsOf(t.Pose, before, 200*table.Inch)
	switch {
	case len(arcs) == 0 || slices.Contains(arcs, table.Bow):
		return table.Bow
	case slices.Contains(arcs, table.Port) && slices.Contains(arcs, table.Starboard):
		return table.Stern
	case slices.Contains(arcs, table.Port):
		return table.Port
	case slices.Contains(arcs, table.Starboard):
		return table.Starboard
	}
	return table.Stern
}

// contact: s has met enemy t moving straight ahead. A named diekplous or periplous is tried;
// otherwise engaging takes a manoeuvre test (none under the ENGAGE signal) and the two fight.
// before is where s stood at the start of its move: the side it strikes is judged from there
// ("already behind the enemy's front before contact", rule Flank.only), not from the start
// of its last straight leg.
func (m *mover) contact(t *Squadron, before table.Polygon) error {
	rs, s, g := m.rs, m.s, m.rs.g
	if m.o.Attack != "" && m.o.Target == t.ID {
		if why := g.attackBarred(s, t, m.o.Attack); why == "" {
			if m.o.Attack == "DIEKPLOUS" {
				return rs.diekplous(s, t)
			}
			return rs.periplous(s, t, before)
		} else {
			rs.event("Diekplous.barred", "%s cannot attempt %s: %s; it engages", s.ID, m.o.Attack, why)
		}
	}
	if m.engage {
		rs.event("Signals.give", "%s engages under the ENGAGE signal: no manoeuvre test", s.ID)
	} else if err := m.test("engaging the enemy", "Manoeuvre.test"); err != nil {
		return err
	}
	rs.engage(s, t, g.face(t, before))
	return nil
}

// engage puts s into melee with t, striking face a of t, conformed (rules Melee.contact,
// Flank.victim, Melee.ranks).
func (rs *resolver) engage(s, t *Squadron, a table.Arc) {
	g := rs.g
	flank := a != table.Bow && t.Formation != Kyklos
	if flank {
		rs.unform(t)
	}
	s.Pose = conform(g.base(s), g.base(t), t.Pose, a)
	s.Melee, t.Melee = addSorted(s.Melee, t.ID), addSorted(t.Melee, s.ID)
	where := map[table.Arc]string{table.Bow: "front", table.Stern: "rear", table.Port: "port flank", table.Starboard: "starboard flank"}[a]
	rs.event("Melee.contact", "%s contacts %s's %s and conforms", s.ID, t.ID, where)
	if flank {
		s.FlankAttacker = true
		t.Flanked, t.Katastrophe = true, true
		rs.event("Flank.victim", "%s is attacked in the %s: it is Unformed and fails its first Battle test", t.ID, where)
		return
	}
	if a != table.Bow {
		rs.event("Formations.kyklos", "%s is in kyklos: it has no flanks", t.ID)
	}
	s.Frontal, t.Frontal = true, true
	for _, x := range []*Squadron{s, t} {
		if x.Formation == Keras {
			// a disorder like any other: a second one makes it Unformed (rule Disorder.effects)
			rs.event("Melee.ranks", "%s is engaged frontally in epi keras", x.ID)
			rs.disorder(x, "Melee.ranks")
		}
	}
}

// sail moves a freighter: away from the wind 2Avd, across it 1Avd (rule Freighters).
func (rs *resolver) sail(s *Squadron, how string) error {
	g := rs.g
	s.Moved = true
	h, n := table.Downwind(g.sc.Wind), 2
	switch how {
	case "LEFT":
		h, n = table.Norm(g.sc.Wind+90), 1
	case "RIGHT":
		h, n = table.Norm(g.sc.Wind-90), 1
	}
	d := 0
	for k := 1; k <= n; k++ {
		v, err := rs.avd(fmt.Sprintf("sail/%s/%d", s.ID, k), "Freighters")
		if err != nil {
			return err
		}
		d += v
	}
	s.Pose.Heading = h
	poses, _ := g.base(s).Follow(s.Pose, table.Path{{Move: table.Len(d) * table.Inch}}, polys(g.obstacles(s)))
	if len(poses) > 0 {
		s.Pose = poses[len(poses)-1]
	}
	rs.event("Freighters", "%s sails %s %d\" to %v", s.ID, how, d, s.Pose.At)
	rs.offTable(s)
	return nil
}
