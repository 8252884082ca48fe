package duel

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/adjtest"
)

// A rule case (testdata/cases/*.txt), one directive a line:
//
//	case NAME / rule SECTION[, SECTION]   what it tests, citing the rulebook (doc.go)
//	scenario ID / turn N / hull SIDE N    the position (default: short, turn 1, hulls 2)
//	orders SIDE TEXT                      the side's orders, lines separated by ";"
//	roll LABEL VALUE...                   the dice by label (adjtest.Scripted)
//	expect hull SIDE N | expect event TEXT | expect over RESULT | expect next
//	expect error SIDE TEXT                the side's orders are refused, mentioning TEXT
type ruleCase struct {
	file, name, rule string
	lines            [][]string
}

func loadCase(t *testing.T, path string) *ruleCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := &ruleCase{file: filepath.Base(path)}
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 0:
		case f[0] == "case":
			c.name = strings.Join(f[1:], " ")
		case f[0] == "rule":
			c.rule = strings.Join(f[1:], " ")
		default:
			c.lines = append(c.lines, f)
		}
	}
	if c.name == "" || c.rule == "" {
		t.Fatalf("%s: a case needs a name and the rule it tests", c.file)
	}
	return c
}

func TestRuleCases(t *testing.T) {
	files, _ := filepath.Glob("testdata/cases/*.txt")
	if len(files) == 0 {
		t.Fatal("no rule cases")
	}
	for _, path := range files {
		c := loadCase(t, path)
		t.Run(strings.TrimSuffix(c.file, ".txt"), func(t *testing.T) { c.run(t) })
	}
}

func TestSectionCoverage(t *testing.T) {
	var rules []string
	files, _ := filepath.Glob("testdata/cases/*.txt")
	for _, path := range files {
		rules = append(rules, loadCase(t, path).rule)
	}
	adjtest.SectionCoverage(t, "testdata/sections.txt", rules)
}

func (c *ruleCase) run(t *testing.T) {
	cfg := adjudicator.Config{Scenario: "short"}
	for _, f := range c.lines {
		if f[0] == "scenario" {
			cfg.Scenario = f[1]
		}
	}
	gm, err := Ruleset.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g := gm.(*Game)
	orders := map[string][]adjudicator.Order{}
	refused := map[string]string{}
	sr := &adjtest.Scripted{Rolls: map[string][]int{}}
	for _, f := range c.lines {
		switch f[0] {
		case "turn":
			g.Turn, _ = strconv.Atoi(f[1])
		case "hull":
			g.Hull[f[1]], _ = strconv.Atoi(f[2])
		case "orders":
			text := strings.ReplaceAll(strings.Join(f[2:], " "), ";", "\n")
			o, errs := g.Parse(f[1], text)
			if len(errs) == 0 {
				errs = g.Validate(f[1], o)
			}
			for _, e := range errs {
				refused[f[1]] += e.Error() + "\n"
			}
			orders[f[1]] = o
		case "roll":
			for _, v := range f[2:] {
				n, _ := strconv.Atoi(v)
				sr.Rolls[f[1]] = append(sr.Rolls[f[1]], n)
			}
		}
	}
	var events []adjudicator.Event
	if len(refused) == 0 {
		if events, err = g.Resolve(orders, sr); err != nil {
			t.Fatalf("%s (rule %s): resolve: %v", c.name, c.rule, err)
		}
		if left := sr.Left(); len(left) > 0 {
			t.Errorf("dice given but never asked for: %v", left)
		}
	}
	for _, f := range c.lines {
		if f[0] == "expect" {
			if msg := c.check(g, f[1:], events, refused); msg != "" {
				t.Errorf("%s (rule %s): expect %s: %s\nrefused: %v\nevents: %v", c.name, c.rule, strings.Join(f[1:], " "), msg, refused, events)
			}
		}
	}
}

func (c *ruleCase) check(g *Game, e []string, events []adjudicator.Event, refused map[string]string) string {
	rest := strings.Join(e[1:], " ")
	switch e[0] {
	case "hull":
		if n, _ := strconv.Atoi(e[2]); g.Hull[e[1]] != n {
			return "hull " + strconv.Itoa(g.Hull[e[1]])
		}
	case "event":
		for _, ev := range events {
			if strings.Contains(ev.Text, rest) {
				return ""
			}
		}
		return "no such event"
	case "over":
		if st := g.Next(); st.Kind != adjudicator.Over || st.What != rest {
			return "next is " + st.What
		}
	case "next":
		if st := g.Next(); st.Kind != adjudicator.NeedOrders {
			return "the game is over: " + st.What
		}
	case "error":
		if !strings.Contains(refused[e[1]], strings.Join(e[2:], " ")) {
			return "not refused so"
		}
	default:
		return "unknown expectation"
	}
	return ""
}
