package lepanto

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/dice"
	"navarch/ident"
)

var update = flag.Bool("update", false, "rewrite golden files")

// playedStates plays a scenario with bot orders for every side asked and real dice (a fixed
// key per step) and returns the game's encoding before every step and at the end.
func playedStates(t *testing.T, scenario string, options []string, steps int) [][]byte {
	t.Helper()
	gi, err := Ruleset.New(adjudicator.Config{Scenario: scenario, Options: options})
	if err != nil {
		t.Fatal(err)
	}
	g := gi.(*Game)
	var out [][]byte
	for i := 0; i < steps && !g.Over; i++ {
		out = append(out, g.Encode())
		st := g.Next()
		orders := map[string][]adjudicator.Order{}
		for _, side := range st.Sides {
			o, errs := g.Parse(side, g.BotOrders(side))
			if len(errs) > 0 {
				t.Fatalf("step %d: bot orders of %s refused: %v", i, side, errs)
			}
			orders[side] = o
		}
		key := ident.Hash(sha256.Sum256([]byte(fmt.Sprint(scenario, i))))
		if _, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, key)); err != nil {
			t.Fatalf("step %d (%s): %v", i, st.What, err)
		}
	}
	return append(out, g.Encode())
}

// TestEncodeGolden pins the bytes of Encode, which every state record of a log hashes, over
// two played games: the SHA-256 of the encoding at every step, and the final encoding whole.
// The golden files were written by the fmt.Fprintf encoder that Encode replaced,
// after TestEncodeMatchesFmt (commit 8640b77) had compared the two at every step of two
// played games and with the rarer marks set (negative hexes, hold fire, placed leaders).
// Run with -update only for a new engine version: a changed state hash breaks replay of every
// existing log.
func TestEncodeGolden(t *testing.T) {
	for _, c := range []struct {
		scenario string
		options  []string
		steps    int
	}{
		{"battle-of-lepanto", nil, 400},
		{"lions-at-sea", []string{OptionWind, OptionSailing}, 400},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			states := playedStates(t, c.scenario, c.options, c.steps)
			var b strings.Builder
			for i, s := range states {
				fmt.Fprintf(&b, "%d %x\n", i, sha256.Sum256(s))
			}
			b.WriteString("final state:\n")
			b.Write(states[len(states)-1])
			path := filepath.Join("testdata", "encode-"+c.scenario+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Errorf("the encodings of %s differ from %s (state hashes of existing logs would break)", c.scenario, path)
			}
		})
	}
}
