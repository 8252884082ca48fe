package lepanto

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"navarch/adjudicator"
)

// Options of the rulebook (sections 11 and 12).
const (
	OptionWind    = "wind"
	OptionSailing = "sailing"
	// OptionIntoWindCheck keeps navarch's earlier reading of 12.2: every sailing turn into
	// the wind needs an HV check, whether or not the wind has changed.
	OptionIntoWindCheck = "into-wind-check"
)

// Ruleset is Lepanto 1571 as an adjudicator.Ruleset.
var Ruleset adjudicator.Ruleset = ruleset{}

type ruleset struct{}

var builtIn = sync.OnceValues(func() (*Map, []*scenarioDef) {
	m, err := parseMap(defaultMap)
	if err != nil {
		panic(fmt.Sprintf("lepanto: built-in map: %v", err))
	}
	scs, err := loadScenarios()
	if err != nil {
		panic(fmt.Sprintf("lepanto: built-in scenarios: %v", err))
	}
	return m, scs
})

func (ruleset) ID() string    { return "lepanto1571" }
func (ruleset) Title() string { return "Lepanto 1571: A Sea Turned Red by Blood" }

func (ruleset) Options() []adjudicator.Option {
	return []adjudicator.Option{
		{ID: OptionWind, Title: "Wind changes (Wind Roll chit)", Rule: "11"},
		{ID: OptionSailing, Title: "Sailing Mode", Rule: "12"},
		{ID: OptionIntoWindCheck, Title: "HV check for every sailing turn into the wind, changed or not", Rule: "12.2"},
	}
}

func (ruleset) Scenarios() []adjudicator.Scenario {
	_, scs := builtIn()
	var out []adjudicator.Scenario
	for _, s := range scs {
		out = append(out, adjudicator.Scenario{ID: s.ID, Title: s.Title, Rule: s.Rule, Sides: s.Sides, MaxTurns: s.Turns})
	}
	return out
}

// New sets up a scenario (13.x): units on their set-up hexes and facings, leaders aboard,
// wing tracks at their start, the wind from the east (11.1).
func (ruleset) New(cfg adjudicator.Config) (adjudicator.Game, error) {
	m, scs := builtIn()
	i := slices.IndexFunc(scs, func(s *scenarioDef) bool { return s.ID == cfg.Scenario })
	if i < 0 {
		return nil, fmt.Errorf("lepanto1571 has no scenario %q", cfg.Scenario)
	}
	for _, o := range cfg.Options {
		if o != OptionWind && o != OptionSailing && o != OptionIntoWindCheck {
			return nil, fmt.Errorf("lepanto1571 has no option %q", o)
		}
	}
	var overrides [][]byte
	if t, ok := cfg.Tables["lepanto1571"]; ok {
		overrides = append(overrides, t)
	}
	tables, err := LoadTables(overrides...)
	if err != nil {
		return nil, err
	}
	g := &Game{sc: scs[i], tables: tables, m: m, options: slices.Sorted(slices.Values(cfg.Options)), Wind: startWind}
	return g, g.setUp()
}

func (g *Game) setUp() error {
	for _, gd := range g.sc.Groups {
		g.Groups = append(g.Groups, &Group{ID: gd.ID, Side: gd.Side, Wing: gd.Wing, Name: gd.Name})
		if g.wing(gd.Wing) == nil {
			w := &Wing{ID: gd.Wing, Captains: g.sc.Captains[gd.Wing]}
			w.Track, w.lma, w.lf = g.value("wing-track", gd.Wing, "start"), g.value("wing-track", gd.Wing, "lma"), g.value("wing-track", gd.Wing, "lf")
			g.Wings = append(g.Wings, w)
		}
	}
	for _, ud := range g.sc.Units {
		gr := g.group(ud.Group)
		u := &Unit{ID: ud.ID, Name: ud.Name, Type: ud.Type, Group: ud.Group, Side: gr.Side, Wing: gr.Wing, Hex: ud.Hex, Facing: ud.Facing}
		u.HV, u.FV = g.value("unit-values", u.Type, "hv"), g.value("unit-values", u.Type, "fv")
		u.Row, u.Sail = g.value("unit-values", u.Type, "row"), g.value("unit-values", u.Type, "sail")
		u.Sailing = g.hasOption(OptionSailing) // 13.x: with the optional rules fleets set up under sail
		if !g.m.Enterable(u.Hex) || (u.Galleass() && g.m.Terrain(u.Hex) == Shallow) {
			return fmt.Errorf("scenario %s: unit %s set up on %s, which it cannot occupy", g.sc.ID, u.ID, u.Hex)
		}
		g.Units = append(g.Units, u)
	}
	for _, ld := range g.sc.Leaders {
		u := g.unit(ld.Unit)
		g.Leaders = append(g.Leaders, &Leader{ID: ld.ID, Name: ld.Name, Kind: ld.Kind, Rating: ld.Rating, Unit: ld.Unit, Group: u.Group, Side: u.Side})
	}
	return nil
}

// Help describes the order language, with examples for the side's own units: moves that
// are legal from where they stand now.
func (g *Game) Help(side string) string {
	var b strings.Builder
	b.WriteString(helpText)
	var own []string
	examples := 0
	board := &board{g: g, moved: map[string]position{}}
	for _, u := range g.Units {
		if u.Side != side || !u.InPlay() {
			continue
		}
		own = append(own, u.ID)
		fwd := u.Hex.Neighbor(u.Facing)
		if examples < 2 && len(u.Engaged) == 0 {
			if _, err := board.plan(u, []pathStep{{kind: stepHex, hex: fwd}}); err == nil {
				if examples == 0 {
					b.WriteString("\nExamples for your units:\n")
				}
				fmt.Fprintf(&b, "  %s MOVE %s\n  %s MOVE %s FACE %s\n", u.ID, fwd, u.ID, fwd, u.Facing.Turn(1))
				examples++
			}
		}
	}
	if side != "" {
		fmt.Fprintf(&b, "\nYour units: %s\n", strings.Join(own, " "))
	}
	return b.String()
}

