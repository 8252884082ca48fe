package oinavarcoi

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"navarch/adjudicator"
	"navarch/adjudicator/table"
)

// Step kinds of a squadron's move (rules Formations.*, Turning.wheel).
const (
	stMove  = "MOVE"  // straight ahead; Dist 0 means the whole allowance left
	stBack  = "BACK"  // back water (epi mias, 2")
	stWheel = "WHEEL" // pivot on the inner front corner
	stTurn  = "TURN"  // epi keras: in succession; epi pollon: 90 all together; epi mias: change of front
	stAbout = "ABOUT" // about face
)

// mstep is one step of a squadron's move.
type mstep struct {
	Kind string
	Deg  table.Deg // signed: positive to the right (starboard)
	Dist table.Len
}

func (s mstep) String() string {
	switch s.Kind {
	case stWheel, stTurn:
		d := "R"
		if s.Deg < 0 {
			d = "L"
		}
		return fmt.Sprintf("%s %s %d", s.Kind, d, max(s.Deg, -s.Deg))
	case stAbout:
		return stAbout
	case stMove:
		if s.Dist == 0 {
			return stMove
		}
	}
	return s.Kind + " " + table.FormatInches(s.Dist)
}

// Order is one understood line.
type Order struct {
	line int
	// one of:
	Sq      string // a squadron's order
	Signal  string // SIGNAL KIND WING W
	Choice  string // FIRST or SECOND (the initiative winner, rule Initiative)
	Deploy  bool   // DEPLOY SQ ...
	Phalanx string // PHALANX ID ORDER (rule Phalanx.orders)
	PhOrder string
	// Standing is a standing order, OMEN, NAVARCH or SHARE, naming the squadrons the side
	// prefers, in order, when the event table gives it good omens or kills a navarch, or when
	// two of them share a loss (rules Event.omens, Event.navarch, Melee.two); or INITIATIVE,
	// Prefer holding FIRST or SECOND (rule Initiative). Prefer empty is KIND DEFAULT.
	Standing string
	Prefer   []string
	// squadron order
	Steps     []mstep
	Formation string // change to this formation (costs the whole move)
	Reform    string // REFORM FORMATION (an unformed squadron spends the turn stationary)
	Hold      bool
	Attack    string // DIEKPLOUS or PERIPLOUS
	Target    string
	Sail      string // freighters: DOWNWIND, LEFT, RIGHT
	// If makes the order conditional on the move the average die gives (epi mias, unformed:
	// rule Formations.mias): the order is carried out if the squadron may move If or more
	// this turn, else Else (HOLD when the line has no ELSE).
	If   table.Len
	Else *Order
	// SIGNAL
	Wing string
	// DEPLOY
	At        table.Point
	Facing    table.Deg // -1: the default
	Strategos bool
}

// Line returns the order's line in the text.
func (o *Order) Line() int { return o.line }

func (o *Order) String() string {
	switch {
	case o.Standing != "" && len(o.Prefer) == 0:
		return o.Standing + " DEFAULT"
	case o.Standing != "":
		return o.Standing + " " + strings.Join(o.Prefer, " ")
	case o.Choice != "":
		return "MOVE " + o.Choice
	case o.Phalanx != "":
		return "PHALANX " + o.Phalanx + " " + o.PhOrder
	case o.Signal != "":
		return fmt.Sprintf("SIGNAL %s WING %s", o.Signal, o.Wing)
	case o.Deploy:
		s := fmt.Sprintf("DEPLOY %s AT %s", o.Sq, o.At)
		if o.Facing >= 0 {
			s += fmt.Sprintf(" FACING %d", o.Facing)
		}
		if o.Formation != "" {
			s += " " + o.Formation
		}
		if o.Wing != "" {
			s += " WING " + o.Wing
		}
		if o.Strategos {
			s += " STRATEGOS"
		}
		return s
	}
	if o.If > 0 {
		then := *o
		then.If, then.Else = 0, nil
		return fmt.Sprintf("%s IF %s+ %s ELSE %s", o.Sq, table.FormatInches(o.If), strings.TrimPrefix(then.String(), o.Sq+" "),
			strings.TrimPrefix(o.Else.String(), o.Sq+" "))
	}
	parts := []string{o.Sq}
	switch {
	case o.Hold:
		parts = append(parts, "HOLD")
	case o.Reform != "":
		parts = append(parts, "REFORM", o.Reform)
	case o.Formation != "":
		parts = append(parts, o.Formation)
	case o.Sail != "":
		parts = append(parts, "SAIL", o.Sail)
	}
	for _, s := range o.Steps {
		parts = append(parts, s.String())
	}
	if o.Attack != "" {
		parts = append(parts, o.Attack, o.Target)
	}
	return strings.Join(parts, " ")
}

