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
	Dropped     map[string]int // mails dropped unanswered, ever, by reason (drop.go: DropReasons)
	// BeaconWaiting: beacon steps whose round is due and could not be fetched at the last
	// pass (a relay down); they wait, never keyed without it (beacon.go).
	BeaconWaiting int
}

// GameStates are the states Figures counts games in (gameState), every one reported even
// at zero so that a dashboard's series do not come and go.
var GameStates = []string{store.StatusJoining.String(), store.StatusPlaying.String(), "paused", "waiting", store.StatusOver.String(), "unreadable"}

// Figures reads the figures: the outbox's keys, the game counts that saveGame keeps (not
// every game's settings: 136 ms a scrape at 10,000 games), and the games the due index says
// are due now, read to tell which are past their deadline (none while the deadline pass keeps
// up; the backlog when it does not). Counts the host did not stamp (a file written before
// them) are made first.
func (h *Host) Figures() (Figures, error) {
	f := Figures{Games: map[string]int{}, BeaconWaiting: h.BeaconWaiting()}
	now := h.cfg.Now()
	stale := false
	read := func(tx *store.Tx) error {
		if stale = store.FiguresStamp(tx) != figuresStamp; stale {
			return nil
		}
		f.OutboxSeqs = store.OutboxSeqs(tx) // not the mails: 20,000 queued welcomes are 240 MB
		f.OutboxDepth = len(f.OutboxSeqs)
		f.Parked = store.ParkedCount(tx)
		f.Dropped = store.DroppedCounts(tx)
		c := store.CountGames(tx)
		f.Games, f.Deadlines = c.States, c.Clocks
		f.Overdue = overdue(tx, now)
		return nil
	}
	if err := h.s.View(read); err != nil {
		return f, err
	}
	if !stale {
		return f, nil
	}
	if err := h.s.Update(recount); err != nil {
		return f, fmt.Errorf("count the games: %w", err)
	}
	return f, h.s.View(read)
}

// overdue counts the games whose clock runs past their deadline. Such a game is in the due
// index at or before its deadline (nextLook), so only the games due now are read (every game
// once after an upgrade, whose index lists them all at once until the first deadline pass).
func overdue(tx *store.Tx, now time.Time) int {
	n := 0
	for _, id := range store.Due(tx, now) {
		if g, err := loadGame(tx, id); err == nil && figureOf(g).Clock && now.After(g.Step.Deadline) {
			n++
		}
	}
	return n
}

// figuresStamp names the way figureOf computes the game counts.
const figuresStamp = "v1"

// figureOf is what the game counts count of a game (nil: its settings cannot be read): its
// state, and whether its clock runs (a step waits for orders, not paused).
func figureOf(g *game) store.GameFigure {
	if g == nil {
		return store.GameFigure{State: "unreadable"}
	}
	state := gameState(g)
	return store.GameFigure{State: state, Clock: state == store.StatusPlaying.String() && g.Step != nil}
}

// recount counts every game again (once, for a file written before the counts).
func recount(tx *store.Tx) error {
	if err := store.ClearGameCounts(tx); err != nil {
		return err
	}
	for _, id := range store.Games(tx) {
		g, err := loadGame(tx, id)
		if err != nil {
			g = nil // counted as unreadable until saveGame writes it
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
	case g.Status == store.StatusOver:
		return g.Status.String()
	case !g.PausedAt.IsZero():
		return "paused"
	case g.Step != nil && g.Step.Waiting:
		return "waiting"
	}
	return g.Status.String()
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
	for _, k := range keys(g.Step) {
		if _, ok := g.Step.Orders[k]; ok {
			continue
		}
		side := g.sideOfKey(k)
		who := side + " (" + k + ")" // a team game keeps orders by player
		if i := slices.IndexFunc(g.Players, func(p player) bool { return p.Side == side }); k == side && i >= 0 {
			who = side + " (" + g.Players[i].ID + ")"
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
