package medieval

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/dice"
	"navarch/ident"
)

func TestParseOrders(t *testing.T) {
	for in, want := range map[string]string{
		"LION TURN P30 MOVE 1.5 TURN P30 MOVE 1.5": "LION TURN P30 MOVE 1.5 TURN P30 MOVE 1.5",
		"lion move 3": "LION MOVE 3",
		"Lion move .5 turn s15 move 0.50  # comment":                "LION MOVE 0.5 TURN S15 MOVE 0.5",
		"LION MOVE 2 SHOOT EAGLE FIRE P EAGLE FIRE S HAWK":          "LION MOVE 2 SHOOT EAGLE FIRE PORT EAGLE FIRE STARBOARD HAWK",
		"LION FIGHT EAGLE HAWK":                                     "LION FIGHT EAGLE HAWK",
		"LION RELOAD STARBOARD PASS COMBAT TO BEAR DOUSE CUT EAGLE": "LION RELOAD STARBOARD PASS COMBAT TO BEAR DOUSE CUT EAGLE",
		"LION HOLD":                    "LION HOLD",
		"LION NOGRAPPLE MOVE 1":        "LION MOVE 1 NOGRAPPLE",
		"LION grapple":                 "LION GRAPPLE",
		"LION against eagle nograpple": "LION NOGRAPPLE AGAINST EAGLE",
	} {
		orders, errs := ParseOrders(in)
		if len(errs) > 0 || len(orders) != 1 || orders[0].String() != want {
			t.Errorf("%q: %v %v, want %q", in, orders, errs, want)
		}
	}
}

func TestParseOrdersBadInput(t *testing.T) {
	for in, mention := range map[string]string{
		"LION":                      "what does LION do",
		"LION FLY":                  `"FLY" is not an order word`,
		"LION MOVE":                 "MOVE needs inches",
		"LION MOVE -1":              "MOVE needs inches more than 0",
		"LION MOVE 0":               "MOVE needs inches more than 0",
		"LION MOVE 1.234":           "MOVE needs inches",
		"LION TURN 30":              "a turn is P or S",
		"LION TURN P0":              "1-30 degrees",
		"LION TURN P+5":             "1-30 degrees",
		"LION TURN":                 "TURN needs P or S",
		"LION FIRE EAGLE":           "FIRE needs a broadside and a ship",
		"LION FIRE LEFT EAGLE":      "a broadside is PORT or STARBOARD",
		"LION FIRE PORT A FIRE P B": "fires once",
		"LION SHOOT":                "SHOOT needs a ship's name",
		"LION SHOOT A SHOOT B":      "one SHOOT a phase",
		"LION FIGHT":                "FIGHT names one or two enemies",
		"LION FIGHT A FIGHT A":      "FIGHT names one or two enemies",
		"LION SHOOT A MOVE 1":       "the path comes before",
		"LION PASS GUNS TO A":       "PASS needs COMBAT or MISSILE",
		"LION HOLD MOVE 1":          "HOLD stands alone",
		"MOVE 3":                    "starts with a ship's name",
		"L!ON MOVE 3":               "starts with a ship's name",
		"LION HOLD NOGRAPPLE":       "HOLD stands alone",
		"LION GRAPPLE NOGRAPPLE":    "once a line",
		"LION CUT A CUT A":          "one CUT a phase",
		"LION CUT A CUT B":          "one CUT a phase",
		"LION AGAINST":              "AGAINST needs a ship's name",
		"LION AGAINST A AGAINST B":  "AGAINST once a line",
		"LION HOLD AGAINST A":       "HOLD stands alone",
		"LION MOVE 3 " + strings.Repeat("X", adjudicator.MaxLine): "more than",
	} {
		_, errs := ParseOrders(in)
		if len(errs) != 1 || !errors.Is(errs[0].Err, adjudicator.ErrNotUnderstood) || !strings.Contains(errs[0].Error(), mention) {
			t.Errorf("%q: %v, want an error mentioning %q", in, errs, mention)
		}
	}
	// A bad line loses nothing else: the good lines around it are read.
	orders, errs := ParseOrders("LION MOVE 3\nLION FLY\n\nEAGLE HOLD")
	if len(orders) != 2 || len(errs) != 1 || errs[0].Line != 2 || orders[1].Line() != 4 {
		t.Errorf("mixed lines: %v %v", orders, errs)
	}
}

