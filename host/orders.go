package host

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
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

func notice(lines ...string) templates.Notice { return templates.Notice{Lines: lines} }

// orders takes a side's orders for the step awaited (or CHECK validates them, or NONE
// declines): understood and legal orders are recorded at once and receipted with their
// record and hash; anything wrong is answered by line and nothing is recorded. When every
// side asked has answered, the step is resolved and the game goes on.
func (h *Host) orders(tx *store.Tx, a *actor) error {
	if a.p == nil {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, "Referees do not send orders.")
	}
	if a.g.Status == store.StatusOver {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, "The game is over; nothing was recorded. LOG sends you the log.")
	}
	eng, err := h.engine(tx, a.id)
	if err != nil {
		return err
	}
	st := eng.Next()
	_, teamGame, err := team(tx, a.id)
	if err != nil {
		return err
	}
	a.team = teamGame
	if a.req.Command == mail.CmdOrders && (a.g.Step == nil || !slices.Contains(st.Sides, a.p.Side) || !asks(a.g.Step, a.p)) {
		if a.g.Status == store.StatusPlaying { // standing orders are taken at any time (standing.go), from a team player the step does not ask too
			if done, err := h.standingAlone(tx, a, eng); done || err != nil {
				return err
			}
		}
		if _, ok := eng.(adjudicator.AdvanceOrders); ok && a.g.Status == store.StatusPlaying {
			return h.hold(tx, a, eng)
		}
	}
	if a.g.Step == nil || st.Kind != adjudicator.NeedOrders || !slices.Contains(st.Sides, a.p.Side) {
		what := "nothing"
		if a.g.Step != nil {
			what = a.g.Step.What + " (" + strings.Join(a.g.Step.Sides, ", ") + ")"
		}
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, "No orders are awaited from your side now; nothing was recorded.", "The game waits for: "+what+".")
	}
	who, refusal, err := h.standInFor(tx, a) // a team game's commander may answer for a player: FOR carol
	if err != nil {
		return err
	}
	if refusal != "" {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, refusal+"; nothing was recorded.")
	}
	if !asks(a.g.Step, who) { // a team game: the step asks others of the side
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, "No orders are awaited from you now: this step asks for units of your side that others command; nothing was recorded.",
			"The game waits for: "+a.g.Step.What+".")
	}
	var orders, later []adjudicator.Order // later: advance orders sent along, held once the mail is accepted
	var standing []adjudicator.Order      // v4: standing orders, recorded on their own (standing.go)
	sto, sealing := sealedStanding(tx, a.id, eng)
	if a.req.Command != mail.CmdNone {
		var errs []adjudicator.LineError
		orders, errs = eng.Parse(a.p.Side, a.req.OrderText())
		if sealing {
			standing, orders = sto.Standing(a.p.Side, orders)
			errs = append(errs, sto.ValidateStanding(a.p.Side, standing)...)
		}
		if adv, ok := eng.(adjudicator.AdvanceOrders); ok && a.req.Command == mail.CmdOrders {
			now := adv.Applicable(a.p.Side, orders)
			later = adv.Later(a.p.Side, orders)
			if t, ok := eng.(adjudicator.Teams); ok && a.team {
				now, later = actingNow(t, a.p.Side, now, later)
			}
			switch {
			case len(later) > 0 && len(now) > 0:
				orders = without(orders, later) // what is neither due nor later is refused below
			case len(later) > 0 && len(later) == len(orders) && !st.Secret && len(errs) > 0:
				orders, later = nil, nil // refused for the lines not understood, which may be the step's
			case len(later) > 0 && len(later) == len(orders) && !st.Secret:
				return h.hold(tx, a, eng)
			default:
				later = nil
			}
		}
		// Every error in one pass: the lines that parsed are validated even when
		// others did not, so a typo hides no illegal line; a line that did not parse is
		// reported once, by the parser.
		errs = append(errs, eng.Validate(a.p.Side, orders)...)
		theirs, err := foreign(tx, a.id, eng, who, append(slices.Clone(orders), standing...)) // a team game: his own units only (or those of whom he answers for), standing orders too
		if err != nil {
			return err
		}
		errs = byLine(append(errs, theirs...))
		if len(errs) > 0 {
			return h.queue(tx, a.g, a.to(), "errors", refusedSubject("orders", errs), errorsBody(errs), a.msg.MessageID, nil)
		}
	}
	canonical := adjudicator.Canonical(orders)
	if a.req.Command == mail.CmdCheck {
		body := templates.Receipt{Orders: canonical + adjudicator.Canonical(standing), Check: true}
		if c, ok := eng.(adjudicator.Checker); ok && len(orders) > 0 {
			body.Preview = c.Check(a.p.Side, orders)
		}
		return h.queue(tx, a.g, a.to(), "receipt", receiptSubject(true), body, a.msg.MessageID, nil)
	}
	if prev, ok := a.g.Step.Orders[orderKey(a.g.Step, who)]; ok && a.written.Before(prev.Written) {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, olderThan(a.written, prev.Written, fmt.Sprintf("the orders accepted as record #%d", prev.Index))...)
	}
	var standingAt string
	if len(standing) > 0 { // before the orders record: the step may apply them (Step.Standing)
		so, _ := sealedStanding(tx, a.id, eng)
		recs, err := play.RecordStanding(tx, a.id, so, a.p.ID, standing, h.cfg.Now(), a.msg.MessageID)
		if err != nil {
			return err
		}
		standingAt = recordsText(recs)
	}
	so := play.SideOrders{Player: a.p.ID, Side: a.p.Side, Orders: orders, Entropy: []byte(a.req.Entropy), Received: h.cfg.Now(), MessageID: a.msg.MessageID}
	if who != a.p {
		so.For = who.ID
	}
	i, hash, err := play.Record(tx, a.id, st, so)
	if err != nil {
		return err
	}
	a.g.Step.Orders[orderKey(a.g.Step, who)] = received{Player: a.p.ID, Index: i, Text: canonical, Entropy: a.req.Entropy, Time: so.Received, MsgID: so.MessageID,
		Written: a.written}
	if who != a.p { // the commander answered for him: he is told, and may still send his own
		if err := h.notice(tx, a.g, recipient{p: who}, "", fmt.Sprintf("%s, your side's commander, answered for you in %s (record #%d); your own orders, if you send them before the step closes, replace them.",
			a.p.ID, a.g.Step.What, i)); err != nil {
			return err
		}
	}
	if len(later) > 0 { // before the step resolves: a step that follows may use them
		if err := h.holdLater(tx, a, adjudicator.Canonical(later)); err != nil {
			return err
		}
	}
	round := ""
	if complete(a.g.Step) && !a.g.paused() { // a beacon game: the receipt names the round (beacon.go)
		if round, err = h.roundBeforeReceipt(tx, a.id, a.g, eng, a.p); err != nil {
			return err
		}
	}
	sender, err := ledger.SenderRecord(tx, a.id, i)
	if err != nil {
		return err
	}
	receipt := templates.Receipt{Record: i, Hash: fmt.Sprintf("%x", hash[:]), Orders: canonical, Entropy: a.req.Entropy, MessageID: a.msg.MessageID,
		Paused: a.g.paused(), Held: a.g.heldNow(a.heldKey()), Advance: takesAdvance(eng), Round: round,
		Standing: adjudicator.Canonical(standing), StandingRecords: standingAt, Sender: sender}
	if !complete(a.g.Step) || a.g.paused() { // paused: adjudicated when the game resumes
		return h.queue(tx, a.g, a.to(), "receipt", receiptSubject(false), receipt, a.msg.MessageID, nil)
	}
	// The orders complete the step: the receipt leads the mail that reports it (moment.go).
	a.g.holdReceipt(a.p, receipt, a.msg.MessageID)
	if err := h.resolve(tx, a.id, a.g, eng); err != nil {
		return err
	}
	return h.sendHeldReceipt(tx, a.g)
}

