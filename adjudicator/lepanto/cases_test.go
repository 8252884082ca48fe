package lepanto

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/adjtest"
	"navarch/gamelog"
)

// A rule case (testdata/cases/*.txt) sets up a position, gives orders and the dice the case
// needs, and states the outcome. Lines:
//
//	case NAME / rule SECTION          what the case tests, citing the rulebook
//	scenario ID / options O...        the game set up (default lions-at-sea, no options)
//	keep UNIT...                      only these units stay on the map
//	place UNIT HEX FACING [FLAG...]   FLAG: mast-down on-fire fired sailing
//	activate GROUP                    the step waits for GROUP's orders
//	cup ITEM... / turn N / wind FROM / acted GROUP... / wing ID TRACK [lma] [lf] [captains N]
//	undrawn (no marker drawn yet this turn) / leadermove / fury CHIT / disengagewait (the step waits for them)
//	engage UNIT UNIT / tried-grapple UNIT / setup (the game waits for the 4.5 set-up) / hidden LEADER
//	fled UNIT TURN (out of the game until TURN)
//	hold-fire UNIT [move|ram] / captain-on GROUP UNIT / leaders-stay SIDE   standing orders given before
//	standing SIDE ORDER...            any standing order of SIDE given before (EVADE, LET BURN, AIM, RETURN, ENGAGED, ...)
//	held SIDE ORDER...                a standing order of SIDE mailed since its last applying step, still
//	                                  pending: the step applies it if its Step.Standing names its side and kind
//	                                  (the close lists it, docs/LOG-FORMAT.md 3), else it stays pending
//	placed-captain GROUP UNIT (a captain navarch placed aboard UNIT, GROUP's leader killed)
//	drawer SIDE (the drawing player) / boardingwait (the step waits for the drawer's BOARD orders)
//	orders SIDE ... end               order text of SIDE for the step
//	roll LABEL VALUE...               the dice for the request LABEL
//	expect error LINE [TEXT]          Validate refuses LINE (mentioning TEXT)
//	expect event TEXT                 an event contains TEXT
//	expect no-event TEXT              no event contains TEXT
//	expect before TEXT1 || TEXT2      an event with TEXT1 comes before one with TEXT2
//	expect unit UNIT HEX FACING [FLAG...]   FLAG also: sunk surrendered fled engaged
//	expect wait KIND | expect cup ITEM... | expect wind FROM | expect over TEXT
//	expect leader ID UNIT|killed|lost [hidden] | expect wing ID TRACK [lma] [lf]
//	expect private SIDE TEXT          an event only SIDE sees contains TEXT
//	expect headline TEXT              the report's subject names the event containing TEXT
//	expect summary SIDE TEXT          a line of SIDE's summary (Summary) contains TEXT
//	expect asks SIDE UNIT...          before the step: the units of SIDE it asks orders for (Acting; none: nil)
//	expect chooses SIDE yes|no        before the step: whether it asks SIDE for a choice of the whole side
//	expect standing ENTRY...          before the step: its Step.Standing (none: no entry)
//
// Every roll given must be asked for, and every roll asked for must be given.
type ruleCase struct {
	*adjtest.Case
	scenario string
	options  []string
}

// readCases reads the corpus: adjtest.Case, and this ruleset's scenario and options.
func readCases(t testing.TB) []*ruleCase {
	t.Helper()
	var out []*ruleCase
	for _, ac := range adjtest.ReadCases(t, "testdata/cases/*.txt") {
		c := &ruleCase{Case: ac, scenario: "lions-at-sea"}
		if f, ok := ac.Setting("scenario"); ok && len(f) > 0 {
			c.scenario = f[0]
		}
		c.options, _ = ac.Setting("options")
		out = append(out, c)
	}
	return out
}