// Signal kinds (rule Signals.kinds).
var SignalKinds = []string{"TURN-RIGHT", "TURN-LEFT", "DEPLOY-RIGHT", "DEPLOY-LEFT", "ENGAGE"}

// Wings a fleet is grouped into (rule Deployment.zone).
var Wings = []string{"LEFT", "CENTRE", "RIGHT"}

// ParseOrders reads order text: one order per line, read by adjudicator.ReadLines (words
// case-insensitive, "#" comments, an END line of its own stops; docs/ORDERS.md). The grammar is the rulebook's words:
//
//	SQ MOVE [D] | SQ WHEEL L|R DEG [MOVE [D]] | SQ MOVE D TURN L|R DEG MOVE D ... | SQ TURN L|R 90 | SQ BACK 2 | SQ ABOUT
//	SQ EPI-MIAS|EPI-POLLON|EPI-KERAS|KYKLOS | SQ REFORM FORMATION | SQ HOLD
//	SQ [steps] DIEKPLOUS|PERIPLOUS ENEMY | FR SAIL DOWNWIND|LEFT|RIGHT
//	SQ IF D+ ORDER [ELSE ORDER]   (epi mias, unformed: by the move the average die gives)
//	SIGNAL KIND WING W | MOVE FIRST|SECOND
//	DEPLOY SQ AT X,Y [FACING DEG] [FORMATION] [WING W] [STRATEGOS]
//	OMEN SQ [SQ...] | OMEN DEFAULT | NAVARCH SQ [SQ...] | NAVARCH DEFAULT   (standing orders)
//	SHARE SQ [SQ...] | SHARE DEFAULT | INITIATIVE FIRST|SECOND|DEFAULT     (standing orders)
func ParseOrders(text string) ([]adjudicator.Order, []adjudicator.LineError) {
	return adjudicator.ParseLines(text, []string{grammar}, func(l adjudicator.Line) (adjudicator.Order, error) {
		return parseLine(l.N, l.Words)
	})
}

// The order forms by step, as an answer to a line not understood shows them.
const (
	formsMove     = "SQ MOVE [D] | SQ WHEEL L|R DEG MOVE [D] | SQ MOVE D TURN L|R DEG MOVE D | SQ TURN L|R 90 | SQ BACK 2 | SQ ABOUT | SQ EPI-MIAS | SQ REFORM EPI-MIAS | SQ HOLD | SQ DIEKPLOUS ENEMY | SQ PERIPLOUS ENEMY | SQ IF 4+ PERIPLOUS ENEMY ELSE HOLD | FR SAIL DOWNWIND | SIGNAL TURN-RIGHT WING LEFT"
	formDeploy    = "DEPLOY SQ AT 30,12 FACING 0 EPI-MIAS WING LEFT"
	formsDeploy   = formDeploy + " | SIGNAL TURN-RIGHT WING LEFT"
	formsChoice   = "MOVE FIRST | MOVE SECOND"
	formsPhalanx  = "PHALANX ID MOVE|REDRESS|DEPLOY"
	formsStanding = "OMEN SQ1 SQ2 | NAVARCH SQ3 | SHARE SQ2 SQ1 | INITIATIVE FIRST|SECOND | OMEN DEFAULT"
)

// forms is what side may write now (the step's forms and the standing orders), then, unless
// its movement is due now, the movement forms it may send ahead.
func (g *Game) forms(side string) string {
	st := g.Next()
	due := st.Kind == adjudicator.NeedOrders && slices.Contains(st.Sides, side)
	moving := due && g.Deployed && (g.Phase == phaseMove1 || g.Phase == phaseMove2)
	var now []string
	switch {
	case !due:
	case !g.Deployed:
		now = append(now, formsDeploy)
	case g.Phase == phaseChoose:
		if side == g.Winner {
			now = append(now, formsChoice)
		}
		if len(g.Phalanxes) > 0 {
			now = append(now, formsPhalanx)
		}
	case moving:
		now = append(now, formsMove)
	}
	text := "later, for your movement: " + formsMove + " | " + formsStanding
	if len(now) > 0 {
		text = "now: " + strings.Join(append(now, formsStanding), " | ")
		if !moving {
			text += "; later, for your movement: " + formsMove
		}
	}
	return text
}

// grammar is every form of the game, for ParseOrders alone (Game.Parse answers with forms).
const grammar = formsMove + " | MOVE FIRST | " + formDeploy + " | " + formsPhalanx + " | " + formsStanding