// actingNow moves out of later, into now, the orders of a team player that give orders only to
// units the step now asks of his side (adjudicator.Teams.Acting): a fury chit asks the
// commanders of every group it may activate again for their orders, in case theirs is the
// one chosen (docs/LEPANTO.md "Team games"), which the side's commander's ACTIVATE names;
// alone, such lines are no advance orders.
func actingNow(t adjudicator.Teams, side string, now, later []adjudicator.Order) ([]adjudicator.Order, []adjudicator.Order) {
	acting := t.Acting(side)
	var still []adjudicator.Order
	for _, o := range later {
		units := t.OrderUnits(side, o)
		if len(units) > 0 && !slices.ContainsFunc(units, func(u string) bool { return !slices.Contains(acting, u) }) {
			now = append(now, o)
		} else {
			still = append(still, o)
		}
	}
	return now, still
}

func without(all, some []adjudicator.Order) []adjudicator.Order {
	var out []adjudicator.Order
	for _, o := range all {
		if !slices.Contains(some, o) {
			out = append(out, o)
		}
	}
	return out
}

// hold keeps orders sent ahead for steps to come (docs/DESIGN.md 3.4): they are checked for syntax
// now, kept out of the log (so that the opponent learns nothing of them), and used when
// their step comes if they are still legal; otherwise the player is asked then.
//
// Orders meant for a step already resolved are refused as stale, and so are
// lines that name no unit of the side in play: a unit of the other side, one
// that does not exist or is out of play, or an order given only when asked.
func (h *Host) hold(tx *store.Tx, a *actor, eng adjudicator.Game) error {
	if lines := h.stale(a, eng); lines != nil {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, lines...)
	}
	orders, errs := eng.Parse(a.p.Side, a.req.OrderText())
	var standing []adjudicator.Order // v4: recorded on their own (standing.go)
	if so, ok := sealedStanding(tx, a.id, eng); ok {
		standing, orders = so.Standing(a.p.Side, orders)
		errs = append(errs, so.ValidateStanding(a.p.Side, standing)...)
	}
	theirs, err := foreign(tx, a.id, eng, a.p, append(slices.Clone(orders), standing...)) // a team game: his own units only
	if err != nil {
		return err
	}
	errs = byLine(append(append(errs, notHeld(a, eng, orders)...), theirs...)) // every error in one pass
	if len(errs) > 0 {
		return h.queue(tx, a.g, a.to(), "errors", refusedSubject("advance orders", errs), errorsBody(errs), a.msg.MessageID, nil)
	}
	var taken standingTaken
	if len(standing) > 0 {
		so, _ := sealedStanding(tx, a.id, eng)
		recs, err := play.RecordStanding(tx, a.id, so, a.p.ID, standing, h.cfg.Now(), a.msg.MessageID)
		if err != nil {
			return err
		}
		taken = standingTaken{records: recs, text: adjudicator.Canonical(standing)}
	}
	text := adjudicator.Canonical(orders)
	if prev, ok := a.g.Held[a.heldKey()]; ok && a.written.Before(prev.Written) {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, olderThan(a.written, prev.Written, "the advance orders held now")...)
	}
	a.g.setHeld(a.heldKey(), a.held(text, h.cfg.Now()))
	lines := []string{"Your orders are held as advance orders; each line is used when the step it belongs to comes (its group's marker drawn, its division's card turned, its phase reached), if it is still legal then. They replace any advance orders you sent before:", text}
	if s := a.g.Step; s != nil { // everything held for the side
		if cur, ok := s.Orders[orderKey(s, a.p)]; ok {
			lines = append(lines, fmt.Sprintf("Your orders for the step open now (T%d A%d, %s) stand too, as record #%d:", s.Turn, s.Act, s.What, cur.Index), cur.Text)
		}
	}
	return h.notice(tx, a.g, a.to(), a.msg.MessageID, append(lines, taken.lines("")...)...)
}

