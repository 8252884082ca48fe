package lepanto

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"navarch/adjudicator"
)

// stepKind is one element of a MOVE path.
type stepKind int

const (
	stepHex   stepKind = iota // enter an adjacent hex
	stepLeft                  // turn one hexside anticlockwise
	stepRight                 // turn one hexside clockwise
	stepFace                  // turn to a facing
	stepPivot                 // pivot to a facing without leaving the hex (3.1.4)
	stepDrop                  // drop a unit off a moving stack (3.2.1)
	stepSail                  // raise sails (12.4)
	stepRow                   // lower sails (12.4)
)

type pathStep struct {
	kind stepKind
	hex  Hex
	dir  Dir
	unit string // stepDrop
}

func (s pathStep) String() string {
	switch s.kind {
	case stepHex:
		return s.hex.String()
	case stepLeft:
		return "L"
	case stepRight:
		return "R"
	case stepFace:
		return "FACE " + s.dir.String()
	case stepDrop:
		return "DROP " + s.unit
	case stepSail:
		return "SAIL"
	case stepRow:
		return "ROW"
	}
	return "PIVOT " + s.dir.String()
}

// unitOrder is one unit's segments in order (2.2): maneuver (a move, ending in a ram or a
// grapple attempt), battle, recovery; or a disengagement when the Disengage chit is drawn.
type unitOrder struct {
	line      int
	unit      string
	move      []pathStep
	ram       string   // target of a ramming attack at the end of the move (6)
	ramOnce   bool     // abort after the first ramming roll if it falls short (6.2)
	ramBelow  int      // abort after a short first roll if the speed so far is below this (6.2)
	ramGrab   bool     // grapple the target after a successful ram (6.3)
	grapple   string   // target of a grappling attempt at the end of the move (7.1)
	stack     []string // units moving with this one (3.2.1)
	dest      *Hex     // MOVE TO: the hex to reach by the path of fewest MP, found when validated
	destFace  *Dir     // MOVE TO ... FACING: the facing to end in
	disengage bool     // leave the engagement along move (2.4.4)
	fire      []string // targets in order; only a galleass may have more than one (5.2.1)
	repair    bool
	pass      bool
}

func (o *unitOrder) Line() int { return o.line }

func (o *unitOrder) String() string {
	parts := []string{o.unit}
	if o.pass {
		return o.unit + " PASS"
	}
	if len(o.stack) > 0 {
		parts = append(append(parts, "STACK"), o.stack...)
	}
	if o.dest != nil {
		parts = append(parts, "MOVE")
		for _, s := range o.move { // SAIL or ROW first
			parts = append(parts, s.String())
		}
		parts = append(parts, "TO", o.dest.String())
		if o.destFace != nil {
			parts = append(parts, "FACING", o.destFace.String())
		}
	} else if len(o.move) > 0 {
		parts = append(parts, map[bool]string{true: "DISENGAGE", false: "MOVE"}[o.disengage])
		for _, s := range o.move {
			parts = append(parts, s.String())
		}
	}
	if o.ram != "" {
		parts = append(parts, "RAM", o.ram)
		if o.ramOnce {
			parts = append(parts, "ONCE")
		}
		if o.ramBelow > 0 {
			parts = append(parts, "ABORT", "BELOW", strconv.Itoa(o.ramBelow))
		}
		if o.ramGrab {
			parts = append(parts, "GRAPPLE")
		}
	}
	if o.grapple != "" {
		parts = append(parts, "GRAPPLE", o.grapple)
	}
	for _, t := range o.fire {
		parts = append(parts, "FIRE", t)
	}
	if o.repair {
		parts = append(parts, "REPAIR")
	}
	return strings.Join(parts, " ")
}

// leaderOrder moves a leader when the Leader Move chit is drawn (2.4.1).
type leaderOrder struct {
	line           int
	leader, target string
}

func (o *leaderOrder) Line() int      { return o.line }
func (o *leaderOrder) String() string { return o.leader + " TO " + o.target }

// boardOrder names the next boarding to resolve, by one of its units or both (8).
type boardOrder struct {
	line  int
	units []string
}

func (o *boardOrder) Line() int      { return o.line }
func (o *boardOrder) String() string { return "BOARD " + strings.Join(o.units, " ") }

// activateOrder names the group a fury chit activates again (2.4.2).
type activateOrder struct {
	line  int
	group string
}

func (o *activateOrder) Line() int      { return o.line }
func (o *activateOrder) String() string { return "ACTIVATE " + o.group }

// Parse reads order text: one order per line, read by adjudicator.ReadLines ("#" comments,
// an END line stops; docs/ORDERS.md).
// It checks syntax only; Validate checks the orders against the state.
func (g *Game) Parse(side, text string) ([]adjudicator.Order, []adjudicator.LineError) {
	return adjudicator.ParseLines(text, []string{grammar}, func(l adjudicator.Line) (adjudicator.Order, error) {
		return parseLine(l.N, l.Words)
	})
}

