package oinavarcoi

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"navarch/adjudicator/adjtest"
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/table"
	"navarch/dice"
	"navarch/ident"
)

func newScenario(tb testing.TB, id string, opts ...string) *Game {
	tb.Helper()
	g, err := Ruleset.New(adjudicator.Config{Scenario: id, Options: opts})
	if err != nil {
		tb.Fatal(err)
	}
	return g.(*Game)
}

// playBots plays a scenario to the end with the bots on both sides, the dice derived from
// seed, and returns the final state and the number of steps. Every bot line must pass
// Parse and Validate.
func playBots(t *testing.T, id string, seed byte, opts ...string) ([]byte, *Game, int) {
	t.Helper()
	g := newScenario(t, id, opts...)
	steps := 0
	for ; g.Next().Kind != adjudicator.Over; steps++ {
		if steps > 200 {
			t.Fatalf("%s: no end after %d steps (turn %d)", id, steps, g.Turn)
		}
		st := g.Next()
		orders := map[string][]adjudicator.Order{}
		for _, side := range st.Sides {
			adjtest.CheckForm(t, g, side)
			text := g.BotOrders(side)
			os, perr := g.Parse(side, text)
			verr := g.Validate(side, os)
			if len(perr)+len(verr) > 0 {
				t.Fatalf("%s turn %d %s: bot orders %q refused: %v %v", id, g.Turn, side, text, perr, verr)
			}
			orders[side] = os
		}
		key := sha256.Sum256([]byte(fmt.Sprintf("%s/%d/%d", id, seed, steps)))
		if _, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, ident.Hash(key))); err != nil {
			t.Fatalf("%s step %d (%s): %v", id, steps, st.What, err)
		}
	}
	return g.Encode(), g, steps
}

// TestBotsPlayEveryScenario: both bots play every scenario (and full-size play) to the end
// with legal orders; the same dice give the same Encode; the game ends with a result.
func TestBotsPlayEveryScenario(t *testing.T) {
	for _, sc := range Ruleset.Scenarios() {
		for _, opts := range [][]string{nil, {OptionFullSize}} {
			name := sc.ID
			if opts != nil {
				name += "-full"
			}
			t.Run(name, func(t *testing.T) {
				a, g, steps := playBots(t, sc.ID, 1, opts...)
				b, _, _ := playBots(t, sc.ID, 1, opts...)
				if !bytes.Equal(a, b) {
					t.Errorf("two plays with the same dice differ")
				}
				if g.Result == "" {
					t.Errorf("over without a result")
				}
				t.Logf("%d steps, turn %d: %s", steps, g.Turn, g.Result)
			})
		}
	}
}

// TestDeploymentForms: in every scenario, with and without full-size play, each side's
// deployment form pre-fills one DEPLOY line for each squadron that deploys, inside its zone,
// in the scenario's formation and facing (a column that fits nowhere else lies across the
// table); sent back unchanged the lines are accepted
// (adjtest.CheckForm) and place the squadrons where they already stand, so the form and the
// no-orders default agree; beached squadrons are listed with no line. No two squadrons
// overlap and all are on the table.
func TestDeploymentForms(t *testing.T) {
	for _, sc := range Ruleset.Scenarios() {
		for _, opts := range [][]string{nil, {OptionFullSize}} {
			g := newScenario(t, sc.ID, opts...)
			name := strings.Join(append([]string{sc.ID}, opts...), " ")
			for i, side := range sc.Sides {
				f := adjtest.CheckForm(t, g, side)
				var want []string
				beached := 0
				for _, s := range g.Squadrons {
					if s.Side == side && s.Status == Beached {
						beached++
					}
					if s.Side != side || s.Freighter || s.Status == Beached {
						continue
					}
					want = append(want, s.ID)
					def := g.sc.Squadrons[slices.IndexFunc(g.sc.Squadrons, func(d SquadronDef) bool { return d.ID == s.ID })]
					if s.Formation != def.Formation || s.Formation != Keras && s.Pose.Heading != def.Pose.Heading {
						t.Errorf("%s %s: %s in %s facing %d, the scenario has %s facing %d", name, side, s.ID, s.Formation, s.Pose.Heading, def.Formation, def.Pose.Heading)
					}
					line := fmt.Sprintf("DEPLOY %s AT %v FACING %d %s", s.ID, s.Pose.At, s.Pose.Heading, def.Formation)
					if !slices.Contains(f.Lines, line) {
						t.Errorf("%s %s: the form lacks %q: %q", name, side, line, f.Lines)
					}
					if !g.inZone(i, s.Pose, g.corners(s)) {
						t.Errorf("%s %s: %s at %v is outside the zone (%s)", name, side, s.ID, s.Pose.At, g.zoneText(i))
					}
				}
				signals := min(g.signalAllowance(i), len(g.wings(side)))
				if len(f.Lines) != len(want)+signals || len(f.Units) != len(want)+beached+2 {
					t.Errorf("%s %s: %d lines and %d units for the squadrons %v, %d beached and %d signal lines", name, side, len(f.Lines), len(f.Units), want, beached, signals)
				}
				// the request states the zone and the signals allowed, and offers a SIGNAL line
				if len(f.Units) < 2 || f.Units[0].May[0] != g.zoneText(i) || !strings.Contains(f.Units[1].Allowance, fmt.Sprint(g.signalAllowance(i))) && !g.sc.NoSignals[i] {
					t.Errorf("%s %s: the form's first entries %+v do not state the zone and the signals", name, side, f.Units[:min(2, len(f.Units))])
				}
				if signals > 0 && !slices.ContainsFunc(f.Lines, func(l string) bool { return strings.HasPrefix(l, "# SIGNAL ENGAGE WING ") }) {
					t.Errorf("%s %s: no SIGNAL line in the form: %q", name, side, f.Lines)
				}
			}
			for i, s := range g.Squadrons {
				if !g.sc.Table.Inside(g.corners(s)) {
					t.Errorf("%s: %s is off the table", name, s.ID)
				}
				for _, o := range g.Squadrons[i+1:] {
					if table.Overlap(g.corners(s), g.corners(o)) {
						t.Errorf("%s: %s and %s overlap", name, s.ID, o.ID)
					}
				}
			}
		}
	}
}