// notHeld refuses, by line, the advance orders that belong to no later activation of the
// side's units.
func notHeld(a *actor, eng adjudicator.Game, orders []adjudicator.Order) []adjudicator.LineError {
	adv, ok := eng.(adjudicator.AdvanceOrders)
	if !ok {
		return nil
	}
	lines := strings.Split(a.req.OrderText(), "\n")
	var errs []adjudicator.LineError
	for _, o := range without(orders, adv.Later(a.p.Side, orders)) {
		text := ""
		if n := o.Line(); n >= 1 && n <= len(lines) {
			text = strings.TrimSpace(lines[n-1])
		}
		errs = append(errs, adjudicator.LineError{Line: o.Line(), Text: text, Err: fmt.Errorf(
			"%w: advance orders are held only for units of your side (%s) still in play, for a later activation; this line names a unit of the other side, one not in play or not in the game, or an order given only when asked",
			adjudicator.ErrIllegal, a.p.Side)})
	}
	return errs
}

// stepRE finds the step a mail names: "T1 A1" in a reply's subject or on its GAME line.
var stepRE = regexp.MustCompile(`\bT(\d{1,6}) A(\d{1,6})\b`)

// stale says why orders that would be held as advance orders were meant for a step already
// resolved, or returns nil: the mail names a step (its subject, a reply to a request or
// receipt, or its GAME line) before the one open now, or it was written before the side's
// latest step was resolved.
func (h *Host) stale(a *actor, eng adjudicator.Game) []string {
	turn, act := stepTurn(a.g, eng), eng.Next().Act
	if a.g.Step != nil {
		act = a.g.Step.Act
	}
	open := "Open now: nothing."
	if a.g.Step != nil {
		open = fmt.Sprintf("Open now: T%d A%d, %s, orders from %s.", a.g.Step.Turn, a.g.Step.Act, a.g.Step.What, strings.Join(a.g.Step.Sides, ", "))
	}
	again := "Nothing was recorded. To give orders for a later activation of your units, send them again in a new mail (not a reply to an older one)."
	for _, s := range []string{a.req.At, strings.ToUpper(a.msg.Subject)} {
		m := stepRE.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		t, _ := strconv.ParseUint(m[1], 10, 32)
		n, _ := strconv.ParseUint(m[2], 10, 32)
		if uint32(t) < turn || uint32(t) == turn && uint32(n) < act {
			return []string{fmt.Sprintf("These orders are for T%d A%d, a step already resolved; they are stale.", t, n), open, again}
		}
		break
	}
	if closed := a.g.Closed[a.p.Side]; !closed.IsZero() && a.written.Before(closed) {
		return []string{fmt.Sprintf("These orders were written at %s, before your side's last step was resolved (at %s): they were meant for a step already resolved; they are stale.",
			a.written.Format("2006-01-02 15:04:05 UTC"), closed.UTC().Format("2006-01-02 15:04:05 UTC")), open, again}
	}
	return nil
}

