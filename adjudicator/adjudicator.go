package adjudicator

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"

	"navarch/dice"
	"navarch/ident"
)

// Ruleset is one rule system.
type Ruleset interface {
	// ID is the ruleset id of the genesis record, e.g. "lepanto1571".
	ID() string
	// Title is the rulebook's name.
	Title() string
	// Version is the version of the ruleset's engine, written into every game's genesis
	// record (its engine field). A change that makes the engine resolve the same orders and
	// dice differently is a new version; replay refuses a log made by another version
	// rather than re-adjudicate it differently (play.Replay).
	Version() string
	// Scenarios lists the scenarios in the rulebook's order.
	Scenarios() []Scenario
	// Options lists the optional rules a game may switch on.
	Options() []Option
	// New sets up a game. Tables holds corrected table files loaded by the referee, by
	// table name; nil uses the ruleset's own (substitute) tables.
	New(cfg Config) (Game, error)
}

// Scenario describes one scenario of a ruleset.
type Scenario struct {
	ID, Title, Rule string // Rule: the rulebook section, e.g. "13.1"
	Sides           []string
	MaxTurns        int
}

// Option is an optional rule.
type Option struct{ ID, Title, Rule string }

// Config chooses what New sets up.
type Config struct {
	Scenario string
	Options  []string
	Tables   map[string][]byte
}

// StepKind says what a step needs.
type StepKind int

const (
	// Auto steps resolve at once with no orders (a draw, an end-of-turn phase).
	Auto StepKind = iota
	// NeedOrders steps wait for orders from Step.Sides.
	NeedOrders
	// Over means the game has ended.
	Over
)

// Step is what the game needs next.
type Step struct {
	Turn, Act uint32
	Kind      StepKind
	Sides     []string // who must send orders (NeedOrders), in a fixed order
	What      string   // for people: "draw", "HL-VENICE-1 activated", "leader move"
	// Secret steps take orders that stay in the ordering side's view (hidden set-up).
	Secret bool
	// Default says what happens to a side that sends no orders (the no-orders policy).
	Default string
	// Standing lists the sides whose pending standing orders the step applies (games with
	// StandingOrders): the rules' steps where those choices count, such as the enemy's
	// activation for a reaction fire held back. A standing order sent at any time is
	// applied with the next step that lists its side (docs/LOG-FORMAT.md 3). Each entry is
	// a side (every kind of its standing orders) or "side/kind" (only those of that kind,
	// StandingOrders.StandingKind: a step that must not apply the others, a draw that reads
	// a choice before the enemy activation a HOLD FIRE is meant for); a log before
	// navarch/v5 records only the plain sides, and such a step there applies none of them.
	Standing []string
}

// Order is one understood order: the line it came from and its canonical text.
type Order interface {
	Line() int
	String() string
}

// Event is one thing that happened, for the report and the log.
type Event struct {
	Rule string // the rulebook section applied
	Side string // if set, only that side may see it
	Text string
	// Rolls are the labels of the step's rolls behind the event: those made since the
	// step's previous event (RollNotes), in the order they were made. A roll after the
	// step's last event is behind none.
	Rolls []string
	// Kind says what the event is to a player (kinds.go); a report's subject names the
	// event of the heaviest kind.
	Kind Kind
}

// Game is one game's state and rules. Implementations are deterministic: the same state,
// orders and dice give the same result, byte for byte.
type Game interface {
	// Next says what the game needs now.
	Next() Step
	// Parse reads a side's order text (one order per line) for the current step.
	Parse(side, text string) ([]Order, []LineError)
	// Validate checks parsed orders against the state for the current step.
	Validate(side string, orders []Order) []LineError
	// Resolve performs the current step. orders has an entry per side that sent orders; a
	// side of Step.Sides without one gets the game's no-orders default.
	Resolve(orders map[string][]Order, r dice.Roller) ([]Event, error)
	// Encode returns the canonical bytes of the state: the whole state, for the host keeps
	// a game's engine between mails only while the hash of Encode equals the log's last
	// state record (state the encoding left out could differ from a replay unnoticed).
	Encode() []byte
	// Help describes the order language for a side, with examples for its own units.
	Help(side string) string
}

