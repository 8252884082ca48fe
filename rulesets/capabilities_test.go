package rulesets_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/rulesets"
)

// capabilities are the optional interfaces adjudicator declares, by name, each with the test
// whether a game has it.
var capabilities = map[string]func(adjudicator.Game) bool{
	"Sealer":         func(g adjudicator.Game) bool { _, ok := g.(adjudicator.Sealer); return ok },
	"Summarizer":     func(g adjudicator.Game) bool { _, ok := g.(adjudicator.Summarizer); return ok },
	"Checker":        func(g adjudicator.Game) bool { _, ok := g.(adjudicator.Checker); return ok },
	"Bot":            func(g adjudicator.Game) bool { _, ok := g.(adjudicator.Bot); return ok },
	"AdvanceOrders":  func(g adjudicator.Game) bool { _, ok := g.(adjudicator.AdvanceOrders); return ok },
	"OrderFormer":    func(g adjudicator.Game) bool { _, ok := g.(adjudicator.OrderFormer); return ok },
	"Worder":         func(g adjudicator.Game) bool { _, ok := g.(adjudicator.Worder); return ok },
	"StandingOrders": func(g adjudicator.Game) bool { _, ok := g.(adjudicator.StandingOrders); return ok },
	"Teams":          func(g adjudicator.Game) bool { _, ok := g.(adjudicator.Teams); return ok },
}

// TestCapabilitiesAsserted: every optional capability a listed ruleset's games have is
// asserted at compile time in the ruleset's capabilities.go (var _ adjudicator.X =
// (*Game)(nil)), and nothing else is, so that a renamed method fails to build instead of
// silently dropping the capability.
func TestCapabilitiesAsserted(t *testing.T) {
	for _, e := range rulesets.List {
		t.Run(e.Rules.ID(), func(t *testing.T) {
			g, err := e.Rules.New(adjudicator.Config{Scenario: e.Demo})
			if err != nil {
				t.Fatal(err)
			}
			var has []string
			for name, ok := range capabilities {
				if ok(g) {
					has = append(has, name)
				}
			}
			slices.Sort(has)
			pkg := reflect.TypeOf(g).Elem().PkgPath()
			asserted := assertedIn(t, filepath.Join("..", strings.TrimPrefix(pkg, "navarch/"), "capabilities.go"))
			if !slices.Equal(has, asserted) {
				t.Errorf("%s's games have %v; its capabilities.go asserts %v", pkg, has, asserted)
			}
		})
	}
}

// assertedIn are the names X of the "var _ adjudicator.X = ..." declarations in file, sorted,
// adjudicator.Game left out.
func assertedIn(t *testing.T, file string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		v, ok := n.(*ast.ValueSpec)
		if !ok || len(v.Names) != 1 || v.Names[0].Name != "_" {
			return true
		}
		if sel, ok := v.Type.(*ast.SelectorExpr); ok && sel.Sel.Name != "Game" {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "adjudicator" {
				out = append(out, sel.Sel.Name)
			}
		}
		return true
	})
	slices.Sort(out)
	return out
}

// TestCapabilitiesKnown: the table above names every optional interface adjudicator declares
// (every interface but Ruleset, Game and Order), so that a new capability is checked too.
func TestCapabilitiesKnown(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "adjudicator", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if _, ok := ts.Type.(*ast.InterfaceType); ok && ts.Name.IsExported() && !slices.Contains([]string{"Ruleset", "Game", "Order"}, ts.Name.Name) {
					declared = append(declared, ts.Name.Name)
				}
			}
			return true
		})
	}
	slices.Sort(declared)
	var known []string
	for name := range capabilities {
		known = append(known, name)
	}
	slices.Sort(known)
	if !slices.Equal(declared, known) {
		t.Errorf("adjudicator declares the capabilities %v; the test knows %v", declared, known)
	}
}
