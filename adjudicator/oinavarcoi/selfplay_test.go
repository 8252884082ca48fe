package oinavarcoi

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"navarch/adjudicator/adjtest"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/dice"
	"navarch/adjudicator/table"
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

// TestDefaultDeployments: every scenario's default positions (used when a side sends no
// DEPLOY lines) pass the deployment's own checks, so a side that deploys nothing is legal;
// no two squadrons overlap and all are on the table.
func TestDefaultDeployments(t *testing.T) {
	for _, sc := range Ruleset.Scenarios() {
		g := newScenario(t, sc.ID)
		for _, side := range sc.Sides {
			var lines []string
			for _, s := range g.Squadrons {
				if s.Side == side && !s.Freighter && s.Status != Beached {
					lines = append(lines, fmt.Sprintf("DEPLOY %s AT %v FACING %d %s", s.ID, s.Pose.At, s.Pose.Heading, s.Formation))
				}
			}
			text := strings.Join(lines, "\n")
			os, perr := g.Parse(side, text)
			if errs := append(perr, g.Validate(side, os)...); len(errs) > 0 {
				t.Errorf("%s %s: the default deployment %q is refused: %v", sc.ID, side, text, errs)
			}
		}
		for i, s := range g.Squadrons {
			if !g.sc.Table.Inside(g.corners(s)) {
				t.Errorf("%s: %s is off the table", sc.ID, s.ID)
			}
			for _, o := range g.Squadrons[i+1:] {
				if table.Overlap(g.corners(s), g.corners(o)) {
					t.Errorf("%s: %s and %s overlap", sc.ID, s.ID, o.ID)
				}
			}
		}
	}
}