func (c *ruleCase) game(t *testing.T) *Game {
	t.Helper()
	gm, err := Ruleset.New(adjudicator.Config{Scenario: c.scenario, Options: c.options})
	if err != nil {
		t.Fatal(err)
	}
	g := gm.(*Game)
	g.Turn, g.Drawn, g.SetUp = 1, true, true
	g.Cup = []string{ChitBoarding} // a turn in progress; "cup" with no items makes it the last step
	for _, f := range c.Setup {
		if err := applySetup(g, f); err != nil {
			t.Fatalf("setup %v: %v", f, err)
		}
	}
	return g
}

func applySetup(g *Game, f []string) error {
	switch f[0] {
	case "keep":
		g.Units = slices.DeleteFunc(g.Units, func(u *Unit) bool { return !slices.Contains(f[1:], u.ID) })
		g.Leaders = slices.DeleteFunc(g.Leaders, func(l *Leader) bool { return g.unit(l.Unit) == nil })
	case "place":
		return place(g, f)
	case "activate":
		g.Wait, g.WaitSides, g.WaitGroup = waitGroup, []string{g.group(f[1]).Side}, f[1]
	case "fury":
		g.Wait, g.WaitSides, g.WaitGroup = waitFury, []string{furyChits[f[1]][0]}, f[1]
	case "leadermove":
		g.Wait, g.WaitSides, g.WaitGroup = waitLeaderMove, slices.Clone(g.sc.Sides), ChitLeaderMove
	case "cup":
		g.Cup = f[1:]
	case "turn":
		g.Turn, _ = strconv.Atoi(f[1])
	case "wind":
		g.Wind = f[1]
	case "undrawn":
		g.Drawn = false
	case "setup":
		g.SetUp, g.Turn = false, 0
	case "hidden":
		g.leader(f[1]).Hidden = true
	case "fled":
		u := g.unit(f[1])
		u.Status, u.Return = "fled", 0
		u.Return, _ = strconv.Atoi(f[2])
	case "acted":
		for _, id := range f[1:] {
			g.group(id).Acted = true
		}
	case "wing":
		w := g.wing(f[1])
		w.Track, _ = strconv.Atoi(f[2])
		w.LMA, w.LF = slices.Contains(f, "lma"), slices.Contains(f, "lf")
		if i := slices.Index(f, "captains"); i > 0 && i+1 < len(f) {
			w.Captains, _ = strconv.Atoi(f[i+1])
		}
	case "leader":
		g.leader(f[1]).Unit = f[2]
	case "engage":
		g.engage(g.unit(f[1]), g.unit(f[2]))
	case "tried-grapple":
		g.unit(f[1]).GrappleTurn = g.Turn
	case "hold-fire":
		u := g.unit(f[1])
		u.HoldMove, u.HoldRam = !slices.Contains(f, "ram"), !slices.Contains(f, "move")
	case "placed-captain":
		for _, l := range g.Leaders {
			if l.Group == f[1] {
				l.Status = "killed"
			}
		}
		g.Leaders = append(g.Leaders, &Leader{ID: f[1] + "-CAPTAIN1", Kind: "captain", Rating: 1, Group: f[1], Side: g.group(f[1]).Side, Unit: f[2], Placed: true})
	case "captain-on":
		g.group(f[1]).CaptainOn = f[2]
	case "held": // given by heldOrders, before the step
		if o, err := parseStanding(0, f[2:]); o == nil || err != nil {
			return fmt.Errorf("not a standing order: %v", err)
		}
	case "standing":
		o, err := parseStanding(0, f[2:])
		if o == nil || err != nil {
			return fmt.Errorf("not a standing order: %v", err)
		}
		(&resolver{g: g}).applyOne(f[1], o.(*standingOrder))
	case "leaders-stay":
		g.LeadersStay = append(g.LeadersStay, f[1])
	case "drawer":
		g.Drawer = f[1]
	case "boardingwait":
		g.Wait, g.WaitSides, g.WaitGroup = waitBoarding, []string{g.Drawer}, ChitBoarding
	case "disengagewait":
		g.Wait, g.WaitSides, g.WaitGroup = waitDisengage, slices.Clone(g.sc.Sides), ChitDisengage
	default:
		return fmt.Errorf("unknown setup line")
	}
	return nil
}

