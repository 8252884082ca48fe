package host

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"navarch/adjudicator"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/mail"
	"navarch/play"
	"navarch/store"
	"navarch/templates"
)

// advance runs the game on through steps that need no orders, then asks for orders.
func (h *Host) advance(tx *store.Tx, id ident.GameID, g *game) error {
	eng, err := h.engine(tx, id)
	if err != nil {
		return err
	}
	start, err := store.Len(tx, id)
	if err != nil {
		return err
	}
	return h.advanceFrom(tx, id, g, eng, start, nil)
}

// advanceFrom resolves automatic steps until the game needs orders or ends, then mails one
// report per recipient with everything since record start (and the map), a turn's seed and
// checkpoint when a turn ended, and the request for orders (docs/DESIGN.md 3.3-3.5).
func (h *Host) advanceFrom(tx *store.Tx, id ident.GameID, g *game, eng adjudicator.Game, start uint64, ckpt *gamelog.Checkpoint) error {
	for {
		st := eng.Next()
		switch st.Kind {
		case adjudicator.Over:
			g.Status, g.Step = "over", nil
			return h.reports(tx, id, g, eng, start, ckpt)
		case adjudicator.Auto:
			res, err := play.Step(tx, id, eng, nil, time.Time{})
			if err != nil {
				return err
			}
			if res.Checkpoint != nil {
				ckpt = res.Checkpoint
			}
		case adjudicator.NeedOrders:
			deadline := h.cfg.Now().Add(time.Duration(h.deadlineHours(g)) * time.Hour).UTC().Truncate(time.Second)
			var players []string
			for _, side := range st.Sides {
				for _, p := range g.sidePlayers(side) {
					players = append(players, p.ID)
				}
			}
			res, err := play.Open(tx, id, eng, players, deadline)
			if err != nil {
				return err
			}
			if res.Checkpoint != nil {
				ckpt = res.Checkpoint
			}
			g.Step = &step{Turn: st.Turn, Act: st.Act, Sides: st.Sides, What: st.What, Deadline: deadline,
				Secret: st.Secret, Default: st.Default, Orders: map[string]received{}}
			complete, err := h.useHeld(tx, id, g, eng)
			if err != nil {
				return err
			}
			if !complete {
				return h.reports(tx, id, g, eng, start, ckpt)
			}
			res, err = h.resolveStep(tx, id, g, eng)
			if err != nil {
				return err
			}
			if res.Checkpoint != nil {
				ckpt = res.Checkpoint
			}
		}
	}
}

// reports mails each player and referee what happened, the turn-end seed, and what comes next.
func (h *Host) reports(tx *store.Tx, id ident.GameID, g *game, eng adjudicator.Game, start uint64, ckpt *gamelog.Checkpoint) error {
	for _, r := range h.recipients(g) {
		if err := h.report(tx, id, g, eng, start, r); err != nil {
			return err
		}
		if ckpt != nil {
			if err := h.turnEnd(tx, id, g, r, ckpt); err != nil {
				return err
			}
		}
		if err := h.next(tx, g, eng, r); err != nil {
			return err
		}
	}
	g.used = nil
	return nil
}

func (h *Host) recipients(g *game) []recipient {
	var out []recipient
	for i := range g.Players {
		out = append(out, recipient{p: &g.Players[i]})
	}
	for _, r := range g.Referees {
		out = append(out, recipient{address: r})
	}
	return out
}

func (h *Host) report(tx *store.Tx, id ident.GameID, g *game, eng adjudicator.Game, start uint64, r recipient) error {
	side := r.side()
	lines, err := reportLines(tx, id, start, side)
	if err != nil || len(lines) == 0 {
		return err
	}
	worded(eng, lines)
	files, err := h.mapFile(tx, id, eng, g, side, false)
	if err != nil {
		return err
	}
	next := "the game is over"
	if g.Step != nil {
		next = g.Step.What + " (" + strings.Join(g.Step.Sides, ", ") + ")"
	}
	body := templates.Report{Lines: lines, Next: next, Summary: summary(eng, side)}
	if side != "" {
		body.Used = g.used[side]
	}
	if len(files) > 0 {
		body.Map = files[0].Name
	}
	return h.queue(tx, g, r, "report", fmt.Sprintf("T%d report", stepTurn(g, eng)), body, "", files)
}

func stepTurn(g *game, eng adjudicator.Game) uint32 {
	if g.Step != nil {
		return g.Step.Turn
	}
	return eng.Next().Turn
}

func (h *Host) turnEnd(tx *store.Tx, id ident.GameID, g *game, r recipient, c *gamelog.Checkpoint) error {
	turn, seed, err := lastReveal(tx, id)
	if err != nil {
		return err
	}
	verifier, err := verifierKey(tx, id)
	if err != nil {
		return err
	}
	if g.Status == "over" {
		att, err := export(tx, g, id, r.side(), r.p == nil)
		if err != nil {
			return err
		}
		result := ""
		if rec, err := lastOf(tx, id, gamelog.TypeEnd); err == nil && rec != nil {
			result = rec.Get("result")
		}
		return h.queue(tx, g, r, "gameend", "game over", templates.GameEnd{Result: result, Checkpoint: c.Block(), Export: att.Name,
			Verifier: verifier}, "", []mail.Attachment{att})
	}
	return h.queue(tx, g, r, "turnend", "turn over: seed revealed", templates.TurnEnd{Turn: turn, Seed: seed, Checkpoint: c.Block(),
		Verifier: verifier, LogFile: logFile(g, r)}, "", nil)
}

// next asks a player for the orders the game now waits for from the player's side.
func (h *Host) next(tx *store.Tx, g *game, eng adjudicator.Game, r recipient) error {
	if g.Step == nil || r.p == nil || !slices.Contains(g.Step.Sides, r.p.Side) {
		return nil
	}
	return h.queue(tx, g, r, "request", fmt.Sprintf("T%d A%d orders due", g.Step.Turn, g.Step.Act),
		requestBody(g, eng, r.p.Side), "", nil)
}

func summary(eng adjudicator.Game, side string) []string {
	if s, ok := eng.(adjudicator.Summarizer); ok {
		return s.Summary(side)
	}
	return nil
}

func lastOf(tx *store.Tx, id ident.GameID, typ string) (*gamelog.Record, error) {
	return ledger.Last(tx, id, ledger.View{Full: true}, typ)
}

// lastReveal is the latest revealed seed X_t and its game turn t (docs/DICE.md 5).
func lastReveal(tx *store.Tx, id ident.GameID) (uint32, string, error) {
	r, err := lastOf(tx, id, gamelog.TypeReveal)
	if err != nil || r == nil {
		return 0, "", err
	}
	return uint32(r.Uint("turn")), r.Get("seed"), nil
}
