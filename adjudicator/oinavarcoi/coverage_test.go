package oinavarcoi

import (
	"navarch/adjudicator/adjtest"
	"testing"
)

// TestSectionCoverage: every paragraph of the rulebook and every designed rule listed in
// testdata/sections.txt is cited by a rule case, except those marked "todo:" (which must not
// be cited yet); and every section a case cites is listed.
func TestSectionCoverage(t *testing.T) {
	var rules []string
	for _, c := range readCases(t) {
		rules = append(rules, c.Rule)
	}
	adjtest.SectionCoverage(t, "testdata/sections.txt", rules)
}
