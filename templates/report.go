package templates

import (
	"fmt"
	"strings"

	"navarch/gamelog"
)

// ReportLines turns the roll and event records of turn t, activation a into report lines, in
// log order (docs/DESIGN.md 6): each roll with its record index, its rule section and what it gave.
// Records withheld from the recipient's view are simply not in recs.
func ReportLines(recs []gamelog.Record, t, a uint64) []ReportLine {
	var out []ReportLine
	for _, r := range recs {
		if r.Uint("turn") != t || r.Uint("activation") != a {
			continue
		}
		switch r.Type {
		case gamelog.TypeRoll:
			out = append(out, ReportLine{Index: r.Index, Rule: r.Get("rule"), Roll: true, Text: rollText(&r)})
		case gamelog.TypeEvent:
			out = append(out, ReportLine{Index: r.Index, Rule: r.Get("rule"), Text: strings.Join(r.All("text"), " ")})
		}
	}
	return out
}

func rollText(r *gamelog.Record) string {
	s := fmt.Sprintf("%s %s = %s", r.Get("label"), r.Get("dice"), r.Get("values"))
	if r.Has("shown") {
		s += fmt.Sprintf(" (read as %s)", r.Get("shown"))
	}
	if res := r.Get("result"); res != "" {
		s += ": " + res
	}
	return s
}
