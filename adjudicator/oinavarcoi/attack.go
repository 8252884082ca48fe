package oinavarcoi

import (
	"fmt"

	"navarch/adjudicator/table"

	"navarch/adjudicator"
)

// attackTest rolls one side of a diekplous or periplous: 2d6, 6+, crew quality, ships
// fast/heavy, Disordered -1 (rule Diekplous.outcomes).
func (rs *resolver) attackTest(s *Squadron, kind, attacker string) (bool, error) {
	n, v, err := rs.twoD6(fmt.Sprintf("%s/%s/%s", kind, attacker, s.ID), "Dice.tests")
	if err != nil {
		return false, err
	}
	mod := s.Quality + s.Ship - boolInt(s.Disordered)
	ok := n+mod >= 6
	rs.event("Dice.tests", "%s's %s test: %v%+d = %d, %s", s.ID, kind, v, mod, n+mod, map[bool]string{true: "success", false: "failure"}[ok])
	return ok, nil
}

// diekplous: attacker-only success puts the attacker in epi mias in the defender's rear and
// the two fight a round of melee at once; both succeeding pushes it back 6"; an attacker's failure disorders it
// and starts a melee (rule Diekplous.outcomes).
func (rs *resolver) diekplous(s, t *Squadron) error {
	a, err := rs.attackTest(s, "diekplous", s.ID)
	if err != nil {
		return err
	}
	d, err := rs.attackTest(t, "diekplous", s.ID)
	if err != nil {
		return err
	}
	switch {
	case a && !d:
		rs.g.setFormation(s, Mias)
		rs.eventAs(adjudicator.KindHit, "Diekplous.outcomes", "Diekplous! %s breaks through %s's line and turns on its rear", s.ID, t.ID)
		rs.engage(s, t, table.Stern)
		// "Place the attacking squadron in epi mias in the defender's rear and immediately
		// fight a melee": the two take their Battle tests now, in the movement phase, and not
		// again in this turn's melee phase; those that fail test morale in the morale phase.
		rs.event("Diekplous.outcomes", "%s and %s fight a melee at once", s.ID, t.ID)
		return rs.battle([]*Squadron{s, t})
	case a && d:
		rs.event("Diekplous.outcomes", "%s parries the diekplous: %s is pushed back 6\"", t.ID, s.ID)
		rs.pushBack(s, 6*table.Inch)
	default:
		rs.event("Diekplous.outcomes", "The diekplous fails: %s is caught in front of %s", s.ID, t.ID)
		rs.disorder(s, "Diekplous.outcomes")
		rs.engage(s, t, table.Bow)
	}
	return nil
}

// pushBack moves s straight astern up to d, stopping as any move does (rule Movement.each,
// SUBSTITUTE: warships stop at the table's edge) at the edge, at land or at a squadron behind
// it that is not routing; routers are passed through.
func (rs *resolver) pushBack(s *Squadron, d table.Len) {
	g := rs.g
	obs := g.obstacles(s)
	poses, blk := g.base(s).Follow(s.Pose, table.Path{{Move: -d}}, polys(obs))
	if len(poses) > 0 {
		s.Pose = poses[len(poses)-1]
	}
	switch {
	case blk == nil:
		rs.event("Diekplous.outcomes", "%s backs to %v", s.ID, s.Pose.At)
	case obs[blk.Obstacle].edge:
		rs.event("Diekplous.outcomes", "%s backs to %v, stopped at the table's edge", s.ID, s.Pose.At)
	default:
		rs.event("Diekplous.outcomes", "%s backs to %v, stopped by %s", s.ID, s.Pose.At, nameOf(obs[blk.Obstacle].sq))
	}
}

// offshoreFlank returns t's flank facing the open sea.
func (g *Game) offshoreFlank(t *Squadron) table.Arc {
	if abs(int64(table.Diff(faceNormal(t.Pose, table.Starboard), g.sc.Offshore))) <= 90 {
		return table.Starboard
	}
	return table.Port
}

// periplous: line against line. Attacker-only success puts it on the offshore flank; a tie
// (both succeed or both fail: SUBSTITUTE reading) sends both racing offshore in column; a
// failure against a success disorders the attacker and starts a melee (rule Periplous.outcomes).
func (rs *resolver) periplous(s, t *Squadron, before table.Polygon) error {
	a, err := rs.attackTest(s, "periplous", s.ID)
	if err != nil {
		return err
	}
	d, err := rs.attackTest(t, "periplous", s.ID)
	if err != nil {
		return err
	}
	switch {
	case a && !d:
		rs.eventAs(adjudicator.KindHit, "Periplous.outcomes", "Periplous! %s outflanks %s on the offshore side", s.ID, t.ID)
		rs.engage(s, t, rs.g.offshoreFlank(t))
	case a == d:
		rs.startRace(s, t)
	default:
		rs.event("Periplous.outcomes", "The periplous fails: %s is caught by %s", s.ID, t.ID)
		rs.disorder(s, "Periplous.outcomes")
		rs.engage(s, t, rs.g.face(t, before))
	}
	return nil
}

