package oinavarcoi

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
//	scenario ID / full                    the game set up (default clash), full-size play
//	keep SQ...                            only these squadrons stay on the table
//	place SQ X Y HEADING [FORMATION]      inches and degrees
//	set SQ FIELD VALUE                    disordered, halves, quality, morale, ship, melee
//	                                      (A,B), status, meleeturns, flanked, hold, pursuing,
//	                                      moved, failed, strategos, wing, frontal, flankattacker
//	signals SIDE KIND:WING...             the side's pre-battle signal list
//	flotsam X Y HEADING                   a flotsam marker
//	phase deploy|start|choose|move1|move2 the step resolved (default move1); movement cases
//	                                      move the first side that has orders
//	first SIDE / winner SIDE / turn N / admiral SIDE
//	orders SIDE ... end                   order text of SIDE for the step
//	roll LABEL VALUE...                   the raw dice for the request LABEL; the average die
//	                                      reads raw 1..6 as 2,3,3,4,4,5
//	expect error LINE [TEXT]              Parse or Validate refuses LINE (mentioning TEXT)
//	expect event TEXT | expect no-event TEXT | expect private SIDE TEXT | expect headline TEXT
//	expect asks SIDE UNIT... | expect chooses SIDE yes|no   before the step: Acting, Chooses (adjtest.CheckTeamsExpect)
//	expect before TEXT | TEXT             the first event with the one comes before the other's
//	expect sq SQ FIELD VALUE              formation, disordered, halves, status, melee,
//	                                      heading, at (X Y), pursuing, morale, wing, hold
//	expect over TEXT | expect phase P | expect first SIDE | expect sealed yes|no
//	standing SIDE OMEN|NAVARCH|SHARE SQ...   a standing order in force (INITIATIVE FIRST|SECOND)
//	expect standing SIDE OMEN|NAVARCH|SHARE SQ...|-   the standing order after the step
//	phalanx ID X Y HEADING ORDER|- yes|no PUSHES / routed ID     (the amphibious battle)
//	expect phalanx ID TEXT                matched against "at X,Y order O|- deployed B pushes N routed B"
//
// Every roll given must be asked for, and every roll asked for must be given. When orders
// are refused, nothing is resolved.
type ruleCase struct {
	*adjtest.Case
	scenario string
	full     bool
}

