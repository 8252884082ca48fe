package host

import (
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
	"navarch/webverify"
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
			g.Status, g.Step = store.StatusOver, nil
			return h.reports(tx, id, g, eng, start, ckpt)
		case adjudicator.Auto:
			var opened play.Result
			t, a, open, err := ledger.OpenStep(tx, id)
			if err != nil {
				return err
			}
			if !open || t != st.Turn || a != st.Act { // else opened before, waiting for its round
				if opened, err = play.Open(tx, id, eng, nil, time.Time{}); err != nil {
					return err
				}
			}
			res, err := h.resolveAuto(tx, id, g, eng, opened.Checkpoint)
			if isAwait(err) { // a beacon game: what happened so far is told now (beacon.go)
				return h.reports(tx, id, g, eng, start, res.Checkpoint)
			}
			if err != nil {
				return err
			}
			if res.Checkpoint != nil {
				ckpt = res.Checkpoint
			}
		case adjudicator.NeedOrders:
			deadline := h.cfg.Now().Add(h.deadline(g)).UTC().Truncate(time.Second)
			asked, err := askedPlayers(tx, id, eng, st) // a team game's: who commands what acts
			if err != nil {
				return err
			}
			players := asked
			if asked == nil {
				for _, side := range st.Sides {
					for _, p := range g.sidePlayers(side) {
						players = append(players, p.ID)
					}
				}
			}
			res, err := play.Open(tx, id, eng, players, deadline)
			if err != nil {
				return err
			}
			if res.Checkpoint != nil {
				ckpt = res.Checkpoint
			}
			opened, err := store.Len(tx, id)
			if err != nil {
				return err
			}
			g.Step = &step{Turn: st.Turn, Act: st.Act, Sides: st.Sides, What: st.What, Deadline: deadline,
				Secret: st.Secret, Default: st.Default, Orders: map[string]received{}, Opened: opened, Players: asked}
			complete, err := h.useHeld(tx, id, g, eng)
			if err != nil {
				return err
			}
			if !complete {
				return h.reports(tx, id, g, eng, start, ckpt)
			}
			res, err = h.resolveStep(tx, id, g, eng)
			if isAwait(err) {
				return h.reports(tx, id, g, eng, start, ckpt)
			}
			if err != nil {
				return err
			}
			if res.Checkpoint != nil {
				ckpt = res.Checkpoint
			}
		}
	}
}

