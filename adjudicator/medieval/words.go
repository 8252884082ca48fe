package medieval

import (
	"fmt"
	"strings"

	"navarch/adjudicator/table"
)

// stepWords is one step of a move as a report says it: `moves 2.5"`, `backs 1"`,
// "turns 15° to port".
func stepWords(s table.Step) string {
	switch {
	case s.Turn > 0:
		return fmt.Sprintf("turns %d° to starboard", s.Turn)
	case s.Turn < 0:
		return fmt.Sprintf("turns %d° to port", -s.Turn)
	case s.Move < 0:
		return "backs " + table.FormatInches(-s.Move) + `"`
	}
	return "moves " + table.FormatInches(s.Move) + `"`
}

// pathWords is a move as a report says it, its steps in order: `turns 15° to port, moves
// 2.5"`; "stays" for no step.
func pathWords(p table.Path) string {
	if len(p) == 0 {
		return "stays"
	}
	parts := make([]string, len(p))
	for i, s := range p {
		parts[i] = stepWords(s)
	}
	return strings.Join(parts, ", ")
}

// count is n with its noun, singular or plural: "1 hit", "2 hits", "no hits".
func count(n int, one, many string) string {
	switch n {
	case 0:
		return "no " + many
	case 1:
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