// holdLater keeps the advance orders that came with accepted orders for the step, unless
// they were written before the advance orders held now, which the player is told.
func (h *Host) holdLater(tx *store.Tx, a *actor, text string) error {
	if prev, ok := a.g.Held[a.heldKey()]; ok && a.written.Before(prev.Written) {
		lines := olderThan(a.written, prev.Written, "the advance orders held now")
		lines[0] = "The orders for the step were accepted. " + strings.Replace(lines[0], "These orders", "The advance orders that came with them", 1)
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, lines...)
	}
	a.g.setHeld(a.heldKey(), a.held(text, h.cfg.Now()))
	return nil
}

// held is advance orders of a's mail: who sent them, with which mail and entropy, so that
// the orders record written when they are used names the player's own mail (verify --sent;
// docs/LOG-FORMAT.md 3).
func (a *actor) held(text string, at time.Time) received {
	return received{Player: a.p.ID, Text: text, Entropy: a.req.Entropy, Time: at, MsgID: a.msg.MessageID, Written: a.written}
}

func (g *game) setHeld(side string, r received) {
	if g.Held == nil {
		g.Held = map[string]received{}
	}
	g.Held[side] = r
}

// written is when the sender wrote the mail: its Date, or its arrival when the Date is
// missing or later (a fast clock must not make a player's later mails look older).
func (h *Host) written(in *mail.Incoming) time.Time {
	now := h.cfg.Now().UTC().Truncate(time.Second)
	if d := in.Date.UTC(); !d.IsZero() && d.Before(now) {
		return d
	}
	return now
}

