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
			g.Status, g.Step = "over", nil
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
			opened, err := store.Len(tx, id)
			if err != nil {
				return err
			}
			g.Step = &step{Turn: st.Turn, Act: st.Act, Sides: st.Sides, What: st.What, Deadline: deadline,
				Secret: st.Secret, Default: st.Default, Orders: map[string]received{}, Opened: opened}
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
// next, as one mail per recipient: the report carries the turn's end and the
// request for the recipient's orders. A player who asked for a digest (DIGEST ON) gets mail
// only when his orders are needed or the game is over, with everything since his last one.
func (h *Host) reports(tx *store.Tx, id ident.GameID, g *game, eng adjudicator.Game, start uint64, ckpt *gamelog.Checkpoint) error {
	for _, r := range h.recipients(g) {
		if err := h.report(tx, id, g, eng, start, r, ckpt); err != nil {
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

// asked reports whether the step now open waits for r's orders.
func asked(g *game, r recipient) bool {
	return g.Step != nil && r.p != nil && slices.Contains(g.Step.Sides, r.p.Side)
}

// report mails r one mail: what happened since record start (or, for a digest, since r's
// last mail), the turn's end if ckpt is set, and the request if r's orders are due.
func (h *Host) report(tx *store.Tx, id ident.GameID, g *game, eng adjudicator.Game, start uint64, r recipient, ckpt *gamelog.Checkpoint) error {
	over := g.Status == "over"
	digest := r.p != nil && r.p.Digest
	if digest && !asked(g, r) && !over {
		return nil // held for the player's next mail
	}
	if digest && r.p.Reported > 0 && r.p.Reported < start {
		start = r.p.Reported
	}
	n, err := store.Len(tx, id)
	if err != nil {
		return err
	}
	if r.p != nil {
		r.p.Reported = n
	}
	side := r.side()
	lines, err := reportLines(tx, id, start, side)
	if err != nil {
		return err
	}
	var end *templates.TurnEnd
	if ckpt != nil && !over && !digest {
		if end, err = h.turnEndBody(tx, id, g, r, ckpt); err != nil {
			return err
		}
	}
	var req *templates.Request
	if asked(g, r) {
		rb := requestBody(g, eng, r.p.Side)
		req = &rb
	}
	if len(lines) > 0 {
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
		if err := h.queue(tx, g, r, "report", subject(g, eng, lines, end, req), body, "", files); err != nil {
			return err
		}
	} else {
		if end != nil {
			if err := h.queue(tx, g, r, "turnend", turnOver, *end, "", nil); err != nil {
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
			if err := h.queue(tx, g, r, "request", subject(g, eng, nil, nil, req), *req, "", files); err != nil {
				return err
			}
		}
	}
	if over && ckpt != nil {
		return h.gameEnd(tx, id, g, eng, r, ckpt)
	}
	return nil
}

// subject says what a mail is, numbered as the map's title: "your move: T3 A12
// action phase of group BAR, orders due Tue 1 Dec 18:00 UTC · report: BAR-VEN1 moves
// 0611→0711 (+3 more) · turn 2 over".
func subject(g *game, eng adjudicator.Game, lines []templates.ReportLine, end *templates.TurnEnd, req *templates.Request) string {
	var parts []string
	if req != nil {
		s := fmt.Sprintf("your move: T%d A%d %s", g.Step.Turn, g.Step.Act, shortWhat(req.What))
		if !g.Step.Deadline.IsZero() {
			s += ", orders due " + g.Step.Deadline.UTC().Format("Mon 2 Jan 15:04 MST")
		}
		parts = append(parts, s)
	}
	if len(lines) > 0 {
		parts = append(parts, "report: "+headline(eng, lines))
	}
	if end != nil {
		parts = append(parts, fmt.Sprintf("turn %d over", end.Turn))
	}
	return strings.Join(parts, " · ")
}

// shortWhat is a step's description without its parenthesis: "action phase of group BAR".
func shortWhat(what string) string {
	if i := strings.Index(what, " ("); i > 0 {
		return what[:i]
	}
	return what
}

// headline is a report's weightiest event by the ruleset's ranking (adjudicator.Headline;
// the first without one), clipped, and how many more there are.
func headline(eng adjudicator.Game, lines []templates.ReportLine) string {
	var events []adjudicator.Event
	for _, l := range lines {
		if !l.Roll {
			events = append(events, adjudicator.Event{Rule: l.Rule, Text: l.Text})
		}
	}
	if len(events) == 0 {
		return fmt.Sprintf("%d rolls", len(lines))
	}
	s := events[adjudicator.Headline(eng, events)].Text
	if r := []rune(s); len(r) > 48 {
		s = strings.TrimSpace(string(r[:47])) + "…"
	}
	if len(events) > 1 {
		s += fmt.Sprintf(" (+%d more)", len(events)-1)
	}
	return s
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

// turnOver is the subject of a turn's end mailed alone.
const turnOver = "turn over: seed revealed"

// turnEnd mails r the turn's end alone: the revealed seed and the checkpoint.
func (h *Host) turnEnd(tx *store.Tx, id ident.GameID, g *game, r recipient, c *gamelog.Checkpoint) error {
	end, err := h.turnEndBody(tx, id, g, r, c)
	if err != nil {
		return err
	}
	return h.queue(tx, g, r, "turnend", turnOver, *end, "", nil)
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
	return h.queue(tx, g, r, "gameend", "game over: "+result, body, "", append(files, att, page))
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

// refusedSubject is the subject of refused orders: "orders refused: 3 errors".
func refusedSubject(what string, errs []adjudicator.LineError) string {
	if len(errs) == 1 {
		return what + " refused: 1 error"
	}
	return fmt.Sprintf("%s refused: %d errors", what, len(errs))
}
