package medieval

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/adjtest"
	"navarch/adjudicator/table"
)

// A rule case (testdata/cases/*.txt) sets up a position, gives orders and the dice the case
// needs, resolves one step and states the outcome. Lines:
//
//	case NAME / rule SECTION[, SECTION]   what the case tests, citing testdata/sections.txt
//	scenario ID                           the game set up (default sluys-1340)
//	keep SHIP...                          only these ships stay on the table
//	place SHIP X Y HEADING                inches and degrees
//	factors SHIP SEA GUNP GUNS DEF CMB MSL   current factors (levels)
//	loaded SHIP PORT STARBOARD            broadside tracks
//	burning SHIP TRIES TURNS / status SHIP STATUS / grapple A B / unlash A B / wind FROM
//	nograpple SHIP                        her standing wish is not to grapple
//	against SHIP ENEMY                    her standing AGAINST choice (rule Boarding iii)
//	cuts SHIP FRIEND                      one successful cut has been made at their lashing
//	divisions DIV...                      only these divisions' cards are in the deck
//	turns N                               the scenario's last turn
//	card CARD                             the card turned (turn 1)
//	deck CARD...                          the cards still to draw this turn (canonical order)
//	endturn N                             no card turned: the step ends turn N and starts N+1
//	orders SIDE ... end                   order text of SIDE for the step
//	types ... end                         a ships data file: read it instead (expect data-error
//	                                      TEXT | expect type ID SEA GUNP GUNS DEF CMB MSL)
//	roll LABEL VALUE...                   the dice for the request LABEL (d10: 10 is 0)
//	expect error LINE [TEXT]              Parse or Validate refuses LINE (mentioning TEXT)
//	expect event TEXT | expect no-event TEXT | expect headline TEXT (the report subject's event)
//	expect ship SHIP X Y HEADING | expect factors SHIP … | expect loaded SHIP P S
//	expect status SHIP STATUS | expect burning SHIP yes|no | expect grappled A B yes|no
//	expect lashed A B yes|no | expect over TEXT | expect card CARD | expect deck CARD...
//	expect wind FROM | expect flagships SHIP...
//	expect asks SIDE UNIT... | expect chooses SIDE yes|no   before the step: Acting, Chooses (adjtest.CheckTeamsExpect)
//	expect form-line SIDE TEXT            the order form for SIDE, before the step, pre-fills
//	                                      the line TEXT (no-form-line: fills in no such line)
//	expect form-may SIDE SHIP TEXT        the form offers SHIP an entry containing TEXT
//	                                      (no-form-may: none)
//
// Every roll given must be asked for, and every roll asked for must be given. When orders
// are refused, nothing is resolved.
type ruleCase struct {
	*adjtest.Case
	scenario string
	types    []string                    // a ships data file to read instead of playing a step
	forms    map[string]adjudicator.Form // each side's order form before the step
}

// readCases reads the corpus: adjtest.Case, and this ruleset's own directives.
func readCases(t testing.TB) []*ruleCase {
	t.Helper()
	var out []*ruleCase
	for _, ac := range adjtest.ReadCases(t, "testdata/cases/*.txt", "types") {
		c := &ruleCase{Case: ac, scenario: "sluys-1340"}
		if f, ok := ac.Setting("scenario"); ok && len(f) > 0 {
			c.scenario = f[0]
		}
		c.types = ac.Blocks["types"]
		out = append(out, c)
	}
	return out
}

func inches(t *testing.T, s string) table.Len {
	t.Helper()
	neg := strings.HasPrefix(s, "-")
	n, err := table.ParseInches(strings.TrimPrefix(s, "-"))
	if err != nil {
		t.Fatal(err)
	}
	if neg {
		n = -n
	}
	return n
}

