package host

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"navarch/adjudicator"
	"navarch/ident"
	"navarch/ledger"
	"navarch/mail"
	"navarch/store"
	"navarch/templates"
)

// Caps on the referee's and players' clock changes (docs/DESIGN.md 3.6).
const (
	maxExtendHours = 7 * 24
	maxPauseHours  = 14 * 24
	maxAbsentDays  = 14
)

// referee applies a referee's command: every change is written to the log and announced to
// everyone (docs/DESIGN.md 3.6); a refused one is answered with the reason.
func (h *Host) referee(tx *store.Tx, a *actor) error {
	if !a.referee {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, a.req.Command+" is a referee's command.")
	}
	if _, err := h.change(tx, a); err != nil {
		if refusal, ok := errors.AsType[refused](err); ok {
			return h.notice(tx, a.g, a.to(), a.msg.MessageID, string(refusal))
		}
		return err
	}
	return nil
}

// refused is a referee's or operator's command that cannot be applied; nothing was changed.
type refused string

func (r refused) Error() string { return string(r) }

// change applies a referee's command, by mail or from the operator's command line: it ends
// the game, or changes the clock or the players and announces the change. It returns what
// was announced, or a refused error, or our own failure.
func (h *Host) change(tx *store.Tx, a *actor) (string, error) {
	if a.g.Status == store.StatusOver {
		return "", refused(fmt.Sprintf("game %s is over; nothing was changed", a.g.Tag))
	}
	var text string
	var err error
	switch a.req.Command {
	case mail.CmdPause:
		text, err = h.pause(a)
	case mail.CmdResume:
		text, err = h.resume(a)
	case mail.CmdExtend:
		text, err = h.extend(a)
	case mail.CmdReplace:
		text, err = h.replace(tx, a)
	case mail.CmdRekey:
		text, err = h.rekey(tx, a)
	case mail.CmdEnd:
		return "The game is over.", h.endGame(tx, a)
	case mail.CmdProceed:
		return h.proceed(tx, a)
	default:
		return "", refused(fmt.Sprintf("%s is not a referee's command", a.req.Command))
	}
	if err != nil { // a refused, or our own failure (a store write, the key's randomness): retried
		return "", err
	}
	var deadline time.Time
	if (a.req.Command == mail.CmdResume || a.req.Command == mail.CmdExtend) && a.g.Step != nil {
		deadline = a.g.Step.Deadline
	}
	if err := h.announce(tx, a, text, deadline); err != nil {
		return "", err
	}
	if a.req.Command == mail.CmdResume {
		return text, h.resumed(tx, a.id, a.g)
	}
	return text, nil
}

// by is who acted, as an announcement names it: the operator, a player, or a
// referee with the address.
func (a *actor) by() (announce, note string) {
	switch {
	case a.operator:
		return "the operator", "operator"
	case a.p != nil:
		return fmt.Sprintf("%s (%s), a player,", a.p.ID, a.p.Side), "player:" + a.p.ID
	}
	return "the referee (" + a.msg.From + ")", "referee"
}

// announce writes a change to the log and tells everyone, naming who made it; a deadline it
// set is shown to each recipient in the recipient's own zone.
func (h *Host) announce(tx *store.Tx, a *actor, text string, deadline time.Time) error {
	by, note := a.by()
	return h.announceAs(tx, a.id, a.g, by, note, text, deadline, a.req.Command, whoShort(a))
}

// announceAs tells everyone a change made by by; command and who name it in the subject
// (announceSubject).
func (h *Host) announceAs(tx *store.Tx, id ident.GameID, g *game, by, note, text string, deadline time.Time, command, who string) error {
	logged := text
	body := templates.Announcement{By: by, Text: []string{text}, Deadline: deadline}
	if !deadline.IsZero() && g.Step != nil {
		logged += " The deadline for " + g.Step.What + " is " + deadline.UTC().Format("2006-01-02 15:04 UTC") + "."
		body.What = g.Step.What
	}
	if err := ledger.Note(tx, id, note, logged); err != nil {
		return err
	}
	for _, r := range h.recipients(g) {
		subject := announceSubject(g, r, command, who, deadline, h.cfg.Now())
		if err := h.queue(tx, g, r, "announcement", subject, body, "", nil); err != nil {
			return err
		}
	}
	return nil
}

