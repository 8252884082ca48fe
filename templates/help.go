package templates

import (
	"regexp"
	"strings"
)

// MailCommands closes HELP's answer: what a mail may say besides orders, a paragraph a line
// (the text part wraps each at the width of plain-text mail, the HTML part lets the screen
// wrap it), after a blank line that parts it from the ruleset's order help.
var MailCommands = []string{"",
	"Mail commands, one per mail, with your KEY line (players): JOIN; your orders, or NONE for none; " +
		"CHECK with orders checks them without submitting; STATUS (STATUS FULL for the whole map); " +
		"LOG for the public log so far; HISTORY for the game so far in words; " +
		"REPORTS EACH for every step's report (by default you are mailed when your orders are needed or a game turn ends, with everything since; REPORTS DIGEST again); " +
		"ABSENT FROM TO (dates) holds deadlines while you are away; " +
		"ZONE Europe/Rome (any IANA zone) shows deadlines in your own time zone; " +
		"RESIGN CONFIRM ends the game, your side losing; HELP.",
	"A side of several players (a team game): TEAM and your message mails your side's other players; " +
		"your side's commander may ASSIGN COMMAND PLAYER (ASSIGN BAR carol, from the next step on; ASSIGN COMMANDER PLAYER hands over the side) " +
		"and answer for a player who has not sent his orders, with FOR PLAYER as the first line of the orders (NONE FOR PLAYER for none).",
	"Referees, with the referee's KEY: ZONE as players; PAUSE [HOURS] (until RESUME), RESUME, EXTEND [HOURS], " +
		"PROCEED (without the orders still missing), REPLACE PLAYER ADDRESS [ZONE], " +
		"REKEY PLAYER (a new key, mailed to the player), ENDGAME [RESULT].",
}

// HelpEntry is a line of a ruleset's order help as the HTML part shows it: a sentence, or an
// order's syntax (Code) with what it does (Desc) beneath it instead of beside it, since a
// phone has no room for the text part's two columns.
type HelpEntry struct{ Text, Code, Desc string }

// helpEntries reads help text as the rulesets write it for a mail's fixed-width text part:
// an unindented line is a sentence; an indented one is an order's syntax and, after two or
// more spaces or from the description column on (in small letters), what it does; a line indented to the
// description column (eight or more spaces) goes on with the order above it. An indented
// line with small-letter words and no description is a sentence too. Blank lines are left
// out.
func helpEntries(s string) []HelpEntry {
	lines := strings.Split(s, "\n")
	col := descColumn(lines)
	var out []HelpEntry
	for _, line := range lines {
		trimmed := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " "))
		last := len(out) - 1
		switch {
		case trimmed == "":
		case indent == 0:
			out = append(out, HelpEntry{Text: trimmed})
		case indent >= 8 && last >= 0 && out[last].Code != "":
			out[last].Desc = strings.TrimSpace(out[last].Desc + " " + trimmed)
		default:
			e := HelpEntry{Code: trimmed}
			if i := strings.Index(trimmed, "  "); i > 0 {
				e.Code, e.Desc = trimmed[:i], strings.TrimSpace(trimmed[i:])
			} else if col > indent && len(line) > col && line[col-1] == ' ' && line[col] != ' ' && smallWords.MatchString(line[col:]) {
				e.Code, e.Desc = strings.TrimSpace(line[:col]), line[col:]
			} else if smallWords.MatchString(trimmed) {
				e = HelpEntry{Text: trimmed}
			}
			out = append(out, e)
		}
	}
	return out
}

// smallWords finds a word of small letters: prose, not an order's syntax.
var smallWords = regexp.MustCompile(`\b[a-z]{2,}\b`)

// descColumn is where the descriptions of a help text begin: the indent, eight or more, that
// most of its lines have (0 if none).
func descColumn(lines []string) int {
	count := map[int]int{}
	best := 0
	for _, line := range lines {
		if strings.TrimSpace(line) == "" {
			continue
		}
		n := len(line) - len(strings.TrimLeft(line, " "))
		if n < 8 {
			continue
		}
		count[n]++
		if count[n] > count[best] || count[n] == count[best] && n < best {
			best = n
		}
	}
	return best
}
