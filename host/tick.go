package host

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"navarch/ident"
	"navarch/store"
	"navarch/templates"
)

// Tick keeps the deadlines (docs/DESIGN.md 3.6): a reminder to the sides still to send orders once a
// deadline is near, and at the deadline the no-orders policy, told to everyone, and the step
// resolved with the orders that did arrive. Each game is one transaction, and a game that
// fails (our failure) does not keep the others from their deadlines: the failures are
// returned together, and ErrStoreDown among them when the store could not be read at all.
//
// The pass reads the store's due index in one read transaction (an idle daemon is
// idle) and opens a write transaction only for each game whose moment has come (nextLook);
// an index built another way (an upgraded file, another ReminderHours) is rebuilt first.
func (h *Host) Tick() error {
	now := h.cfg.Now()
	var ids []ident.GameID
	stale := false
	read := func(tx *store.Tx) error {
		stale = store.DueStamp(tx) != h.dueStamp()
		ids = store.Due(tx, now)
		return nil
	}
	if err := h.s.View(read); err != nil {
		return fmt.Errorf("%w: %w", ErrStoreDown, err)
	}
	if stale {
		if err := h.s.Update(h.reindex); err != nil {
			return fmt.Errorf("rebuild the due index: %w", err)
		}
		if err := h.s.View(read); err != nil {
			return fmt.Errorf("%w: %w", ErrStoreDown, err)
		}
	}
	var errs []error
	for _, id := range ids {
		err := h.updateGames(func(tx *store.Tx) error { // no replay inside the lock (engines.go)
			if err := h.tick(tx, id); err != nil {
				return err
			}
			g, err := loadGame(tx, id) // a game not due after all gets its true moment
			if err != nil {
				return err
			}
			return h.indexGame(tx, id, g)
		}, nil)
		if err != nil {
			errs = append(errs, fmt.Errorf("deadlines of game %x: %w", id[:], err))
		}
	}
	return errors.Join(errs...)
}

// ErrStoreDown marks a failure to read the store at all.
var ErrStoreDown = errors.New("store unreadable")

// dueStamp names the way nextLook computes the due index: the version of its rules and the
// installation's reminder hours, which it depends on.
func (h *Host) dueStamp() string { return fmt.Sprintf("v1 reminder=%dh", h.cfg.ReminderHours) }

// reindex rebuilds the due index from every game (once, after an upgrade or a change of
// ReminderHours).
func (h *Host) reindex(tx *store.Tx) error {
	for _, id := range store.Games(tx) {
		g, err := loadGame(tx, id)
		if err != nil { // looked at by every pass, whose tick reports the failure
			if err := store.PutDue(tx, id, time.Time{}, true); err != nil {
				return err
			}
			continue
		}
		if err := h.indexGame(tx, id, g); err != nil {
			return err
		}
	}
	return store.PutDueStamp(tx, h.dueStamp())
}

// indexGame keeps a game's entries in the store's indexes: when the deadline pass next looks
// at it, and its players' addresses (onlyGame). saveGame calls it with every change.
func (h *Host) indexGame(tx *store.Tx, id ident.GameID, g *game) error {
	if g == nil {
		return store.PutDue(tx, id, time.Time{}, false)
	}
	for _, p := range g.Players {
		if err := store.AddPlayerGame(tx, p.Address, id); err != nil {
			return err
		}
	}
	at, ok := h.nextLook(g, h.cfg.Now())
	return store.PutDue(tx, id, at, ok)
}

// nextLook is the first moment at or after now at which tick has something to do for g,
// and false when it has nothing to do until g changes: it follows tick's cases, so that a
// pass that looks at g before that moment would change nothing. A deadline to move for an
// absent player is due at once (now).
func (h *Host) nextLook(g *game, now time.Time) (time.Time, bool) {
	if g.Status == store.StatusOver {
		return time.Time{}, false
	}
	if g.paused() {
		return g.PausedUntil, !g.PausedUntil.IsZero()
	}
	if g.Step == nil || g.Status != store.StatusPlaying {
		return time.Time{}, false
	}
	d := g.Step.Deadline
	if absentUntil(g.missing(), d).After(d) {
		return now, true
	}
	at := d // at the deadline: the no-orders policy, or the referee asked
	if g.Step.Waiting {
		at = latest(d, g.Step.Asked.Add(RefereeReminder)) // the referee asked again
	}
	if r := h.reminder(g); r > 0 && !g.Step.Reminded && now.Before(d) { // the reminder: the first moment past d − r
		remind := d.Add(-r).Add(time.Nanosecond)
		at = latest(remind, now)
	}
	return at, true
}