func levels(t *testing.T, f []string) Factors {
	t.Helper()
	var lv [6]Level
	for i := range lv {
		l, err := ParseLevel(f[i])
		if err != nil {
			t.Fatal(err)
		}
		lv[i] = l
	}
	return Factors{Sea: lv[0], GunPort: lv[1], GunStarboard: lv[2], Defence: lv[3], Combat: lv[4], Missile: lv[5]}
}

func (c *ruleCase) game(t *testing.T) *Game {
	t.Helper()
	g := newScenario(t, c.scenario)
	g.Turn, g.Act = 1, 1
	for _, f := range c.Setup {
		c.apply(t, g, f)
	}
	return g
}

func (c *ruleCase) mustShip(t *testing.T, g *Game, id string) *Ship {
	t.Helper()
	s := g.ship(id)
	if s == nil {
		t.Fatalf("%s: no ship %s", c.File, id)
	}
	return s
}

func (c *ruleCase) apply(t *testing.T, g *Game, f []string) {
	t.Helper()
	switch f[0] {
	case "keep":
		g.Ships = slices.DeleteFunc(g.Ships, func(s *Ship) bool { return !slices.Contains(f[1:], s.ID) })
		for _, s := range g.Ships {
			s.Lashed = slices.DeleteFunc(s.Lashed, func(id string) bool { return !slices.Contains(f[1:], id) })
		}
	case "place":
		h, _ := strconv.Atoi(f[4])
		c.mustShip(t, g, f[1]).Pose = table.Pose{At: table.Point{X: inches(t, f[2]), Y: inches(t, f[3])}, Heading: table.Norm(h)}
	case "factors":
		c.mustShip(t, g, f[1]).F = levels(t, f[2:8])
	case "loaded":
		s := c.mustShip(t, g, f[1])
		p, _ := ParseLevel(f[2])
		st, _ := ParseLevel(f[3])
		s.Loaded = [2]Level{p, st}
	case "burning":
		s := c.mustShip(t, g, f[1])
		s.Burning = true
		s.FireTries, _ = strconv.Atoi(f[2])
		s.FireTurns, _ = strconv.Atoi(f[3])
	case "status":
		c.mustShip(t, g, f[1]).Status = strings.ReplaceAll(f[2], "-", "")
	case "grapple":
		a, b := c.mustShip(t, g, f[1]), c.mustShip(t, g, f[2])
		a.Grappled, b.Grappled = addSorted(a.Grappled, b.ID), addSorted(b.Grappled, a.ID)
	case "unlash":
		a, b := c.mustShip(t, g, f[1]), c.mustShip(t, g, f[2])
		a.Lashed, b.Lashed = removeID(a.Lashed, b.ID), removeID(b.Lashed, a.ID)
	case "wind":
		w, _ := strconv.Atoi(f[1])
		g.Wind = table.Norm(w)
	case "card":
		g.Card = f[1]
	case "endturn":
		g.Turn, _ = strconv.Atoi(f[1])
		g.Card, g.Deck = "", nil
	case "nograpple":
		c.mustShip(t, g, f[1]).NoGrapple = true
	case "against":
		c.mustShip(t, g, f[1]).Against = f[2]
	case "cuts":
		a, b := c.mustShip(t, g, f[1]), c.mustShip(t, g, f[2])
		a.CutAt, b.CutAt = addSorted(a.CutAt, b.ID), addSorted(b.CutAt, a.ID)
	case "deck":
		g.Deck = slices.Clone(f[1:])
	case "divisions":
		g.sc = cloneScenario(g.sc)
		g.sc.Divisions = slices.DeleteFunc(slices.Clone(g.sc.Divisions), func(d Division) bool { return !slices.Contains(f[1:], d.ID) })
	case "turns":
		g.sc = cloneScenario(g.sc)
		g.sc.Turns, _ = strconv.Atoi(f[1])
	default:
		t.Fatalf("%s: unknown setup line %v", c.File, f)
	}
}

func cloneScenario(s *Scenario) *Scenario { c := *s; return &c }

