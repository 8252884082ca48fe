package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestOrdersDoc keeps docs/ORDERS.md, the order language of every ruleset, equal to what
// the rulesets' own help prints (navarch rules -orders), so that the two cannot drift;
// -update rewrites it.
func TestOrdersDoc(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("# Orders\n\nGenerated from the rulesets' own help by `go test ./cmd/navarch -run TestOrdersDoc -update`;\n" +
		"players get the same text in their welcome mail and by HELP. Do not edit by hand.\n")
	for _, rs := range rulesets {
		code, out, errs := navarch("rules", "-orders", rs.ID())
		if code != 0 {
			t.Fatalf("rules -orders %s: %s", rs.ID(), errs)
		}
		b.WriteString("\n## " + rs.ID() + "\n\n```\n" + out + "```\n")
	}
	path := filepath.Join("..", "..", "docs", "ORDERS.md")
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(have, b.Bytes()) {
		t.Errorf("docs/ORDERS.md is not what the rulesets print (%v); run go test ./cmd/navarch -run TestOrdersDoc -update", err)
	}
}
