package medieval

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator"
	"navarch/adjudicator/table"
)

// OrderForm lists side's ships of the Division whose card is turned, with pose, what each may
// do on this card and nothing it may not, and pre-filled lines equal to the no-orders
// default (Next's Default), so that the form sent back unedited does what silence would:
//   - Sail/Fight: the ship's allowance and moves (rule "Movement"; a raft's 2" run, rule
//     "Lashing"), the enemies in range, the broadsides and missiles that bear from where she
//     stands (shotsFrom), and her boarding action. The line holds, or, in
//     contact, fights with both dice at the first enemy in contact, as the default does; a
//     split (FIGHT A B) is offered, not filled in. A leaving ship gets no line: with none
//     she takes the default course for the nearest edge (rule "Damage").
//   - Command and Control: no movement; RELOAD only for a broadside below its Gunnery, PASS
//     only to a friend she could pass to, DOUSE when she burns, CUT for each grapple and
//     lashing. The line douses and reloads as the default would; a ship with nothing to do
//     gets a line of her standing orders alone (GRAPPLE or NOGRAPPLE), which keeps the
//     defaults, never HOLD, which would not.
//
// A ship in contact with two enemies or more is offered AGAINST, her standing choice of
// whom she fights when they are phasing (rule "Boarding" iii). Every line passes Validate.
func (g *Game) OrderForm(side string) adjudicator.Form {
	st := g.Next()
	if st.Kind != adjudicator.NeedOrders || !slices.Contains(st.Sides, side) {
		return adjudicator.Form{}
	}
	div, _ := cardDivision(g.Card)
	f := adjudicator.Form{Default: st.Default}
	for _, id := range g.ownShips(side, div) {
		s := g.ship(id)
		fu := adjudicator.FormUnit{ID: s.ID, Where: s.Pose.At.String(), Facing: fmt.Sprintf("%03d (%s)", s.Pose.Heading, g.data.Rules.Points.Of(s.Pose.Heading, g.Wind))}
		var line string
		if isCommand(g.Card) {
			fu.May, line = g.commandForm(s)
		} else {
			fu.Allowance = g.allowanceText(s)
			fu.May, line = g.sailFightForm(s)
		}
		if line != "" {
			f.Lines = append(f.Lines, line)
		}
		if es := g.boarders(s); len(es) > 1 {
			var ids []string
			for _, e := range es {
				ids = append(ids, e.ID)
			}
			fu.May = append(fu.May, "AGAINST "+strings.Join(ids, "|")+" (standing: whom she fights when the enemy is phasing)")
		}
		f.Units = append(f.Units, fu)
	}
	if orders, errs := g.Parse(side, strings.Join(f.Lines, "\n")); len(errs) > 0 || len(g.Validate(side, orders)) > 0 {
		f.Lines = nil
	}
	return f
}

// allowanceText is a ship's movement on a Sail/Fight card, as the form states it.
func (g *Game) allowanceText(s *Ship) string {
	switch {
	case len(s.Grappled) > 0:
		return "none: grappled"
	case len(s.Lashed) > 0 && g.data.Rules.Points.Of(s.Pose.Heading, g.Wind) != table.Running:
		return "none: lashed, and not running"
	case len(s.Lashed) > 0:
		return `the raft runs up to 2" downwind`
	}
	a, _ := g.allowance(s, s.Pose.Heading)
	if a == 0 {
		return "none at this heading: turn out of the wind first"
	}
	return "MOVE up to " + table.FormatInches(a) + `"`
}

// sailFightForm is what s may do on her Sail/Fight card and her pre-filled line.
func (g *Game) sailFightForm(s *Ship) ([]string, string) {
	if s.Status == Leaving {
		may := []string{"leaving the battle: she may only move, towards the table edge nearest her"}
		if p := g.leavingPath(s); p != nil {
			may = append(may, fmt.Sprintf("with no line she takes %v", p))
		}
		return may, ""
	}
	may := append(append(g.legalMoves(s), g.inRange(s)...), g.shotsFrom(s)...)
	o := &Order{Ship: s.ID}
	if es := g.boarders(s); len(es) > 0 {
		o.Fight = []string{es[0].ID} // the default: both dice at the first enemy in contact
		may = append(may, fmt.Sprintf("FIGHT %s (both dice; with no line she fights %s)", strings.Join(ids(es), "|"), es[0].ID))
		if len(es) > 1 {
			may = append(may, fmt.Sprintf("FIGHT %s %s (one die at each of two enemies in contact)", es[0].ID, es[1].ID))
		}
	}
	return may, o.String()
}

