package host

import (
	"fmt"
	"strings"

	"navarch/adjudicator"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/play"
	"navarch/store"
)

// Standing orders in a v4 game (docs/LOG-FORMAT.md 3, v4's standing orders): the standing
// lines of a mail (adjudicator.StandingOrders.Standing) are recorded on their own, sealed for
// the player's side, whether or not the mail answers a step; the next step that applies his
// side's standing orders (Step.Standing) uses them, and its report tells both sides. The
// step's own orders record holds only the rest.

// sealedStanding returns the game's standing orders when they are kept in standing records:
// a v4 game whose ruleset has standing orders.
func sealedStanding(tx *store.Tx, id ident.GameID, eng adjudicator.Game) (adjudicator.StandingOrders, bool) {
	so, ok := eng.(adjudicator.StandingOrders)
	if !ok {
		return nil, false
	}
	g, err := store.Record(tx, id, 0)
	if err != nil || !gamelog.AtLeast(g.Get("format"), gamelog.FormatV4) {
		return nil, false
	}
	return so, true
}

// standingTaken is what takeStanding did with a mail's standing lines.
type standingTaken struct {
	rest    []adjudicator.Order   // the mail's other orders
	records []play.StandingRecord // the standing records, if any (v5: one a kind)
	text    string                // the standing orders recorded, canonical ("" for none)
	refused bool                  // the standing lines were refused by mail; nothing was recorded
}

// takeStanding records the standing lines of orders (a's mail, parsed) as a standing record,
// if the game keeps them sealed; a line that is not legal refuses the mail by line (nothing
// recorded). Without sealed standing orders everything is rest.
func (h *Host) takeStanding(tx *store.Tx, a *actor, eng adjudicator.Game, orders []adjudicator.Order) (standingTaken, error) {
	so, ok := sealedStanding(tx, a.id, eng)
	if !ok {
		return standingTaken{rest: orders}, nil
	}
	standing, rest := so.Standing(a.p.Side, orders)
	t := standingTaken{rest: rest}
	if len(standing) == 0 {
		return t, nil
	}
	theirs, err := foreign(tx, a.id, eng, a.p, standing) // a team game: standing orders for his own units only
	if err != nil {
		return t, err
	}
	if errs := byLine(append(so.ValidateStanding(a.p.Side, standing), theirs...)); len(errs) > 0 {
		t.refused = true
		return t, h.queue(tx, a.g, a.to(), "errors", refusedSubject("standing orders", errs), errorsBody(errs), a.msg.MessageID, nil)
	}
	recs, err := play.RecordStanding(tx, a.id, so, a.p.ID, standing, h.cfg.Now(), a.msg.MessageID)
	if err != nil {
		return t, err
	}
	t.records, t.text = recs, adjudicator.Canonical(standing)
	return t, nil
}

// recordsText names the standing records a mail's standing orders became, for a receipt:
// "record #12", or in a v5 game with several kinds "records #12 and #13 (#13: those of kind
// chit, which a step may apply alone)".
func recordsText(recs []play.StandingRecord) string {
	return indexesText(recs) + sendersText(recs)
}

// sendersText names the sender records of a team side's standing records (v5), which
// alone name the player: " (#13, sealed for your side until the game's end, names you as
// their sender)", or "" where the records name him.
func sendersText(recs []play.StandingRecord) string {
	var idx []string
	for _, r := range recs {
		if r.Sender != 0 {
			idx = append(idx, fmt.Sprintf("#%d", r.Sender))
		}
	}
	switch len(idx) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(" (record %s, sealed for your side until the game's end, names you as their sender)", idx[0])
	}
	return fmt.Sprintf(" (records %s, sealed for your side until the game's end, name you as their sender)", strings.Join(idx, ", "))
}

// indexesText is recordsText without the sender records.
func indexesText(recs []play.StandingRecord) string {
	if len(recs) == 1 {
		return fmt.Sprintf("record #%d", recs[0].Index)
	}
	var idx, kinds []string
	for _, r := range recs {
		idx = append(idx, fmt.Sprintf("#%d", r.Index))
		if r.Kind != "" {
			kinds = append(kinds, fmt.Sprintf("#%d: those of kind %s", r.Index, r.Kind))
		}
	}
	return fmt.Sprintf("records %s and %s (%s, which a step may apply alone, the others staying sealed)",
		strings.Join(idx[:len(idx)-1], ", "), idx[len(idx)-1], strings.Join(kinds, "; "))
}

// lines says, for a notice, what was done with the standing orders.
func (t standingTaken) lines(messageID string) []string {
	if t.text == "" {
		return nil
	}
	out := []string{fmt.Sprintf("Your standing orders are accepted as %s of the game's log, sealed for your side until the step that uses them (its report shows them to both sides); each holds until you change it:", recordsText(t.records)),
		strings.TrimSuffix(t.text, "\n")}
	if messageID != "" {
		out = append(out, "Recorded from your mail "+messageID+".")
	}
	return out
}

// standingAlone takes a mail that answers no step of the side and holds standing orders: they
// are recorded and receipted now, whatever else it holds. It reports whether the mail is
// done with (its standing orders alone, or refused).
func (h *Host) standingAlone(tx *store.Tx, a *actor, eng adjudicator.Game) (bool, error) {
	if _, ok := sealedStanding(tx, a.id, eng); !ok {
		return false, nil
	}
	orders, errs := eng.Parse(a.p.Side, a.req.OrderText())
	if len(errs) > 0 {
		return false, nil // refused, by line, where the mail is read as orders
	}
	if _, ok := eng.(adjudicator.AdvanceOrders); ok {
		if so, _ := sealedStanding(tx, a.id, eng); so != nil {
			if _, rest := so.Standing(a.p.Side, orders); len(rest) > 0 {
				return false, nil // advance orders with them: hold records both
			}
		}
	}
	t, err := h.takeStanding(tx, a, eng, orders)
	if err != nil || t.refused {
		return true, err
	}
	if t.text == "" {
		return false, nil
	}
	lines := t.lines(a.msg.MessageID)
	if len(t.rest) > 0 {
		lines = append(lines, "The other lines of your mail were not recorded: no orders are awaited from you now.")
	}
	return true, h.notice(tx, a.g, a.to(), a.msg.MessageID, lines...)
}
