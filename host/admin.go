package host

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"navarch/mail"
	"navarch/store"
)

// List describes every game in a line (listLine): tag, ruleset, scenario, state, whose move
// it is, the deadline and who is late.
func (h *Host) List() ([]string, error) {
	var out []string
	err := h.s.View(func(tx *store.Tx) error {
		for _, id := range store.Games(tx) {
			g, err := loadGame(tx, id)
			if err != nil {
				out = append(out, fmt.Sprintf("%x unreadable: %v", id[:], err))
			}
			if g == nil {
				continue
			}
			out = append(out, listLine(g, h.cfg.Now()))
		}
		return nil
	})
	return out, err
}

func waiting(g *game) string {
	if g.Step == nil {
		return ""
	}
	return fmt.Sprintf("T%d A%d waits for %s until %s", g.Step.Turn, g.Step.Act, strings.Join(g.Step.Sides, ","), g.Step.Deadline.Format("2006-01-02 15:04 MST"))
}

// Show writes a game's players and state.
func (h *Host) Show(w io.Writer, tag string) error {
	return h.s.View(func(tx *store.Tx) error {
		_, g, err := findGame(tx, tag)
		if err != nil || g == nil {
			return fmt.Errorf("%w: %s", ErrNoGame, tag)
		}
		fmt.Fprintf(w, "game %s (%s)\n%s %s, %s\n", g.Tag, g.ID, g.Ruleset, g.Scenario, g.Status)
		for _, p := range g.Players {
			fmt.Fprintf(w, "player %s %s <%s> %s joined=%t\n", p.ID, p.Side, p.Address, p.Zone, p.Joined)
		}
		for _, r := range g.Referees {
			fmt.Fprintf(w, "referee <%s>\n", r)
		}
		reminder := "no reminder"
		if r := h.reminder(g); r > 0 {
			reminder = "reminder " + short(r) + " before"
		}
		fmt.Fprintf(w, "deadlines %s, %s, without orders: %s\n", short(h.deadline(g)), reminder, cmp.Or(g.NoOrders, NoOrdersDefault))
		if s := waiting(g); s != "" {
			fmt.Fprintln(w, s)
		}
		return nil
	})
}

// Export writes a game's log: a side's copy, or the full one. A side the game does not have
// is refused, naming the game's sides.
func (h *Host) Export(w io.Writer, tag, side string) error {
	return h.s.View(func(tx *store.Tx) error {
		id, g, err := findGame(tx, tag)
		if err != nil || g == nil {
			return fmt.Errorf("%w: %s", ErrNoGame, tag)
		}
		var sides []string
		for _, p := range g.Players {
			if !slices.Contains(sides, p.Side) {
				sides = append(sides, p.Side)
			}
		}
		if side != "" && !slices.Contains(sides, side) {
			return fmt.Errorf("game %s has no side %q: its sides are %s", g.Tag, side, strings.Join(sides, ", "))
		}
		a, err := export(tx, g, id, side, side == "")
		if err == nil {
			_, err = w.Write(a.Data)
		}
		return err
	})
}

// Operate applies a referee's command on the operator's behalf (navarch game
// pause|resume|extend|replace|end), as a referee's mail would be applied (docs/DESIGN.md 3.6). A
// refused command changes nothing and returns the reason; the announcement mails wait in the
// outbox for the daemon. It returns what was announced.
func (h *Host) Operate(tag, command string, args []string) (string, error) {
	var text string
	err := h.updateGames(func(tx *store.Tx) error { // no replay inside the lock (engines.go)
		id, g, err := findGame(tx, tag)
		if err != nil || g == nil {
			return fmt.Errorf("%w: %s", ErrNoGame, tag)
		}
		a := &actor{g: g, id: id, referee: true, operator: true, msg: &mail.Incoming{From: "the operator"}, req: mail.Request{Command: command, Args: args}}
		text, err = h.change(tx, a)
		return h.done(tx, a, err)
	}, nil)
	return text, err
}

// Mails lists the incoming mails of a game (docs/DESIGN.md 5: kept raw for audit), then the
// mails naming it that were dropped unanswered (drop.go: noted, not kept), or with n > 0
// writes mail number n as it arrived.
func (h *Host) Mails(w io.Writer, tag string, n uint64) error {
	return h.s.View(func(tx *store.Tx) error {
		id, g, err := findGame(tx, tag)
		if err != nil || g == nil {
			return fmt.Errorf("%w: %s", ErrNoGame, tag)
		}
		found := false
		err = store.Received(tx, id, n > 0, func(m store.ReceivedMail) error {
			switch {
			case n == 0:
				fmt.Fprintf(w, "%d  %s  %s  %q  %s\n", m.Seq, m.At.Format("2006-01-02 15:04Z"), m.From, m.Subject, m.MessageID)
			case m.Seq == n:
				found = true
				_, err := w.Write(m.Raw)
				return err
			}
			return nil
		})
		if err == nil && n > 0 && !found {
			err = fmt.Errorf("game %s has no mail %d", tag, n)
		}
		if err != nil || n > 0 {
			return err
		}
		return store.Dropped(tx, func(m store.DroppedMail) error { // naming the game, not kept (drop.go)
			if m.Game == tag {
				fmt.Fprintf(w, "dropped  %s  %s  %q  %s  %s: %s\n", m.At.Format("2006-01-02 15:04Z"), m.From, m.Subject, m.MessageID, m.Reason, m.Why)
			}
			return nil
		})
	})
}