func (rs *resolver) startRace(s, t *Squadron) {
	g := rs.g
	for _, x := range []*Squadron{s, t} {
		g.setFormation(x, Keras)
		x.Pose.Heading = g.sc.Offshore
		x.Status = Racing
	}
	s.RaceWith, t.RaceWith = t.ID, s.ID
	rs.event("Periplous.race", "%s and %s race offshore in column", s.ID, t.ID)
}

// race: at the start of each turn the racers move offshore and test again until one wins; a
// racer carried off the table takes the race's losses and leaves by that edge (rule
// Periplous.race, raceOff); the race ends then.
func (rs *resolver) race() error {
	g := rs.g
	for _, s := range g.Squadrons {
		t := g.sq(s.RaceWith)
		if s.Status != Racing || t == nil || g.sc.SideIndex(s.Side) > g.sc.SideIndex(t.Side) {
			continue
		}
		for _, x := range []*Squadron{s, t} {
			x.Pose = x.Pose.Forward(g.data.Rules.RaceDistance)
			rs.event("Periplous.race", "%s races on to %v", x.ID, x.Pose.At)
		}
		offS, err := rs.raceOff(s)
		if err != nil {
			return err
		}
		offT, err := rs.raceOff(t)
		if err != nil {
			return err
		}
		if offS || offT {
			for _, x := range []*Squadron{s, t} {
				x.RaceWith = ""
				if x.Status == Racing {
					x.Status = Active
				}
			}
			continue
		}
		a, err := rs.attackTest(s, "race", s.ID)
		if err != nil {
			return err
		}
		d, err := rs.attackTest(t, "race", s.ID)
		if err != nil {
			return err
		}
		if a == d {
			continue
		}
		s.Status, t.Status, s.RaceWith, t.RaceWith = Active, Active, "", ""
		g.setFormation(s, Mias)
		g.setFormation(t, Mias)
		t.Pose.Heading = table.Norm(g.sc.Offshore - 90)
		if a {
			rs.eventAs(adjudicator.KindHit, "Periplous.race", "%s wins the race and falls on %s's offshore flank", s.ID, t.ID)
			rs.engage(s, t, g.offshoreFlank(t))
		} else {
			rs.eventAs(adjudicator.KindHit, "Periplous.race", "%s wins the race: %s drops back, Disordered", t.ID, s.ID)
			rs.disorder(s, "Periplous.race")
		}
	}
	return nil
}

// raceOff settles a racer the race has carried past a table edge: "possibly off-table with
// losses" (rule Periplous.race) read as the losses the dice summary rolls on a d3 (rule
// Dice.d3; DESIGNED reading: the text says neither which losses use the d3 nor how big the
// race's are): it loses 1d3 half stands (race-loss-die in data/rules.txt; doubled in
// full-size play, rule Stands.full), so the race costs what a won Battle test strips, half,
// one or one and a half stands, then leaves by the edge as a router would (rule Rout.edges:
// saved, lost, or the voyage home with the stands it has left). A racer that loses its last
// stand sinks off the table, leaving no flotsam on it. It reports whether s left the table.
func (rs *resolver) raceOff(s *Squadron) (bool, error) {
	g := rs.g
	if !s.OnTable() || len(g.sc.Table.Over(g.corners(s))) == 0 {
		return false, nil
	}
	roll, err := rs.r.Roll("race-loss/"+s.ID, g.data.Rules.RaceLossDie, 1)
	if err != nil {
		return false, err
	}
	lost := roll.Values[0] * (1 + boolInt(g.full))
	roll.Rule, roll.Note = "Dice.d3", fmt.Sprintf("%s loses %s stands off the table", s.ID, halvesText(lost))
	s.Halves -= min(lost, s.Halves)
	rs.event("Dice.d3", "%s is carried off the table by the race: d%d %d, it loses %s stands (%s left)", s.ID,
		g.data.Rules.RaceLossDie, roll.Values[0], halvesText(lost), s.Stands())
	if s.Halves == 0 {
		s.Status, s.RaceWith = Sunk, ""
		rs.event("Stands.squadron", "%s has lost every stand off the table", s.ID)
		return true, nil
	}
	return rs.offTable(s), nil
}
