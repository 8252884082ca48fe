package duel

import (
	"fmt"
	"strings"

	"navarch/adjudicator"
	"navarch/dice"
)

// Ruleset is the duel as an adjudicator.Ruleset.
var Ruleset adjudicator.Ruleset = ruleset{}

type ruleset struct{}

// Sides of every scenario, in their fixed order.
var sides = []string{"red", "blue"}

func (ruleset) ID() string      { return "duel" }
func (ruleset) Title() string   { return "Duel (a test ruleset)" }
func (ruleset) Version() string { return "2" } // 2: events name their rolls and kinds

func (ruleset) Scenarios() []adjudicator.Scenario {
	return []adjudicator.Scenario{
		{ID: "short", Title: "A short duel", Rule: "1", Sides: sides, MaxTurns: 3},
		{ID: "long", Title: "A long duel", Rule: "1", Sides: sides, MaxTurns: 12},
	}
}

func (ruleset) Options() []adjudicator.Option { return nil }

// hull is every scenario's starting hull.
const hull = 2

func (r ruleset) New(cfg adjudicator.Config) (adjudicator.Game, error) {
	g := &Game{Hull: map[string]int{"red": hull, "blue": hull}, Turn: 1}
	for _, sc := range r.Scenarios() {
		if sc.ID == cfg.Scenario {
			g.Scenario, g.MaxTurns = sc.ID, sc.MaxTurns
		}
	}
	if g.Scenario == "" {
		return nil, fmt.Errorf("duel has no scenario %q", cfg.Scenario)
	}
	if len(cfg.Options) > 0 {
		return nil, fmt.Errorf("duel has no optional rules (%s)", strings.Join(cfg.Options, ", "))
	}
	return g, nil
}

// Game is a duel's state.
type Game struct {
	Scenario string
	MaxTurns int
	Turn     int            // the turn to play; MaxTurns+1 once the last is played
	Hull     map[string]int // hull points by side
	Last     []string       // the last turn's fire, for the map: "red hit", "blue miss", "blue hold"
}

// Next implements adjudicator.Game.
func (g *Game) Next() adjudicator.Step {
	if r := g.result(); r != "" {
		return adjudicator.Step{Turn: uint32(min(g.Turn, g.MaxTurns)), Act: 1, Kind: adjudicator.Over, What: r}
	}
	return adjudicator.Step{Turn: uint32(g.Turn), Act: 1, Kind: adjudicator.NeedOrders, Sides: sides,
		What: "fire or hold", Default: "hold fire (1.1)"}
}

// result is the game's result once it is over (3), or "".
func (g *Game) result() string {
	red, blue := g.Hull["red"] <= 0, g.Hull["blue"] <= 0
	switch {
	case red && blue:
		return "draw: both ships sunk"
	case red:
		return "blue wins: red sunk"
	case blue:
		return "red wins: blue sunk"
	case g.Turn > g.MaxTurns:
		return "draw: both ships afloat"
	}
	return ""
}

// Order is FIRE or HOLD.
type Order struct {
	line int
	Fire bool
}

func (o Order) Line() int { return o.line }
func (o Order) String() string {
	if o.Fire {
		return "FIRE"
	}
	return "HOLD"
}

// Parse implements adjudicator.Game: one word a line, FIRE or HOLD.
func (g *Game) Parse(side, text string) ([]adjudicator.Order, []adjudicator.LineError) {
	return adjudicator.ParseLines(text, []string{"FIRE", "HOLD"}, func(l adjudicator.Line) (adjudicator.Order, error) {
		if len(l.Words) != 1 || l.Words[0] != "FIRE" && l.Words[0] != "HOLD" {
			return nil, fmt.Errorf("want FIRE or HOLD")
		}
		return Order{line: l.N, Fire: l.Words[0] == "FIRE"}, nil
	})
}