// grammar is the order language in one line, the legal forms a line not understood is
// answered with (HELP gives it in full).
const grammar = "UNIT MOVE STEP... [RAM TARGET [ONCE|ABORT BELOW N] [GRAPPLE]|GRAPPLE TARGET] [FIRE TARGET] [REPAIR] | UNIT PASS | UNIT STACK UNIT... MOVE STEP... | " +
	"UNIT DISENGAGE STEP... | LEADER TO UNIT | LEADER ON UNIT [HIDDEN] | ACTIVATE GROUP | BOARD UNIT [UNIT] | " +
	"HOLD FIRE|REACT UNIT|GROUP | AIM UNIT|GROUP SINGLE|SQUADRON | LEADERS STAY|ASK | ENGAGED STAY|ASK | CAPTAIN GROUP ON UNIT | " +
	"EVADE UNIT|GROUP BOW|STERN [N|S] | LET BURN|EXTINGUISH UNIT|GROUP | RETURN UNIT AT HEX [FACING DIR]"

func parseLine(n int, f []string) (adjudicator.Order, error) {
	if o, err := parseStanding(n, f); o != nil || err != nil {
		return o, err
	}
	if f[0] == "BOARD" {
		if len(f) < 2 || len(f) > 3 {
			return nil, fmt.Errorf("want BOARD UNIT [UNIT]")
		}
		return &boardOrder{n, f[1:]}, nil
	}
	if f[0] == "ACTIVATE" {
		if len(f) != 2 {
			return nil, fmt.Errorf("want ACTIVATE GROUP")
		}
		return &activateOrder{n, f[1]}, nil
	}
	if len(f) >= 2 && (f[1] == "ON" || f[1] == "HIDDEN") {
		return parseSetUp(n, f)
	}
	if len(f) >= 2 && f[1] == "TO" {
		if len(f) != 3 {
			return nil, fmt.Errorf("want LEADER TO UNIT")
		}
		return &leaderOrder{n, f[0], f[2]}, nil
	}
	if len(f) < 2 {
		return nil, fmt.Errorf("a unit needs an order: MOVE, FIRE, REPAIR or PASS")
	}
	return parseUnitOrder(n, f)
}

func parseUnitOrder(n int, f []string) (*unitOrder, error) {
	o := &unitOrder{line: n, unit: f[0]}
	if len(f) == 2 && f[1] == "PASS" {
		o.pass = true
		return o, nil
	}
	if f[1] == "DISENGAGE" {
		o.disengage = true
		i, err := o.parseMove(f, 2)
		if err == nil && i < len(f) {
			err = fmt.Errorf("DISENGAGE takes only the hexes and turns of the way out")
		}
		return o, err
	}
	i, segment := 1, 0 // segments in order: MOVE (0), RAM or GRAPPLE (1), FIRE (2), REPAIR (3)
	if f[1] == "STACK" {
		for i = 2; i < len(f) && f[i] != "MOVE"; i++ {
			o.stack = append(o.stack, f[i])
		}
		if len(o.stack) == 0 || i == len(f) {
			return nil, fmt.Errorf("want UNIT STACK UNITS MOVE STEPS")
		}
	}
	for i < len(f) {
		var err error
		switch {
		case f[i] == "MOVE" && segment == 0 && o.move == nil:
			i, err = o.parseMove(f, i+1)
			segment = 1
		case f[i] == "RAM" && segment <= 1 && i+1 < len(f):
			o.ram, segment = f[i+1], 3
			i, err = o.parseRamOptions(f, i+2)
		case f[i] == "GRAPPLE" && segment <= 1 && i+1 < len(f):
			o.grapple, i, segment = f[i+1], i+2, 3
		case f[i] == "FIRE" && segment <= 2 && i+1 < len(f):
			o.fire, i, segment = append(o.fire, f[i+1]), i+2, 2
		case f[i] == "REPAIR" && segment <= 3 && !o.repair:
			o.repair, i, segment = true, i+1, 4
		default:
			return nil, fmt.Errorf("%q: want MOVE, then RAM TARGET [ONCE|ABORT BELOW N] [GRAPPLE] or GRAPPLE TARGET or FIRE TARGET, then REPAIR, in that order", f[i])
		}
		if err != nil {
			return nil, err
		}
	}
	return o, nil
}

