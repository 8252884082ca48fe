package host

import (
	"fmt"
	"strings"
	"time"

	"navarch/adjudicator"
	"navarch/mail"
	"navarch/templates"
)

// A mail's subject is read on a phone's inbox line: what the mail wants of its reader
// comes first ("Your move by Fri 18:00 CET: group BAR", "Orders refused: 2 errors",
// "Paused by the referee"), and the whole subject, with the game's tag in brackets that
// queue puts before it, is at most subjectMax characters. Every subject navarch sends in a
// game is made here.

// subjectMax is the longest subject, "[navarch TAG] " included, in characters.
const subjectMax = 70

// The subjects' first words, as tests and the demo's bots look for them.
const (
	subjectYourMove = "Your move"
	subjectAccepted = "Orders accepted"
	subjectResolved = "Orders resolved"
	subjectReport   = "Report"
	subjectGameOver = "Game over"
)

// fitSubject clips s so that, after the tag's brackets, the subject is at most subjectMax
// characters.
func fitSubject(tag, s string) string { return fitAround(tag, s, "") }

// fitAround is head and tail, head clipped so that the subject with tail whole is at most
// subjectMax characters.
func fitAround(tag, head, tail string) string {
	room := subjectMax - len([]rune("[navarch "+tag+"] ")) - len([]rune(tail))
	if r := []rune(head); len(r) > room && room > 1 {
		head = strings.TrimSpace(string(r[:room-1])) + "…"
	}
	return head + tail
}

// reportSubject is the subject of the mail that reports steps to r: his move first if his
// orders are due ("Your move by Tue 18:00 UTC: group BAR · turn 2 over"), else the turn's
// end, his orders resolved or the report, each with its weightiest event.
func (h *Host) reportSubject(g *game, eng adjudicator.Game, r recipient, lines []templates.ReportLine, end *templates.TurnEnd, req *templates.Request, receipt bool) string {
	var s string
	switch {
	case req != nil:
		tail := ""
		if end != nil {
			tail = fmt.Sprintf(" · turn %d over", end.Turn)
		}
		return fitAround(g.Tag, yourMove(g, r, req.What, h.cfg.Now()), tail)
	case end != nil:
		s = fmt.Sprintf("Turn %d over", end.Turn)
	case receipt:
		s = subjectResolved
	default:
		s = subjectReport
	}
	if len(lines) == 0 {
		return s
	}
	text, more := headline(lines)
	return fitAround(g.Tag, s+": "+text, more)
}

// yourMove is a request's subject: "Your move by Tue 18:00 CET: group BAR", the deadline in
// the recipient's zone (with the date if it is six days or more away).
func yourMove(g *game, r recipient, what string, now time.Time) string {
	s := subjectYourMove
	if g.Step != nil && !g.Step.Deadline.IsZero() {
		s += " by " + shortWhen(g.Step.Deadline, zoneOf(g, r), now)
	}
	return s + ": " + shortWhat(what)
}

// zoneOf is r's time zone name ("" for UTC).
func zoneOf(g *game, r recipient) string {
	if r.p != nil {
		return r.p.Zone
	}
	return g.RefereeZones[r.address]
}

// shortWhen is a deadline as a subject shows it: "Tue 18:00 CET", "Tue 8 Dec 18:00 UTC" when
// it is six days or more after now.
func shortWhen(t time.Time, zone string, now time.Time) string {
	loc := time.UTC
	if l, err := time.LoadLocation(zone); err == nil && zone != "" {
		loc = l
	}
	layout := "Mon 15:04 MST"
	if t.Sub(now) >= 6*24*time.Hour {
		layout = "Mon 2 Jan 15:04 MST"
	}
	return t.In(loc).Format(layout)
}

// shortWhat is a step's description without its parenthesis, and without the words every
// step of its kind shares: "group BAR" for "action phase of group BAR (Agostino
// Barbarigo)".
func shortWhat(what string) string {
	if i := strings.Index(what, " ("); i > 0 {
		what = what[:i]
	}
	return strings.TrimPrefix(what, "action phase of ")
}

