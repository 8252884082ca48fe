package templates

import "time"

// The Body of each kind of mail.

// Welcome is sent to each player when a game is created (docs/DESIGN.md 3.1, docs/DICE.md 1-2).
type Welcome struct {
	Key        string // the player's secret order key
	Commitment string // C, hex
	Verifier   string // the installation's verifier key, hex: pin it for navarch verify --key
	Checkpoint string // the signed genesis checkpoint block
	// Format is the game's log format (e.g. navarch/v2), which the verify command pins
	// (verify --format): a log of another format, an older one above all, then fails.
	Format    string
	Players   []PlayerLine
	Help      string // the ruleset's order language
	Deadlines string // the game's deadline policy, a sentence or two
	// ReplyTokens: the player's mails carry a tokenized reply address (no KEY line needed
	// in a reply).
	ReplyTokens bool
	// TakeOver, if set, welcomes a player who takes over a side in play (REPLACE): he
	// needs no JOIN, and is told where the game stands and what is due from him.
	TakeOver *TakeOver
}

// TakeOver is what a player who takes over a side in play is told: whose side it was, where
// the game stands (the mail's turn, activation and deadline) and what is due from him now.
type TakeOver struct {
	From     string    // the player id the side is played as, as commands and the log name it
	Joining  []string  // before play: the players who have yet to JOIN (play begins when all have)
	What     string    // the step the game waits for, "" if none
	Sides    []string  // the sides it waits for
	Received bool      // orders of his side for that step were received already: new ones replace them
	Request  *Request  // the request for his orders, if they are due now
	Summary  []Section // where the game stands, for his side
}

// RefereeWelcome is sent to each referee when a game is created: the referee's own key, how
// a referee's mail is authenticated, the referee's commands and the dice commitment.
type RefereeWelcome struct {
	Key         string // the referee's secret key
	Commitment  string
	Verifier    string
	Checkpoint  string
	Format      string // the game's log format, as in Welcome
	Players     []PlayerLine
	Deadlines   string
	ReplyTokens bool // the referee's mails carry a tokenized reply address
}

// PlayerLine is a player of the game.
type PlayerLine struct{ ID, Side string }

// Request asks a side for orders (docs/DESIGN.md 3.3).
type Request struct {
	What    string     // the step, e.g. "action phase of group BAR (Agostino Barbarigo)"
	Waiting []string   // the sides asked
	Units   []FormUnit // the recipient's units that may act, and what each may do
	Secret  bool       // hidden set-up: the orders stay in the side's own copy of the log
	Default string     // what happens if the side sends no orders
	Lines   string     // pre-filled order lines, legal as they stand, one per line
	// Map is the attached map's file name, for a request that no report carries (a report
	// carries its own map).
	Map string
}

// FormUnit is a unit that may act, as the order form shows it.
type FormUnit struct {
	ID, Where, Facing, Allowance string
	May                          []string // what it may legally do now
}

// Receipt echoes accepted orders (docs/DESIGN.md 4): the orders record's index and hash let the player
// prove later what was sent (navarch verify --orders).
type Receipt struct {
	Record uint64
	Hash   string // the orders hash in full, hex
	// Entropy is the player's own ENTROPY line as it goes into the dice (docs/DICE.md 3), "" if
	// none: the player can check that the orders record holds it and nothing else.
	Entropy string
	// MessageID is the Message-ID of the mail these orders were recorded from: verify --sent
	// ties the record to that mail in the player's own sent mail.
	MessageID string
	Orders    string // canonical orders, one per line
	Check     bool   // CHECK: validated only, not submitted
	// Preview is what the orders would do, for a CHECK where the ruleset can say so
	// (adjudicator.Checker): where each unit would end and what it would have in reach.
	Preview []string
	Paused  bool // the game is paused: the orders wait for it to resume
	// Held is the side's advance orders held for later steps after this mail, one per line
	// ("" for none): a receipt says everything held.
	Held string
	// Advance: the game takes advance orders, so a receipt says when none are held.
	Advance bool
	// Round, in a beacon game whose step these orders complete, says which beacon round its
	// dice wait for: the receipt's checkpoint proves the round was named before it came.
	Round string
	// Standing are the mail's standing orders, one per line ("" for none), recorded on their
	// own as StandingRecords (log format v4; "record #12", or in v5 one record a kind,
	// "records #12 and #13 (...)"): sealed for the player's side until the step that uses
	// them, whose report shows them to both sides.
	Standing        string
	StandingRecords string
	// Sender (log format v5, a team side's orders) is the record, sealed for the player's
	// side, that names him and his mail as the sender of Record, which names only his side
	// (docs/LOG-FORMAT.md 3); 0 for none.
	Sender uint64
}