// olderThan explains why orders written before those in place do not replace them: mail
// can arrive out of order, and the latest written are the player's intent.
func olderThan(written, prev time.Time, what string) []string {
	return []string{fmt.Sprintf("These orders were written at %s, before %s (written at %s), so they do not replace them; nothing was recorded.",
		written.Format("2006-01-02 15:04:05 UTC"), what, prev.Format("2006-01-02 15:04:05 UTC")),
		"Mail can arrive out of order; the orders written last count. To replace them after all, send these again."}
}

// useHeld records, for each side asked (in a team game each player asked), the advance
// orders that belong to the step if they are legal now (in a team game, for units the player
// still commands); it reports whether everyone asked has orders.
func (h *Host) useHeld(tx *store.Tx, id ident.GameID, g *game, eng adjudicator.Game) (bool, error) {
	adv, ok := eng.(adjudicator.AdvanceOrders)
	if !ok || g.Step.Secret {
		return false, nil
	}
	as, _, err := team(tx, id)
	if err != nil {
		return false, err
	}
	for _, key := range keys(g.Step) {
		held, ok := g.Held[key]
		if !ok {
			continue
		}
		side := g.sideOfKey(key)
		parsed, _ := eng.Parse(side, held.Text)
		use := adv.Applicable(side, parsed)
		player := held.Player
		if player == "" { // held before the sender was kept
			player = g.sidePlayers(side)[0].ID
		}
		if len(g.Step.Players) > 0 { // commands may have changed since (ASSIGN)
			use = without(use, foreignOrders(play.Foreign(eng, side, player, use, as), use))
		}
		if len(use) == 0 || len(eng.Validate(side, use)) > 0 {
			continue
		}
		so := play.SideOrders{Player: player, Side: side, Orders: use, Received: held.Time, MessageID: held.MsgID, Entropy: []byte(held.Entropy), Held: true}
		i, _, err := play.Record(tx, id, eng.Next(), so)
		if err != nil {
			return false, err
		}
		g.Step.Orders[key] = received{Player: player, Index: i, Text: adjudicator.Canonical(use), Entropy: held.Entropy, Time: held.Time, MsgID: held.MsgID}
		g.noteUsed(side, fmt.Sprintf("T%d A%d, %s: %s advance orders were used, as record #%d:\n%s", g.Step.Turn, g.Step.Act, g.Step.What, whose(g, player), i,
			strings.TrimSuffix(adjudicator.Canonical(use), "\n")))
		if rest := without(parsed, use); len(rest) > 0 {
			left := held
			left.Text = adjudicator.Canonical(rest)
			g.setHeld(key, left)
		} else {
			delete(g.Held, key)
		}
	}
	return complete(g.Step), nil
}

// whose names, in a side's report, whose advance orders were used: "your", or in a team
// game the player's ("carol's"), since the whole side reads it.
func whose(g *game, player string) string {
	if len(g.Step.Players) > 0 {
		return player + "'s"
	}
	return "your"
}

// foreignOrders are the orders of use that errs (play.Foreign's, one a line) refuse.
func foreignOrders(errs []adjudicator.LineError, use []adjudicator.Order) []adjudicator.Order {
	var out []adjudicator.Order
	for _, o := range use {
		for _, e := range errs {
			if e.Line == o.Line() && e.Text == o.String() {
				out = append(out, o)
				break
			}
		}
	}
	return out
}

// byLine orders errors by the line they are on, keeping the order of errors of one line; an
// error of no line (Line 0) comes first.
func byLine(errs []adjudicator.LineError) []adjudicator.LineError {
	slices.SortStableFunc(errs, func(a, b adjudicator.LineError) int { return a.Line - b.Line })
	return errs
}

// noteUsed keeps, for side's next report, that held advance orders were used.
func (g *game) noteUsed(side, note string) {
	if g.used == nil {
		g.used = map[string][]string{}
	}
	g.used[side] = append(g.used[side], note)
}

// heldNow is what side has held as advance orders ("" for none), for receipts.
func (g *game) heldNow(side string) string {
	if r, ok := g.Held[side]; ok {
		return r.Text
	}
	return ""
}

