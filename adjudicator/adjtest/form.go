package adjtest

import (
	"strings"
	"testing"

	"navarch/adjudicator"
)

// CheckForm fails t unless g's order form for side, asked for orders now, holds pre-filled
// lines that pass Parse and Validate as they stand, and names each of its units once.
// A game without forms passes.
func CheckForm(t testing.TB, g adjudicator.Game, side string) adjudicator.Form {
	t.Helper()
	fo, ok := g.(adjudicator.OrderFormer)
	if !ok {
		return adjudicator.Form{}
	}
	f := fo.OrderForm(side)
	text := strings.Join(f.Lines, "\n")
	orders, errs := g.Parse(side, text)
	if errs = append(errs, g.Validate(side, orders)...); len(errs) > 0 {
		t.Fatalf("%s (%s): the order form's lines %q are refused: %v", side, g.Next().What, text, errs)
	}
	seen := map[string]bool{}
	for _, u := range f.Units {
		if u.ID == "" || seen[u.ID] {
			t.Fatalf("%s (%s): the order form names unit %q twice or not at all", side, g.Next().What, u.ID)
		}
		seen[u.ID] = true
	}
	return f
}
