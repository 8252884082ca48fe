package medieval

import (
	"errors"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/table"
)

func TestOverride(t *testing.T) {
	g, err := Ruleset.New(adjudicator.Config{Scenario: "sluys-1340", Tables: map[string][]byte{
		TablesKey: []byte("# corrected\ntype cog STR PNY PNY STR STR STR 3 1.5 2 Cog\nmissile-range 6\n"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	gm := g.(*Game)
	if s := gm.ship("EDWARD"); s.F.Sea != STR || s.F.GunPort != PNY {
		t.Errorf("EDWARD keeps the substitute factors: %v", s.F)
	}
	if gm.data.Rules.MissileRange != 6*table.Inch || gm.data.Rules.Points.NoGo != 60 {
		t.Errorf("rules %+v", gm.data.Rules)
	}
	plain := newScenario(t, "sluys-1340")
	if s := plain.ship("EDWARD"); s.F.Sea != WKN || plain.data.Rules.MissileRange != 20*table.Inch {
		t.Errorf("the override leaked into the built-in data: %v %v", s.F, plain.data.Rules)
	}
}

func TestOverrideBadInput(t *testing.T) {
	d, err := LoadData()
	if err != nil {
		t.Fatal(err)
	}
	for text, mention := range map[string]string{
		"type cog STR IMM PNY STR STR STR 3 1.5 2 Cog": "Gunnery may only be",
		"type cog STR PNY": "want type ID",
		"type cog STR PNY PNY STR STR STR 0 1.5 2 Cog": "outside the geometry's bounds",
		"nogo 100\nbeat 90":                            "nogo <= beat",
		"missile-range 50":                             "missile range",
		"windspeed 3":                                  "unknown value",
		"nogo x":                                       "invalid syntax",
		strings.Repeat("#", maxOverride+1):             "more than",
	} {
		_, err := d.WithOverride([]byte(text))
		if !errors.Is(err, ErrData) || !strings.Contains(err.Error(), mention) {
			t.Errorf("%.40q: %v, want an error mentioning %q", text, err, mention)
		}
	}
}

// FuzzOverride: no corrected data file panics the loader, and what it accepts sets up and
// plays a step of every scenario.
func FuzzOverride(f *testing.F) {
	f.Add([]byte("type cog STR PNY PNY STR STR STR 3 1.5 2 Cog\nmissile-range 6\nnogo 45\nbeat 100"))
	f.Add([]byte("type x 1 2 3 4 5 6 0.1 0.1 0 X\n"))
	d, err := LoadData()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		o, err := d.WithOverride(text)
		if err != nil {
			return
		}
		for _, sc := range o.Scenarios {
			if _, err := newGame(o, sc); err != nil && !errors.Is(err, ErrData) {
				t.Fatalf("%s: %v", sc.ID, err)
			}
		}
	})
}
