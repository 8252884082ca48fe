package oinavarcoi

import (
	"fmt"
	"slices"

	"navarch/adjudicator/table"

	"navarch/adjudicator"
)

// maxRerolls bounds the rolls again on equal dice: with fair dice 64 ties in a row do not
// happen; a roller that keeps tying is broken, and Resolve says so instead of looping.
const maxRerolls = 64

// startTurn begins a turn (rule Sequence.turn): beached squadrons try to launch, racers of a
// tied periplous race on, the event is rolled, then the initiative.
func (rs *resolver) startTurn() error {
	g := rs.g
	g.Turn++
	g.Act = 0
	g.Signalled = [2]bool{}
	g.Moved = 0
	for _, step := range []func() error{rs.launch, rs.race, rs.eventPhase} {
		if err := step(); err != nil {
			return err
		}
		if g.Over {
			return nil
		}
	}
	return rs.initiative()
}

// launch: a beached fleet launches each squadron on 10+ on 2d6 (rule Scenarios.bottled).
func (rs *resolver) launch() error {
	for _, s := range rs.g.Squadrons {
		if s.Status != Beached {
			continue
		}
		n, v, err := rs.twoD6("launch/"+s.ID, "Scenarios.bottled")
		if err != nil {
			return err
		}
		if n >= 10 {
			s.Status = Active
			s.Pose = s.Pose.Forward(rs.g.data.Rules.LaunchDistance)
			rs.eventAs(adjudicator.KindChange, "Scenarios.bottled", "%s rolls %v = %d: launched, %s\" off the beach", s.ID, v, n, table.FormatInches(rs.g.data.Rules.LaunchDistance))
		} else {
			rs.event("Scenarios.bottled", "%s rolls %v = %d: still on the beach (needs 10+)", s.ID, v, n)
		}
	}
	return nil
}

// eventPhase: each player rolls 1d6 and the sum is read on the Event table (rule
// Event.table). The side with the higher die is favoured by omens, the side with the lower
// loses a navarch (SUBSTITUTE reading: the text does not say whose squadron). Good omens on
// equal dice (2+2, 5+5) go to the winner of a d6 roll-off (omenRollOff); a navarch killed
// (5 or 9) never comes on equal dice.
func (rs *resolver) eventPhase() error {
	g := rs.g
	var d [2]int
	for i, side := range g.sc.Sides {
		v, err := rs.d6("event/"+side, "Event.table")
		if err != nil {
			return err
		}
		d[i] = v
	}
	sum := d[0] + d[1]
	rs.event("Event.table", "Event roll %s %d + %s %d = %d", g.side(0), d[0], g.side(1), d[1], sum)
	hi, lo := -1, -1
	if d[0] != d[1] {
		hi, lo = 0, 1
		if d[1] > d[0] {
			hi, lo = 1, 0
		}
	}
	switch sum {
	case 2, 3, 11, 12:
		return rs.weather()
	case 4, 10:
		if hi < 0 {
			w, err := rs.omenRollOff()
			if err != nil {
				return err
			}
			hi = w
		}
		rs.omen(hi)
	case 5, 9:
		rs.navarch(lo)
	default:
		return rs.withdrawal()
	}
	return nil
}

// omenRollOff: good omens "raise a squadron's morale" (rule Event.omens) on every 4 and 10,
// so on equal dice one side must get them; the text settles between the two fleets by a d6
// each, the higher winning (rule Initiative: "Roll a d6 for each side. Higher roll
// chooses"; rule Event.withdrawal's roll-off), equal rolls rolling again as the initiative's
// do (DESIGNED reading, docs/OINAVARCOI.md).
func (rs *resolver) omenRollOff() (int, error) {
	g := rs.g
	for k := 1; k <= maxRerolls; k++ {
		var d [2]int
		for i, side := range g.sc.Sides {
			v, err := rs.d6(fmt.Sprintf("omen/%d/%s", k, side), "Event.omens")
			if err != nil {
				return 0, err
			}
			d[i] = v
		}
		rs.event("Event.omens", "Good omens on equal dice: roll-off %s %d, %s %d", g.side(0), d[0], g.side(1), d[1])
		if d[0] != d[1] {
			return boolInt(d[1] > d[0]), nil
		}
	}
	return 0, fmt.Errorf("oinavarcoi: %d equal omen roll-offs in a row", maxRerolls)
}

