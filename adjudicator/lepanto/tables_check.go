package lepanto

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
)

// need says what the rules look up in a table: the row and column keys they may ask for and
// the values they understand. checkTables refuses a table file that would leave a lookup
// unanswered or answer it with a word the rules do not know, so a bad corrected table is
// reported when it is loaded, not in the middle of a game.
type need struct {
	rows, cols []probe
	valid      func(string) bool
}

// probe is one key a rule may look up: a word, or every integer of a range.
type probe struct {
	word   string
	lo, hi int
}

func ints(lo, hi int) []probe { return []probe{{lo: lo, hi: hi}} }

func words(ws ...string) []probe {
	out := make([]probe, len(ws))
	for i, w := range ws {
		out[i] = probe{word: w}
	}
	return out
}

func oneOf(vs ...string) func(string) bool {
	return func(v string) bool { return slices.Contains(vs, v) }
}

var (
	artilleryResult = regexp.MustCompile(`^(NE|[12]?M?F?)$`)
	isResult        = func(v string) bool { return v != "" && artilleryResult.MatchString(v) }
	isInt           = func(v string) bool { _, err := strconv.Atoi(v); return err == nil }
	isCount         = func(v string) bool { n, err := strconv.Atoi(v); return err == nil && n >= 0 }
	damageResults   = oneOf("NE", "evade", "adrift", "flee", "surrender", "sunk")
	compass         = []string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}
	compassLower    = []string{"n", "ne", "e", "se", "s", "sw", "w", "nw"}
)

// UnitTypes are the counter types of 1.3.1 (rows of unit-values).
var UnitTypes = []string{"christian-galleys", "ottoman-galleys", "galliots", "lanterna", "capitana", "kapudana", "galleass"}

// Wings are the fleets' wings (rows of wing-track).
var Wings = []string{"christian-left", "christian-center", "christian-reserve", "christian-right",
	"ottoman-left", "ottoman-center", "ottoman-reserve", "ottoman-right"}

var needs = map[string]need{
	"artillery-fire": {ints(1, 6), ints(-40, 40), isResult},
	"fire-modifiers": {words("target-broadside", "target-stern", "target-bow", "target-mast-down", "target-on-fire",
		"target-galleass", "firer-leader-rating", "reaction-fire"), words("value"), isInt},
	"minor-damage":       {ints(1, 6), words("result"), damageResults},
	"major-damage":       {ints(1, 6), words("result"), damageResults},
	"leader-casualty":    {ints(1, 6), words("artillery", "boarding"), oneOf("safe", "killed")},
	"emergency-maneuver": {ints(1, 6), ints(0, 9), oneOf("evades", "failed", "bow", "stern")},
	"ramming-hits":       {ints(-2, 14), words("broadside", "bow", "stern"), isResult},
	"boarding":           {ints(-3, 8), words("result"), oneOf("A", "4", "5", "6", "R")},
	"extinguish-fire":    {ints(0, 6), words("alone", "friendly", "enemy"), oneOf("out", "burns", "spreads")},
	"wind-rose":          {ints(2, 12), words("from"), oneOf(compass...)},
	"wind-drift":         {words(compassLower...), words("hexside"), oneOf(dirNames[:]...)},
	"unit-values":        {words(UnitTypes...), words("hv", "fv", "row", "sail"), isCount},
	"movement-modifiers": {words("fire-aboard", "lma", "into-wind-sailing"), words("mp"), isInt},
	"wing-track":         {words(Wings...), words("start", "lma", "lf"), isCount},
}

func checkTables(ts *Tables) error {
	for _, name := range sortedNeeds() {
		t := ts.byName[name]
		if t == nil {
			return fmt.Errorf("%w: table %s is missing", ErrTableFile, name)
		}
		if err := checkTable(t, needs[name]); err != nil {
			return fmt.Errorf("%w: table %s (%s): %v", ErrTableFile, name, t.Rule, err)
		}
	}
	return checkWings(ts.byName["wing-track"])
}

func sortedNeeds() []string {
	var names []string
	for n := range needs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func checkTable(t *Table, n need) error {
	for _, r := range n.rows {
		for _, c := range n.cols {
			if err := probeCells(t, r, c, n.valid); err != nil {
				return err
			}
		}
	}
	return nil
}

func probeCells(t *Table, r, c probe, valid func(string) bool) error {
	for i := r.lo; i <= r.hi; i++ {
		for j := c.lo; j <= c.hi; j++ {
			v, err := t.lookup(r.word, i, c.word, j)
			if err != nil {
				return err
			}
			if !valid(v) {
				return fmt.Errorf("row %s, column %s: %q is not a result the rules know", keyText(r.word, i), keyText(c.word, j), v)
			}
		}
	}
	return nil
}

func checkWings(t *Table) error {
	for _, w := range Wings {
		var v [3]int
		for i, c := range []string{"start", "lma", "lf"} {
			s, _ := t.Word(w, c)
			v[i], _ = strconv.Atoi(s)
		}
		if !(v[0] > v[1] && v[1] > v[2]) {
			return fmt.Errorf("%w: wing-track %s: want start > lma > lf, have %v", ErrTableFile, w, v)
		}
	}
	return nil
}
