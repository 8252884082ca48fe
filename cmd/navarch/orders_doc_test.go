package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"navarch/adjudicator"
)

// linesIntro is the reading of order text every ruleset shares (adjudicator.ReadLines).
const linesIntro = `
## How every ruleset reads an order mail

The same for every ruleset (adjudicator.ReadLines):

- One order a line. Lines end as the mail program writes them (LF, CRLF or a lone CR).
- Words are separated by spaces or tabs and read in any case: ` + "`a1 move 3`" + ` is ` + "`A1 MOVE 3`" + `.
- ` + "`#`" + ` starts a comment to the end of its line; blank lines are skipped. Line numbers
  count every line of the mail's text, blank or not, so that an error names the line you see.
- A line holding only ` + "`END`" + ` (in any case, a comment after it allowed) ends the orders: nothing
  after it is read, so a signature or a footer below it is never taken for an order. ` + "`END`" + `
  stands alone: a line such as ` + "`END OF ORDERS`" + ` is refused, so that no order after it is
  dropped unseen.
- A line of more than %d characters is refused unread.
- A line not understood is answered with its number, the line as written and the forms that
  are legal; the good lines of the same mail are read all the same, and nothing is applied
  until the whole mail is right.
`

// TestOrdersDoc keeps docs/ORDERS.md, the order language of every ruleset, equal to what
// the rulesets' own help prints (navarch rules -orders), so that the two cannot drift;
// -update rewrites it.
func TestOrdersDoc(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("# Orders\n\nGenerated from the rulesets' own help by `go test ./cmd/navarch -run TestOrdersDoc -update`;\n" +
		"players get the same text in their welcome mail and by HELP. Do not edit by hand.\n")
	fmt.Fprintf(&b, linesIntro, adjudicator.MaxLine)
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