// headline is a report's event of the heaviest kind its record names (adjudicator.Headline:
// the first of them; the first event of a log before v4, whose events name no kind), and
// how many more there are: " (+3)".
func headline(lines []templates.ReportLine) (string, string) {
	var events []adjudicator.Event
	for _, l := range lines {
		if !l.Roll {
			events = append(events, adjudicator.Event{Rule: l.Rule, Text: l.Text, Kind: adjudicator.Kind(l.Kind)})
		}
	}
	if len(events) == 0 {
		return fmt.Sprintf("%d rolls", len(lines)), ""
	}
	more := ""
	if len(events) > 1 {
		more = fmt.Sprintf(" (+%d)", len(events)-1)
	}
	return events[adjudicator.Headline(events)].Text, more
}

// receiptSubject is the subject of a receipt mailed alone.
func receiptSubject(check bool) string {
	if check {
		return "Orders checked, not submitted"
	}
	return subjectAccepted
}

// refusedSubject is the subject of refused orders: "Orders refused: 3 errors", "Advance
// orders refused: 1 error".
func refusedSubject(what string, errs []adjudicator.LineError) string {
	what = strings.ToUpper(what[:1]) + what[1:]
	if len(errs) == 1 {
		return what + " refused: 1 error"
	}
	return fmt.Sprintf("%s refused: %d errors", what, len(errs))
}

// turnOverSubject is the subject of a game turn's end mailed alone.
func turnOverSubject(turn uint32) string {
	return fmt.Sprintf("Turn %d over: its seed revealed", turn)
}

// gameOverSubject is the subject of the game-over mail.
func gameOverSubject(result string) string {
	if result == "" {
		return subjectGameOver
	}
	return subjectGameOver + ": " + result
}

// announceSubject is an announcement's subject, by the command that made it: "Paused by the
// referee", "Deadline extended to Tue 18:00 CET".
func announceSubject(g *game, r recipient, command, who string, deadline, now time.Time) string {
	var s string
	switch command {
	case mail.CmdPause:
		s = "Paused by " + who
	case mail.CmdResume:
		s = "Resumed by " + who
	case mail.CmdExtend:
		s = "Deadline extended by " + who
		if !deadline.IsZero() {
			s = "Deadline extended to " + shortWhen(deadline, zoneOf(g, r), now)
		}
	case mail.CmdReplace:
		s = "A player replaced by " + who
	case mail.CmdRekey:
		s = "A new key given by " + who
	case mail.CmdProceed:
		s = "Play proceeds without missing orders"
	case mail.CmdAbsent:
		s = "A player's absence declared"
	case subjectPauseOver:
		s = "Play resumes: the pause ran out"
	case subjectAbsenceWait:
		s = "Deadline waits for a player's return"
	default:
		s = "Announced by " + who
	}
	return fitSubject(g.Tag, s)
}

// The announcements navarch makes itself, named for announceSubject.
const (
	subjectPauseOver   = "pause-over"
	subjectAbsenceWait = "absence-wait"
)

// whoShort is who made a change, as a subject names it.
func whoShort(a *actor) string {
	switch {
	case a.operator:
		return "the operator"
	case a.p != nil:
		return a.p.ID
	}
	return "the referee"
}

// reminderSubject is a reminder's: "Reminder: your move by Tue 18:00 CET: group BAR".
func reminderSubject(g *game, r recipient, left string, now time.Time) string {
	s := "Reminder: " + strings.ToLower(subjectYourMove[:1]) + subjectYourMove[1:]
	if g.Step != nil && !g.Step.Deadline.IsZero() {
		s += " by " + shortWhen(g.Step.Deadline, zoneOf(g, r), now)
	} else {
		s += " within " + left
	}
	if g.Step != nil {
		s += ": " + shortWhat(g.Step.What)
	}
	return fitSubject(g.Tag, s)
}

// lateNames names the late players for the referee's subject.
func lateNames(ps []*player) string {
	var ids []string
	for _, p := range ps {
		ids = append(ids, p.ID)
	}
	return strings.Join(ids, ", ")
}
