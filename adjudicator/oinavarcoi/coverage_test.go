package oinavarcoi

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSectionCoverage: every paragraph of the rulebook and every designed rule listed in
// testdata/sections.txt is cited by a rule case, except those marked "todo:" (which must not
// be cited yet); and every section a case cites is listed.
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
	listed := map[string]bool{}
	var todo []string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		sec := f[0]
		listed[sec] = true
		_, reason, isTodo := strings.Cut(line, " todo: ")
		switch {
		case isTodo && cited[sec]:
			t.Errorf("section %s has a case now: drop its todo (%s)", sec, reason)
		case isTodo:
			todo = append(todo, sec)
		case !cited[sec]:
			t.Errorf("section %s has no rule case", sec)
		}
	}
	for sec := range cited {
		if !listed[sec] {
			t.Errorf("a case cites %q, which testdata/sections.txt does not list", sec)
		}
	}
	slices.Sort(todo)
	t.Logf("sections still to do: %v", todo)
}
