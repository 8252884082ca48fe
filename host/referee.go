package host

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

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
	if a.g.Status == "over" {
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
	case mail.CmdEnd:
		return "The game is over.", h.endGame(tx, a)
	case mail.CmdProceed:
		return h.proceed(tx, a)
	default:
		return "", refused(fmt.Sprintf("%s is not a referee's command", a.req.Command))
	}
	if err != nil {
		return "", refused(err.Error())
	}
	return text, h.announce(tx, a, text)
}

func (h *Host) announce(tx *store.Tx, a *actor, text string) error {
	if err := ledger.Note(tx, a.id, "referee", text); err != nil {
		return err
	}
	for _, r := range h.recipients(a.g) {
		if err := h.queue(tx, a.g, r, "announcement", "announcement", templates.Announcement{By: a.msg.From, Text: []string{text}}, "", nil); err != nil {
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

// pause stops the game's clock, for at most maxPauseHours: deadlines do not pass while it is
// paused, and resuming moves the deadline on by the time paused.
func (h *Host) pause(a *actor) (string, error) {
	n, err := hoursArg(a.req.Args, 72, maxPauseHours)
	if err != nil {
		return "", err
	}
	if !a.g.PausedUntil.IsZero() {
		return "", fmt.Errorf("the game is paused already, until %s", a.g.PausedUntil.Format(time.RFC1123))
	}
	now := h.cfg.Now()
	a.g.PausedAt, a.g.PausedUntil = now, now.Add(time.Duration(n)*time.Hour).UTC().Truncate(time.Second)
	return fmt.Sprintf("The game is paused for %d hours, until %s at the latest.", n, a.g.PausedUntil.Format("2006-01-02 15:04 UTC")), nil
}

func (h *Host) resume(a *actor) (string, error) {
	if a.g.PausedUntil.IsZero() {
		return "", fmt.Errorf("the game is not paused")
	}
	h.unpause(a.g, h.cfg.Now())
	return "The game resumes.", nil
}

// unpause ends a pause and moves the deadline on by the time the game was paused.
func (h *Host) unpause(g *game, now time.Time) {
	if now.After(g.PausedUntil) {
		now = g.PausedUntil
	}
	if g.Step != nil {
		g.Step.Deadline = g.Step.Deadline.Add(now.Sub(g.PausedAt)).Truncate(time.Second)
	}
	g.PausedAt, g.PausedUntil = time.Time{}, time.Time{}
}

func (h *Host) extend(a *actor) (string, error) {
	if a.g.Step == nil {
		return "", fmt.Errorf("no deadline is running")
	}
	n, err := hoursArg(a.req.Args, 24, maxExtendHours)
	if err != nil {
		return "", err
	}
	from := a.g.Step.Deadline
	if now := h.cfg.Now().UTC().Truncate(time.Second); from.Before(now) { // passed: waiting for the referee
		from = now
	}
	a.g.Step.Deadline = from.Add(time.Duration(n) * time.Hour)
	a.g.Step.Reminded, a.g.Step.Waiting = false, false
	return fmt.Sprintf("The deadline for %s is extended by %d hours, to %s.", a.g.Step.What, n, a.g.Step.Deadline.Format("2006-01-02 15:04 UTC")), nil
}

// proceed resolves the open step without the orders still missing, by the referee's
// decision (PROCEED): announced to all, the late players told, the no-orders rule applied.
func (h *Host) proceed(tx *store.Tx, a *actor) (string, error) {
	if a.g.Step == nil {
		return "", refused("no step waits for orders")
	}
	if !a.g.PausedUntil.IsZero() {
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
	text := fmt.Sprintf("The referee proceeds with %s without orders from %s: %s.", a.g.Step.What, strings.Join(late, ", "), a.g.Step.Default)
	if err := h.announce(tx, a, text); err != nil {
		return "", err
	}
	if !a.g.Step.Waiting {
		if err := h.lateNotices(tx, a.g, missing); err != nil {
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
	a.g.Status, a.g.Step = "over", nil
	for _, r := range h.recipients(a.g) {
		if err := h.turnEnd(tx, a.id, a.g, r, &c); err != nil {
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
	return h.announce(tx, a, fmt.Sprintf("%s (%s) is away from %s to %s; deadlines that fall then wait for the return.", a.p.ID, a.p.Side, a.req.Args[0], a.req.Args[1]))
}