func takesAdvance(eng adjudicator.Game) bool {
	_, ok := eng.(adjudicator.AdvanceOrders)
	return ok
}

// errorsBody lists refused lines, their control characters shown visibly.
func errorsBody(errs []adjudicator.LineError) templates.Errors {
	var b templates.Errors
	for _, e := range errs {
		text, c1 := visible(e.Text)
		reason, c2 := visible(e.Err.Error())
		legal, _ := visible(strings.Join(e.Legal, " "))
		if c1 || c2 {
			reason += " " + shownVisibly
		}
		b.Lines = append(b.Lines, templates.ErrorLine{Line: e.Line, Text: text, Reason: reason, Legal: legal})
	}
	return b
}

// resolve closes the awaited step with the orders received (a side without orders gets the
// rules' default) and lets the game go on.
func (h *Host) resolve(tx *store.Tx, id ident.GameID, g *game, eng adjudicator.Game) error {
	start, err := store.Len(tx, id)
	if err != nil {
		return err
	}
	res, err := h.resolveStep(tx, id, g, eng)
	if isAwait(err) { // a beacon game: the step goes on when its round comes (beacon.go)
		return nil
	}
	if err != nil {
		return err
	}
	return h.advanceFrom(tx, id, g, eng, start, res.Checkpoint)
}

// resolveStep resolves the awaited step with the orders recorded for it.
func (h *Host) resolveStep(tx *store.Tx, id ident.GameID, g *game, eng adjudicator.Game) (play.Result, error) {
	var orders []play.SideOrders
	var uses []uint64
	for _, k := range keys(g.Step) {
		r, ok := g.Step.Orders[k]
		if !ok {
			continue
		}
		side := g.sideOfKey(k)
		parsed, _ := eng.Parse(side, r.Text)
		orders = append(orders, play.SideOrders{Player: r.Player, Side: side, Orders: parsed})
		uses = append(uses, r.Index)
	}
	if err := h.fixRound(tx, id, g, eng.Next(), uses, nil); err != nil {
		return play.Result{}, err
	}
	res, err := play.Resolve(tx, id, eng, orders, uses)
	if g.Closed == nil {
		g.Closed = map[string]time.Time{}
	}
	for _, side := range g.Step.Sides {
		g.Closed[side] = h.cfg.Now().UTC().Truncate(time.Second)
	}
	g.Step = nil
	return res, err
}

// status resends the map and what the game waits for.
func (h *Host) status(tx *store.Tx, a *actor) error {
	eng, err := h.engine(tx, a.id)
	if err != nil {
		return err
	}
	side := a.side()
	full := len(a.req.Args) > 0 && strings.EqualFold(a.req.Args[0], "FULL")
	png, err := h.mapFile(tx, a.id, eng, a.g, side, full)
	if err != nil {
		return err
	}
	what := "nothing (the game is " + a.g.Status.String() + ")"
	if a.g.Step != nil {
		what = a.g.Step.What + " from " + strings.Join(a.g.Step.Sides, ", ")
	}
	return h.queue(tx, a.g, a.to(), "notice", "status", notice("The game waits for: "+what+".", "The map is attached."), a.msg.MessageID, png)
}

// reportLines reads the roll and event records from index start on, as side may see them.
func reportLines(tx *store.Tx, id ident.GameID, start uint64, side string) ([]templates.ReportLine, error) {
	var recs []gamelog.Record
	err := ledger.Read(tx, id, viewOf(side), start, func(r *gamelog.Record) error {
		recs = append(recs, *r)
		return nil
	})
	var out []templates.ReportLine
	seen := map[[2]uint64]bool{}
	for _, r := range recs {
		ta := [2]uint64{r.Uint("turn"), r.Uint("activation")}
		if (r.Type == gamelog.TypeRoll || r.Type == gamelog.TypeEvent) && !seen[ta] {
			seen[ta] = true
			out = append(out, templates.ReportLines(recs, ta[0], ta[1])...)
		}
	}
	return out, err
}

// viewOf is the view of the log a recipient has: his side's, or the referee's whole log.
func viewOf(side string) ledger.View { return ledger.View{Side: side, Full: side == ""} }