func hoursArg(args []string, def, maxH int) (int, error) {
	if len(args) == 0 {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSuffix(strings.ToLower(args[0]), "h"))
	if err != nil || n < 1 || n > maxH {
		return 0, fmt.Errorf("want a number of hours from 1 to %d, not %q", maxH, args[0])
	}
	return n, nil
}

// paused says whether the referee has paused the game.
func (g *game) paused() bool { return !g.PausedAt.IsZero() }

// pause stops play: orders are still taken and acknowledged, but nothing is
// adjudicated and no deadline runs until RESUME, or until HOURS (at most maxPauseHours)
// have passed if given.
func (h *Host) pause(a *actor) (string, error) {
	if a.g.paused() {
		return "", refused("the game is paused already; RESUME ends the pause")
	}
	text := "The game is paused: orders are still taken and acknowledged, but nothing is adjudicated and no deadline runs until the game resumes"
	now := h.cfg.Now().UTC().Truncate(time.Second)
	a.g.PausedAt = now
	if len(a.req.Args) > 0 {
		n, err := hoursArg(a.req.Args, 0, maxPauseHours)
		if err != nil {
			a.g.PausedAt = time.Time{}
			return "", refused(err.Error())
		}
		a.g.PausedUntil = now.Add(time.Duration(n) * time.Hour)
		return text + fmt.Sprintf(", by the referee's RESUME or by itself after %d hours (%s).", n, a.g.PausedUntil.Format("2006-01-02 15:04 UTC")), nil
	}
	return text + ", by the referee's RESUME.", nil
}

func (h *Host) resume(a *actor) (string, error) {
	if !a.g.paused() {
		return "", refused("the game is not paused")
	}
	h.unpause(a.g, h.cfg.Now())
	if a.g.Step == nil {
		return "The game resumes.", nil
	}
	return "The game resumes; the deadline is moved on by the time the game was paused.", nil
}

// unpause ends a pause and moves the deadline on by the time the game was paused: no
// deadline ran meanwhile.
func (h *Host) unpause(g *game, now time.Time) {
	if !g.PausedUntil.IsZero() && now.After(g.PausedUntil) {
		now = g.PausedUntil
	}
	if g.Step != nil && !g.Step.Waiting {
		g.Step.Deadline = g.Step.Deadline.Add(now.Sub(g.PausedAt)).UTC().Truncate(time.Second)
		g.Step.Reminded = false
	}
	g.PausedAt, g.PausedUntil = time.Time{}, time.Time{}
}

// resumed goes on with play after a pause: a game whose players all joined while it was
// paused begins, and a step whose orders all came in meanwhile is adjudicated now.
func (h *Host) resumed(tx *store.Tx, id ident.GameID, g *game) error {
	if g.Status == store.StatusPlaying && g.Step == nil { // everyone joined while the game was paused
		return h.advance(tx, id, g)
	}
	if g.Step == nil || g.Status != store.StatusPlaying || !complete(g.Step) {
		return nil
	}
	eng, err := h.engine(tx, id)
	if err != nil {
		return err
	}
	return h.resolve(tx, id, g, eng)
}

func (h *Host) extend(a *actor) (string, error) {
	if a.g.Step == nil {
		return "", refused("no deadline is running")
	}
	if a.g.paused() {
		return "", refused("the game is paused, and no deadline runs; RESUME first")
	}
	n, err := hoursArg(a.req.Args, 24, maxExtendHours)
	if err != nil {
		return "", refused(err.Error())
	}
	from := a.g.Step.Deadline
	if now := h.cfg.Now().UTC().Truncate(time.Second); from.Before(now) { // passed: waiting for the referee
		from = now
	}
	a.g.Step.Deadline = from.Add(time.Duration(n) * time.Hour)
	a.g.Step.Reminded, a.g.Step.Waiting = false, false
	return fmt.Sprintf("The deadline for %s is extended by %d hours.", a.g.Step.What, n), nil
}