// reports mails each player and referee what happened, the turn-end seed, and what comes
// next, as one mail per recipient at the moments that need him (moment.go): the report
// carries his receipt, the turn's end and the request for his orders.
func (h *Host) reports(tx *store.Tx, id ident.GameID, g *game, eng adjudicator.Game, start uint64, ckpt *gamelog.Checkpoint) error {
	for _, r := range h.recipients(g) {
		if err := h.report(tx, id, g, eng, start, r, ckpt); err != nil {
			return err
		}
	}
	g.used = nil
	return h.sendHeldReceipt(tx, g)
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

// asked reports whether the step now open waits for r's orders.
func asked(g *game, r recipient) bool {
	return g.Step != nil && r.p != nil && asks(g.Step, r.p)
}

// report mails r one mail, if this is a moment for him (mailedNow): his receipt, what
// happened since his last mail, the turn's end if ckpt is set, and the request if r's
// orders are due.
func (h *Host) report(tx *store.Tx, id ident.GameID, g *game, eng adjudicator.Game, start uint64, r recipient, ckpt *gamelog.Checkpoint) error {
	over := g.Status == store.StatusOver
	if !mailedNow(g, r, ckpt != nil, over) {
		return nil // held for his next mail
	}
	start = reportedFrom(g, r, start)
	n, err := store.Len(tx, id)
	if err != nil {
		return err
	}
	markReported(g, r, n)
	side := r.side()
	lines, err := reportLines(tx, id, start, side)
	if err != nil {
		return err
	}
	var end *templates.TurnEnd
	if ckpt != nil && !over {
		if end, err = h.turnEndBody(tx, id, g, r, ckpt); err != nil {
			return err
		}
	}
	var req *templates.Request
	if asked(g, r) {
		rb := requestBody(g, eng, r.p.Side)
		req = &rb
	}
	held := ownReceipt(g, r)
	if len(lines) > 0 || held != nil && (end != nil || req != nil) {
		worded(eng, lines)
		files, err := h.mapFile(tx, id, eng, g, side, false)
		if err != nil {
			return err
		}
		next := "the game is over"
		if g.Step != nil {
			next = g.Step.What + " (" + strings.Join(g.Step.Sides, ", ") + ")"
		}
		body := templates.Report{Lines: lines, Next: next, Summary: summary(eng, side), TurnEnd: end, Request: req}
		if side != "" {
			body.Used = g.used[side]
		}
		if len(files) > 0 {
			body.Map = files[0].Name
		}
		inReplyTo := ""
		if held != nil {
			body.Receipt, inReplyTo, g.receipt = &held.body, held.inReplyTo, nil
		}
		if err := h.queue(tx, g, r, "report", h.reportSubject(g, eng, r, lines, end, req, held != nil), body, inReplyTo, files); err != nil {
			return err
		}
	} else {
		if held != nil { // his receipt alone: nothing else is due him now
			if err := h.sendHeldReceipt(tx, g); err != nil {
				return err
			}
		}
		if end != nil {
			if err := h.queue(tx, g, r, "turnend", turnOverSubject(end.Turn), *end, "", nil); err != nil {
				return err
			}
		}
		if req != nil {
			// A request that no report carries still shows the board to play from.
			files, err := h.mapFile(tx, id, eng, g, side, false)
			if err != nil {
				return err
			}
			if len(files) > 0 {
				req.Map = files[0].Name
			}
			if err := h.queue(tx, g, r, "request", h.reportSubject(g, eng, r, nil, nil, req, false), *req, "", files); err != nil {
				return err
			}
		}
	}
	if over && ckpt != nil {
		return h.gameEnd(tx, id, g, eng, r, ckpt)
	}
	return nil
}

func stepTurn(g *game, eng adjudicator.Game) uint32 {
	if g.Step != nil {
		return g.Step.Turn
	}
	return eng.Next().Turn
}

// turnEndBody is the turn's end as r is told it: the revealed seed and the checkpoint.
func (h *Host) turnEndBody(tx *store.Tx, id ident.GameID, g *game, r recipient, c *gamelog.Checkpoint) (*templates.TurnEnd, error) {
	turn, seed, err := lastReveal(tx, id)
	if err != nil {
		return nil, err
	}
	verifier, err := verifierKey(tx, id)
	if err != nil {
		return nil, err
	}
	return &templates.TurnEnd{Turn: turn, Seed: seed, Checkpoint: c.Block(), Verifier: verifier, LogFile: logFile(g, r)}, nil
}

// turnEnd mails r the turn's end alone: the revealed seed and the checkpoint.
func (h *Host) turnEnd(tx *store.Tx, id ident.GameID, g *game, r recipient, c *gamelog.Checkpoint) error {
	end, err := h.turnEndBody(tx, id, g, r, c)
	if err != nil {
		return err
	}
	return h.queue(tx, g, r, "turnend", turnOverSubject(end.Turn), *end, "", nil)
}

// gameEnd is the last mail: the result, the final map, the positions and the victory-point
// breakdown as the ruleset's Summarizer gives them, and the whole log.
func (h *Host) gameEnd(tx *store.Tx, id ident.GameID, g *game, eng adjudicator.Game, r recipient, c *gamelog.Checkpoint) error {
	verifier, err := verifierKey(tx, id)
	if err != nil {
		return err
	}
	att, err := export(tx, g, id, r.side(), r.p == nil)
	if err != nil {
		return err
	}
	result := ""
	if rec, err := lastOf(tx, id, gamelog.TypeEnd); err == nil && rec != nil {
		result = rec.Get("result")
	}
	var files []mail.Attachment
	if eng != nil { // nil: a game this navarch cannot continue (Stranded) has no map
		if files, err = h.mapFile(tx, id, eng, g, r.side(), false); err != nil {
			return err
		}
	}
	body := templates.GameEnd{Result: result, Checkpoint: c.Block(), Export: att.Name, Verifier: verifier, Summary: summary(eng, r.side())}
	if gen, err := store.Record(tx, id, 0); err == nil {
		body.Format = gen.Get("format")
	}
	if len(files) > 0 {
		body.Map = files[0].Name
	}
	page := mail.Attachment{Name: "navarch-verify.html", ContentType: "text/html", Data: webverify.Page}
	return h.queue(tx, g, r, "gameend", gameOverSubject(result), body, "", append(files, att, page))
}

// summary is the ruleset's summary for side, section by section, as the mails show it.
func summary(eng adjudicator.Game, side string) []templates.Section {
	s, ok := eng.(adjudicator.Summarizer)
	if !ok {
		return nil
	}
	var out []templates.Section
	for _, sec := range s.Summary(side) {
		out = append(out, templates.Section{Heading: sec.Heading, Lines: sec.Lines})
	}
	return out
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