// weather worsens and every squadron afloat takes a manoeuvre test (rule Event.weather).
func (rs *resolver) weather() error {
	g := rs.g
	g.Weather++
	rs.event("Event.weather", "The weather worsens (%d): every squadron tests manoeuvre", g.Weather)
	for _, s := range g.Squadrons {
		if !s.InPlay() || s.Freighter {
			continue
		}
		if _, err := rs.manoeuvre(s, "weather/"+s.ID, "Event.weather", "the weather"); err != nil {
			return err
		}
	}
	return nil
}

// omen raises the crew morale of one squadron of the favoured side (rule Event.omens): the
// first of its OMEN standing order that is in play below Determined, else by default its
// first squadron of lowest crew morale (SUBSTITUTE choice).
func (rs *resolver) omen(side int) {
	g := rs.g
	can := func(s *Squadron) bool { return s.Side == g.side(side) && s.InPlay() && !s.Freighter && s.Morale < 1 }
	best := g.preferred(g.OmenPrefer[side], can)
	byOrder := best != nil
	for _, s := range g.Squadrons {
		if !byOrder && can(s) && (best == nil || s.Morale < best.Morale) {
			best = s
		}
	}
	if best == nil {
		rs.event("Event.omens", "Good omens for %s, but every squadron is already Determined", g.side(side))
		return
	}
	best.Morale++
	rs.eventAs(adjudicator.KindAttack, "Event.omens", "Good omens: %s's crew morale rises to %s (%s)", best.ID, moraleName(best.Morale),
		why("OMEN", g.OmenPrefer[side], byOrder, "its first squadron of lowest crew morale"))
}

func moraleName(m int) string {
	switch {
	case m > 0:
		return "Determined"
	case m < 0:
		return "Poorly motivated"
	}
	return "ordinary"
}

// navarch: a squadron in melee of the unlucky side loses its navarch and a step of crew
// morale; if it carried the strategos, the admiral is killed (rule Event.navarch). The
// squadron is the first of the side's NAVARCH standing order in melee, else by default its
// first squadron in melee (SUBSTITUTE choice).
func (rs *resolver) navarch(side int) {
	g := rs.g
	if side < 0 {
		rs.event("Event.navarch", "A navarch falls? The dice are equal: nothing happens")
		return
	}
	can := func(s *Squadron) bool { return s.Side == g.side(side) && s.InPlay() && len(s.Melee) > 0 }
	s := g.preferred(g.NavarchPrefer[side], can)
	byOrder := s != nil
	if !byOrder {
		if k := slices.IndexFunc(g.Squadrons, can); k >= 0 {
			s = g.Squadrons[k]
		}
	}
	if s == nil {
		rs.event("Event.navarch", "A navarch would fall, but no %s squadron is in melee: nothing happens", g.side(side))
		return
	}
	s.Morale = max(s.Morale-1, -1)
	rs.eventAs(adjudicator.KindAttack, "Event.navarch", "%s's navarch is killed: crew morale falls to %s (%s)", s.ID, moraleName(s.Morale),
		why("NAVARCH", g.NavarchPrefer[side], byOrder, "its first squadron in melee"))
	if s.Strategos {
		g.Admiral[side] = true
		s.Strategos = false
		rs.eventAs(adjudicator.KindLoss, "Event.navarch", "The %s admiral is killed", g.side(side))
	}
}

// lostHalf reports whether side i has lost half or more of its squadrons, rounded up (rule
// Event.withdrawal): sunk, routed, lost or saved squadrons count as lost.
func (g *Game) lostHalf(i int) bool {
	n, lost := 0, 0
	for _, s := range g.Squadrons {
		if s.Side != g.side(i) || s.Freighter {
			continue
		}
		n++
		if !s.OnTable() || s.Status == Routing {
			lost++
		}
	}
	return n > 0 && lost >= (n+1)/2
}