// TestRuleCases runs every case of testdata/cases, one t.Run each.
func TestRuleCases(t *testing.T) {
	for _, c := range readCases(t) {
		t.Run(strings.TrimSuffix(c.File, ".txt"), func(t *testing.T) {
			t.Logf("rule %s: %s", c.Rule, c.Name)
			c.run(t)
		})
	}
}

// runTypes reads the case's ships file and checks "expect data-error TEXT" and "expect type
// ID SEA GUNP GUNS DEF CMB MSL".
func (c *ruleCase) runTypes(t *testing.T) {
	var lines [][]string
	for _, l := range c.types {
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			f = nil
		}
		lines = append(lines, f)
	}
	d := &Data{}
	err := d.readTypes("case", lines)
	for _, e := range c.Expect {
		switch e[0] {
		case "data-error":
			if want := strings.Join(e[1:], " "); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("data error %v, want one mentioning %q", err, want)
			}
		case "type":
			if err != nil {
				t.Fatalf("data error %v", err)
			}
			if tp := d.Type(e[1]); tp == nil || tp.Factors != levels(t, e[2:8]) {
				t.Errorf("type %s: %+v, want %v", e[1], tp, e[2:8])
			}
		default:
			t.Fatalf("unknown expectation for a data file %v", e)
		}
	}
}

func (c *ruleCase) run(t *testing.T) {
	if len(c.types) > 0 {
		c.runTypes(t)
		return
	}
	g := c.game(t)
	c.forms = map[string]adjudicator.Form{}
	for _, side := range g.Sides() {
		c.forms[side] = g.OrderForm(side)
	}
	var lineErrs []adjudicator.LineError
	orders := map[string][]adjudicator.Order{}
	for _, side := range c.Sides {
		os, errs := g.Parse(side, c.Orders[side])
		lineErrs = append(lineErrs, errs...)
		lineErrs = append(lineErrs, g.Validate(side, os)...)
		orders[side] = os
	}
	for _, e := range c.Expect {
		adjtest.CheckTeamsExpect(t, g, e)
	}
	var events []adjudicator.Event
	if len(lineErrs) > 0 && !slices.ContainsFunc(c.Expect, func(e []string) bool { return e[0] == "error" }) {
		t.Errorf("orders refused, and the case expects no error: %v", lineErrs)
	}
	if len(lineErrs) == 0 {
		r := &adjtest.Scripted{Rolls: c.Rolls}
		ev, err := g.Resolve(orders, r)
		if err != nil {
			t.Fatalf("resolve: %v", err)
		}
		events = ev
		if left := r.Left(); len(left) > 0 {
			t.Errorf("rolls given but never asked for: %v", left)
		}
	}
	for _, e := range c.Expect {
		c.check(t, g, e, events, lineErrs)
	}
	if t.Failed() {
		for _, e := range events {
			t.Logf("event [%s] %s", e.Rule, e.Text)
		}
		for _, e := range lineErrs {
			t.Logf("error %v", e)
		}
	}
}

func hasEvent(events []adjudicator.Event, text string) bool {
	return slices.ContainsFunc(events, func(e adjudicator.Event) bool { return strings.Contains(e.Text, text) })
}

