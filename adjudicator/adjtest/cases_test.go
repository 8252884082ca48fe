package adjtest_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"navarch/adjudicator/adjtest"
)

func writeCase(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "a-case.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReadCase: the shared directives land in their fields, blocks keep their lines as
// written, everything else stays in Setup in order, and Setting takes a line out.
func TestReadCase(t *testing.T) {
	path := writeCase(t, `# a comment
case two sides fire
rule 5.3, 6.2
scenario lions-at-sea
place A 1 2
orders christian
  A MOVE 2   # kept as written
end
types
T 1 2
end
roll fire-A 3 4
expect event sunk
place B 3 4
`)
	c := adjtest.ReadCase(t, path, "types")
	want := &adjtest.Case{
		File: "a-case.txt", Name: "two sides fire", Rule: "5.3, 6.2",
		Orders: map[string]string{"christian": "  A MOVE 2   # kept as written"},
		Sides:  []string{"christian"},
		Rolls:  map[string][]int{"fire-A": {3, 4}},
		Expect: [][]string{{"event", "sunk"}},
		Setup:  [][]string{{"scenario", "lions-at-sea"}, {"place", "A", "1", "2"}, {"place", "B", "3", "4"}},
		Blocks: map[string][]string{"types": {"T 1 2"}},
	}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("read\n%+v\nwant\n%+v", c, want)
	}
	if f, ok := c.Setting("scenario"); !ok || !reflect.DeepEqual(f, []string{"lions-at-sea"}) {
		t.Errorf("Setting(scenario) = %v, %v", f, ok)
	}
	if _, ok := c.Setting("scenario"); ok {
		t.Error("Setting left the line in Setup")
	}
	if len(c.Setup) != 2 || c.Setup[0][1] != "A" || c.Setup[1][1] != "B" {
		t.Errorf("Setup after Setting: %v", c.Setup)
	}
}

// TestReadCaseRefuses: a case without a name or rule, or with a roll that is not a number,
// fails the test that reads it.
func TestReadCaseRefuses(t *testing.T) {
	for text, want := range map[string]string{
		"rule 1\n":                       "needs a name",
		"case x\n":                       "needs a name and the rule",
		"case x\nrule 1\nroll a three\n": "line 3",
	} {
		path := writeCase(t, text)
		if got := failures(t, func(tb testing.TB) { adjtest.ReadCase(tb, path) }); !strings.Contains(got, want) {
			t.Errorf("%q: reported %q, want %q", text, got, want)
		}
	}
}