func validID(s string) bool {
	if s == "" || len(s) > 24 {
		return false
	}
	for _, c := range s {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

var keywords = []string{"PHALANX", "SIGNAL", "DEPLOY", "MOVE", "END", "WING", "AT", "FACING", "HOLD", "REFORM", "SAIL",
	"WHEEL", "TURN", "BACK", "ABOUT", "DIEKPLOUS", "PERIPLOUS", "STRATEGOS", "FIRST", "SECOND", "OMEN", "NAVARCH", "SHARE", "INITIATIVE", "DEFAULT", "IF", "ELSE"}

func parseLine(n int, f []string) (*Order, error) {
	switch f[0] {
	case "SIGNAL":
		if len(f) != 4 || !slices.Contains(SignalKinds, f[1]) || f[2] != "WING" || !slices.Contains(Wings, f[3]) {
			return nil, fmt.Errorf("want SIGNAL %s WING %s", strings.Join(SignalKinds, "|"), strings.Join(Wings, "|"))
		}
		return &Order{line: n, Signal: f[1], Wing: f[3]}, nil
	case "MOVE":
		if len(f) != 2 || (f[1] != "FIRST" && f[1] != "SECOND") {
			return nil, fmt.Errorf("want MOVE FIRST or MOVE SECOND (the initiative winner's choice)")
		}
		return &Order{line: n, Choice: f[1]}, nil
	case "DEPLOY":
		return parseDeploy(n, f)
	case "OMEN", "NAVARCH", "SHARE":
		return parseStanding(n, f)
	case "INITIATIVE":
		switch {
		case len(f) == 2 && f[1] == "DEFAULT":
			return &Order{line: n, Standing: f[0]}, nil
		case len(f) == 2 && (f[1] == "FIRST" || f[1] == "SECOND"):
			return &Order{line: n, Standing: f[0], Prefer: []string{f[1]}}, nil
		}
		return nil, fmt.Errorf("want INITIATIVE FIRST, INITIATIVE SECOND or INITIATIVE DEFAULT (asked each time)")
	case "PHALANX":
		if len(f) != 3 || !validID(f[1]) || !slices.Contains([]string{PhMove, PhRedress, PhDeploy}, f[2]) {
			return nil, fmt.Errorf("want PHALANX ID MOVE|REDRESS|DEPLOY")
		}
		return &Order{line: n, Phalanx: f[1], PhOrder: f[2]}, nil
	}
	if !validID(f[0]) || slices.Contains(keywords, f[0]) {
		return nil, fmt.Errorf("%q is not a squadron", f[0])
	}
	if len(f) > 1 && f[1] == "IF" {
		return parseIf(n, f)
	}
	o := &Order{line: n, Sq: f[0]}
	rest := f[1:]
	if len(rest) == 0 {
		return nil, fmt.Errorf("%s does what? (MOVE, WHEEL, HOLD ...)", o.Sq)
	}
	switch {
	case rest[0] == "HOLD" && len(rest) == 1:
		o.Hold = true
		return o, nil
	case rest[0] == "REFORM" && len(rest) == 2 && slices.Contains(Formations, rest[1]):
		o.Reform = rest[1]
		return o, nil
	case slices.Contains(Formations, rest[0]):
		o.Formation = rest[0]
		return o, parseSteps(o, rest[1:])
	case rest[0] == "SAIL" && len(rest) == 2 && slices.Contains([]string{"DOWNWIND", "LEFT", "RIGHT"}, rest[1]):
		o.Sail = rest[1]
		return o, nil
	}
	return o, parseSteps(o, rest)
}

// parseIf reads SQ IF D+ ORDER [ELSE ORDER]: the first order if the squadron may move D
// inches or more this turn (its average die rolled), else the second (HOLD if none).
func parseIf(n int, f []string) (*Order, error) {
	want := fmt.Errorf("want %s IF D+ ORDER [ELSE ORDER], e.g. %s IF 4+ MOVE ELSE HOLD", f[0], f[0])
	if len(f) < 4 {
		return nil, want
	}
	d, err := table.ParseInches(strings.TrimSuffix(f[2], "+"))
	if err != nil || d <= 0 || d > 100*table.Inch {
		return nil, fmt.Errorf("%q is not a distance in inches: %w", f[2], want)
	}
	then, els := f[3:], []string{"HOLD"}
	if k := slices.Index(then, "ELSE"); k >= 0 {
		then, els = then[:k], then[k+1:]
	}
	if len(then) == 0 || len(els) == 0 || slices.Contains(then, "IF") || slices.Contains(els, "IF") || slices.Contains(els, "ELSE") {
		return nil, want
	}
	o, err := parseLine(n, append([]string{f[0]}, then...))
	if err != nil {
		return nil, err
	}
	e, err := parseLine(n, append([]string{f[0]}, els...))
	if err != nil {
		return nil, err
	}
	o.If, o.Else = d, e
	return o, nil
}

func parseSteps(o *Order, rest []string) error {
	for len(rest) > 0 {
		w := rest[0]
		switch w {
		case stMove, stBack:
			s := mstep{Kind: w}
			rest = rest[1:]
			if len(rest) > 0 && (rest[0][0] >= '0' && rest[0][0] <= '9' || rest[0][0] == '.') {
				d, err := table.ParseInches(rest[0])
				if err != nil || d == 0 || d > 100*table.Inch {
					return fmt.Errorf("%q is not a distance in inches", rest[0])
				}
				s.Dist, rest = d, rest[1:]
			} else if w == stBack {
				return fmt.Errorf("BACK needs a distance: BACK 2")
			}
			o.Steps = append(o.Steps, s)
		case stWheel, stTurn:
			if len(rest) < 3 || (rest[1] != "L" && rest[1] != "R") {
				return fmt.Errorf("want %s L|R DEGREES", w)
			}
			d, err := strconv.Atoi(rest[2])
			if err != nil || d < 1 || d > 180 {
				return fmt.Errorf("%q is not a number of degrees 1..180", rest[2])
			}
			if rest[1] == "L" {
				d = -d
			}
			o.Steps = append(o.Steps, mstep{Kind: w, Deg: d})
			rest = rest[3:]
		case stAbout:
			o.Steps = append(o.Steps, mstep{Kind: stAbout})
			rest = rest[1:]
		case "DIEKPLOUS", "PERIPLOUS":
			if len(rest) != 2 || !validID(rest[1]) {
				return fmt.Errorf("want %s ENEMY-SQUADRON at the end of the line", w)
			}
			o.Attack, o.Target = w, rest[1]
			rest = nil
		default:
			return fmt.Errorf("%q is not a step (MOVE, WHEEL, TURN, BACK, ABOUT, DIEKPLOUS, PERIPLOUS)", w)
		}
	}
	return nil
}

func parseDeploy(n int, f []string) (*Order, error) {
	if len(f) < 4 || !validID(f[1]) || slices.Contains(keywords, f[1]) || f[2] != "AT" {
		return nil, fmt.Errorf("want DEPLOY SQ AT X,Y [FACING DEG] [FORMATION] [WING W] [STRATEGOS]")
	}
	o := &Order{line: n, Sq: f[1], Deploy: true, Facing: -1}
	xs, ys, ok := strings.Cut(f[3], ",")
	x, err1 := table.ParseInches(xs)
	y, err2 := table.ParseInches(ys)
	if !ok || err1 != nil || err2 != nil {
		return nil, fmt.Errorf("%q is not a position X,Y in inches (30,12)", f[3])
	}
	o.At = table.Point{X: x, Y: y}
	rest := f[4:]
	for len(rest) > 0 {
		switch {
		case rest[0] == "FACING" && len(rest) > 1 && o.Facing < 0:
			d, err := strconv.Atoi(rest[1])
			if err != nil || d < 0 || d > 359 {
				return nil, fmt.Errorf("%q is not a heading 0..359", rest[1])
			}
			o.Facing, rest = d, rest[2:]
		case slices.Contains(Formations, rest[0]) && o.Formation == "":
			o.Formation, rest = rest[0], rest[1:]
		case rest[0] == "WING" && len(rest) > 1 && slices.Contains(Wings, rest[1]) && o.Wing == "":
			o.Wing, rest = rest[1], rest[2:]
		case rest[0] == "STRATEGOS" && !o.Strategos:
			o.Strategos, rest = true, rest[1:]
		default:
			return nil, fmt.Errorf("%q: want FACING DEG, a formation, WING %s or STRATEGOS", rest[0], strings.Join(Wings, "|"))
		}
	}
	return o, nil
}

// maxPrefer bounds a standing order's list: more names than a fleet has squadrons.
const maxPrefer = 12

// parseStanding reads OMEN|NAVARCH SQ [SQ...] or OMEN|NAVARCH DEFAULT.
func parseStanding(n int, f []string) (*Order, error) {
	want := fmt.Errorf("want %s SQ [SQ...] (your squadrons, preferred first) or %s DEFAULT", f[0], f[0])
	o := &Order{line: n, Standing: f[0]}
	switch {
	case len(f) == 2 && f[1] == "DEFAULT":
		return o, nil
	case len(f) < 2 || len(f) > 1+maxPrefer:
		return nil, want
	}
	for _, id := range f[1:] {
		if !validID(id) || slices.Contains(keywords, id) {
			return nil, fmt.Errorf("%q is not a squadron: %w", id, want)
		}
		if slices.Contains(o.Prefer, id) {
			return nil, fmt.Errorf("%s is named twice", id)
		}
		o.Prefer = append(o.Prefer, id)
	}
	return o, nil
}