// Sealer is implemented by games whose state can hold hidden information. While Sealed, the
// state's hash is kept out of the players' views of the log: with the public part of the
// state known, a hash could be matched against every guess of the hidden part.
type Sealer interface {
	Sealed() bool
}

// Summarizer is implemented by games that give a side a few lines on the state of play
// (positions, tracks, the score as it stands), which the host puts in the side's report.
type Summarizer interface {
	Summary(side string) Summary
}

// Summary is a side's summary of the state of play in sections, in the order the mails show
// them, each under its heading.
type Summary []Section

// Section is one part of a Summary: a heading the mails show above its lines ("Positions",
// "Victory points (10.1)") and the lines, plain text.
type Section struct {
	Heading string
	Lines   []string
}

// Lines returns every section's lines in order, without the headings (to search them).
func (s Summary) Lines() []string {
	var out []string
	for _, sec := range s {
		out = append(out, sec.Lines...)
	}
	return out
}

// Checker is implemented by games that can say, without dice, what orders would do before
// they count (CHECK by mail): where each unit would end and what it would then have in reach.
// Check must not change the game; orders have passed Parse and Validate.
type Checker interface {
	Check(side string, orders []Order) []string
}

// Bot is implemented by games that can play a side by script: BotOrders is the order text a
// simple player of side would send now ("" for none). navarch demo plays only rulesets whose
// games have a bot.
type Bot interface {
	BotOrders(side string) string
}

// StateHash returns H(Encode()), the hash a state record carries.
func StateHash(g Game) ident.Hash { return sha256.Sum256(g.Encode()) }

// Errors of orders. Both are the player's mistake and are answered by mail.
var (
	ErrNotUnderstood = errors.New("not understood")
	ErrIllegal       = errors.New("not allowed")
)

// LineError is a mistake in one line of a player's orders.
type LineError struct {
	Line  int    // 1-based line of the order text
	Text  string // the line as written
	Err   error  // wraps ErrNotUnderstood or ErrIllegal
	Legal []string
}

func (e LineError) Error() string {
	s := fmt.Sprintf("line %d: %q: %v", e.Line, e.Text, e.Err)
	if len(e.Legal) > 0 {
		s += "; legal: " + strings.Join(e.Legal, ", ")
	}
	return s
}

