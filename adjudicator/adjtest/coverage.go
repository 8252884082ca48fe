package adjtest

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// SectionCoverage checks a rule-case corpus against the rulebook's sections: sectionsFile
// lists every section, one a line, its first word the section (a quotation may follow; '#'
// starts a comment), a section no case covers yet written "SECTION ... todo: what is
// missing"; rules are the rule lines of the cases, each a comma-separated list of sections.
// Every section must be cited, except the todo ones, which must not be (drop the todo once a
// case covers it); and every cited section must be listed (a typo cites nothing).
func SectionCoverage(t testing.TB, sectionsFile string, rules []string) {
	t.Helper()
	cited := map[string]bool{}
	for _, r := range rules {
		for _, s := range strings.Split(r, ",") {
			cited[strings.TrimSpace(s)] = true
		}
	}
	data, err := os.ReadFile(sectionsFile)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	var todo []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		_, reason, isTodo := strings.Cut(line, " todo: ")
		sec := strings.Fields(line)[0]
		listed[sec] = true
		switch {
		case isTodo && cited[sec]:
			t.Errorf("section %s has a case now: drop its todo (%s)", sec, reason)
		case isTodo:
			todo = append(todo, sec)
		case !cited[sec]:
			t.Errorf("section %s has no rule case", sec)
		}
	}
	var unknown []string
	for s := range cited {
		if !listed[s] {
			unknown = append(unknown, s)
		}
	}
	slices.Sort(unknown)
	if len(unknown) > 0 {
		t.Errorf("cases cite sections %s does not list: %v", sectionsFile, unknown)
	}
	slices.Sort(todo)
	if len(todo) > 0 {
		t.Logf("sections still to do: %v", todo)
	}
}