const helpText = `Lepanto 1571 orders: one line per unit, in the order the units act (2.2).
  UNIT MOVE STEP...     Maneuver Segment (3). A STEP is an adjacent hex code (the bow hex
                        goes forward; a hex beside it turns one hexside and goes forward;
                        the stern hex rows backwards, 3.5), L or R (turn one hexside),
                        FACE DIR (turn to N, NE, SE, S, SW or NW) or PIVOT DIR (up to three
                        hexsides for 2 MP without leaving the hex, 3.1.4).
  UNIT MOVE TO HEX [FACING DIR]   the legal path of fewest MP to HEX (ending facing DIR);
                        the receipt shows the path taken. RAM, GRAPPLE, FIRE may follow.
  UNIT MOVE STEP... RAM TARGET [ONCE | ABORT BELOW N] [GRAPPLE]
                        ram the enemy in the bow hex at the end of the move, with the MP to
                        enter its hex plus one (6); ONCE aborts if the first roll falls
                        short, ABORT BELOW N if it leaves the speed (less 1 for a bow or
                        stern maneuver) below N (6.2); GRAPPLE grapples it after a
                        successful ram (6.3).
  UNIT MOVE STEP... GRAPPLE TARGET   try to grapple the enemy in the bow hex (7.1).
  UNIT STACK UNIT... MOVE STEP... [DROP UNIT] ...   move a stack together, dropping units
                        off on the way (3.2.1); the other units of the stack fire on lines
                        of their own right after it: UNIT FIRE TARGET (2.2).
  UNIT FIRE TARGET      Battle Segment: Artillery Fire at an adjacent enemy in arc (5.2);
                        a galleass may fire into several hexes: FIRE T1 FIRE T2 (5.2.1).
  UNIT REPAIR           Recovery Segment: try to repair the unit's Mast Down (9.1.1).
  UNIT MOVE SAIL STEP...  with the sailing rule: raise sails first (1 MP), more than 3
                        hexes from the enemy (12); MOVE ROW STEP... lowers them (12.4);
                        within 3 hexes of the enemy they come down at no cost (12.3).
  UNIT PASS             the unit does nothing.
  A line may combine the segments in order: UNIT MOVE 1507 1407 FIRE SIR-EGY1 REPAIR.
  LEADER ON UNIT [HIDDEN]  at set-up: the ship a leader starts aboard, face up or
                        hidden (4.5); LEADER HIDDEN keeps him on his ship, face down.
  LEADER TO UNIT        when the Leader Move chit is drawn (2.4.1).
  UNIT DISENGAGE STEP...   when the Disengage chit is drawn: leave the engagement (2.4.4).
  ACTIVATE GROUP        first line after a Bragadin, Doria, Gloria Christi or Jihad chit (2.4.2);
                        sent ahead, the group's lines that follow it go with it.
  BOARD UNIT [UNIT]     when the Boarding chit finds two or more boardings, the drawing player
                        (whose group acted last) names them in the order to resolve; those he
                        does not name follow in the order of battle's order (8).
Standing orders go with any orders you send, or alone at any time, and hold until you change
them. They stay sealed for your side until the step that uses them: the enemy's next
activation, or a chit. LEADERS, ENGAGED, LET BURN and EXTINGUISH count from the next draw from
the cup (a chit drawn reads them at once); your other standing orders stay sealed then:
  HOLD FIRE UNIT|GROUP [MOVE|RAM]   no reaction fire at an enemy stopping in its arc (MOVE,
                        5.3) or at a rammer after a last maneuver (RAM, 6.2); both if neither.
  REACT UNIT|GROUP [MOVE|RAM]       reaction fire again (the default).
  AIM UNIT|GROUP SINGLE|SQUADRON    at a stack stopping in its arc, its reaction fire takes
                        a single ship or the squadron (5.3); by default the stack's own unit.
  LEADERS STAY          you are not asked when a Leader Move chit is drawn (2.4.1); LEADERS
                        ASK undoes it. A side none of whose leaders can move is not asked.
  ENGAGED STAY          you are not asked when a Disengage chit is drawn: your engaged units
                        stay engaged (2.4.4); ENGAGED ASK undoes it.
  CAPTAIN GROUP ON UNIT a captain who takes command of GROUP goes aboard UNIT (4.4); by
                        default the lost leader's ship, else the group's first single ship;
                        one placed by default moves there with your next orders.
  EVADE UNIT|GROUP BOW|STERN [N|S]   an Evade result (9.6) takes the unit away bow first
                        (the default) or stern first, bow still to the enemy; N or S: by the
                        northern or southern hexsides where both come as near its map edge.
  LET BURN UNIT|GROUP   no roll to put out its fire at a Fire Roll chit (9.2.1);
                        EXTINGUISH UNIT|GROUP rolls again (the default).
  RETURN UNIT AT HEX [FACING DIR]   where a fled unit comes back, if HEX is beside or with a
                        ship it may rejoin then (9.6); by default the first free hex around one.
Orders for steps to come (other groups, LEADER TO, BOARD, DISENGAGE, ACTIVATE) are held and used when due.
Words are case-insensitive; "#" starts a comment; END stops reading.
`