func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func (h *Host) tick(tx *store.Tx, id ident.GameID) error {
	g, err := loadGame(tx, id)
	if err != nil || g == nil || g.Status == store.StatusOver {
		return err
	}
	now := h.cfg.Now()
	changed := false
	if g.paused() { // a timed pause runs out before play begins too (all joined meanwhile)
		if g.PausedUntil.IsZero() || now.Before(g.PausedUntil) {
			return nil // nothing is adjudicated and no deadline runs while the game is paused
		}
		return h.pauseRanOut(tx, id, g, now)
	}
	if g.Step == nil || g.Status != store.StatusPlaying {
		return nil
	}
	if waits, err := awaitsRound(tx, id); err != nil || waits {
		return err // its inputs are fixed: the beacon pass resolves it (beacon.go)
	}
	missing := g.missing()
	if back := absentUntil(missing, g.Step.Deadline); back.After(g.Step.Deadline) {
		if err := h.absenceMoves(tx, id, g, missing, back); err != nil {
			return err
		}
		changed = true
	}
	switch {
	case !now.Before(g.Step.Deadline) && g.Step.Waiting:
		if now.Sub(g.Step.Asked) >= RefereeReminder {
			if err := h.askReferee(tx, g, missing, "still waits"); err != nil {
				return err
			}
		} else if !changed {
			return nil // the referee has been asked
		}
	case !now.Before(g.Step.Deadline) && g.NoOrders == NoOrdersReferee:
		if err := h.waitForReferee(tx, g, missing); err != nil {
			return err
		}
	case !now.Before(g.Step.Deadline):
		if err := h.late(tx, g, missing); err != nil {
			return err
		}
		eng, err := h.engine(tx, id)
		if err != nil {
			return err
		}
		if err := h.resolve(tx, id, g, eng); err != nil {
			return err
		}
	case h.reminder(g) > 0 && !g.Step.Reminded && now.Add(h.reminder(g)).After(g.Step.Deadline):
		g.Step.Reminded = true
		left := g.Step.Deadline.Sub(now).Round(time.Minute).String()
		remind, err := withCommanders(tx, id, g, missing)
		if err != nil {
			return err
		}
		for _, p := range remind {
			if err := h.queue(tx, g, recipient{p: p}, "reminder", reminderSubject(g, recipient{p: p}, left, h.cfg.Now()), templates.Reminder{What: g.Step.What, Left: left}, "", nil); err != nil {
				return err
			}
		}
	default:
		if !changed {
			return nil
		}
	}
	return h.saveGame(tx, id, g)
}

// absenceMoves moves the deadline to when the last player away at it is back (ABSENT), and
// tells everyone the new deadline, each in his own zone.
func (h *Host) absenceMoves(tx *store.Tx, id ident.GameID, g *game, missing []*player, back time.Time) error {
	var away []string
	for _, p := range missing {
		if !g.Step.Deadline.Before(p.AbsentFrom) && g.Step.Deadline.Before(p.AbsentTo) {
			away = append(away, p.ID+" ("+p.Side+")")
		}
	}
	g.Step.Deadline = back
	return h.announceAs(tx, id, g, "navarch", "absence", fmt.Sprintf("The deadline waits for the return of %s, away as declared (ABSENT).",
		strings.Join(away, ", ")), back, subjectAbsenceWait, "navarch")
}

// absentUntil is when the last of the players away at the deadline is back.
func absentUntil(ps []*player, deadline time.Time) time.Time {
	back := deadline
	for _, p := range ps {
		if !deadline.Before(p.AbsentFrom) && deadline.Before(p.AbsentTo) && p.AbsentTo.After(back) {
			back = p.AbsentTo
		}
	}
	return back
}

// missing lists the players of the sides asked that have not sent orders (a team game:
// the players asked who have not).
func (g *game) missing() []*player {
	var out []*player
	for _, k := range keys(g.Step) {
		if _, ok := g.Step.Orders[k]; ok {
			continue
		}
		if len(g.Step.Players) > 0 {
			out = append(out, g.playerByID(k))
			continue
		}
		out = append(out, g.sidePlayers(k)...)
	}
	return out
}