// readCases reads the corpus: adjtest.Case, and this ruleset's own directives.
func readCases(t testing.TB) []*ruleCase {
	t.Helper()
	var out []*ruleCase
	for _, ac := range adjtest.ReadCases(t, "testdata/cases/*.txt") {
		c := &ruleCase{Case: ac, scenario: "clash"}
		if f, ok := ac.Setting("scenario"); ok && len(f) > 0 {
			c.scenario = f[0]
		}
		_, c.full = ac.Setting("full")
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

func (c *ruleCase) game(t *testing.T) *Game {
	t.Helper()
	var opts []string
	if c.full {
		opts = []string{OptionFullSize}
	}
	g := newScenario(t, c.scenario, opts...)
	g.sc = cloneScenario(g.sc)
	g.Deployed, g.Turn, g.Phase, g.Act = true, 1, phaseMove1, 1
	if len(c.Sides) > 0 {
		g.First = c.Sides[0]
	}
	for _, f := range c.Setup {
		c.apply(t, g, f)
	}
	return g
}

func cloneScenario(s *Scenario) *Scenario { c := *s; return &c }

func (c *ruleCase) mustSq(t *testing.T, g *Game, id string) *Squadron {
	t.Helper()
	s := g.sq(id)
	if s == nil {
		t.Fatalf("%s: no squadron %s", c.File, id)
	}
	return s
}

func yesNo(s string) bool { return s == "yes" }

func (c *ruleCase) apply(t *testing.T, g *Game, f []string) {
	t.Helper()
	switch f[0] {
	case "keep":
		g.Squadrons = slices.DeleteFunc(g.Squadrons, func(s *Squadron) bool { return !slices.Contains(f[1:], s.ID) })
	case "place":
		s := c.mustSq(t, g, f[1])
		h, _ := strconv.Atoi(f[4])
		s.Pose = table.Pose{At: table.Point{X: inches(t, f[2]), Y: inches(t, f[3])}, Heading: table.Norm(h)}
		if len(f) > 5 {
			s.Formation = f[5]
		}
	case "set":
		c.set(t, c.mustSq(t, g, f[1]), f[2], f[3])
	case "signals":
		i := g.sc.SideIndex(f[1])
		for _, e := range f[2:] {
			k, w, _ := strings.Cut(e, ":")
			g.Signals[i] = append(g.Signals[i], SignalEntry{Kind: k, Wing: w})
		}
	case "flotsam":
		h, _ := strconv.Atoi(f[3])
		g.Flotsam = append(g.Flotsam, Flotsam{Pose: table.Pose{At: table.Point{X: inches(t, f[1]), Y: inches(t, f[2])}, Heading: h}})
	case "phase":
		switch f[1] {
		case "deploy":
			g.Deployed, g.Turn, g.Phase = false, 0, ""
		case "start":
			g.Phase, g.Turn = "", 0
		case "choose":
			g.Phase = phaseChoose
		case "move1":
			g.Phase = phaseMove1
		case "move2":
			g.Phase = phaseMove2
			if len(c.Sides) > 0 {
				g.First = g.enemy(c.Sides[0])
			}
		}
	case "first":
		g.First = f[1]
	case "winner":
		g.Winner = f[1]
	case "turn":
		g.Turn, _ = strconv.Atoi(f[1])
	case "turns":
		g.sc.Turns, _ = strconv.Atoi(f[1])
	case "phalanx": // phalanx ID X Y HEADING ORDER(- for none) DEPLOYED(yes|no) PUSHES
		p := g.phalanx(f[1])
		if p == nil {
			t.Fatalf("%s: no phalanx %s", c.File, f[1])
		}
		h, _ := strconv.Atoi(f[4])
		p.Pose = table.Pose{At: table.Point{X: inches(t, f[2]), Y: inches(t, f[3])}, Heading: h}
		p.Order = strings.Trim(f[5], "-")
		p.Deployed = yesNo(f[6])
		p.Pushes, _ = strconv.Atoi(f[7])
	case "routed":
		g.phalanx(f[1]).Routed = true
	case "admiral":
		g.Admiral[g.sc.SideIndex(f[1])] = true
	case "standing": // standing SIDE OMEN|NAVARCH|SHARE SQ... | standing SIDE INITIATIVE FIRST|SECOND
		if f[2] == "INITIATIVE" {
			g.Initiative[g.sc.SideIndex(f[1])] = f[3]
			break
		}
		*g.prefer(f[1], f[2]) = f[3:]
	case "defender":
		g.sc.Defender = f[1]
	default:
		t.Fatalf("%s: unknown setup line %v", c.File, f)
	}
}

func (c *ruleCase) set(t *testing.T, s *Squadron, field, v string) {
	t.Helper()
	n, _ := strconv.Atoi(v)
	switch field {
	case "disordered":
		s.Disordered = yesNo(v)
	case "halves":
		s.Halves = n
	case "quality":
		s.Quality = n
	case "morale":
		s.Morale = n
	case "ship":
		s.Ship = n
	case "melee":
		s.Melee = strings.Split(v, ",")
	case "status":
		s.Status = strings.ReplaceAll(v, "active", "")
	case "meleeturns":
		s.MeleeTurns = n
	case "flanked":
		s.Flanked, s.Katastrophe = yesNo(v), yesNo(v)
	case "hold":
		s.Hold = yesNo(v)
	case "pursuing":
		s.Pursuing = v
	case "moved":
		s.Moved = yesNo(v)
	case "failed":
		s.Failed = yesNo(v)
	case "strategos":
		s.Strategos = yesNo(v)
	case "wing":
		s.Wing = v
	case "frontal":
		s.Frontal = yesNo(v)
	case "flankattacker":
		s.FlankAttacker = yesNo(v)
	case "fled":
		s.Fled = strings.Split(v, ",")
	case "racewith":
		s.RaceWith = v
	default:
		t.Fatalf("%s: unknown field %q", c.File, field)
	}
}

// TestRuleCases runs every case of testdata/cases, one t.Run each.
func TestRuleCases(t *testing.T) {
	for _, c := range readCases(t) {
		t.Run(strings.TrimSuffix(c.File, ".txt"), func(t *testing.T) {
			t.Logf("rule %s: %s", c.Rule, c.Name)
			c.run(t)
		})
	}
}

func (c *ruleCase) run(t *testing.T) {
	g := c.game(t)
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
			t.Logf("event [%s] %s %s", e.Rule, e.Side, e.Text)
		}
		for _, e := range lineErrs {
			t.Logf("error %v", e)
		}
	}
}

func hasEvent(events []adjudicator.Event, side, text string) bool {
	return slices.ContainsFunc(events, func(e adjudicator.Event) bool { return e.Side == side && strings.Contains(e.Text, text) })
}