// TestFormStandingOrders: the order form pre-fills the side's standing orders in force (only
// its squadrons still on the table) and its Default says them; the lines pass as they stand.
func TestFormStandingOrders(t *testing.T) {
	g := newScenario(t, "clash")
	g.Deployed, g.Turn, g.Phase, g.First = true, 1, phaseMove1, "athens"
	g.OmenPrefer[0] = []string{"A3", "A1"}
	g.sq("A1").Status = Sunk
	f := adjtest.CheckForm(t, g, "athens")
	if !slices.Contains(f.Lines, "OMEN A3") || slices.ContainsFunc(f.Lines, func(l string) bool { return strings.HasPrefix(l, "NAVARCH") }) {
		t.Errorf("form lines %q", f.Lines)
	}
	if !strings.Contains(f.Default, "OMEN A3 A1") || !strings.Contains(f.Default, "NAVARCH DEFAULT") {
		t.Errorf("form default %q", f.Default)
	}
	if h := g.Help("athens"); !strings.Contains(h, "standing orders: OMEN A3 A1") || !strings.Contains(h, "NAVARCH SQ2 SQ1") {
		t.Errorf("help does not show the standing orders: %s", h)
	}
}

// TestFormReformsUnformed: the movement form pre-fills REFORM EPI-MIAS for an unformed
// squadron near the enemy, never a line that keeps it Unformed; sent back as it stands, or
// not at all, the squadron reforms at the end of the turn (rule Formations.unformed). The
// INITIATIVE and SHARE standing orders in force are pre-filled too.
func TestFormReformsUnformed(t *testing.T) {
	for _, send := range []bool{true, false} {
		g := newScenario(t, "clash")
		g.Deployed, g.Turn, g.Phase, g.First, g.Act = true, 1, phaseMove2, "sparta", 3
		a1 := g.sq("A1")
		a1.Pose = table.Pose{At: table.Point{X: 22 * table.Inch, Y: 30 * table.Inch}}
		g.unformForTest(a1)
		g.Initiative[0], g.SharePrefer[0] = "SECOND", []string{"A2", "A1"}
		f := adjtest.CheckForm(t, g, "athens")
		for _, want := range []string{"A1 REFORM EPI-MIAS", "INITIATIVE SECOND", "SHARE A2 A1"} {
			if !slices.Contains(f.Lines, want) {
				t.Errorf("form lines %q lack %q", f.Lines, want)
			}
		}
		orders := map[string][]adjudicator.Order{}
		if send {
			orders["athens"], _ = g.Parse("athens", strings.Join(f.Lines, "\n"))
		}
		if _, err := g.Resolve(orders, hashRoller{}); err != nil {
			t.Fatal(err)
		}
		if a1.Formation != Mias && len(a1.Melee) == 0 {
			t.Errorf("sent %v: A1 still %s after a stationary turn", send, a1.Formation)
		}
	}
}

func (g *Game) unformForTest(s *Squadron) {
	(&resolver{g: g}).unform(s)
}