// shotsFrom lists the broadsides and missiles s could fire from where she stands (after a
// move, what bears may change): each loaded broadside at each enemy in its arc with an open
// line within 20", with the band's dice and the score, and SHOOT at each enemy in missile
// range; none in a boarding action (rule "Boarding").
func (g *Game) shotsFrom(s *Ship) []string {
	if g.inBoarding(s) {
		return nil
	}
	var out []string
	for _, a := range []table.Arc{table.Port, table.Starboard} {
		lv := s.Loaded[sideIndex(a)]
		if lv == NNE || g.lashedSide(s, a) != nil {
			continue
		}
		for _, e := range g.Ships {
			if e.Side == s.Side || !e.Active() || g.fireLine(s, a, e) != "" {
				continue
			}
			n, name := band(table.Distance(s.Corners(), e.Corners()))
			if n > 0 {
				out = append(out, fmt.Sprintf("FIRE %s %s (%s: %d d10 needing %d+, track %v)", broadsideWord(a), e.ID, name, n, gunneryNeed[lv], lv))
			}
		}
	}
	if need := missileNeed[s.F.Missile]; need > 0 {
		for _, e := range g.Ships {
			if e.Side != s.Side && e.Active() && !g.inBoarding(e) && table.Distance(s.Corners(), e.Corners()) <= g.data.Rules.MissileRange &&
				g.blocker(s.Pose.At, e.Pose.At, s, e) == nil {
				out = append(out, fmt.Sprintf("SHOOT %s (1 d10 needing %d+)", e.ID, need))
			}
		}
	}
	return out
}

func ids(ships []*Ship) []string {
	var out []string
	for _, s := range ships {
		out = append(out, s.ID)
	}
	return out
}

// commandForm is what s may do on her Command and Control card and her pre-filled line.
func (g *Game) commandForm(s *Ship) ([]string, string) {
	var may []string
	o := &Order{Ship: s.ID, Douse: s.Burning}
	if s.Active() {
		var below []string
		for _, a := range []table.Arc{table.Port, table.Starboard} {
			if s.Loaded[sideIndex(a)] < *s.F.Gun(a) {
				below = append(below, broadsideWord(a))
			}
		}
		if len(below) > 0 {
			may = append(may, "RELOAD "+strings.Join(below, "|"))
		}
		if arc, ok := defaultReload(s); ok {
			o.Reload, o.Reloading = arc, true
		}
		if to := g.passTargets(s); len(to) > 0 {
			may = append(may, "PASS COMBAT|MISSILE TO "+strings.Join(to, "|"))
		}
	}
	if s.Burning {
		may = append(may, fmt.Sprintf("DOUSE (attempt %d, needs %d+)", s.FireTries+1, 7+s.FireTries))
	}
	if cut := append(slices.Clone(s.Grappled), s.Lashed...); len(cut) > 0 {
		may = append(may, "CUT "+strings.Join(cut, "|"))
	}
	may = append(may, "HOLD (do nothing, not even reload)")
	if !o.Douse && !o.Reloading {
		o.Grapple = map[bool]string{true: "NOGRAPPLE", false: "GRAPPLE"}[s.NoGrapple] // her standing orders alone: the defaults
		may = append(may, fmt.Sprintf("nothing to do: no broadside to reload and no fire (her line only restates her standing %s)", o.Grapple))
	}
	return may, o.String()
}

// passTargets are the friends s could pass a crew component to (rule "Passing Crew
// Components"): lashed to her or in contact, below a starting level.
func (g *Game) passTargets(s *Ship) []string {
	var out []string
	for _, t := range g.Ships {
		if t == s || t.Side != s.Side || !t.Active() || (!contains(s.Lashed, t.ID) && !table.Contact(s.Corners(), t.Corners())) {
			continue
		}
		if t.F.Combat < t.Start.Combat || t.F.Missile < t.Start.Missile {
			out = append(out, t.ID)
		}
	}
	return out
}

var _ adjudicator.OrderFormer = (*Game)(nil)