func TestValidateAnswersWithWhatIsLegal(t *testing.T) {
	g := newScenario(t, "sluys-1340")
	g.Turn, g.Card = 1, "E-MAIN/SF1"
	orders, _ := g.Parse("english", "THOMAS MOVE 9\nCHRIST MOVE 1\nJOHN MOVE 1\nJOHN MOVE 1")
	errs := g.Validate("english", orders)
	if len(errs) != 3 {
		t.Fatalf("errors: %v", errs)
	}
	if !strings.Contains(errs[0].Error(), "running: MOVE up to 5") || !strings.Contains(errs[0].Error(), "into the wind") {
		t.Errorf("no allowance in the answer: %v", errs[0])
	}
	if !strings.Contains(errs[1].Error(), "not a ship of yours") || !strings.Contains(errs[1].Error(), "THOMAS, EDWARD, JOHN") {
		t.Errorf("foreign ship: %v", errs[1])
	}
	if !strings.Contains(errs[2].Error(), "one line per ship") {
		t.Errorf("second line for a ship: %v", errs[2])
	}
}

// FuzzParseOrders: no text panics the parser, what it reads writes back canonically and
// reads the same again, and orders that validate (in a Sail/Fight and a Command and
// Control phase of Sluys) resolve with real dice.
func FuzzParseOrders(f *testing.F) {
	f.Add("THOMAS TURN P30 MOVE 1.5 TURN P30 MOVE 1.5\nEDWARD MOVE 3 SHOOT CHRIST")
	f.Add("THOMAS FIRE STARBOARD CHRIST FIRE PORT RICH\nJOHN FIGHT RICH DENIS")
	f.Add("THOMAS RELOAD PORT PASS COMBAT TO EDWARD DOUSE CUT CHRIST # c\r\nJOHN HOLD")
	f.Add("THOMAS MOVE 2.5 TURN S30 MOVE 2.5")
	f.Add("THOMAS CUT CHRIST CUT CHRIST\nCHRIST CUT RICH CUT RICH") // one CUT a phase (rule Cutting Free)
	f.Fuzz(func(t *testing.T, text string) {
		orders, _ := ParseOrders(text)
		canon := adjudicator.Canonical(orders)
		again, errs := ParseOrders(canon)
		if len(errs) > 0 || adjudicator.Canonical(again) != canon {
			t.Fatalf("canonical %q reads back as %q (%v)", canon, adjudicator.Canonical(again), errs)
		}
		for _, sc := range []struct{ side, card string }{{"english", "E-MAIN/SF1"}, {"english", "E-MAIN/CC"}, {"french", "F-1/CC"}} {
			g := newScenario(t, "sluys-1340")
			g.Turn, g.Act, g.Card = 1, 1, sc.card
			if len(g.Validate(sc.side, orders)) == 0 {
				if _, err := g.Resolve(map[string][]adjudicator.Order{sc.side: orders}, dice.NewActivation(1, 1, ident.Hash{1})); err != nil {
					t.Fatalf("valid orders %q fail to resolve on %s: %v", canon, sc.card, err)
				}
			}
		}
	})
}

// TestValidateOneCut: an order with two cuts, however made, is refused by Validate before
// Resolve could ask the roller for the label cut/SHIP/ENEMY twice (rule "Cutting Free").
func TestValidateOneCut(t *testing.T) {
	g := newScenario(t, "sluys-1340")
	g.Turn, g.Act, g.Card = 1, 1, "F-1/CC"
	o := &Order{line: 1, Ship: "CHRIST", Cut: []string{"RICH", "RICH"}}
	errs := g.Validate("french", []adjudicator.Order{o})
	if len(errs) != 1 || !errors.Is(errs[0].Err, adjudicator.ErrIllegal) || !strings.Contains(errs[0].Error(), "one CUT a phase") {
		t.Errorf("two cuts: %v", errs)
	}
}

// TestWrongCardNamesEveryLegalWord: an order for the other kind of card is answered with
// every word the card turned takes, the standing orders (GRAPPLE, NOGRAPPLE, AGAINST), which
// fit either card, among them.
func TestWrongCardNamesEveryLegalWord(t *testing.T) {
	g := newScenario(t, "sluys-1340")
	g.Turn, g.Act, g.Card = 1, 1, "F-1/CC"
	move, errs := g.Parse("french", "CHRIST MOVE 2")
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	g.Card = "F-1/SF1"
	reload, errs := g.Parse("french", "CHRIST RELOAD PORT")
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	for _, c := range []struct {
		card   string
		orders []adjudicator.Order
		want   []string
	}{
		{"F-1/CC", move, []string{"RELOAD", "CUT", "HOLD", "GRAPPLE", "NOGRAPPLE", "AGAINST"}},
		{"F-1/SF1", reload, []string{"MOVE", "FIGHT", "HOLD", "GRAPPLE", "NOGRAPPLE", "AGAINST"}},
	} {
		g.Card = c.card
		errs := g.Validate("french", c.orders)
		if len(errs) != 1 {
			t.Fatalf("%s: %v", c.card, errs)
		}
		for _, w := range c.want {
			if !slices.Contains(errs[0].Legal, w) {
				t.Errorf("%s: legal %v lacks %s", c.card, errs[0].Legal, w)
			}
		}
	}
}
