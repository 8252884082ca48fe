package medieval

import (
	"fmt"
	"strconv"
	"strings"

	"navarch/adjudicator"
	"navarch/adjudicator/table"
)

// Order is one ship's line: what it does in the current phase. The clauses of a Sail/Fight
// card (rule "Sequence"): a path in the rulebook's turn / half-move pattern (rule
// "Movement"), SHOOT (missiles), FIRE (a broadside), FIGHT (how a phasing ship splits its
// boarding dice); of a Command and Control card: RELOAD, PASS, DOUSE (fight the fire), CUT;
// on either, GRAPPLE or NOGRAPPLE sets the ship's standing wish to grapple an enemy she
// comes into contact with (rule "Grappling"), and AGAINST her standing choice of the phasing
// enemy she fights against when she is not phasing (rule "Boarding" iii).
type Order struct {
	line      int
	Ship      string
	Path      table.Path
	Shoot     string
	Fire      []FireOrder // at most one per broadside
	Fight     []string    // one or two enemies
	Reload    table.Arc   // table.Port or table.Starboard when Reloading
	Reloading bool
	Pass      []PassOrder
	Douse     bool
	Cut       []string // at most one: one attempt a phase (rule "Cutting Free")
	Hold      bool     // an explicit "do nothing"
	// Grapple sets the ship's standing wish: "GRAPPLE" or "NOGRAPPLE" ("" leaves it).
	Grapple string
	// Against sets the ship's standing choice of the phasing enemy she fights against when
	// she is not phasing (rule "Boarding" iii), "" leaves it.
	Against string
}

// wishOnly reports whether the line only sets standing orders (GRAPPLE, NOGRAPPLE, AGAINST):
// such a line orders nothing for the phase, so the card's no-orders defaults still apply.
func (o *Order) wishOnly() bool {
	return (o.Grapple != "" || o.Against != "") && !o.Hold && len(o.Path) == 0 && o.Shoot == "" && len(o.Fire) == 0 &&
		len(o.Fight) == 0 && !o.Reloading && len(o.Pass) == 0 && !o.Douse && len(o.Cut) == 0
}

// FireOrder fires one broadside at a target.
type FireOrder struct {
	Side   table.Arc
	Target string
}

// PassOrder passes one level of a crew component to another ship.
type PassOrder struct {
	Factor string // COMBAT or MISSILE
	To     string
}

// Line returns the order text's line the order came from.
func (o *Order) Line() int { return o.line }

func broadsideWord(a table.Arc) string {
	if a == table.Port {
		return "PORT"
	}
	return "STARBOARD"
}

// String returns the canonical order line; Parse reads it back to the same order.
func (o *Order) String() string {
	parts := []string{o.Ship}
	if len(o.Path) > 0 {
		parts = append(parts, o.Path.String())
	}
	if o.Shoot != "" {
		parts = append(parts, "SHOOT", o.Shoot)
	}
	for _, f := range o.Fire {
		parts = append(parts, "FIRE", broadsideWord(f.Side), f.Target)
	}
	if len(o.Fight) > 0 {
		parts = append(append(parts, "FIGHT"), o.Fight...)
	}
	if o.Reloading {
		parts = append(parts, "RELOAD", broadsideWord(o.Reload))
	}
	for _, p := range o.Pass {
		parts = append(parts, "PASS", p.Factor, "TO", p.To)
	}
	if o.Douse {
		parts = append(parts, "DOUSE")
	}
	for _, c := range o.Cut {
		parts = append(parts, "CUT", c)
	}
	if o.Grapple != "" {
		parts = append(parts, o.Grapple)
	}
	if o.Against != "" {
		parts = append(parts, "AGAINST", o.Against)
	}
	if len(parts) == 1 {
		parts = append(parts, "HOLD")
	}
	return strings.Join(parts, " ")
}