// Errors lists what was wrong with an order mail, by line; nothing of it was applied.
type Errors struct {
	Lines []ErrorLine
}

// ErrorLine is one refused line.
type ErrorLine struct {
	Line   int
	Text   string
	Reason string
	Legal  string // what would be legal there, if known
}

// Report is the outcome of a step (docs/DESIGN.md 6): every event and roll in log order.
type Report struct {
	Lines   []ReportLine
	Next    string    // what happens next
	Summary []Section // the ruleset's summary for the recipient: positions, victory points
	Map     string    // the attached map's file name, if any
	// Used says which advance orders of the recipient's side were used since the last
	// report, each with its step and record.
	Used []string
	// Receipt, if set, leads the mail: the recipient's own orders, accepted, whose step
	// the report then tells (one mail for the moment they were resolved).
	Receipt *Receipt
	// TurnEnd and Request, if set, ride in the same mail after the report: the
	// turn's seed revealed, and the request for the recipient's next orders.
	TurnEnd *TurnEnd
	Request *Request
}

// ReportLine is an event or a roll with the log record it is in, and the step (game turn
// and activation, as the records number it) it was resolved in.
type ReportLine struct {
	Index     uint64
	Rule      string
	Text      string
	Roll      bool
	Turn, Act uint64
	// Kind is an event's kind as its record names it (log v4: adjudicator.Kind), "" for a
	// roll and for an event of a log before v4.
	Kind string
}

// ReportStep is a report's lines of one step, headed by its numbers ("what happened in turn
// 1, activation 3").
type ReportStep struct {
	Turn, Act uint64
	Lines     []ReportLine
}

// steps cuts a report's lines into runs of one step each, in their order: a report headed
// with the step its records were resolved in, not the step the game waits for next.
func steps(lines []ReportLine) []ReportStep {
	var out []ReportStep
	for _, l := range lines {
		if n := len(out); n == 0 || out[n-1].Turn != l.Turn || out[n-1].Act != l.Act {
			out = append(out, ReportStep{Turn: l.Turn, Act: l.Act})
		}
		out[len(out)-1].Lines = append(out[len(out)-1].Lines, l)
	}
	return out
}

// Reminder warns that a deadline is near.
type Reminder struct {
	What string
	Left string // e.g. "12 hours"
}

// Late says a deadline has passed without orders.
type Late struct {
	What string
	// Default is what the rules' no-orders default does, applied at once; with Waits, the
	// game instead waits for the referee's decision (the no-orders policy "referee").
	Default string
	Waits   bool
}

// NMR says the game's no-orders policy was applied.
type NMR struct {
	Side   string
	Policy string
}

// Announcement is a change told to everyone (pause, extend, replace a player, an absence),
// naming who made it.
type Announcement struct {
	By   string // who acted: "the referee (ref@example.net)", "the operator", "bob (ottoman), a player,"
	Text []string
	// Deadline, if set, is the deadline the change set for the step What, shown in each
	// recipient's own zone.
	Deadline time.Time
	What     string
}

// TurnEnd reveals a game turn's seed with a signed checkpoint (docs/DICE.md 5).
type TurnEnd struct {
	Turn       uint32 // t, the game turn whose seed this is (not the turn now under way)
	Seed       string // X_t, hex
	Checkpoint string // the signed checkpoint block
	Verifier   string // the verifier key, hex, for the verify command
	LogFile    string // the name of the recipient's log as LOG sends it
}

// GameEnd is the final mail.
type GameEnd struct {
	Result     string
	Checkpoint string
	Export     string    // the attached export's file name
	Verifier   string    // the verifier key, hex, for the verify command
	Format     string    // the game's log format, for the verify command (--format)
	Map        string    // the final map's file name, if any
	Summary    []Section // the ruleset's summary for the recipient: positions, victory points
}

// Section is a part of a ruleset's summary under its own heading ("Positions", "Victory
// points (10.1)"); a section without lines is not shown.
type Section struct {
	Heading string
	Lines   []string
}

// History is the game so far, turn by turn, in words (HISTORY).
type History struct {
	Turns []HistoryTurn
}

// HistoryTurn is one game turn's events as the recipient may see them.
type HistoryTurn struct {
	Turn   uint64
	Events []string
}

// Notice is a short answer: a JOIN acknowledged, HELP, a mail that could not be read or was
// refused, a command not available.
type Notice struct {
	Lines []string
}
