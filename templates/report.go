package templates

import (
	"fmt"
	"strings"

	"navarch/gamelog"
)

// ReportLines turns the roll and event records of turn t, activation a into report lines
// (docs/DESIGN.md 6): the events in the order they happened, each followed by the rolls that
// caused it. A ruleset logs a move's rolls before the event that tells it, so the rolls seen
// since the last event go beneath the next event; rolls after the last event close the list.
// Records withheld from the recipient's view are simply not in recs.
func ReportLines(recs []gamelog.Record, t, a uint64) []ReportLine {
	var out, rolls []ReportLine
	for _, r := range recs {
		if r.Uint("turn") != t || r.Uint("activation") != a {
			continue
		}
		switch r.Type {
		case gamelog.TypeRoll:
			rolls = append(rolls, ReportLine{Index: r.Index, Rule: r.Get("rule"), Roll: true, Text: rollText(&r)})
		case gamelog.TypeEvent:
			out = append(out, ReportLine{Index: r.Index, Rule: r.Get("rule"), Text: strings.Join(r.All("text"), " ")})
			out, rolls = append(out, rolls...), rolls[:0]
		}
	}
	return append(out, rolls...)
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
