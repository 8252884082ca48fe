package adjudicator

import "strings"

// KindRule is one line of a ruleset's table of kinds: an event recorded under a rule that
// starts with Rule (section Rule or one of its subsections) is of kind Kind, unless the
// place that records it gives its own.
type KindRule struct {
	Rule string
	Kind Kind
}

// KindOf is the kind of the first line of table whose rule is rule or a section holding it;
// "" if none is.
func KindOf(table []KindRule, rule string) Kind {
	for _, k := range table {
		if rule == k.Rule || strings.HasPrefix(rule, k.Rule+".") || k.Rule == "" {
			return k.Kind
		}
	}
	return ""
}

// Headline is the index of the event a report's subject names: the first of the heaviest
// kind (Kind.Weight); -1 for no events.
func Headline(events []Event) int {
	if len(events) == 0 {
		return -1
	}
	best, at := events[0].Kind.Weight(), 0
	for i, e := range events[1:] {
		if w := e.Kind.Weight(); w > best {
			best, at = w, i+1
		}
	}
	return at
}
