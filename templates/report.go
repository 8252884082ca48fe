package templates

import (
	"fmt"
	"strings"

	"navarch/gamelog"
)

// ReportLines turns the roll and event records of turn t, activation a into report lines
// (docs/DESIGN.md 6): the events in the order they happened, each followed by the rolls that
// caused it. The ledger logs a step's rolls before its events, so each roll is put beneath
// the event it belongs to: of the events citing the roll's rule (or all, for a roll citing
// none), the first whose text names what the roll's label or reading names (a unit, a side,
// a card), else the first of them, else the step's first event. Rolls of a step without
// events close the list. Records withheld from the recipient's view are not in recs.
func ReportLines(recs []gamelog.Record, t, a uint64) []ReportLine {
	var events []ReportLine
	var rolls []*gamelog.Record
	for i := range recs {
		r := &recs[i]
		if r.Uint("turn") != t || r.Uint("activation") != a {
			continue
		}
		switch r.Type {
		case gamelog.TypeRoll:
			rolls = append(rolls, r)
		case gamelog.TypeEvent:
			events = append(events, ReportLine{Index: r.Index, Rule: r.Get("rule"), Text: strings.Join(r.All("text"), " "), Turn: t, Act: a})
		}
	}
	under := make([][]ReportLine, len(events))
	var rest []ReportLine
	for _, r := range rolls {
		line := ReportLine{Index: r.Index, Rule: r.Get("rule"), Roll: true, Text: rollText(r), Turn: t, Act: a}
		if i := rollEvent(events, r); i >= 0 {
			under[i] = append(under[i], line)
		} else {
			rest = append(rest, line)
		}
	}
	var out []ReportLine
	for i, e := range events {
		out = append(append(out, e), under[i]...)
	}
	return append(out, rest...)
}

// rollEvent is the index of the event a roll goes beneath (ReportLines), or -1 if none.
func rollEvent(events []ReportLine, r *gamelog.Record) int {
	rule := r.Get("rule")
	names := rollNames(r)
	first := -1
	for i, e := range events {
		if rule != "" && e.Rule != rule {
			continue
		}
		if first < 0 {
			first = i
		}
		for _, n := range names {
			if strings.Contains(e.Text, n) {
				return i
			}
		}
	}
	if first < 0 && len(events) > 0 {
		first = 0
	}
	return first
}

// rollNames are the words of a roll's label and reading that name something (a unit, a
// side, a card): the label's parts after its first, split at "/" and ">", with a letter and
// at least two characters, and the reading's items.
func rollNames(r *gamelog.Record) []string {
	var out []string
	parts := strings.FieldsFunc(r.Get("label"), func(c rune) bool { return c == '/' || c == '>' })
	if len(parts) > 0 {
		parts = parts[1:]
	}
	for _, p := range append(parts, strings.Fields(r.Get("shown"))...) {
		if len(p) >= 2 && strings.ContainsAny(strings.ToLower(p), "abcdefghijklmnopqrstuvwxyz") {
			out = append(out, p)
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