// Validate implements adjudicator.Game: one order a turn.
func (g *Game) Validate(side string, orders []adjudicator.Order) []adjudicator.LineError {
	var errs []adjudicator.LineError
	if _, ok := g.Hull[side]; !ok && len(orders) > 0 {
		return []adjudicator.LineError{{Line: orders[0].Line(), Text: orders[0].String(),
			Err: fmt.Errorf("%w: no side %q", adjudicator.ErrIllegal, side)}}
	}
	for _, o := range orders[min(len(orders), 1):] {
		errs = append(errs, adjudicator.LineError{Line: o.Line(), Text: o.String(),
			Err: fmt.Errorf("%w: one order a turn (1)", adjudicator.ErrIllegal)})
	}
	return errs
}

// Resolve implements adjudicator.Game: both sides fire at once (2), then victory (3).
func (g *Game) Resolve(orders map[string][]adjudicator.Order, r dice.Roller) ([]adjudicator.Event, error) {
	if g.result() != "" {
		return nil, fmt.Errorf("duel: the game is over")
	}
	var events []adjudicator.Event
	hits := map[string]int{}
	g.Last = nil
	for _, side := range sides {
		if len(orders[side]) == 0 || !orders[side][0].(Order).Fire {
			g.Hull[side] = min(g.Hull[side]+1, hull)
			g.Last = append(g.Last, side+" hold")
			events = append(events, adjudicator.Event{Rule: "2.1", Text: fmt.Sprintf("%s holds fire and repairs (hull %d)", side, g.Hull[side]), Kind: adjudicator.KindRoutine})
			continue
		}
		roll, err := r.Roll("fire/"+side, 6, 1)
		if err != nil {
			return nil, err
		}
		v := roll.Values[0]
		if v >= 5 {
			hits[other(side)]++
			g.Last = append(g.Last, side+" hit")
			events = append(events, adjudicator.Event{Rule: "2", Text: fmt.Sprintf("%s fires: %d, a hit", side, v), Rolls: []string{roll.Label}, Kind: adjudicator.KindHit})
		} else {
			g.Last = append(g.Last, side+" miss")
			events = append(events, adjudicator.Event{Rule: "2", Text: fmt.Sprintf("%s fires: %d, a miss", side, v), Rolls: []string{roll.Label}, Kind: adjudicator.KindAttack})
		}
	}
	for _, side := range sides {
		g.Hull[side] = max(g.Hull[side]-hits[side], 0)
	}
	g.Turn++
	if res := g.result(); res != "" {
		events = append(events, adjudicator.Event{Rule: "3", Text: res, Kind: adjudicator.KindEnd})
	}
	return events, nil
}

func other(side string) string {
	if side == "red" {
		return "blue"
	}
	return "red"
}

// Encode implements adjudicator.Game: the whole state.
func (g *Game) Encode() []byte {
	return fmt.Appendf(nil, "duel scenario=%s turn=%d/%d red=%d blue=%d last=%s\n",
		g.Scenario, g.Turn, g.MaxTurns, g.Hull["red"], g.Hull["blue"], strings.Join(g.Last, ","))
}

// Help implements adjudicator.Game.
func (g *Game) Help(side string) string {
	return "Write FIRE (roll a die; 5 or 6 hits the other ship, rule 2) or HOLD (repair a hull point, rule 2.1)."
}

// BotOrders implements adjudicator.Bot: fire while afloat.
func (g *Game) BotOrders(side string) string { return "FIRE" }

// Commands implements adjudicator.Teams: a side is one ship (1), named by its side, which one
// player commands.
func (g *Game) Commands(side string) []adjudicator.Command {
	if _, ok := g.Hull[side]; !ok {
		return nil
	}
	return []adjudicator.Command{{ID: "SHIP", Title: "the " + side + " ship", Units: []string{side}}}
}

// Acting implements adjudicator.Teams: every turn asks each side's ship (1).
func (g *Game) Acting(side string) []string {
	if _, ok := g.Hull[side]; !ok || g.Next().Kind != adjudicator.NeedOrders {
		return nil
	}
	return []string{side}
}

// OrderUnits implements adjudicator.Teams: FIRE and HOLD are the ship's orders.
func (g *Game) OrderUnits(side string, o adjudicator.Order) []string { return []string{side} }

// Chooses implements adjudicator.Teams: the duel has no choice of the whole side.
func (g *Game) Chooses(side string) bool { return false }