// proceed resolves the open step without the orders still missing, by the referee's
// decision (PROCEED): announced to all, the late players told, the no-orders rule applied.
func (h *Host) proceed(tx *store.Tx, a *actor) (string, error) {
	if a.g.Step == nil {
		return "", refused("no step waits for orders")
	}
	if a.g.paused() {
		return "", refused("the game is paused; RESUME it first")
	}
	missing := a.g.missing()
	if len(missing) == 0 {
		return "", refused("no orders are missing")
	}
	var late []string
	for _, p := range missing {
		late = append(late, p.ID+" ("+p.Side+")")
	}
	text := fmt.Sprintf("Play proceeds with %s without orders from %s: %s.", a.g.Step.What, strings.Join(late, ", "), a.g.Step.Default)
	if err := h.announce(tx, a, text, time.Time{}); err != nil {
		return "", err
	}
	if !a.g.Step.Waiting {
		if err := h.lateNotices(tx, a.g, missing, false); err != nil {
			return "", err
		}
	}
	eng, err := h.engine(tx, a.id)
	if err != nil {
		return "", err
	}
	return text, h.resolve(tx, a.id, a.g, eng)
}

// endGame ends the game by the referee's decision: the log's end record reveals the seeds.
func (h *Host) endGame(tx *store.Tx, a *actor) error {
	result := "ended by the referee"
	if a.operator {
		result = "ended by the operator"
	}
	if len(a.req.Args) > 0 {
		result += ": " + strings.Join(a.req.Args, " ")
	}
	return h.finish(tx, a, result)
}

// finish ends the game with result: the last checkpoint, the seeds revealed and the full log
// sent to everyone (docs/DICE.md 4).
func (h *Host) finish(tx *store.Tx, a *actor, result string) error {
	turn := uint32(0)
	if a.g.Step != nil {
		turn = a.g.Step.Turn
	}
	c, err := ledger.End(tx, a.id, turn, result)
	if err != nil {
		return err
	}
	// A game this navarch cannot continue (Stranded) ends without its engine: its mails
	// carry the log, without the map and summary that engine would draw.
	stranded, err := h.strandedBy(tx, a.id, a.g)
	if err != nil {
		return err
	}
	a.g.Status, a.g.Step = store.StatusOver, nil
	var eng adjudicator.Game
	if stranded == "" {
		if eng, err = h.engine(tx, a.id); err != nil {
			return err
		}
	}
	for _, r := range h.recipients(a.g) {
		if err := h.gameEnd(tx, a.id, a.g, eng, r, &c); err != nil {
			return err
		}
	}
	return nil
}

// absent records a player's absence (at most maxAbsentDays); deadlines that would pass while
// the player is away wait for the return.
func (h *Host) absent(tx *store.Tx, a *actor) error {
	if a.p == nil || len(a.req.Args) != 2 {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, "Write ABSENT FROM TO, two dates like 2026-12-01 2026-12-05.")
	}
	from, err1 := time.Parse("2006-01-02", a.req.Args[0])
	to, err2 := time.Parse("2006-01-02", a.req.Args[1])
	if err1 != nil || err2 != nil || to.Before(from) || to.Sub(from) > maxAbsentDays*24*time.Hour {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, fmt.Sprintf("An absence is two dates like 2026-12-01 2026-12-05, at most %d days apart.", maxAbsentDays))
	}
	a.p.AbsentFrom, a.p.AbsentTo = from, to.Add(24*time.Hour)
	return h.announce(tx, a, fmt.Sprintf("%s (%s) is away from %s to %s; deadlines that fall then wait for the return.", a.p.ID, a.p.Side, a.req.Args[0], a.req.Args[1]), time.Time{})
}