// ParseOrders reads order text: one ship per line, read by adjudicator.ReadLines (words in any
// case, "#" comments, blank lines skipped, an END line stops, lines of at most
// adjudicator.MaxLine characters; docs/ORDERS.md). It checks the words only; Validate checks
// them against the rules.
func ParseOrders(text string) ([]adjudicator.Order, []adjudicator.LineError) {
	return adjudicator.ParseLines(text, []string{orderSummary}, func(l adjudicator.Line) (adjudicator.Order, error) {
		o, err := parseLine(l.Words)
		if err != nil {
			return nil, err
		}
		o.line = l.N
		return o, nil
	})
}

const orderSummary = "SHIP [TURN P30|S30] [MOVE 1.5] … [SHOOT SHIP] [FIRE PORT|STARBOARD SHIP] [FIGHT SHIP [SHIP]] | SHIP RELOAD PORT|STARBOARD | SHIP PASS COMBAT|MISSILE TO SHIP | SHIP DOUSE | SHIP CUT SHIP | SHIP GRAPPLE|NOGRAPPLE | SHIP AGAINST SHIP | SHIP HOLD"

func validName(s string) bool {
	if s == "" || len(s) > 24 || keywords[s] {
		return false
	}
	for _, c := range s {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

var keywords = map[string]bool{"TURN": true, "MOVE": true, "SHOOT": true, "FIRE": true, "FIGHT": true, "RELOAD": true,
	"PASS": true, "DOUSE": true, "CUT": true, "HOLD": true, "GRAPPLE": true, "NOGRAPPLE": true, "AGAINST": true, "TO": true, "PORT": true, "STARBOARD": true}

// parseLine reads one line's words (upper case).
func parseLine(f []string) (*Order, error) {
	if !validName(f[0]) {
		return nil, fmt.Errorf("a line starts with a ship's name, not %q", f[0])
	}
	o := &Order{Ship: f[0]}
	rest := f[1:]
	if len(rest) == 0 {
		return nil, fmt.Errorf("what does %s do? (HOLD to do nothing)", o.Ship)
	}
	for len(rest) > 0 {
		n, err := o.clause(rest)
		if err != nil {
			return nil, err
		}
		rest = rest[n:]
	}
	if o.Hold && (len(o.Path) > 0 || o.Shoot != "" || len(o.Fire) > 0 || len(o.Fight) > 0 || o.Reloading || len(o.Pass) > 0 || o.Douse || len(o.Cut) > 0 || o.Grapple != "" || o.Against != "") {
		return nil, fmt.Errorf("HOLD stands alone")
	}
	return o, nil
}

func target(rest []string, i int, what string) (string, error) {
	if i >= len(rest) || !validName(rest[i]) {
		return "", fmt.Errorf("%s needs a ship's name", what)
	}
	return rest[i], nil
}

// clause reads one clause at the start of rest and returns how many words it used.
func (o *Order) clause(rest []string) (int, error) {
	switch rest[0] {
	case "TURN":
		if o.Shoot != "" || len(o.Fire) > 0 || len(o.Fight) > 0 {
			return 0, fmt.Errorf("the path comes before SHOOT, FIRE and FIGHT")
		}
		if len(rest) < 2 {
			return 0, fmt.Errorf("TURN needs P or S and degrees, e.g. TURN P30")
		}
		d, err := parseTurn(rest[1])
		o.Path = append(o.Path, table.Step{Turn: d})
		return 2, err
	case "MOVE":
		if o.Shoot != "" || len(o.Fire) > 0 || len(o.Fight) > 0 {
			return 0, fmt.Errorf("the path comes before SHOOT, FIRE and FIGHT")
		}
		if len(rest) < 2 {
			return 0, fmt.Errorf("MOVE needs inches, e.g. MOVE 1.5")
		}
		d, err := table.ParseInches(rest[1])
		if err != nil || d == 0 {
			return 0, fmt.Errorf("MOVE needs inches more than 0, e.g. MOVE 1.5, not %q", rest[1])
		}
		o.Path = append(o.Path, table.Step{Move: d})
		return 2, nil
	case "SHOOT":
		t, err := target(rest, 1, "SHOOT")
		if o.Shoot != "" {
			err = fmt.Errorf("one SHOOT a phase (rule Missile shooting)")
		}
		o.Shoot = t
		return 2, err
	case "FIRE":
		if len(rest) < 3 {
			return 0, fmt.Errorf("FIRE needs a broadside and a ship, e.g. FIRE PORT EAGLE")
		}
		side, err := parseSide(rest[1])
		if err != nil {
			return 0, err
		}
		t, err := target(rest, 2, "FIRE")
		for _, f := range o.Fire {
			if f.Side == side {
				err = fmt.Errorf("the %s broadside fires once", strings.ToLower(broadsideWord(side)))
			}
		}
		o.Fire = append(o.Fire, FireOrder{side, t})
		return 3, err
	case "FIGHT":
		n := 0
		for n < 2 && 1+n < len(rest) && validName(rest[1+n]) {
			o.Fight = append(o.Fight, rest[1+n])
			n++
		}
		if n == 0 || len(o.Fight) > 2 || (len(o.Fight) == 2 && o.Fight[0] == o.Fight[1]) {
			return 0, fmt.Errorf("FIGHT names one or two enemies in contact (rule Boarding)")
		}
		return 1 + n, nil
	case "RELOAD":
		if len(rest) < 2 || o.Reloading {
			return 0, fmt.Errorf("RELOAD needs one broadside: RELOAD PORT or RELOAD STARBOARD")
		}
		side, err := parseSide(rest[1])
		o.Reload, o.Reloading = side, true
		return 2, err
	case "PASS":
		if len(rest) < 4 || (rest[1] != "COMBAT" && rest[1] != "MISSILE") || rest[2] != "TO" {
			return 0, fmt.Errorf("PASS needs COMBAT or MISSILE TO a ship, e.g. PASS COMBAT TO LION")
		}
		t, err := target(rest, 3, "PASS")
		o.Pass = append(o.Pass, PassOrder{rest[1], t})
		return 4, err
	case "DOUSE":
		o.Douse = true
		return 1, nil
	case "CUT":
		t, err := target(rest, 1, "CUT")
		if len(o.Cut) > 0 {
			err = errOneCut
		}
		o.Cut = append(o.Cut, t)
		return 2, err
	case "HOLD":
		o.Hold = true
		return 1, nil
	case "GRAPPLE", "NOGRAPPLE":
		if o.Grapple != "" {
			return 0, fmt.Errorf("GRAPPLE or NOGRAPPLE once a line")
		}
		o.Grapple = rest[0]
		return 1, nil
	case "AGAINST":
		t, err := target(rest, 1, "AGAINST")
		if o.Against != "" {
			err = fmt.Errorf("AGAINST once a line")
		}
		o.Against = t
		return 2, err
	}
	return 0, fmt.Errorf("%q is not an order word (TURN MOVE SHOOT FIRE FIGHT RELOAD PASS DOUSE CUT GRAPPLE NOGRAPPLE AGAINST HOLD)", rest[0])
}

// errOneCut refuses a second CUT on a line: a boarded ship "may attempt to cut free in its
// command and control phase" (rule "Cutting Free"), one attempt, one roll, each phase.
var errOneCut = fmt.Errorf("one CUT a phase: a ship attempts to cut free once in her Command and Control phase (rule Cutting Free)")

// parseTurn reads P30 or S15: a turn to port (negative) or starboard.
func parseTurn(s string) (table.Deg, error) {
	if len(s) < 2 || (s[0] != 'P' && s[0] != 'S') {
		return 0, fmt.Errorf("a turn is P or S and degrees, e.g. P30, not %q", s)
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || n < 1 || n > 359 || s[1] == '+' || s[1] == '0' {
		return 0, fmt.Errorf("a turn is P or S and 1-30 degrees, e.g. P30, not %q", s)
	}
	if s[0] == 'P' {
		n = -n
	}
	return n, nil
}

func parseSide(s string) (table.Arc, error) {
	switch s {
	case "PORT", "P":
		return table.Port, nil
	case "STARBOARD", "S", "STBD":
		return table.Starboard, nil
	}
	return 0, fmt.Errorf("a broadside is PORT or STARBOARD, not %q", s)
}
