package lepanto

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSectionCoverage: every numbered section of rulebook sections 2-13 is cited by a rule
// case, except those testdata/sections.txt marks "todo" (and those must not be cited yet).
func TestSectionCoverage(t *testing.T) {
	cited := map[string]bool{}
	files, _ := filepath.Glob("testdata/cases/*.txt")
	for _, path := range files {
		for _, s := range strings.Split(loadCase(t, path).rule, ",") {
			cited[strings.TrimSpace(s)] = true
		}
	}
	data, err := os.ReadFile("testdata/sections.txt")
	if err != nil {
		t.Fatal(err)
	}
	var todo []string
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		sec, reason, isTodo := strings.Cut(line, " todo: ")
		switch {
		case isTodo && cited[sec]:
			t.Errorf("section %s has a case now: drop its todo (%s)", sec, reason)
		case isTodo:
			todo = append(todo, sec)
		case !cited[sec]:
			t.Errorf("section %s has no rule case", sec)
		}
	}
	slices.Sort(todo)
	t.Logf("sections still to do: %v", todo)
}