// withdrawal: a fleet that has lost half or more of its squadrons leaves the field; if both
// qualify, the lower of a d6 roll-off each (+1 defending, +1 more Determined, -1 more Poorly
// motivated, -1 admiral killed) abandons the field; equal rolls roll again (SUBSTITUTE).
func (rs *resolver) withdrawal() error {
	g := rs.g
	q := [2]bool{g.lostHalf(0), g.lostHalf(1)}
	switch {
	case !q[0] && !q[1]:
		rs.event("Event.withdrawal", "Fleet withdrawal: neither fleet has lost half its squadrons")
		return nil
	case q[0] != q[1]:
		i := 0
		if q[1] {
			i = 1
		}
		rs.leave(i)
		return nil
	}
	mods := rs.rollOffMods()
	for k := 1; ; k++ {
		if k > maxRerolls {
			return fmt.Errorf("oinavarcoi: %d equal withdrawal roll-offs in a row", maxRerolls)
		}
		var t [2]int
		for i, side := range g.sc.Sides {
			v, err := rs.d6(fmt.Sprintf("withdraw/%d/%s", k, side), "Event.withdrawal")
			if err != nil {
				return err
			}
			t[i] = v + mods[i]
		}
		rs.event("Event.withdrawal", "Both fleets qualify: roll-off %s %d, %s %d", g.side(0), t[0], g.side(1), t[1])
		if t[0] != t[1] {
			i := 0
			if t[1] < t[0] {
				i = 1
			}
			rs.leave(i)
			return nil
		}
	}
}

func (rs *resolver) rollOffMods() [2]int {
	g := rs.g
	var det, poor, m [2]int
	for _, s := range g.Squadrons {
		i := g.sc.SideIndex(s.Side)
		if s.InPlay() && !s.Freighter {
			det[i] += boolInt(s.Morale > 0)
			poor[i] += boolInt(s.Morale < 0)
		}
	}
	for i := range m {
		j := 1 - i
		m[i] = boolInt(g.sc.Defender == g.side(i)) + boolInt(det[i] > det[j]) - boolInt(poor[i] > poor[j]) - boolInt(g.Admiral[i])
	}
	return m
}

func (rs *resolver) leave(i int) {
	g := rs.g
	rs.eventAs(adjudicator.KindEnd, "Event.withdrawal", "The %s fleet leaves the field", g.side(i))
	g.end(fmt.Sprintf("%s wins: the %s fleet abandoned the field", g.side(1-i), g.side(i)))
}

func (g *Game) end(result string) {
	g.Over, g.Result, g.Phase = true, result, ""
}

// initiative: both roll a d6, the higher chooses to move first or second; equal rolls roll
// again (rule Initiative).
func (rs *resolver) initiative() error {
	g := rs.g
	for k := 1; ; k++ {
		if k > maxRerolls {
			return fmt.Errorf("oinavarcoi: %d equal initiative rolls in a row", maxRerolls)
		}
		var d [2]int
		for i, side := range g.sc.Sides {
			v, err := rs.d6(fmt.Sprintf("initiative/%d/%s", k, side), "Initiative")
			if err != nil {
				return err
			}
			d[i] = v
		}
		if d[0] != d[1] {
			w := 0
			if d[1] > d[0] {
				w = 1
			}
			g.Winner, g.Phase = g.side(w), phaseChoose
			rs.event("Initiative", "Initiative %s %d, %s %d: %s chooses who moves first", g.side(0), d[0], g.side(1), d[1], g.Winner)
			if g.Initiative[w] != "" && len(g.Phalanxes) == 0 {
				rs.choose(nil, "")
			}
			return nil
		}
	}
}

// choose applies the winner's choice; the default is to move first, or the winner's
// INITIATIVE standing order (rule Initiative).
func (rs *resolver) choose(orders []*Order, how string) {
	g := rs.g
	g.First = g.Winner
	choice := g.Initiative[g.sc.SideIndex(g.Winner)]
	if choice != "" {
		how = " (by INITIATIVE standing order)"
	}
	for _, o := range orders {
		if o.Choice != "" {
			choice, how = o.Choice, ""
		}
	}
	if choice == "SECOND" {
		g.First = g.enemy(g.Winner)
	}
	g.Phase = phaseMove1
	g.Act = 1
	rs.event("Initiative", "%s moves first%s", g.First, how)
}
