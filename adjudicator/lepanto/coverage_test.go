package lepanto

import (
	"path/filepath"
	"testing"

	"navarch/adjudicator/adjtest"
)

// TestSectionCoverage: every numbered section of rulebook sections 2-13 is cited by a rule
// case, except those testdata/sections.txt marks "todo" (and those must not be cited yet).
func TestSectionCoverage(t *testing.T) {
	var rules []string
	files, _ := filepath.Glob("testdata/cases/*.txt")
	for _, path := range files {
		rules = append(rules, loadCase(t, path).rule)
	}
	adjtest.SectionCoverage(t, "testdata/sections.txt", rules)
}