func place(g *Game, f []string) error {
	u := g.unit(f[1])
	if u == nil || len(f) < 4 {
		return fmt.Errorf("want place UNIT HEX FACING for a unit of the scenario")
	}
	h, err := ParseHex(f[2])
	if err != nil {
		return err
	}
	d, err := ParseDir(f[3])
	u.Hex, u.Facing = h, d
	u.MastDown, u.OnFire, u.Fired = slices.Contains(f, "mast-down"), slices.Contains(f, "on-fire"), slices.Contains(f, "fired")
	u.Sailing = slices.Contains(f, "sailing")
	return err
}

func TestRuleCases(t *testing.T) {
	for _, c := range readCases(t) {
		t.Run(strings.TrimSuffix(c.File, ".txt"), func(t *testing.T) { c.run(t) })
	}
}

func (c *ruleCase) run(t *testing.T) {
	g := c.game(t)
	orders := map[string][]adjudicator.Order{}
	var errs []adjudicator.LineError
	for _, side := range c.Sides {
		o, perr := g.Parse(side, c.Orders[side])
		errs = append(errs, perr...)
		if len(perr) == 0 {
			errs = append(errs, g.Validate(side, o)...)
		}
		orders[side] = o
	}
	for _, e := range c.Expect {
		adjtest.CheckTeamsExpect(t, g, e)
		if e[0] == "standing" && !slices.Equal(g.Next().Standing, e[1:]) {
			t.Errorf("%s (rule %s): the step applies the standing orders of %q, want %q", c.Name, c.Rule, g.Next().Standing, e[1:])
		}
	}
	c.heldOrders(t, g)
	var events []adjudicator.Event
	if len(errs) == 0 {
		if g.Next().Kind != adjudicator.NeedOrders && len(c.Sides) == 0 {
			orders = nil
		}
		sr := &adjtest.Scripted{Rolls: c.Rolls}
		var err error
		if events, err = g.Resolve(orders, sr); err != nil {
			t.Fatalf("%s (rule %s): resolve: %v", c.Name, c.Rule, err)
		}
		if left := sr.Left(); len(left) > 0 {
			t.Errorf("%s: dice given but never asked for: %v", c.Name, left)
		}
	}
	for _, e := range c.Expect {
		if msg := check(g, e, errs, events); msg != "" {
			t.Errorf("%s (rule %s): expect %s: %s\nerrors: %v\nevents:\n%s", c.Name, c.Rule, strings.Join(e, " "), msg, errs, eventText(events))
		}
	}
}

// heldOrders gives the engine the case's held standing orders that the step applies (its
// Step.Standing names their side and kind), in the case's order, as the host and replay do
// with the standing records its close lists.
func (c *ruleCase) heldOrders(t *testing.T, g *Game) {
	t.Helper()
	st := g.Next()
	for _, f := range c.Setup {
		if f[0] != "held" {
			continue
		}
		o, _ := parseStanding(0, f[2:])
		if gamelog.StandingApplies(gamelog.StandingTokens(gamelog.FormatV5, st.Standing), f[1], g.StandingKind(o)) {
			g.ApplyStanding(f[1], []adjudicator.Order{o})
		}
	}
}

func eventText(ev []adjudicator.Event) string {
	var b strings.Builder
	for _, e := range ev {
		fmt.Fprintf(&b, "  [%s] %s\n", e.Rule, e.Text)
	}
	return b.String()
}

