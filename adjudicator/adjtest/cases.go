package adjtest

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Case is one rule case of a ruleset's plain-text corpus (testdata/cases/*.txt), read alike
// for every ruleset. A case is lines of words; blank lines and lines starting with '#' are
// skipped. The reader knows these directives:
//
//	case NAME                 what the case tests
//	rule SECTION[, SECTION]   the rulebook sections it tests (SectionCoverage)
//	orders SIDE / … / end     the order text of SIDE for the step, lines kept as written
//	roll LABEL VALUE...       the dice for the request LABEL (Scripted)
//	expect WORDS...           an outcome, checked by the ruleset
//
// Every other line is the ruleset's own set-up, kept in order in Setup; a block keyword the
// ruleset names (as orders, its lines up to "end") is kept in Blocks.
type Case struct {
	File   string              // the file's base name
	Name   string              // case NAME
	Rule   string              // rule SECTION[, SECTION]
	Orders map[string]string   // order text by side
	Sides  []string            // the sides with orders, in the file's order
	Rolls  map[string][]int    // dice values by label
	Expect [][]string          // each expect line's words after "expect"
	Setup  [][]string          // every other line's words, in the file's order
	Blocks map[string][]string // the lines of each block the ruleset named
}

// ReadCase reads the case at path, with blocks the ruleset's own multi-line directives. A
// case without a name or a rule, or with a roll value that is not a number, fails t.
func ReadCase(t testing.TB, path string, blocks ...string) *Case {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := &Case{File: filepath.Base(path), Orders: map[string]string{}, Rolls: map[string][]int{}, Blocks: map[string][]string{}}
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		f := strings.Fields(lines[i])
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch {
		case f[0] == "case":
			c.Name = strings.Join(f[1:], " ")
		case f[0] == "rule":
			c.Rule = strings.Join(f[1:], " ")
		case f[0] == "orders" && len(f) > 1:
			var text []string
			i, text = block(lines, i)
			c.Orders[f[1]] = strings.Join(text, "\n")
			c.Sides = append(c.Sides, f[1])
		case slices.Contains(blocks, f[0]):
			i, c.Blocks[f[0]] = block(lines, i)
		case f[0] == "roll" && len(f) > 1:
			for _, v := range f[2:] {
				n, err := strconv.Atoi(v)
				if err != nil {
					t.Fatalf("%s line %d: %v", c.File, i+1, err)
				}
				c.Rolls[f[1]] = append(c.Rolls[f[1]], n)
			}
		case f[0] == "expect":
			c.Expect = append(c.Expect, f[1:])
		default:
			c.Setup = append(c.Setup, f)
		}
	}
	if c.Name == "" || c.Rule == "" {
		t.Fatalf("%s: a case needs a name and the rule it tests", c.File)
	}
	return c
}

// block returns the lines after lines[i] up to the one that is "end", and that line's index.
func block(lines []string, i int) (int, []string) {
	var text []string
	for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "end"; i++ {
		text = append(text, lines[i])
	}
	return i, text
}

// Setting returns the words after key of the first set-up line that starts with key, and
// whether there is one; the line is taken out of Setup. It is for the directives a ruleset
// reads before it sets the game up (scenario, options).
func (c *Case) Setting(key string) ([]string, bool) {
	for i, f := range c.Setup {
		if f[0] == key {
			c.Setup = append(c.Setup[:i:i], c.Setup[i+1:]...)
			return f[1:], true
		}
	}
	return nil, false
}

// ReadCases reads every case matching glob (testdata/cases/*.txt), failing t when there is
// none.
func ReadCases(t testing.TB, glob string, blocks ...string) []*Case {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule cases in %s: %v", glob, err)
	}
	cases := make([]*Case, len(files))
	for i, path := range files {
		cases[i] = ReadCase(t, path, blocks...)
	}
	return cases
}

// RunCases runs run for each case in a t.Run of its own, named after the case's file.
func RunCases(t *testing.T, cases []*Case, run func(t *testing.T, c *Case)) {
	t.Helper()
	for _, c := range cases {
		t.Run(strings.TrimSuffix(c.File, ".txt"), func(t *testing.T) {
			t.Logf("rule %s: %s", c.Rule, c.Name)
			run(t, c)
		})
	}
}

// Rules returns the cases' rule lines, for SectionCoverage.
func Rules(cases []*Case) []string {
	out := make([]string, len(cases))
	for i, c := range cases {
		out[i] = c.Rule
	}
	return out
}
