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
	"navarch/adjudicator/dice"
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

// TestEncodeMatchesFmt compares Encode with the fmt.Fprintf encoder it replaced, at every
// step of the played games.
func TestEncodeMatchesFmt(t *testing.T) {
	for _, sc := range []string{"battle-of-lepanto", "lions-at-sea"} {
		gi, err := Ruleset.New(adjudicator.Config{Scenario: sc, Options: []string{OptionWind, OptionSailing}})
		if err != nil {
			t.Fatal(err)
		}
		g := gi.(*Game)
		n := 0
		for i := 0; i < 400 && !g.Over; i++ {
			if got, want := g.Encode(), encodeFmt(g); string(got) != string(want) {
				t.Fatalf("%s step %d: Encode differs from the fmt encoder:\n%s\nwant\n%s", sc, i, got, want)
			}
			n++
			st := g.Next()
			orders := map[string][]adjudicator.Order{}
			for _, side := range st.Sides {
				o, _ := g.Parse(side, g.BotOrders(side))
				orders[side] = o
			}
			key := ident.Hash(sha256.Sum256([]byte(fmt.Sprint(sc, i))))
			if _, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, key)); err != nil {
				t.Fatalf("step %d (%s): %v", i, st.What, err)
			}
		}
		// The rarer marks: negative hexes, hold fire, a captain order, placed leaders.
		g.Units[0].Hex, g.Units[0].HoldRam = Hex{-3, 7}, true
		g.Units[1].Hex, g.Units[1].HoldMove = Hex{-12, 123}, true
		g.Units[2].Engaged = []string{"A", "B"}
		g.Groups[0].CaptainOn = "X"
		g.Leaders[0].Placed = true
		g.Drawer, g.LeadersStay = "", []string{"christian", "ottoman"}
		if got, want := g.Encode(), encodeFmt(g); string(got) != string(want) {
			t.Fatalf("%s edited: Encode differs from the fmt encoder:\n%s\nwant\n%s", sc, got, want)
		}
		t.Logf("%s: %d steps compared, turn %d", sc, n, g.Turn)
	}
}

// encodeFmt is Encode as it was written with fmt.Fprintf before issue 14.
func encodeFmt(g *Game) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "lepanto1571 %s\noptions %s\nturn %d\nact %d\ncup %s\ndrawn %t\nwind %s\nwait %s %s %s\nover %t %s\nsetup %t\n",
		g.sc.ID, strings.Join(g.options, " "), g.Turn, g.Act, strings.Join(g.Cup, " "), g.Drawn, g.Wind,
		g.Wait, strings.Join(g.WaitSides, ","), g.WaitGroup, g.Over, g.Result, g.SetUp)
	if g.Drawer != "" || len(g.LeadersStay) > 0 { // standing choices: written once made
		fmt.Fprintf(&b, "drawer %s\nleaders-stay %s\n", g.Drawer, strings.Join(g.LeadersStay, ","))
	}
	for _, gr := range g.Groups {
		fmt.Fprintf(&b, "group %s acted=%t", gr.ID, gr.Acted)
		if gr.CaptainOn != "" {
			fmt.Fprintf(&b, " captain-on=%s", gr.CaptainOn)
		}
		b.WriteByte('\n')
	}
	for _, w := range g.Wings {
		fmt.Fprintf(&b, "wing %s track=%d lma=%t lf=%t captains=%d\n", w.ID, w.Track, w.LMA, w.LF, w.Captains)
	}
	for _, u := range g.Units {
		fmt.Fprintf(&b, "unit %s %s %s fired=%t mast=%t fire=%t engaged=%s status=%s return=%d grappled=%d sailing=%t", u.ID, u.Hex, u.Facing,
			u.Fired, u.MastDown, u.OnFire, strings.Join(u.Engaged, ","), u.Status, u.Return, u.GrappleTurn, u.Sailing)
		if u.HoldMove || u.HoldRam {
			fmt.Fprintf(&b, " hold-fire=%t,%t", u.HoldMove, u.HoldRam)
		}
		b.WriteByte('\n')
	}
	for _, l := range g.Leaders {
		fmt.Fprintf(&b, "leader %s %s status=%s hidden=%t", l.ID, l.Unit, l.Status, l.Hidden)
		if l.Placed {
			b.WriteString(" placed")
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}
