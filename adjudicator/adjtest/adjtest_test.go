package adjtest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"navarch/adjudicator/adjtest"
)

// failures runs fn against a recorder and returns what it reported.
func failures(t *testing.T, fn func(tb testing.TB)) string { return adjtest.Failures(t, fn) }

// TestSectionCoverageCatches: a section without a case fails, and so does a todo section
// that has one.
func TestSectionCoverageCatches(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sections.txt")
	if err := os.WriteFile(path, []byte("# a rulebook\n1\n1.1\n2 todo: not yet\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rules []string
		want  string
	}{
		{[]string{"1", "1.1, 1"}, ""},
		{[]string{"1"}, "section 1.1 has no rule case"},
		{[]string{"1", "1.1", "2"}, "section 2 has a case now"},
	} {
		got := failures(t, func(tb testing.TB) { adjtest.SectionCoverage(tb, path, c.rules) })
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("rules %v: reported %q, want %q", c.rules, got, c.want)
		}
	}
}

// TestScripted: the dice are handed out by label, once; a die not given is an error, and the
// dice never asked for are named.
func TestScripted(t *testing.T) {
	s := &adjtest.Scripted{Rolls: map[string][]int{"a": {3}, "b": {1, 2}, "c": {6}}}
	if r, err := s.Roll("a", 6, 1); err != nil || r.Values[0] != 3 {
		t.Errorf("a: %v %v", r, err)
	}
	if _, err := s.Roll("a", 6, 1); err == nil {
		t.Error("a die handed out twice")
	}
	if _, err := s.Roll("b", 6, 1); err == nil {
		t.Error("two values for one die accepted")
	}
	if _, err := s.Roll("c", 4, 1); err == nil {
		t.Error("a 6 on a d4 accepted")
	}
	if left := s.Left(); len(left) != 2 || left[0] != "b" || left[1] != "c" {
		t.Errorf("left %v, want [b c]", left)
	}
}
