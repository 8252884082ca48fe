package lepanto

import (
	"os"
	"strings"
	"testing"
)

// TestHelp: the examples HELP gives are legal orders, and docs/LEPANTO.md quotes the order
// language verbatim, so the documentation cannot drift from the parser's own help.
func TestHelp(t *testing.T) {
	g := newGame(t)
	g.SetUp, g.Turn = true, 1
	for _, side := range []string{"christian", "ottoman"} {
		h := g.Help(side)
		_, examples, ok := strings.Cut(h, "Examples for your units:\n")
		if !ok {
			t.Fatalf("%s help has no examples:\n%s", side, h)
		}
		examples, _, _ = strings.Cut(examples, "\n\n")
		for _, line := range strings.Split(examples, "\n") {
			u := g.unit(strings.Fields(line)[0])
			g.Wait, g.WaitSides, g.WaitGroup = waitGroup, []string{side}, u.Group
			orders, errs := g.Parse(side, line)
			if len(errs) > 0 || len(g.Validate(side, orders)) > 0 {
				t.Errorf("%s help example %q is refused: %v %v", side, line, errs, g.Validate(side, orders))
			}
		}
	}
	doc, err := os.ReadFile("../../docs/LEPANTO.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), helpText) {
		t.Error("docs/LEPANTO.md does not quote the order language (helpText) verbatim")
	}
}
