package oinavarcoi

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/dice"
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
