package templates

import (
	"fmt"
	"strings"

	"navarch/gamelog"
)

// ReportLines turns the roll and event records of turn t, activation a into report lines
// (docs/DESIGN.md 6): the events in the order they happened, each followed by the rolls its
// record names as behind it (log v4: its roll fields, in their order), then the step's rolls
// no event names, in the order they were rolled. An event of a log before v4 names none: its
// step's rolls all follow its events. Records withheld from the recipient's view are not in
// recs (a roll behind a withheld event is listed among the rest).
func ReportLines(recs []gamelog.Record, t, a uint64) []ReportLine {
	var events []*gamelog.Record
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
			events = append(events, r)
		}
	}
	byLabel := map[string]*gamelog.Record{}
	for _, r := range rolls {
		byLabel[r.Get("label")] = r
	}
	placed := map[*gamelog.Record]bool{}
	var out []ReportLine
	for _, e := range events {
		out = append(out, ReportLine{Index: e.Index, Rule: e.Get("rule"), Text: strings.Join(e.All("text"), " "), Turn: t, Act: a, Kind: e.Get("kind")})
		for _, l := range e.All("roll") {
			if r := byLabel[l]; r != nil && !placed[r] {
				placed[r] = true
				out = append(out, rollLine(r, t, a))
			}
		}
	}
	for _, r := range rolls {
		if !placed[r] {
			out = append(out, rollLine(r, t, a))
		}
	}
	return out
}

func rollLine(r *gamelog.Record, t, a uint64) ReportLine {
	return ReportLine{Index: r.Index, Rule: r.Get("rule"), Roll: true, Text: rollText(r), Turn: t, Act: a}
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