func (c *ruleCase) check(t *testing.T, g *Game, e []string, events []adjudicator.Event, lineErrs []adjudicator.LineError) {
	t.Helper()
	rest := strings.Join(e[1:], " ")
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
		if !hasEvent(events, "", rest) {
			t.Errorf("no public event contains %q", rest)
		}
	case "private":
		if !hasEvent(events, e[1], strings.Join(e[2:], " ")) {
			t.Errorf("no event private to %s contains %q", e[1], strings.Join(e[2:], " "))
		}
	case "before": // expect before TEXT | TEXT: the first public event with the one comes before the other's
		a, b, _ := strings.Cut(rest, " | ")
		ia := slices.IndexFunc(events, func(e adjudicator.Event) bool { return e.Side == "" && strings.Contains(e.Text, a) })
		ib := slices.IndexFunc(events, func(e adjudicator.Event) bool { return e.Side == "" && strings.Contains(e.Text, b) })
		if ia < 0 || ib < 0 || ia > ib {
			t.Errorf("want an event containing %q (#%d) before one containing %q (#%d)", a, ia, b, ib)
		}
	case "no-event":
		if hasEvent(events, "", rest) {
			t.Errorf("a public event contains %q", rest)
		}
	case "headline":
		if i := adjudicator.Headline(events); i < 0 || !strings.Contains(events[i].Text, rest) {
			t.Errorf("the report's subject would name event %d, not one containing %q", i, rest)
		}
	case "sq":
		c.checkSq(t, c.mustSq(t, g, e[1]), e[2], e[3:])
	case "over":
		if !g.Over || !strings.Contains(g.Result, rest) {
			t.Errorf("over %v %q, want %q", g.Over, g.Result, rest)
		}
	case "phase":
		if g.Phase != strings.ReplaceAll(e[1], "start", "") {
			t.Errorf("phase %q, want %q", g.Phase, e[1])
		}
	case "first":
		if g.First != e[1] {
			t.Errorf("first %q, want %q", g.First, e[1])
		}
	case "phalanx":
		p := g.phalanx(e[1])
		order := p.Order
		if order == "" {
			order = "-"
		}
		got := fmt.Sprintf("at %v order %s deployed %t pushes %d routed %t", p.Pose.At, order, p.Deployed, p.Pushes, p.Routed)
		if !strings.Contains(got, strings.Join(e[2:], " ")) {
			t.Errorf("phalanx %s: %s, want %q", p.ID, got, strings.Join(e[2:], " "))
		}
	case "standing": // expect standing SIDE OMEN|NAVARCH SQ...|-
		got := strings.Join(*g.prefer(e[1], e[2]), " ")
		if got == "" {
			got = "-"
		}
		if want := strings.Join(e[3:], " "); got != want {
			t.Errorf("%s's %s standing order %q, want %q", e[1], e[2], got, want)
		}
	case "sealed":
		if g.Sealed() != yesNo(e[1]) {
			t.Errorf("sealed %v, want %s", g.Sealed(), e[1])
		}
	default:
		t.Fatalf("unknown expectation %v", e)
	}
}

func (c *ruleCase) checkSq(t *testing.T, s *Squadron, field string, v []string) {
	t.Helper()
	var got string
	switch field {
	case "formation":
		got = s.Formation
	case "disordered":
		got = map[bool]string{true: "yes", false: "no"}[s.Disordered]
	case "hold":
		got = map[bool]string{true: "yes", false: "no"}[s.Hold]
	case "halves":
		got = fmt.Sprint(s.Halves)
	case "status":
		got = s.Status
		if got == "" {
			got = "active"
		}
	case "melee":
		got = strings.Join(s.Melee, ",")
		if got == "" {
			got = "-"
		}
	case "heading":
		got = fmt.Sprint(s.Pose.Heading)
	case "at":
		want := table.Point{X: inches(t, v[0]), Y: inches(t, v[1])}
		if s.Pose.At != want {
			t.Errorf("%s at %v, want %v", s.ID, s.Pose.At, want)
		}
		return
	case "pursuing":
		got = s.Pursuing
		if got == "" {
			got = "-"
		}
	case "morale":
		got = fmt.Sprint(s.Morale)
	case "wing":
		got = s.Wing
	case "strategos":
		got = map[bool]string{true: "yes", false: "no"}[s.Strategos]
	case "quality":
		got = fmt.Sprint(s.Quality)
	case "ship":
		got = fmt.Sprint(s.Ship)
	default:
		t.Fatalf("unknown squadron field %q", field)
	}
	if got != strings.Join(v, " ") {
		t.Errorf("%s %s = %q, want %q", s.ID, field, got, strings.Join(v, " "))
	}
}

// prefer returns the standing order list of side for kind (OMEN or NAVARCH).
func (g *Game) prefer(side, kind string) *[]string {
	i := g.sc.SideIndex(side)
	switch kind {
	case "OMEN":
		return &g.OmenPrefer[i]
	case "SHARE":
		return &g.SharePrefer[i]
	}
	return &g.NavarchPrefer[i]
}
