package host

import (
	"strings"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/mail"
	"navarch/store"
	"navarch/templates"
)

// history answers HISTORY: the game so far, turn by turn, in words, from the
// log as the sender's side sees it (ledger.Read; the referee sees it whole). Events are
// told in log order; rolls are left to the reports and the log.
func (h *Host) history(tx *store.Tx, a *actor) error {
	var body templates.History
	err := ledger.Read(tx, a.id, viewOf(a.side()), 0, func(r *gamelog.Record) error {
		if r.Type != gamelog.TypeEvent {
			return nil
		}
		t := r.Uint("turn")
		if n := len(body.Turns); n == 0 || body.Turns[n-1].Turn != t {
			body.Turns = append(body.Turns, templates.HistoryTurn{Turn: t})
		}
		last := &body.Turns[len(body.Turns)-1]
		last.Events = append(last.Events, strings.Join(r.All("text"), " "))
		return nil
	})
	if err != nil {
		return err
	}
	return h.queue(tx, a.g, a.to(), "history", "history: the game so far", body, a.msg.MessageID, nil)
}

// digest answers DIGEST ON and DIGEST OFF, and REPORTS DIGEST and REPORTS EACH
// (moment.go): DIGEST OFF is REPORTS EACH.
func (h *Host) digest(tx *store.Tx, a *actor) error {
	arg := strings.ToUpper(strings.Join(a.req.Args, " "))
	switch {
	case arg == "EACH" || arg == "OFF" && a.req.Command == mail.CmdDigest:
		return h.reportsMode(tx, a, true)
	case arg == "DIGEST" || arg == "ON" && a.req.Command == mail.CmdDigest:
		return h.reportsMode(tx, a, false)
	}
	return h.notice(tx, a.g, a.to(), a.msg.MessageID, "Write "+mail.CmdReports+" EACH (every step's report) or "+mail.CmdReports+" DIGEST (a mail when your orders are needed or a game turn ends).")
}
