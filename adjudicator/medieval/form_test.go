package medieval

import (
	"crypto/sha256"
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/table"
	"navarch/dice"
	"navarch/ident"
)

// clone returns a deep copy of g, to resolve one step two ways.
func (g *Game) clone() *Game {
	c := *g
	c.Deck = slices.Clone(g.Deck)
	c.Last = slices.Clone(g.Last)
	c.Ships = nil
	for _, s := range g.Ships {
		x := *s
		x.Grappled, x.Lashed, x.CutAt = slices.Clone(s.Grappled), slices.Clone(s.Lashed), slices.Clone(s.CutAt)
		c.Ships = append(c.Ships, &x)
	}
	return &c
}

// TestFormIsTheDefault: at every step of the bots' games, the order form's pre-filled lines
// sent back unedited leave the game exactly as sending nothing does (same dice), and a
// Command and Control form offers no move and fills in no HOLD.
func TestFormIsTheDefault(t *testing.T) {
	forms := 0
	for _, sc := range Ruleset.Scenarios() {
		for seed := byte(1); seed <= 4; seed++ {
			g := newScenario(t, sc.ID)
			for i := 0; g.Next().Kind != adjudicator.Over; i++ {
				st := g.Next()
				key := sha256.Sum256([]byte{seed, byte(i), byte(i >> 8)})
				orders := map[string][]adjudicator.Order{}
				for _, side := range st.Sides {
					f := g.OrderForm(side)
					checkFormWords(t, g, f)
					silent, filled := g.clone(), g.clone()
					os, errs := filled.Parse(side, strings.Join(f.Lines, "\n"))
					if errs = append(errs, filled.Validate(side, os)...); len(errs) > 0 {
						t.Fatalf("%s step %d: the form's lines are refused: %v", sc.ID, i, errs)
					}
					if _, err := silent.Resolve(nil, dice.NewActivation(st.Turn, st.Act, ident.Hash(key))); err != nil {
						t.Fatal(err)
					}
					if _, err := filled.Resolve(map[string][]adjudicator.Order{side: os}, dice.NewActivation(st.Turn, st.Act, ident.Hash(key))); err != nil {
						t.Fatal(err)
					}
					if a, b := silent.Encode(), filled.Encode(); string(a) != string(b) {
						t.Fatalf("%s step %d (%s): the form %q does not do what no orders do:\n%s\nwant\n%s", sc.ID, i, st.What, f.Lines, b, a)
					}
					forms++
					orders[side], _ = g.Parse(side, g.BotOrders(side))
				}
				if _, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, ident.Hash(key))); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	t.Logf("%d forms resolved both ways", forms)
}

// checkFormWords: a Command and Control form has no allowance, no move and no HOLD line.
func checkFormWords(t *testing.T, g *Game, f adjudicator.Form) {
	t.Helper()
	if !isCommand(g.Card) {
		return
	}
	for _, u := range f.Units {
		if u.Allowance != "" || slices.ContainsFunc(u.May, func(m string) bool { return strings.HasPrefix(m, "MOVE") }) {
			t.Fatalf("%s: the Command and Control form offers %s a move: %q %q", g.Card, u.ID, u.Allowance, u.May)
		}
	}
	for _, l := range f.Lines {
		if strings.HasSuffix(l, " HOLD") {
			t.Fatalf("%s: the Command and Control form fills in %q, though with no orders she fights her fire and reloads", g.Card, l)
		}
	}
}

// TestFormTwoEnemiesFightsAsTheDefault: a ship in contact with two enemies is pre-filled
// with both dice at the first of them, as the no-orders default rolls (rule "Boarding");
// the split is offered.
func TestFormTwoEnemiesFightsAsTheDefault(t *testing.T) {
	g := newScenario(t, "sluys-1340")
	g.Turn, g.Act, g.Card = 1, 1, "F-GEN/SF1"
	g.Ships = slices.DeleteFunc(g.Ships, func(s *Ship) bool { return s.ID != "THOMAS" && s.ID != "EDWARD" && s.ID != "GEN2" })
	g.ship("THOMAS").Pose = table.Pose{At: table.Point{X: 2000, Y: 2000}}
	g.ship("GEN2").Pose = table.Pose{At: table.Point{X: 2125, Y: 2000}}
	g.ship("EDWARD").Pose = table.Pose{At: table.Point{X: 2250, Y: 2000}}
	f := g.OrderForm("french")
	if !slices.Contains(f.Lines, "GEN2 FIGHT THOMAS") {
		t.Errorf("pre-filled %q, want GEN2 FIGHT THOMAS (both dice at THOMAS, as with no orders)", f.Lines)
	}
	if !slices.ContainsFunc(f.Units[0].May, func(m string) bool { return strings.HasPrefix(m, "FIGHT THOMAS EDWARD (one die") }) {
		t.Errorf("the split is not offered: %q", f.Units[0].May)
	}
}

// TestCommandFormOffersWhatTheCardAllows: on a Command and Control card with both
// broadsides loaded and no fire, the form offers no move and no reload, and its line keeps
// the defaults (standing orders alone), not HOLD.
func TestCommandFormOffersWhatTheCardAllows(t *testing.T) {
	g := newScenario(t, "sluys-1340")
	g.Turn, g.Act, g.Card = 1, 1, "E-MAIN/CC"
	f := g.OrderForm("english")
	if len(f.Units) != 3 || !slices.Equal(f.Lines, []string{"THOMAS GRAPPLE", "EDWARD GRAPPLE", "JOHN GRAPPLE"}) {
		t.Fatalf("form %+v", f)
	}
	for _, u := range f.Units {
		if u.Allowance != "" || slices.ContainsFunc(u.May, func(m string) bool { return strings.Contains(m, "MOVE") || strings.HasPrefix(m, "RELOAD") }) {
			t.Errorf("%s: %q %q", u.ID, u.Allowance, u.May)
		}
	}
	g.ship("THOMAS").Loaded[portSide] = NNE
	if f := g.OrderForm("english"); f.Lines[0] != "THOMAS RELOAD PORT" || !slices.Contains(f.Units[0].May, "RELOAD PORT") {
		t.Errorf("THOMAS's port broadside fired: %q %q", f.Lines, f.Units[0].May)
	}
}

// TestBadMoveLegalIsOneSentence: the legal answer to a bad move is one item whose sentences
// are kept apart, so that a mail joining the items with spaces does not run them together.
func TestBadMoveLegalIsOneSentence(t *testing.T) {
	g := newScenario(t, "sluys-1340")
	g.Turn, g.Card = 1, "E-MAIN/SF1"
	orders, _ := g.Parse("english", "THOMAS MOVE 9")
	errs := g.Validate("english", orders)
	if len(errs) != 1 || len(errs[0].Legal) != 1 || !strings.Contains(errs[0].Legal[0], "(each half 2.5 with turns); beating 3\"") {
		t.Errorf("legal %q", errs[0].Legal)
	}
}

// TestFormOffersTheShots: a Sail/Fight form offers each loaded broadside at each enemy in
// its arc with the dice and score, and SHOOT at each enemy in missile range, from where the
// ship stands; a broadside not bearing is not offered.
func TestFormOffersTheShots(t *testing.T) {
	g := newScenario(t, "sluys-1340")
	g.Turn, g.Act, g.Card = 1, 1, "E-MAIN/SF1"
	g.Ships = slices.DeleteFunc(g.Ships, func(s *Ship) bool { return s.ID != "THOMAS" && s.ID != "BARBA" })
	g.ship("THOMAS").Pose = table.Pose{At: table.Point{X: 2000, Y: 2000}, Heading: 0}
	g.ship("BARBA").Pose = table.Pose{At: table.Point{X: 2500, Y: 2000}, Heading: 0}
	f := g.OrderForm("english")
	may := strings.Join(f.Units[0].May, "\n")
	for _, want := range []string{"FIRE STARBOARD BARBA (close: 3 d10 needing 8+, track FRL)", "SHOOT BARBA (1 d10 needing 7+)"} {
		if !strings.Contains(may, want) {
			t.Errorf("the form lacks %q:\n%s", want, may)
		}
	}
	if strings.Contains(may, "FIRE PORT") {
		t.Errorf("the port broadside does not bear:\n%s", may)
	}
}
