package mail

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Commands a player or referee may send (docs/DESIGN.md 4; referee commands also by CLI).
const (
	CmdOrders  = "ORDERS" // no command word: the lines are orders
	CmdJoin    = "JOIN"
	CmdCheck   = "CHECK"
	CmdHelp    = "HELP"
	CmdStatus  = "STATUS"
	CmdLog     = "LOG"
	CmdAbsent  = "ABSENT"
	CmdResign  = "RESIGN"
	CmdPause   = "PAUSE"
	CmdResume  = "RESUME"
	CmdExtend  = "EXTEND"
	CmdReplace = "REPLACE"
	CmdEnd     = "ENDGAME"
	CmdProceed = "PROCEED" // the referee resolves the step without the orders still missing
	CmdRekey   = "REKEY"   // the referee has a player mailed a new key
	CmdNewGame = "NEWGAME" // a game master creates a game; the lines after it describe it
	CmdNone    = "NONE"    // no orders for the step awaited: the rules' default applies
	CmdHistory = "HISTORY" // the game so far, turn by turn, in words
	CmdDigest  = "DIGEST"  // DIGEST ON is REPORTS DIGEST, DIGEST OFF is REPORTS EACH (their older names)
	CmdReports = "REPORTS" // REPORTS EACH: every step's report; REPORTS DIGEST: mail when orders are needed or a turn ends
	CmdZone    = "ZONE"    // ZONE Europe/Rome: deadlines in the sender's mails in that time zone
	CmdAssign  = "ASSIGN"  // a team side's commander: ASSIGN BAR carol gives command BAR to carol
	CmdTeam    = "TEAM"    // a message to the other players of the sender's side; its lines follow
)

var commands = []string{CmdJoin, CmdCheck, CmdHelp, CmdStatus, CmdLog, CmdAbsent, CmdResign, CmdNone, CmdHistory, CmdDigest,
	CmdReports, CmdZone, CmdPause, CmdResume, CmdExtend, CmdReplace, CmdEnd, CmdProceed, CmdRekey, CmdNewGame, CmdAssign, CmdTeam}

// RefereeCommands are accepted from the referee only.
var RefereeCommands = []string{CmdPause, CmdResume, CmdExtend, CmdReplace, CmdEnd, CmdProceed, CmdRekey}

// Line is a line of the mail's text with its 1-based number.
type Line struct {
	N    int
	Text string
}

// Request is what a mail asks for.
type Request struct {
	Game    string   // from a GAME line or the subject tag "[navarch GAME]"
	At      string   // what follows the tag on a GAME line, upper-cased: the step meant ("T1 A1")
	Key     string   // from a KEY line
	Entropy string   // from an ENTROPY line (docs/DICE.md 3), or JOIN's text
	Command string   // one of the Cmd constants
	Args    []string // the command's words after it
	Orders  []Line   // order lines (for CmdOrders and CmdCheck; the game's lines for CmdNewGame), in mail order
	// Folded are the numbers of the order lines whose Cyrillic or Greek look-alike letters
	// or full-width forms were read as the Latin letters and ASCII they look like
	// (foldLookalikes), for the answer to say so: the text of Orders is as read.
	Folded []int
}

// ErrRequest marks a mail whose request cannot be read; the message says why, for the reply.
var ErrRequest = errors.New("mail: request")

var subjectTag = regexp.MustCompile(`\[navarch ([a-z0-9][a-z0-9-]{0,31})\]`)

// GameTag is the game tag of a subject, "[navarch TAG]", lower-cased, or "".
func GameTag(subject string) string {
	if m := subjectTag.FindStringSubmatch(strings.ToLower(subject)); m != nil {
		return m[1]
	}
	return ""
}

