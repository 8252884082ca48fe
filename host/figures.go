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

// Figures reads the figures: the outbox's keys, and the counts of the store's figures index,
// which saveGame keeps (not every game's settings: 136 ms a scrape at 10,000 games). An index
// the host did not stamp (a file written before it) is rebuilt first.
func (h *Host) Figures() (Figures, error) {
	f := Figures{Games: map[string]int{}}
	now := h.cfg.Now()
	stale := false
	read := func(tx *store.Tx) error {
		if stale = store.FiguresStamp(tx) != figuresStamp; stale {
			return nil
		}
		f.OutboxSeqs = store.OutboxSeqs(tx) // not the mails: 20,000 queued welcomes are 240 MB (issue 14)
		f.OutboxDepth = len(f.OutboxSeqs)
		f.Parked = store.ParkedCount(tx)
		c := store.CountGames(tx, now)
		f.Games, f.Deadlines, f.Overdue = c.States, c.Clocks, c.Overdue
		return nil
	}
	if err := h.s.View(read); err != nil {
		return f, err
	}
	if !stale {
		return f, nil
	}
	if err := h.s.Update(refigure); err != nil {
		return f, fmt.Errorf("rebuild the figures index: %w", err)
	}
	return f, h.s.View(read)
}

// figuresStamp names the way figureOf computes the figures index.
const figuresStamp = "v1"

// figureOf is what the figures index keeps of a game (nil: its settings cannot be read): its
// state, and its deadline while its clock runs (a step waits for orders, not paused).
func figureOf(g *game) store.GameFigure {
	if g == nil {
		return store.GameFigure{State: "unreadable"}
	}
	f := store.GameFigure{State: gameState(g)}
	if f.State == "playing" && g.Step != nil {
		f.Clock, f.Deadline = true, g.Step.Deadline
	}
	return f
}

// refigure rebuilds the figures index from every game (once, for a file written before it).
func refigure(tx *store.Tx) error {
	if err := store.ClearGameFigures(tx); err != nil {
		return err
	}
	for _, id := range store.Games(tx) {
		g, err := loadGame(tx, id)
		if err != nil {
			g = nil // counted as unreadable, as saveGame never writes such a game
		}
		if err := store.PutGameFigure(tx, id, figureOf(g)); err != nil {
			return err
		}
	}
	return store.PutFiguresStamp(tx, figuresStamp)
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
