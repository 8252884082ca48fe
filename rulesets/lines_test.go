package rulesets_test

import (
	"errors"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/dice"
	"navarch/rulesets"
)

// TestOrderLinesEveryRuleset: every listed ruleset reads order text the one way
// adjudicator.ReadLines does (docs/ORDERS.md), shown on the orders its bot would send in its
// demo scenario: CRLF reads as LF; comments and blank lines change nothing but the line
// numbers; an END line of its own ends the orders; END with other words, and a line over
// adjudicator.MaxLine characters, are refused by their line number.
func TestOrderLinesEveryRuleset(t *testing.T) {
	for _, e := range rulesets.List {
		t.Run(e.Rules.ID(), func(t *testing.T) {
			g, err := e.Rules.New(adjudicator.Config{Scenario: e.Demo})
			if err != nil {
				t.Fatal(err)
			}
			side, text := botOrders(t, g)
			want := canonical(t, g, side, text)
			lines := strings.Split(text, "\n")
			for name, variant := range map[string]string{
				"CRLF":                  strings.Join(lines, "\r\n") + "\r\n",
				"comments, blank lines": "# my orders\n\n" + strings.Join(lines, "   # as planned\n\n") + "\n",
				"END, then the rest":    text + "\n  end  \n" + lines[0] + " NOT AN ORDER\nRegards, Alice\n" + strings.Repeat("-", 500),
				"lower case":            strings.ToLower(text),
			} {
				if got := canonical(t, g, side, variant); got != want {
					t.Errorf("%s: read %q, want %q", name, got, want)
				}
			}
			for name, c := range map[string]struct {
				text string
				line int
			}{
				"END with words": {text + "\nEND OF ORDERS", len(lines) + 1},
				"a long line":    {"\n" + lines[0] + " #" + strings.Repeat(" ", adjudicator.MaxLine) + "\n" + text, 2},
			} {
				_, errs := g.Parse(side, c.text)
				if len(errs) != 1 || errs[0].Line != c.line || !errors.Is(errs[0].Err, adjudicator.ErrNotUnderstood) {
					t.Errorf("%s: errors %v, want one on line %d", name, errs, c.line)
				}
			}
		})
	}
}

// botOrders plays g with its bot's orders and dice of ones to the first step at which the bot
// orders something, and returns the side and the orders.
func botOrders(t *testing.T, g adjudicator.Game) (string, string) {
	t.Helper()
	for range 100 {
		st := g.Next()
		if st.Kind == adjudicator.Over {
			break
		}
		orders := map[string][]adjudicator.Order{}
		for _, side := range st.Sides {
			text := strings.TrimSpace(g.(adjudicator.Bot).BotOrders(side))
			if o, errs := g.Parse(side, text); len(errs) == 0 && len(o) > 0 && st.Kind == adjudicator.NeedOrders {
				return side, text
			}
			orders[side], _ = g.Parse(side, text)
		}
		if _, err := g.Resolve(orders, ones{}); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("the bot ordered nothing")
	return "", ""
}

// ones rolls ones.
type ones struct{}

func (ones) Roll(label string, sides, count int) (*dice.Roll, error) {
	v := make([]int, count)
	for i := range v {
		v[i] = 1
	}
	return &dice.Roll{Label: label, Sides: sides, Count: count, Values: v}, nil
}

// canonical is text parsed by g for side, printed as the log keeps it; it fails t on an error.
func canonical(t *testing.T, g adjudicator.Game, side, text string) string {
	t.Helper()
	orders, errs := g.Parse(side, text)
	if len(errs) > 0 {
		t.Fatalf("%q: %v", text, errs)
	}
	return adjudicator.Canonical(orders)
}