func (c *ruleCase) check(t *testing.T, g *Game, e []string, events []adjudicator.Event, lineErrs []adjudicator.LineError) {
	t.Helper()
	rest := strings.Join(e[1:], " ")
	yes := func(i int) bool { return len(e) <= i || e[i] == "yes" }
	switch e[0] {
	case "asks", "chooses": // checked before the step (adjtest.CheckTeamsExpect)
	case "error":
		line, _ := strconv.Atoi(e[1])
		text := strings.Join(e[2:], " ")
		if !slices.ContainsFunc(lineErrs, func(le adjudicator.LineError) bool {
			return le.Line == line && strings.Contains(le.Error(), text)
		}) {
			t.Errorf("no error on line %d mentioning %q: %v", line, text, lineErrs)
		}
	case "event":
		if !hasEvent(events, rest) {
			t.Errorf("no event contains %q", rest)
		}
	case "no-event":
		if hasEvent(events, rest) {
			t.Errorf("an event contains %q", rest)
		}
	case "headline":
		if i := adjudicator.Headline(events); i < 0 || !strings.Contains(events[i].Text, rest) {
			t.Errorf("the report's subject would name event %d, not one containing %q", i, rest)
		}
	case "ship":
		s := c.mustShip(t, g, e[1])
		h, _ := strconv.Atoi(e[4])
		want := table.Pose{At: table.Point{X: inches(t, e[2]), Y: inches(t, e[3])}, Heading: h}
		if s.Pose != want {
			t.Errorf("%s at %v, want %v", s.ID, s.Pose, want)
		}
	case "factors":
		if s := c.mustShip(t, g, e[1]); s.F != levels(t, e[2:8]) {
			t.Errorf("%s factors %v, want %v", s.ID, s.F, levels(t, e[2:8]))
		}
	case "loaded":
		s := c.mustShip(t, g, e[1])
		if got := fmt.Sprintf("%v %v", s.Loaded[0], s.Loaded[1]); got != e[2]+" "+e[3] {
			t.Errorf("%s loaded %s, want %s %s", s.ID, got, e[2], e[3])
		}
	case "status":
		want := strings.ReplaceAll(e[2], "afloat", "")
		if s := c.mustShip(t, g, e[1]); s.Status != want {
			t.Errorf("%s status %q, want %q", s.ID, s.Status, want)
		}
	case "burning":
		if s := c.mustShip(t, g, e[1]); s.Burning != yes(2) {
			t.Errorf("%s burning %v", s.ID, s.Burning)
		}
	case "grappled":
		if s := c.mustShip(t, g, e[1]); contains(s.Grappled, e[2]) != yes(3) {
			t.Errorf("%s grappled with %v, want %s %v", s.ID, s.Grappled, e[2], yes(3))
		}
	case "lashed":
		if s := c.mustShip(t, g, e[1]); contains(s.Lashed, e[2]) != yes(3) {
			t.Errorf("%s lashed to %v, want %s %v", s.ID, s.Lashed, e[2], yes(3))
		}
	case "over":
		if !g.Over || !strings.Contains(g.Result, rest) {
			t.Errorf("over %v %q, want %q", g.Over, g.Result, rest)
		}
	case "wind":
		if w, _ := strconv.Atoi(e[1]); g.Wind != w {
			t.Errorf("wind from %d, want %d", g.Wind, w)
		}
	case "flagships":
		var got []string
		for _, s := range g.Ships {
			if s.Flagship {
				got = append(got, s.ID)
			}
		}
		if strings.Join(got, " ") != rest {
			t.Errorf("flagships %v, want %s", got, rest)
		}
	case "form-line", "no-form-line":
		line := strings.Join(e[2:], " ")
		if slices.Contains(c.forms[e[1]].Lines, line) != (e[0] == "form-line") {
			t.Errorf("%s's order form pre-fills %q; %s %q", e[1], c.forms[e[1]].Lines, e[0], line)
		}
	case "form-may", "no-form-may":
		text := strings.Join(e[3:], " ")
		var may []string
		for _, u := range c.forms[e[1]].Units {
			if u.ID == e[2] {
				may = u.May
			}
		}
		if slices.ContainsFunc(may, func(m string) bool { return strings.Contains(m, text) }) != (e[0] == "form-may") {
			t.Errorf("the form offers %s %q; %s %q", e[2], may, e[0], text)
		}
	case "card":
		if g.Card != e[1] {
			t.Errorf("card %q, want %q", g.Card, e[1])
		}
	case "deck":
		if got := strings.Join(g.Deck, " "); got != rest {
			t.Errorf("deck %q, want %q", got, rest)
		}
	default:
		t.Fatalf("unknown expectation %v", e)
	}
}