func (o *unitOrder) parseRamOptions(f []string, i int) (int, error) {
	if i < len(f) && f[i] == "ONCE" {
		o.ramOnce, i = true, i+1
	} else if i < len(f) && f[i] == "ABORT" {
		n := 0
		if i+2 < len(f) && f[i+1] == "BELOW" {
			n, _ = strconv.Atoi(f[i+2])
		}
		if n < 2 || n > 6 {
			return i, fmt.Errorf("want RAM TARGET ABORT BELOW N, N from 2 to 6: the speed after the first roll, less 1 for the target's bow or stern maneuver, below which the rammer aborts (6.2)")
		}
		o.ramBelow, i = n, i+3
	}
	if i < len(f) && f[i] == "GRAPPLE" {
		o.ramGrab, i = true, i+1
	}
	return i, nil
}

func (o *unitOrder) parseMove(f []string, i int) (int, error) {
	o.move = []pathStep{}
	for ; i < len(f) && !slices.Contains([]string{"FIRE", "REPAIR", "RAM", "GRAPPLE"}, f[i]); i++ {
		switch f[i] {
		case "TO":
			return o.parseDest(f, i+1)
		case "SAIL":
			o.move = append(o.move, pathStep{kind: stepSail})
		case "ROW":
			o.move = append(o.move, pathStep{kind: stepRow})
		case "L":
			o.move = append(o.move, pathStep{kind: stepLeft})
		case "R":
			o.move = append(o.move, pathStep{kind: stepRight})
		case "DROP":
			if i+1 >= len(f) || !slices.Contains(o.stack, f[i+1]) {
				return i, fmt.Errorf("DROP names a unit of the STACK")
			}
			o.move = append(o.move, pathStep{kind: stepDrop, unit: f[i+1]})
			i++
		case "FACE", "PIVOT":
			if i+1 >= len(f) {
				return i, fmt.Errorf("%s needs a direction", f[i])
			}
			d, err := ParseDir(f[i+1])
			if err != nil {
				return i, err
			}
			k := map[string]stepKind{"FACE": stepFace, "PIVOT": stepPivot}[f[i]]
			o.move = append(o.move, pathStep{kind: k, dir: d})
			i++
		default:
			h, err := ParseHex(f[i])
			if err != nil {
				return i, fmt.Errorf("%q is not a hex, L, R, FACE or PIVOT", f[i])
			}
			o.move = append(o.move, pathStep{kind: stepHex, hex: h})
		}
	}
	if len(o.move) == 0 {
		return i, fmt.Errorf("MOVE needs at least one step")
	}
	return i, nil
}

// parseDest reads the rest of MOVE [SAIL|ROW] TO HEX [FACING DIR]: only a mode change may
// come before TO, nothing but FACING after the hex.
func (o *unitOrder) parseDest(f []string, i int) (int, error) {
	bad := fmt.Errorf("want MOVE [SAIL|ROW] TO HEX [FACING DIR]")
	for _, s := range o.move {
		if s.kind != stepSail && s.kind != stepRow {
			return i, bad
		}
	}
	if o.disengage || len(o.stack) > 0 || i >= len(f) {
		return i, fmt.Errorf("MOVE TO is for a unit moving alone: %w", bad)
	}
	h, err := ParseHex(f[i])
	if err != nil {
		return i, fmt.Errorf("%w: %v", bad, err)
	}
	o.dest, i = &h, i+1
	if i+1 < len(f) && f[i] == "FACING" {
		d, err := ParseDir(f[i+1])
		if err != nil {
			return i, fmt.Errorf("%w: %v", bad, err)
		}
		o.destFace, i = &d, i+2
	}
	return i, nil
}

// fireOnly reports whether the order is a Battle Segment alone: FIRE and nothing else.
func (o *unitOrder) fireOnly() bool {
	return len(o.fire) > 0 && len(o.move) == 0 && len(o.stack) == 0 && o.ram == "" && o.grapple == "" && !o.repair && !o.pass && !o.disengage
}

// expand turns a stack's move (3.2.1) into the moves of its units, the stack's own unit first:
// each follows the path up to the point where it is dropped off. Moving the units of a
// stack one after the other along one path leaves the same position as moving them
// together, since stacking limits are checked before and after a move, not on the way. The
// stack's own unit keeps its ram, grapple, fire and repair orders.
func (o *unitOrder) expand() []*unitOrder {
	if len(o.stack) == 0 {
		return []*unitOrder{o}
	}
	lead := *o
	lead.stack, lead.move = nil, nil
	for _, s := range o.move {
		if s.kind != stepDrop {
			lead.move = append(lead.move, s)
		}
	}
	out := []*unitOrder{&lead}
	for _, m := range o.stack {
		member := &unitOrder{line: o.line, unit: m}
		for _, s := range o.move {
			if s.kind == stepDrop && s.unit == m {
				break
			}
			if s.kind != stepDrop {
				member.move = append(member.move, s)
			}
		}
		if len(member.move) == 0 {
			member.pass = true
		}
		out = append(out, member)
	}
	return out
}
