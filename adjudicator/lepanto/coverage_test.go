package lepanto

import (
	"testing"

	"navarch/adjudicator/adjtest"
)

// TestSectionCoverage: every numbered section of rulebook sections 2-13 is cited by a rule
// case, except those testdata/sections.txt marks "todo" (and those must not be cited yet).
func TestSectionCoverage(t *testing.T) {
	var rules []string
	for _, c := range readCases(t) {
		rules = append(rules, c.Rule)
	}
	adjtest.SectionCoverage(t, "testdata/sections.txt", rules)
}
