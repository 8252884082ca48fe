package oinavarcoi

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator"
)

// OrderForm lists side's squadrons that may act in the step awaited, with pose, formation,
// the moves open to each (the candidate lines that pass Validate alone) and the enemies within
// reach, and pre-filled lines that state the no-orders default: at deployment each squadron
// where the scenario places it (rule Deployment.secret; a beached squadron is listed, with no
// line); the initiative winner MOVE FIRST
// (rule Initiative); in movement each squadron HOLD (rule Movement.each), an unformed one REFORM EPI-MIAS, which
// is what HOLD or no line does too (rule Formations.unformed); and the side's
// standing OMEN and NAVARCH orders in force, which the Default also states. Every line passes
// Validate.
func (g *Game) OrderForm(side string) adjudicator.Form {
	st := g.Next()
	if st.Kind != adjudicator.NeedOrders || !slices.Contains(st.Sides, side) {
		return adjudicator.Form{}
	}
	f := adjudicator.Form{Default: st.Default}
	switch {
	case !g.Deployed:
		f.Units = append(f.Units, g.deployNotes(side)...)
		for _, s := range g.Squadrons {
			if s.Side == side && s.Status == Beached {
				f.Units = append(f.Units, g.formUnit(s, []string{"beached: it takes no orders and launches on 10+ on 2d6 at the start of a turn (rule Scenarios.bottled)"}))
			}
			if s.Side == side && !s.Freighter && s.Status != Beached {
				f.Units = append(f.Units, g.formUnit(s, []string{"DEPLOY " + s.ID + " AT X,Y [FACING DEG] [FORMATION] [WING W] [STRATEGOS]"}))
				if line := fmt.Sprintf("DEPLOY %s AT %v FACING %d %s", s.ID, s.Pose.At, s.Pose.Heading, s.Formation); g.legalLines(side, append(slices.Clone(f.Lines), line)) {
					f.Lines = append(f.Lines, line) // a place the deployment's checks refuse is left to the default
				}
			}
		}
	case g.Phase == phaseChoose:
		if side == g.Winner {
			choice := g.Initiative[g.sc.SideIndex(side)]
			if choice == "" {
				choice = "FIRST"
			}
			f.Lines = append(f.Lines, "MOVE "+choice)
		}
		for _, p := range g.Phalanxes {
			if p.Side == side && !p.Routed {
				f.Units = append(f.Units, adjudicator.FormUnit{ID: "PHALANX " + p.ID, May: []string{"PHALANX " + p.ID + " MOVE|REDRESS|DEPLOY"}})
			}
		}
	default:
		for _, id := range g.movable(side) {
			s := g.sq(id)
			var may []string
			cands := g.botLines(s)
			if s.Formation == Mias || s.Formation == Unformed { // its move is rolled: an order may wait for it
				cands = append(cands, id+" IF 4+ MOVE ELSE HOLD")
			}
			for _, line := range cands {
				if !slices.Contains(may, line) && g.legalLines(side, []string{line}) {
					may = append(may, line)
				}
			}
			f.Units = append(f.Units, g.formUnit(s, append(may, g.enemiesInReach(s)...)))
			if s.Formation == Unformed { // the default too: a stationary turn reforms it (rule Formations.unformed)
				f.Lines = append(f.Lines, id+" REFORM "+Mias)
			} else {
				f.Lines = append(f.Lines, id+" HOLD")
			}
		}
	}
	if !g.Deployed {
		f.Lines = append(f.Lines, g.signalLines(side)...)
	}
	f.Lines = append(f.Lines, g.standingLines(side)...)
	if !g.legalLines(side, f.Lines) {
		f.Lines = nil
	}
	f.Default += "; " + g.standingText(g.sc.SideIndex(side))
	return f
}

func (g *Game) formUnit(s *Squadron, may []string) adjudicator.FormUnit {
	return adjudicator.FormUnit{ID: s.ID, Where: s.Pose.At.String(), Facing: fmt.Sprintf("%03d", s.Pose.Heading),
		Allowance: g.stateText(s) + statusText(s), May: may}
}

// legalLines reports whether lines, sent as they stand, pass Parse and Validate.
func (g *Game) legalLines(side string, lines []string) bool {
	orders, errs := g.Parse(side, strings.Join(lines, "\n"))
	return len(errs) == 0 && len(g.Validate(side, orders)) == 0
}

var _ adjudicator.OrderFormer = (*Game)(nil)

// deployNotes are the deployment form's first entries: the side's zone (rule
// Deployment.zone) and the signals it may write (rules Signals.list, Signals.none), so that
// the request can be answered without the rulebook.
func (g *Game) deployNotes(side string) []adjudicator.FormUnit {
	i := g.sc.SideIndex(side)
	zone := adjudicator.FormUnit{ID: "Your deployment zone", May: []string{g.zoneText(i)}}
	n := g.signalAllowance(i)
	sig := adjudicator.FormUnit{ID: "Your signals"}
	switch {
	case g.sc.NoSignals[i]:
		sig.Allowance = "none: a fleet in a meeting engagement, or ambushed, uses no signals (rule Signals.none)"
	default:
		sig.Allowance = fmt.Sprintf("write up to %d now (half your squadrons, rounded up), each for one wing; each is given once, one a turn, in the battle", n)
		sig.May = []string{"SIGNAL " + strings.Join(SignalKinds, "|") + " WING " + strings.Join(g.wings(side), "|"),
			"TURN-RIGHT, TURN-LEFT: the wing turns 90 degrees; DEPLOY-RIGHT, DEPLOY-LEFT: its columns deploy into line to that side; ENGAGE: its engagements need no manoeuvre test"}
	}
	return []adjudicator.FormUnit{zone, sig}
}

// signalLines are the deployment form's SIGNAL lines, commented out: the default writes no
// signal, and taking the "#" away writes one.
func (g *Game) signalLines(side string) []string {
	i := g.sc.SideIndex(side)
	n := g.signalAllowance(i)
	if n == 0 {
		return nil
	}
	var out []string
	for k, w := range g.wings(side) {
		if k == n {
			break
		}
		out = append(out, fmt.Sprintf("# SIGNAL ENGAGE WING %s", w))
	}
	out[0] += fmt.Sprintf("   (up to %d SIGNAL lines: delete the # to write one)", n)
	return out
}

// wings lists the wings side's squadrons belong to, in the order of Wings.
func (g *Game) wings(side string) []string {
	var out []string
	for _, w := range Wings {
		if slices.ContainsFunc(g.Squadrons, func(s *Squadron) bool { return s.Side == side && s.Wing == w && !s.Freighter }) {
			out = append(out, w)
		}
	}
	return out
}
