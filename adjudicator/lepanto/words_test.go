package lepanto

import "testing"

// TestWords: fire, ramming and damage results read as words, and a facing NE stays NE (5.5.1,
// 6.3, 9.6).
func TestWords(t *testing.T) {
	g := newGame(t)
	for in, want := range map[string]string{
		"Artillery fire: BAR-VEN1 at SIR-EGY1, fire value 0, d6 4: NE (range 1)": "Artillery fire: BAR-VEN1 at SIR-EGY1, fire value 0, d6 4: no effect (range 1)",
		"Reaction fire: SIR-EGY1 at BAR-VEN1, fire value 2, d6 6: 1MF (range 1)": "Reaction fire: SIR-EGY1 at BAR-VEN1, fire value 2, d6 6: 1 hit, Mast Down, fire aboard (range 1)",
		"BAR-VEN1 strikes SIR-EGY1's bow at speed 3: 2":                          "BAR-VEN1 strikes SIR-EGY1's bow at speed 3: 2 hits",
		"fire/BAR-VEN1>SIR-EGY1 d6 = 4: fire value 0 (range 1): NE":              "fire/BAR-VEN1>SIR-EGY1 d6 = 4: fire value 0 (range 1): no effect",
		"Hit on SIR-EGY1: HV check passed, minor-damage d6 2: NE":                "Hit on SIR-EGY1: HV check passed, minor-damage d6 2: no effect",
		"damage/SIR-EGY1 d6 = 2: minor-damage: NE":                               "damage/SIR-EGY1 d6 = 2: minor-damage: no effect",
		"BAR-VEN1 moves 0610→0611, facing NE":                                    "BAR-VEN1 moves 0610→0611, facing NE",
	} {
		if got := g.Words(in); got != want {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
}