// ReadRequest reads a request from a mail's subject and new text (ReadReply). Header words
// (GAME, KEY, ENTROPY, also with a colon: "Key: …") may come anywhere; a command word, if
// any, is the first other line; every other line up to END is an order. Blank lines, "#"
// comments and list bullets ("• ", "- ") are skipped. Any Unicode space counts as a space;
// look-alike letters in words of Latin letters, and full-width forms, are read as Latin
// (Folded). After a command, a line that is plainly a signature or a sign-off is passed
// over; any other line refuses the mail, naming the line and saying how to end a mail.
func ReadRequest(subject, text string) (Request, error) {
	var r Request
	r.Game = GameTag(subject)
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(spaces(raw))
		if c, _, ok := strings.Cut(line, "#"); ok {
			line = strings.TrimSpace(c)
		}
		line = unbulleted(line)
		if line == "" {
			continue
		}
		word, rest, _ := strings.Cut(line, " ")
		word, rest = strings.ToUpper(word), strings.TrimSpace(rest)
		if folded, ok := foldLookalikes(word); ok && (contains(headerWords, folded) || contains(commands, folded)) {
			word = folded
		}
		if w := strings.TrimSuffix(word, ":"); w != word && contains(headerWords, w) { // "Key: k7q2-vv9d"
			word = w
			line = w + " " + rest
		}
		if word == "END" && rest == "" {
			break
		}
		if err := r.line(i+1, word, rest, line); err != nil {
			return r, err
		}
	}
	if r.Command == "" {
		r.Command = CmdOrders
	}
	if r.Command == CmdOrders && len(r.Orders) == 0 {
		return r, fmt.Errorf("%w: the mail holds no orders and no command (nothing of a quoted mail is read: write your lines above or below the quote); write HELP for the order words", ErrRequest)
	}
	return r, nil
}

func (r *Request) line(n int, word, rest, line string) error {
	switch {
	case word == "GAME":
		tag, at, _ := strings.Cut(rest, " ")
		r.Game, r.At = strings.ToLower(tag), strings.ToUpper(strings.TrimSpace(at))
	case word == "KEY":
		r.Key = rest
	case word == "ENTROPY":
		r.Entropy = rest
	case r.Command == "" && len(r.Orders) == 0 && contains(commands, word):
		r.Command = word
		if word == CmdJoin {
			r.Entropy = rest
		} else {
			r.Args = strings.Fields(rest)
		}
	case r.Command == "" || r.Command == CmdCheck || r.Command == CmdNewGame || r.Command == CmdTeam:
		if r.Command != CmdNewGame && r.Command != CmdTeam {
			if folded, ok := foldLookalikes(line); ok {
				line = folded
				r.Folded = append(r.Folded, n)
			}
		}
		r.Orders = append(r.Orders, Line{n, line})
	case signatureStart(line) || signOff(line):
		// a command mail signed: the command counts
	default:
		return fmt.Errorf("%w: line %d, %q, is not understood after the command %s: a mail with a command holds only the command. "+
			"End your mail with a line END: nothing after it is read", ErrRequest, n, clip(line), r.Command)
	}
	return nil
}

// unbulleted is a line without the list bullet a client or a player put before it ("• ",
// "- ", "* "): no order, header or command line starts with one.
func unbulleted(line string) string {
	r, size := utf8.DecodeRuneInString(line)
	if !strings.ContainsRune("•·◦▪‣-*–", r) || !strings.HasPrefix(line[size:], " ") {
		return line
	}
	rest := strings.TrimSpace(line[size:])
	if rest == "" || strings.ContainsRune("-–—", []rune(rest)[0]) {
		return line
	}
	return rest
}

// headerWords are the words of the request's header lines.
var headerWords = []string{"GAME", "KEY", "ENTROPY", "END"}

// OrderText returns the order lines as text whose line numbers are the mail's: lines that
// are not orders are left empty, so that the ruleset's errors by line point at the mail.
func (r Request) OrderText() string {
	if len(r.Orders) == 0 {
		return ""
	}
	lines := make([]string, r.Orders[len(r.Orders)-1].N)
	for _, l := range r.Orders {
		lines[l.N-1] = l.Text
	}
	return strings.Join(lines, "\n")
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}
