package oinavarcoi

import (
	"fmt"
	"slices"
	"sync"

	"navarch/adjudicator"
	"navarch/adjudicator/table"
	"navarch/dice"
)

// OptionFullSize is 1:1 play: squadrons of eight stands, losses doubled (rule Stands.full).
const OptionFullSize = "full-size"

// Ruleset is Oi Navarcoi! as an adjudicator.Ruleset.
var Ruleset adjudicator.Ruleset = ruleset{}

type ruleset struct{}

var builtIn = sync.OnceValues(LoadData)

func (ruleset) ID() string    { return "oinavarcoi" }
func (ruleset) Title() string { return "Oi Navarcoi!" }

func (ruleset) Options() []adjudicator.Option {
	return []adjudicator.Option{{ID: OptionFullSize, Title: "Full-size play: 8 stands, losses doubled", Rule: "Stands.full"}}
}

func (ruleset) Scenarios() []adjudicator.Scenario {
	d, err := builtIn()
	if err != nil {
		return nil
	}
	var out []adjudicator.Scenario
	for _, s := range d.Scenarios {
		out = append(out, adjudicator.Scenario{ID: s.ID, Title: s.Title, Rule: "Scenarios." + s.ID, Sides: s.Sides[:], MaxTurns: s.Turns})
	}
	return out
}

// New sets up a scenario with the data files' default deployment; the deployment step lets
// each side move its squadrons within its zone.
func (ruleset) New(cfg adjudicator.Config) (adjudicator.Game, error) {
	d, err := builtIn()
	if err != nil {
		return nil, err
	}
	if t, ok := cfg.Tables["oinavarcoi"]; ok {
		if d, err = d.WithOverride(string(t)); err != nil {
			return nil, err
		}
	}
	i := slices.IndexFunc(d.Scenarios, func(s *Scenario) bool { return s.ID == cfg.Scenario })
	if i < 0 {
		return nil, fmt.Errorf("oinavarcoi has no scenario %q", cfg.Scenario)
	}
	full := false
	for _, o := range cfg.Options {
		if o != OptionFullSize {
			return nil, fmt.Errorf("oinavarcoi has no option %q", o)
		}
		full = true
	}
	return newGame(d, d.Scenarios[i], full), nil
}

func newGame(d *Data, sc *Scenario, full bool) *Game {
	g := &Game{data: d, sc: sc, full: full}
	for _, def := range sc.Squadrons {
		halves := 8
		if full {
			halves = 16
		}
		if def.Freighter {
			halves = 2
		}
		s := &Squadron{ID: def.ID, Name: def.Name, Side: def.Side, Wing: def.Wing, Freighter: def.Freighter,
			Quality: def.Quality, Morale: def.Morale, Ship: def.Ship, Strategos: def.Strategos,
			Formation: def.Formation, Pose: def.Pose, Halves: halves, Start: halves}
		if def.Beached {
			s.Status = Beached
		}
		g.Squadrons = append(g.Squadrons, s)
	}
	for _, def := range sc.Phalanxes {
		g.Phalanxes = append(g.Phalanxes, &Phalanx{ID: def.ID, Side: def.Side, Wing: def.Wing,
			Hoplites: def.Hoplites, Euzonoi: def.Euzonoi, Pose: def.Pose, Deployed: true})
	}
	g.fitDefaults()
	return g
}

// Next says what the game needs now.
func (g *Game) Next() adjudicator.Step {
	switch {
	case g.Over:
		return adjudicator.Step{Turn: uint32(max(g.Turn, 1)), Act: uint32(g.Act), Kind: adjudicator.Over, What: g.Result}
	case !g.Deployed:
		return adjudicator.Step{Turn: 1, Act: 0, Kind: adjudicator.NeedOrders, Sides: g.sc.Sides[:], Secret: true,
			What:    "simultaneous secret deployment and the pre-battle signal lists (rules Deployment.secret, Signals.list)",
			Default: "squadrons stay where the scenario places them; no signals written"}
	case g.Phase == "":
		return adjudicator.Step{Turn: uint32(g.Turn + 1), Act: 0, Kind: adjudicator.Auto, What: fmt.Sprintf("start of turn %d: event and initiative", g.Turn+1),
			Standing: g.sc.Sides[:]}
	case g.Phase == phaseChoose && len(g.Phalanxes) > 0:
		return adjudicator.Step{Turn: uint32(g.Turn), Act: 1, Kind: adjudicator.NeedOrders, Sides: g.sc.Sides[:], Secret: true,
			What:    fmt.Sprintf("%s chooses to move first or second; both sides secretly order their phalanxes (rules Initiative, Phalanx.orders)", g.Winner),
			Default: "the winner moves first; phalanxes keep their orders", Standing: g.sc.Sides[:]}
	case g.Phase == phaseChoose:
		return adjudicator.Step{Turn: uint32(g.Turn), Act: 1, Kind: adjudicator.NeedOrders, Sides: []string{g.Winner},
			What: "the initiative winner chooses to move first or second (rule Initiative)", Default: "moves first", Standing: g.sc.Sides[:]}
	}
	side, act := g.First, 2
	if g.Phase == phaseMove2 {
		side, act = g.enemy(g.First), 3
	}
	def := "squadrons hold (an unformed one reforms in epi mias)"
	if act == 3 {
		def += "; then melee and morale"
	}
	st := adjudicator.Step{Turn: uint32(g.Turn), Act: uint32(act), Kind: adjudicator.NeedOrders, Sides: []string{side},
		What: fmt.Sprintf("movement of %s (rule Movement.each)", side), Default: def}
	if act == 3 { // melee follows the second movement (rule Melee): SHARE, NAVARCH
		st.Standing = g.sc.Sides[:]
	}
	return st
}