// pauseRanOut ends a pause whose hours have passed, as RESUME would: announced to everyone
// with the new deadline, and a step whose orders came in meanwhile is adjudicated.
func (h *Host) pauseRanOut(tx *store.Tx, id ident.GameID, g *game, now time.Time) error {
	h.unpause(g, now)
	var deadline time.Time
	if g.Step != nil {
		deadline = g.Step.Deadline
	}
	if err := h.announceAs(tx, id, g, "navarch", "navarch", "The referee's pause has run out: the game resumes.", deadline, subjectPauseOver, "navarch"); err != nil {
		return err
	}
	if err := h.resumed(tx, id, g); err != nil {
		return err
	}
	return h.saveGame(tx, id, g)
}

// late tells the late players, the referees (a digest) and everyone else that the
// no-orders policy applies.
func (h *Host) late(tx *store.Tx, g *game, missing []*player) error {
	if err := h.lateNotices(tx, g, missing, false); err != nil {
		return err
	}
	if err := h.lateDigest(tx, g, missing); err != nil {
		return err
	}
	return h.noOrders(tx, g, missing)
}

// lateDigest tells the referees, in one mail each, which players were late at a deadline:
// who, with side and address, and what the rules now do for them.
func (h *Host) lateDigest(tx *store.Tx, g *game, missing []*player) error {
	if len(missing) == 0 || len(g.Referees) == 0 {
		return nil
	}
	lines := []string{fmt.Sprintf("The deadline for %s passed at %s. Late:", g.Step.What, g.Step.Deadline.UTC().Format("2006-01-02 15:04 UTC"))}
	for _, p := range missing {
		lines = append(lines, fmt.Sprintf("  %s (%s) <%s>, zone %s", p.ID, p.Side, p.Address, p.Zone))
	}
	lines = append(lines, "The rules' no-orders default applies: "+g.Step.Default+".",
		"REPLACE PLAYER ADDRESS hands a side to someone else; ABSENT lets a player declare an absence ahead.")
	for _, r := range g.Referees {
		if err := h.queue(tx, g, recipient{address: r}, "notice", "Late players: "+lateNames(missing), templates.Notice{Lines: lines}, "", nil); err != nil {
			return err
		}
	}
	return nil
}

// lateNotices tells the late players that their deadline has passed, and what follows under
// the game's no-orders policy: the rules' default at once, or the referee's decision (waits).
func (h *Host) lateNotices(tx *store.Tx, g *game, missing []*player, waits bool) error {
	for _, p := range missing {
		body := templates.Late{What: g.Step.What, Default: g.Step.Default, Waits: waits}
		if err := h.queue(tx, g, recipient{p: p}, "late", "Deadline passed without your orders", body, "", nil); err != nil {
			return err
		}
	}
	return nil
}

// RefereeReminder is how often the referees are asked again while a game waits for them.
const RefereeReminder = 24 * time.Hour

// waitForReferee, at a deadline under NoOrdersReferee, tells the late players, and asks the
// referees to decide; the step stays open, for the orders or the referee.
func (h *Host) waitForReferee(tx *store.Tx, g *game, missing []*player) error {
	g.Step.Waiting = true
	if err := h.lateNotices(tx, g, missing, true); err != nil {
		return err
	}
	return h.askReferee(tx, g, missing, "waits")
}

// askReferee asks the referees to decide on the missing orders (again, each day).
func (h *Host) askReferee(tx *store.Tx, g *game, missing []*player, waits string) error {
	g.Step.Asked = h.cfg.Now()
	var late []string
	for _, p := range missing {
		late = append(late, p.ID+" ("+p.Side+")")
	}
	text := fmt.Sprintf("The deadline for %s has passed without orders from %s. The game %s for you: reply PROCEED "+
		"to apply the no-orders rule (%s), or EXTEND HOURS to give more time. Orders that arrive meanwhile are still taken.",
		g.Step.What, strings.Join(late, ", "), waits, g.Step.Default)
	for _, r := range g.Referees {
		if err := h.notice(tx, g, recipient{address: r}, "", text); err != nil {
			return err
		}
	}
	return nil
}

// noOrders tells everyone that the no-orders rule applies to the sides of missing.
func (h *Host) noOrders(tx *store.Tx, g *game, missing []*player) error {
	var sides []string
	for _, p := range missing {
		if !slices.Contains(sides, p.Side) {
			sides = append(sides, p.Side)
		}
	}
	for _, r := range h.recipients(g) {
		if err := h.queue(tx, g, r, "nmr", "No orders: "+strings.Join(sides, ", ")+"'s default applied", templates.NMR{Side: strings.Join(sides, ", "), Policy: g.Step.Default}, "", nil); err != nil {
			return err
		}
	}
	return nil
}