func check(g *Game, e []string, errs []adjudicator.LineError, events []adjudicator.Event) string {
	switch e[0] {
	case "asks", "chooses", "standing": // checked before the step (run)
	case "error":
		n, _ := strconv.Atoi(e[1])
		for _, le := range errs {
			if le.Line == n && strings.Contains(le.Error(), strings.Join(e[2:], " ")) {
				return ""
			}
		}
		return "no such order error"
	case "event", "no-event":
		text := strings.Join(e[1:], " ")
		found := slices.ContainsFunc(events, func(ev adjudicator.Event) bool { return strings.Contains(ev.Text, text) })
		if found != (e[0] == "event") {
			return "event " + map[bool]string{true: "present", false: "missing"}[found]
		}
	case "before":
		a, b, _ := strings.Cut(strings.Join(e[1:], " "), " || ")
		ia := slices.IndexFunc(events, func(ev adjudicator.Event) bool { return strings.Contains(ev.Text, a) })
		ib := slices.IndexFunc(events, func(ev adjudicator.Event) bool { return strings.Contains(ev.Text, b) })
		if ia < 0 || ib < 0 || ia > ib {
			return fmt.Sprintf("events at %d and %d", ia, ib)
		}
	case "unit":
		return checkUnit(g, e)
	case "wait":
		if g.Wait != e[1] {
			return fmt.Sprintf("waits for %q", g.Wait)
		}
	case "cup":
		if !slices.Equal(g.Cup, e[1:]) {
			return fmt.Sprintf("cup is %v", g.Cup)
		}
	case "wind":
		if g.Wind != e[1] {
			return "wind from " + g.Wind
		}
	case "over":
		if !g.Over || !strings.Contains(g.Result, strings.Join(e[1:], " ")) {
			return fmt.Sprintf("over %t: %s", g.Over, g.Result)
		}
	case "leader":
		l := g.leader(e[1])
		if l.Unit != e[2] && l.Status != e[2] || l.Hidden != slices.Contains(e, "hidden") {
			return fmt.Sprintf("leader aboard %s, status %q, hidden %t", l.Unit, l.Status, l.Hidden)
		}
	case "headline":
		text := strings.Join(e[1:], " ")
		if i := adjudicator.Headline(events); i < 0 || !strings.Contains(events[i].Text, text) {
			return fmt.Sprintf("the report's subject would name event %d", i)
		}
	case "summary":
		text := strings.Join(e[2:], " ")
		if side := e[1]; !slices.ContainsFunc(g.Summary(side).Lines(), func(l string) bool { return strings.Contains(l, text) }) {
			return fmt.Sprintf("summary of %s:\n%s", side, strings.Join(g.Summary(side).Lines(), "\n"))
		}
	case "private":
		text := strings.Join(e[2:], " ")
		if !slices.ContainsFunc(events, func(ev adjudicator.Event) bool { return ev.Side == e[1] && strings.Contains(ev.Text, text) }) {
			return "no such event for " + e[1] + " alone"
		}
	case "wing":
		w := g.wing(e[1])
		if strconv.Itoa(w.Track) != e[2] || w.LMA != slices.Contains(e, "lma") || w.LF != slices.Contains(e, "lf") {
			return fmt.Sprintf("track %d lma %t lf %t", w.Track, w.LMA, w.LF)
		}
	default:
		return "unknown expectation"
	}
	return ""
}

func checkUnit(g *Game, e []string) string {
	u := g.unit(e[1])
	if u == nil {
		return "no such unit"
	}
	got := []string{u.Hex.String(), u.Facing.String()}
	for flag, on := range map[string]bool{"mast-down": u.MastDown, "on-fire": u.OnFire, "fired": u.Fired,
		"sunk": u.Status == "sunk", "surrendered": u.Status == "surrendered", "fled": u.Status == "fled", "engaged": len(u.Engaged) > 0, "sailing": u.Sailing} {
		if on {
			got = append(got, flag)
		}
	}
	slices.Sort(got[2:])
	want := slices.Clone(e[2:])
	slices.Sort(want[2:])
	if !slices.Equal(got, want) {
		return fmt.Sprintf("unit is %v", got)
	}
	return ""
}