// Canonical returns the canonical order text of orders: one String() per line.
func Canonical(orders []Order) string {
	var b strings.Builder
	for _, o := range orders {
		b.WriteString(o.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// AdvanceOrders is implemented by games whose players may send orders for steps still to come
// (docs/DESIGN.md 3.4): the orders are held and, when a step comes, the ones that belong to it are
// used if they are still legal; otherwise the player is asked.
type AdvanceOrders interface {
	// Applicable returns the held orders of side that belong to the current step.
	Applicable(side string, held []Order) []Order
	// Later returns the orders of side that belong to steps still to come (orders for the
	// side's own units that are not due now); orders for no unit of the side are neither.
	Later(side string, orders []Order) []Order
}

// StandingOrders is implemented by games whose order language has standing orders: choices a
// side makes once for the steps to come (a reaction fire it holds back, the squadron an event
// favours, a ship's wish to grapple) rather than for the step its orders answer. They tell
// the opponent a side's intentions for later steps, so the host must be able to keep them
// apart from the step's own orders.
type StandingOrders interface {
	// Standing splits side's orders into its standing orders and the rest, each in the order
	// sent; every order is in exactly one of them. A line that carries both (a ship's move
	// with her standing GRAPPLE) is split into two orders, each of which Parse reads back
	// from its String to an equal order.
	Standing(side string, orders []Order) (standing, rest []Order)
	// ApplyStanding gives the game side's standing orders held since they were sent (orders
	// Standing returned, read back by Parse), for the step now due, which lists side in
	// Step.Standing; the next Resolve applies them before the step's own orders, in the
	// order given, and tells every side of them (they count now). How they accumulate with
	// those already in force is the ruleset's. One no longer applicable is passed over.
	ApplyStanding(side string, standing []Order)
	// ValidateStanding checks side's standing orders (orders Standing returned) against the
	// state whatever step is due: they may be sent at any time, and are held until a step
	// applies them.
	ValidateStanding(side string, standing []Order) []LineError
	// StandingKind is the kind of a standing order (one Standing returned): "" for the plain
	// kind, else a lower-case word. From log format navarch/v5 each kind of a mail's standing
	// orders is a record of its own, so that a step can apply one kind alone (a Step.Standing
	// entry "side/kind") and keep the others sealed (docs/LOG-FORMAT.md 3).
	StandingKind(o Order) string
}

// StandingToken is the Step.Standing entry for side's standing orders of kind ("" for
// every kind).
func StandingToken(side, kind string) string {
	if kind == "" {
		return side
	}
	return side + "/" + kind
}

// OrderFormer is implemented by games that give a side an order form for the step awaited:
// the request for orders carries it, so a player can play from the mail.
type OrderFormer interface {
	// OrderForm is side's form for the current step; an empty Form when nothing is due
	// from side.
	OrderForm(side string) Form
}

// Form is a side's order form for one step.
type Form struct {
	Units []FormUnit // the side's units that may act now, in the game's order
	// Default says what happens to the side's units if it sends no orders.
	Default string
	// Lines are pre-filled order lines, legal now as they stand: sent back unchanged they are
	// accepted. The player edits them into his orders.
	Lines []string
}

// FormUnit is one unit that may act and what it may legally do.
type FormUnit struct {
	ID        string
	Where     string // its position: a hex, or a point on the table
	Facing    string
	Allowance string   // its movement allowance, e.g. "4 MP"
	May       []string // what it may do now: "PASS", "MOVE to 0710 0711", "FIRE at SIR-ALI"
}

// Worder is implemented by games whose event and roll texts carry the rulebook's result codes:
// Words rewrites one report line's codes into words for players ("NE" becomes "no effect"). The log keeps the text as resolved; only what a player reads changes.
type Worder interface {
	Words(text string) string
}

// Teams is implemented by games whose sides may be shared by several players, each commanding
// part of the side's force (Lepanto's wings and groups, the medieval Divisions, Oi Navarcoi!'s
// wings). A game that implements it promises that Resolve accepts a side's orders covering only
// part of the units a step asks: a unit without orders gets the rules' no-orders default, as a
// whole side does that sends none (a team player who missed his deadline). Validate checks
// only the orders given, so one player's part passes alone: a set-up or deployment need not
// place every unit (the others keep the scenario's places). The players' parts put together
// are the side's orders; a ruleset whose engine carries a side's lines out in their order says
// so in its docs (Oi Navarcoi!'s movement: the parts in the order of the players' commands).
type Teams interface {
	// Commands lists what of side's force can be given to a player, in the game's order. Every
	// unit of the side is in at least one command; a command Within another holds a part of it.
	Commands(side string) []Command
	// Acting returns the units of side the current step asks orders for, in the game's order:
	// the players who command them are the ones asked. Nil when the step asks nothing of side.
	Acting(side string) []string
	// OrderUnits returns the units of side that order o gives orders to. An order for none (a
	// choice the whole side makes, such as Disengage) is the side's commander's to give. (Not
	// "Units": Lepanto's Game has a field of that name.)
	OrderUnits(side string, o Order) []string
	// Chooses reports whether the current step asks side for a choice of the whole side (an
	// order Units gives no units for: which group a fury chit activates again, the order of
	// the boardings, the initiative): the side's commander is asked too, besides the
	// commanders of the Acting units. Acting may be nil while Chooses is true.
	Chooses(side string) bool
}

// Command is one part of a side's force that a player can be given to command.
type Command struct {
	ID     string   // as players write it, unique within the side: "BAR", "VAN"
	Title  string   // for people: "Barbarigo's left wing"
	Within string   // the command it is part of ("" for none): a Lepanto group's wing
	Units  []string // the units it holds, in the game's order
}
