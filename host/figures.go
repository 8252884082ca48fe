package host

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"navarch/store"
)

// Figures are the daemon's state as the operator's metrics show it, read in one transaction.
type Figures struct {
	OutboxDepth int            // mails queued, not yet taken by the SMTP server
	OutboxSeqs  []uint64       // their queue numbers, oldest first (for their age)
	Deadlines   int            // games whose clock runs: a step waits for orders, not paused
	Overdue     int            // of those, games past their deadline (the deadline loop is behind)
	Games       map[string]int // games by state: joining, playing, paused, waiting, over
	Parked      int            // mails parked after our own failures
}

// GameStates are the states Figures counts games in (gameState), every one reported even
// at zero so that a dashboard's series do not come and go.
var GameStates = []string{"joining", "playing", "paused", "waiting", "over", "unreadable"}

// Figures reads the figures.
func (h *Host) Figures() (Figures, error) {
	f := Figures{Games: map[string]int{}}
	now := h.cfg.Now()
	err := h.s.View(func(tx *store.Tx) error {
		f.OutboxSeqs = store.OutboxSeqs(tx) // not the mails: 20,000 queued welcomes are 240 MB (issue 14)
		f.OutboxDepth = len(f.OutboxSeqs)
		f.Parked = store.ParkedCount(tx)
		for _, id := range store.Games(tx) {
			g, err := loadGame(tx, id)
			if err != nil || g == nil {
				f.Games["unreadable"]++
				continue
			}
			state := gameState(g)
			f.Games[state]++
			if state == "playing" && g.Step != nil {
				f.Deadlines++
				if now.After(g.Step.Deadline) {
					f.Overdue++
				}
			}
		}
		return nil
	})
	return f, err
}

// gameState is the game's status, with "paused" while the referee has paused it and
// "waiting" while it waits for the referee's decision at a deadline.
func gameState(g *game) string {
	switch {
	case g.Status == "over":
		return g.Status
	case !g.PausedAt.IsZero():
		return "paused"
	case g.Step != nil && g.Step.Waiting:
		return "waiting"
	}
	return g.Status
}

// listLine is a game's line in navarch game list: tag, ruleset, scenario, state, whose move
// it is (the sides whose orders are still wanted, with their players), the deadline, and
// who is late (wanted past the deadline).
func listLine(g *game, now time.Time) string {
	line := fmt.Sprintf("%-10s %s %s %s", g.Tag, g.Ruleset, g.Scenario, gameState(g))
	if !g.PausedUntil.IsZero() {
		line += " until " + g.PausedUntil.UTC().Format("2006-01-02 15:04 MST")
	}
	if g.Step == nil {
		return line
	}
	var due []string
	for _, side := range g.Step.Sides {
		if _, ok := g.Step.Orders[side]; ok {
			continue
		}
		who := side
		if i := slices.IndexFunc(g.Players, func(p player) bool { return p.Side == side }); i >= 0 {
			who += " (" + g.Players[i].ID + ")"
		}
		due = append(due, who)
	}
	line += fmt.Sprintf("; T%d A%d", g.Step.Turn, g.Step.Act)
	if len(due) == 0 {
		return line + "; all orders in"
	}
	line += fmt.Sprintf("; to move: %s; deadline %s", strings.Join(due, ", "), g.Step.Deadline.UTC().Format("2006-01-02 15:04 MST"))
	if g.PausedAt.IsZero() && now.After(g.Step.Deadline) {
		line += "; late: " + strings.Join(due, ", ")
	}
	return line
}
