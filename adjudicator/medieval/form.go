package medieval

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator"
	"navarch/adjudicator/table"
)

// OrderForm lists side's ships of the Division whose card is turned, with pose, allowance
// (rule "Movement"), the moves open to each, the enemies in range and the boarding actions she
// is in, and pre-filled lines that state the no-orders default: on a Sail/Fight card each ship
// holds (or fights the boarding action she is in); on a Command and Control card each douses
// her fire and reloads as the default would. A leaving ship gets no line: with none she makes
// for the nearest edge (rule "Damage"). A ship in contact with two enemies or more is offered
// AGAINST, her standing choice of whom she fights when they are phasing (rule "Boarding" iii).
// Every line passes Validate.
func (g *Game) OrderForm(side string) adjudicator.Form {
	st := g.Next()
	if st.Kind != adjudicator.NeedOrders || !slices.Contains(st.Sides, side) {
		return adjudicator.Form{}
	}
	div, _ := cardDivision(g.Card)
	f := adjudicator.Form{Default: st.Default}
	for _, id := range g.ownShips(side, div) {
		s := g.ship(id)
		a, pos := g.allowance(s, s.Pose.Heading)
		fu := adjudicator.FormUnit{ID: s.ID, Where: s.Pose.At.String(), Facing: fmt.Sprintf("%03d (%s)", s.Pose.Heading, pos),
			Allowance: "MOVE up to " + table.FormatInches(a) + `"`}
		if s.Status == Leaving {
			fu.May = []string{"leaving the battle: she may only move (with no line she makes for the nearest edge)"}
			f.Units = append(f.Units, fu)
			continue
		}
		if isCommand(g.Card) {
			fu.May = []string{"RELOAD PORT|STARBOARD", "PASS COMBAT|MISSILE TO SHIP", "HOLD"}
			if s.Burning {
				fu.May = append(fu.May, "DOUSE")
			}
			if cut := append(slices.Clone(s.Grappled), s.Lashed...); len(cut) > 0 {
				fu.May = append(fu.May, "CUT "+strings.Join(cut, "|"))
			}
			o := &Order{Ship: s.ID, Douse: s.Burning}
			if arc, ok := defaultReload(s); ok {
				o.Reload, o.Reloading = arc, true
			}
			f.Lines = append(f.Lines, o.String())
		} else {
			fu.May = append(g.legalMoves(s), g.inRange(s)...)
			o := &Order{Ship: s.ID}
			for _, e := range g.boarders(s) {
				o.Fight = append(o.Fight, e.ID)
			}
			if len(o.Fight) > 0 {
				fu.May = append(fu.May, "FIGHT "+strings.Join(o.Fight, " "))
			}
			if len(o.Fight) > 2 {
				o.Fight = o.Fight[:2] // one or two enemies a line
			}
			f.Lines = append(f.Lines, o.String())
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

var _ adjudicator.OrderFormer = (*Game)(nil)
