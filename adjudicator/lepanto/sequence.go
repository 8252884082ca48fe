package lepanto

import (
	"fmt"
	"slices"

	"navarch/adjudicator"
	"navarch/dice"
)

// Next says what the game needs now (2.1): the start of a game turn (filling the cup), a
// draw from the cup, or orders for what the draw activated.
func (g *Game) Next() adjudicator.Step {
	switch {
	case g.Over:
		return adjudicator.Step{Turn: uint32(g.Turn), Act: uint32(g.Act), Kind: adjudicator.Over, What: g.Result}
	case !g.SetUp:
		return adjudicator.Step{Turn: 1, Act: 0, Kind: adjudicator.NeedOrders, Sides: slices.Clone(g.sc.Sides),
			What: "set-up: leaders aboard, face up or hidden (4.5)", Secret: true,
			Default: "leaders stay face up aboard the ships the orders of battle give"}
	case g.Wait != waitNone:
		return adjudicator.Step{Turn: uint32(g.Turn), Act: uint32(g.Act + 1), Kind: adjudicator.NeedOrders,
			Sides: slices.Clone(g.WaitSides), What: g.waitText(), Secret: g.Wait == waitLeaderMove && g.Sealed(),
			Default: g.waitDefault(), Standing: g.standingSides()}
	case len(g.Cup) == 0:
		return adjudicator.Step{Turn: uint32(g.Turn + 1), Act: 0, Kind: adjudicator.Auto, What: fmt.Sprintf("start of game turn %d", g.Turn+1)}
	}
	return adjudicator.Step{Turn: uint32(g.Turn), Act: uint32(g.Act + 1), Kind: adjudicator.Auto, What: "draw from the cup",
		Standing: g.drawStanding()}
}

// chitReads are the chits whose resolution reads a standing order of KindChit: whom a Leader
// Move chit asks (LEADERS, 2.4.1), whom a Disengage chit asks (ENGAGED, 2.4.4), the Fire Roll
// chit's extinguish rolls (LET BURN, EXTINGUISH, 9.2.1).
var chitReads = []string{ChitLeaderMove, ChitDisengage, ChitFireRoll}

// drawStanding are the standing orders a draw applies: while the cup holds a chit that reads
// them, every side's of KindChit, and no other (a HOLD FIRE waits, sealed, for the enemy
// activation it is meant for); none when no chit drawn could read them.
func (g *Game) drawStanding() []string {
	if !slices.ContainsFunc(g.Cup, func(c string) bool { return slices.Contains(chitReads, c) }) {
		return nil
	}
	var out []string
	for _, s := range g.sc.Sides {
		out = append(out, adjudicator.StandingToken(s, KindChit))
	}
	return out
}

// standingSides are the sides whose standing orders the step waited for applies
// (docs/LEPANTO.md "Standing orders and the steps that use them"): a group's action phase
// and a fury chit, the other side's (its reaction fire, 5.3, its evades, 9.6); a Leader Move,
// Disengage or Boarding chit, every side's (2.4.1, 2.4.4, 8: both sides' leaders, engaged
// units and boardings are concerned).
func (g *Game) standingSides() []string {
	if g.Wait != waitGroup && g.Wait != waitFury {
		return slices.Clone(g.sc.Sides)
	}
	var out []string
	for _, s := range g.sc.Sides {
		if !slices.Contains(g.WaitSides, s) {
			out = append(out, s)
		}
	}
	return out
}

func (g *Game) waitText() string {
	switch g.Wait {
	case waitGroup:
		gr := g.group(g.WaitGroup)
		return fmt.Sprintf("action phase of group %s (%s)", gr.ID, gr.Name)
	case waitFury:
		return fmt.Sprintf("%s chit: activate again a group that has acted (2.4.2)", g.WaitGroup)
	case waitDisengage:
		return "disengage chit: engaged units may leave (2.4.4)"
	case waitBoarding:
		return "boarding chit: the drawing player chooses the order of the boardings (8)"
	}
	return "leader move chit (2.4.1)"
}

// waitDefault is the no-orders policy of the step waited for.
func (g *Game) waitDefault() string {
	switch g.Wait {
	case waitGroup:
		return "the group's units hold: no move, no fire, no repair"
	case waitFury:
		return "the chit is not used"
	case waitDisengage:
		return "engaged units stay engaged"
	case waitBoarding:
		return "the boardings are resolved in the order of battle's order"
	}
	return "leaders stay where they are"
}

