package adjudicator

import "strings"

// Headliner is implemented by games that can rank a step's events by what they mean to a
// player: a report's subject names the heaviest (a ship sunk before a group activated). The
// ranking changes no state and no log; only the subject of a mail depends on it.
type Headliner interface {
	Weight(e Event) int
}

// Weight is one line of a ruleset's ranking for Headliner: an event whose rule starts with
// Rule and whose text contains Text (either may be empty) weighs N.
type Weight struct {
	Rule, Text string
	N          int
}

// Weigh ranks e by the first line of table that matches it; 0 if none does.
func Weigh(table []Weight, e Event) int {
	for _, w := range table {
		if strings.HasPrefix(e.Rule, w.Rule) && strings.Contains(e.Text, w.Text) {
			return w.N
		}
	}
	return 0
}

// Headline is the index of the event a report's subject names: the first of the heaviest by
// g's ranking if g is a Headliner, else the first; -1 for no events.
func Headline(g Game, events []Event) int {
	if len(events) == 0 {
		return -1
	}
	h, ok := g.(Headliner)
	if !ok {
		return 0
	}
	best, at := h.Weight(events[0]), 0
	for i, e := range events[1:] {
		if w := h.Weight(e); w > best {
			best, at = w, i+1
		}
	}
	return at
}
