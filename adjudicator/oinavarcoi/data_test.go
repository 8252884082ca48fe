package oinavarcoi

import (
	"errors"
	"testing"

	"navarch/adjudicator"
)

// TestOverride: a referee's replacement file changes rules keys and replaces a scenario for
// one game; the built-in data is untouched; a bad file is refused with ErrData.
func TestOverride(t *testing.T) {
	text := `stand-width 1.5
race-loss-die 6
scenario clash
title Clash, shorter
turns 3
table 60 40
wind 90
side athens south
side sparta north
squadron athens A1 LEFT - - - EPI-MIAS 30 9 0 strategos One
squadron sparta S1 LEFT - - - EPI-MIAS 30 31 180 strategos Two
`
	gm, err := Ruleset.New(adjudicator.Config{Scenario: "clash", Tables: map[string][]byte{"oinavarcoi": []byte(text)}})
	if err != nil {
		t.Fatal(err)
	}
	g := gm.(*Game)
	if g.sc.Turns != 3 || len(g.Squadrons) != 2 || g.data.Rules.StandWidth != 150 || g.data.Rules.RaceLossDie != 6 || g.base(g.Squadrons[0]).Beam != 600 {
		t.Errorf("override not applied: turns %d, %d squadrons, stand %d", g.sc.Turns, len(g.Squadrons), g.data.Rules.StandWidth)
	}
	if plain := newScenario(t, "clash"); plain.sc.Turns != 12 || plain.data.Rules.StandWidth != 200 || plain.data.Rules.RaceLossDie != 3 {
		t.Errorf("the built-in data changed")
	}
	for _, bad := range []string{"stand-width x", "stand-width 0", "footprint EPI-MIAS 0.1 1", "race-loss-die 0", "race-loss-die 7", "race-loss-die d3",
		"scenario clash\nturns 3\ntable 60 40\nside athens south\nside sparta north\nsquadron athens OMEN LEFT - - - EPI-MIAS 30 9 0 One\nsquadron sparta S1 LEFT - - - EPI-MIAS 30 31 180 Two", "scenario nosuch\nturns 3", "scenario clash\nsquadron athens", "scenario clash\nturns 3\ntable 60 40\nside A south\nside B north\nsquadron A X1 LEFT - - - EPI-MIAS 30 9 0 One"} {
		if _, err := Ruleset.New(adjudicator.Config{Scenario: "clash", Tables: map[string][]byte{"oinavarcoi": []byte(bad)}}); !errors.Is(err, ErrData) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func FuzzOverride(f *testing.F) {
	f.Add("stand-width 1.5\nscenario clash\ntitle T\nturns 2\ntable 40 30\nwind 45\nside A south\nside B north\nsquadron A X LEFT well - fast EPI-POLLON 20 6 0 strategos X\nsquadron B Y RIGHT - poor heavy KYKLOS 20 24 180 Y\nfreighter A F 10 10 90 F\nphalanx B P LEFT 2 1 35 20 180\ncape 0 0 5 0 5 5\nbeach B 0 28 40 28 40 30")
	f.Add("respect 2\nphalanx-move 8")
	f.Fuzz(func(t *testing.T, text string) {
		d, err := builtIn()
		if err != nil {
			t.Fatal(err)
		}
		o, err := d.WithOverride(text)
		if err != nil {
			if !errors.Is(err, ErrData) {
				t.Fatalf("%q: %v is not ErrData", text, err)
			}
			return
		}
		for _, sc := range o.Scenarios {
			g := newGame(o, sc, false)
			for i := 0; i < 3 && g.Next().Kind != adjudicator.Over; i++ {
				st := g.Next()
				orders := map[string][]adjudicator.Order{}
				for _, side := range st.Sides {
					orders[side], _ = g.Parse(side, g.BotOrders(side))
				}
				if _, err := g.Resolve(orders, hashRoller{}); err != nil {
					t.Fatalf("%s: %v", sc.ID, err)
				}
			}
			_ = g.Encode()
		}
	})
}