// Parse reads order text (ParseOrders). A line not understood is answered with the forms
// side may write now, then those of its movement to come (orders sent ahead are held).
func (g *Game) Parse(side, text string) ([]adjudicator.Order, []adjudicator.LineError) {
	orders, errs := ParseOrders(text)
	for i := range errs {
		errs[i].Legal = []string{g.forms(side)}
	}
	return orders, errs
}

// Resolve performs the current step.
func (g *Game) Resolve(orders map[string][]adjudicator.Order, r dice.Roller) ([]adjudicator.Event, error) {
	st := g.Next()
	notes := adjudicator.NoteRolls(r)
	rs := &resolver{g: g, r: notes, notes: notes}
	before := make([]table.Point, len(g.Squadrons))
	for i, s := range g.Squadrons {
		before[i] = s.Pose.At
	}
	defer func() {
		g.trace = nil
		for i, s := range g.Squadrons {
			if s.Pose.At != before[i] {
				g.trace = append(g.trace, Moved{ID: s.ID, From: before[i], To: s.Pose.At})
			}
		}
	}()
	if st.Kind == adjudicator.Over {
		return nil, fmt.Errorf("oinavarcoi: the game is over")
	}
	rs.applyStanding(orders)
	var err error
	switch {
	case !g.Deployed:
		rs.deploy(map[string][]*Order{g.side(0): own(orders[g.side(0)]), g.side(1): own(orders[g.side(1)])})
		err = rs.startTurn()
	case g.Phase == "":
		err = rs.startTurn()
	case g.Phase == phaseChoose:
		rs.choose(own(orders[g.Winner]), "")
		rs.phalanxOrders(map[string][]*Order{g.side(0): own(orders[g.side(0)]), g.side(1): own(orders[g.side(1)])})
	default:
		err = rs.movement(st.Sides[0], own(orders[st.Sides[0]]))
	}
	if err == nil {
		err = rs.err
	}
	if err != nil {
		return nil, err
	}
	return rs.events, nil
}

func own(os []adjudicator.Order) []*Order {
	var out []*Order
	for _, o := range os {
		out = append(out, o.(*Order))
	}
	return out
}

// Sealed reports whether the state holds hidden information: a signal list with signals
// not yet given (adjudicator.Sealer).
func (g *Game) Sealed() bool {
	for _, l := range g.Signals {
		if slices.ContainsFunc(l, func(e SignalEntry) bool { return !e.Used }) {
			return true
		}
	}
	return false
}

// resolver collects the events and rolls of one step.
type resolver struct {
	g      *Game
	r      dice.Roller
	notes  *adjudicator.RollNotes // r, noting the rolls behind each event
	events []adjudicator.Event
	err    error // a roll that failed where no error could be returned
}

// event records an event of the kind its rule's section gives (kinds).
func (rs *resolver) event(rule, format string, args ...any) {
	rs.eventAs(adjudicator.KindOf(kinds, rule), rule, format, args...)
}

// eventAs records an event of a kind its place knows; it is behind the rolls made since the
// step's last event.
func (rs *resolver) eventAs(kind adjudicator.Kind, rule, format string, args ...any) {
	rs.events = append(rs.events, adjudicator.Event{Rule: rule, Text: fmt.Sprintf(format, args...), Rolls: rs.notes.Take(), Kind: kind})
}

// private records an event only the side may see, of the kind its rule's section gives.
func (rs *resolver) private(side, rule, format string, args ...any) {
	rs.events = append(rs.events, adjudicator.Event{Rule: rule, Side: side, Text: fmt.Sprintf(format, args...), Rolls: rs.notes.Take(), Kind: adjudicator.KindOf(kinds, rule)})
}

// told tells a side's standing order back to it, an event only the side may see (never a
// report's headline).
func (rs *resolver) told(side, rule string, o any) {
	rs.events = append(rs.events, adjudicator.Event{Rule: rule, Side: side, Text: fmt.Sprintf("Standing order: %s", o), Rolls: rs.notes.Take(), Kind: adjudicator.KindTold})
}

// d6 rolls one die for rule.
func (rs *resolver) d6(label, rule string) (int, error) {
	roll, err := rs.r.Roll(label, 6, 1)
	if err != nil {
		return 0, err
	}
	roll.Rule = rule
	return roll.Values[0], nil
}

// twoD6 rolls 2d6 and returns the sum and the values.
func (rs *resolver) twoD6(label, rule string) (int, []int, error) {
	roll, err := rs.r.Roll(label, 6, 2)
	if err != nil {
		return 0, nil, err
	}
	roll.Rule = rule
	return roll.Values[0] + roll.Values[1], roll.Values, nil
}

// avd rolls the average die (rule Dice.average).
func (rs *resolver) avd(label, rule string) (int, error) {
	v, roll, err := dice.Average(rs.r, label)
	if err != nil {
		return 0, err
	}
	roll.Rule = rule
	return v, nil
}

var _ adjudicator.Game = (*Game)(nil)
var _ adjudicator.Sealer = (*Game)(nil)