// Resolve performs the current step.
func (g *Game) Resolve(orders map[string][]adjudicator.Order, r dice.Roller) ([]adjudicator.Event, error) {
	step := g.Next()
	notes := adjudicator.NoteRolls(r)
	rs := &resolver{g: g, r: notes, notes: notes}
	if step.Kind == adjudicator.NeedOrders {
		// The map of a report shows what happened since the players last gave orders: the
		// automatic steps after them (a draw, the start of a turn) keep the trace.
		g.trace = nil
	}
	var err error
	if step.Kind == adjudicator.Over {
		return nil, fmt.Errorf("lepanto: the game is over")
	}
	rs.applyStanding(orders)
	orders = withoutStanding(orders)
	switch {
	case !g.SetUp:
		if err = rs.setUp(orders); err == nil {
			err = rs.startTurn()
		}
	case step.Kind == adjudicator.NeedOrders:
		err = rs.orders(orders)
	case step.Act == 0:
		err = rs.startTurn()
	default:
		err = rs.draw()
	}
	if err != nil {
		return nil, err
	}
	g.Act = int(step.Act)
	if g.Wait == waitNone && len(g.Cup) == 0 && step.Act != 0 {
		rs.endTurn()
	}
	return rs.events, nil
}

func withoutStanding(orders map[string][]adjudicator.Order) map[string][]adjudicator.Order {
	out := map[string][]adjudicator.Order{}
	for side, o := range orders {
		_, out[side] = splitStanding(o)
	}
	return out
}

// resolver carries one step's dice and events.
type resolver struct {
	g        *Game
	r        dice.Roller
	notes    *adjudicator.RollNotes // r, noting the rolls behind each event
	events   []adjudicator.Event
	grappled map[Hex]bool // hexes a grappling attempt was made from this activation (7.1)
	heldNow  bool         // applying standing orders held until this step (applyHeld)
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

// roll asks for one die and notes the rule and result on it.
func (rs *resolver) roll(label string, sides int, rule string) (int, *dice.Roll, error) {
	r, err := rs.r.Roll(label, sides, 1)
	if err != nil {
		return 0, nil, err
	}
	r.Rule = rule
	return r.Values[0], r, nil
}

// startTurn fills the cup with every Group's marker and the scenario's special chits (2.1);
// with the wind rule, a die decides whether the Wind Roll chit goes in too (11).
func (rs *resolver) startTurn() error {
	g := rs.g
	g.Turn, g.Act, g.Drawn = g.Turn+1, 0, false
	g.Cup = nil
	for _, gr := range g.Groups {
		gr.Acted = false
		if rs.groupPresent(gr) {
			g.Cup = append(g.Cup, gr.ID)
		}
	}
	g.Cup = append(g.Cup, g.sc.Chits...)
	if g.hasOption(OptionWind) {
		d, r, err := rs.roll("wind-chit", 6, "11")
		if err != nil {
			return err
		}
		if d <= 2 {
			g.Cup = append(g.Cup, ChitWindRoll)
		}
		r.Note = fmt.Sprintf("%d: wind chit %s", d, map[bool]string{true: "added", false: "not added"}[d <= 2])
	}
	rs.returnFled()
	rs.event("2.1", "Game turn %d begins; the cup holds %v", g.Turn, g.Cup)
	return nil
}

// groupPresent: a group whose units are all gone has no marker to draw.
func (rs *resolver) groupPresent(gr *Group) bool {
	for _, u := range rs.g.Units {
		if u.Group == gr.ID && (u.InPlay() || u.Status == "fled") {
			return true
		}
	}
	return false
}

// draw takes one marker or chit from the cup: a d(n) over the cup in its canonical order.
func (rs *resolver) draw() error {
	g := rs.g
	i, roll, err := dice.Draw(rs.r, "draw", g.Cup)
	if err != nil {
		return err
	}
	item := g.Cup[i]
	g.Cup = slices.Delete(slices.Clone(g.Cup), i, i+1)
	roll.Rule, roll.Note = "2.1", "drawn: "+item
	if gr := g.group(item); gr != nil {
		g.Drawn = true
		g.Wait, g.WaitSides, g.WaitGroup = waitGroup, []string{gr.Side}, gr.ID
		g.Drawer = gr.Side
		rs.event("2.2", "Group %s (%s) is activated", gr.ID, gr.Name)
		return nil
	}
	if !g.Drawn && item != ChitWindRoll {
		rs.event("2.1", "The %s chit is drawn before any Activation Marker: no effect, set aside", item)
		return nil
	}
	return rs.chit(item)
}

// endTurn is the End Turn Phase (2.3): fired units reload (5.7), the turn marker advances;
// after the scenario's last turn the game ends (10).
func (rs *resolver) endTurn() {
	g := rs.g
	for _, u := range g.Units {
		if u.InPlay() && u.Fired && !u.OnFire {
			u.Fired = false
		}
	}
	rs.event("2.3", "End of game turn %d: fired units without fire aboard reload", g.Turn)
	if g.Turn >= g.sc.Turns {
		rs.victory()
	}
}
