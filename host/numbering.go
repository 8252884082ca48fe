package host

import (
	"navarch/gamelog"
	"navarch/ident"
	"navarch/store"
	"navarch/templates"
)

// numbered gives a mail the numbers of where the game stands, as its subjects, maps and
// report headings number it: the step the game waits for (its turn, activation and
// deadline) or, for a game that is over, its last step resolved, the game's real end.
func numbered(tx *store.Tx, id ident.GameID, g *game, m *templates.Mail) error {
	switch {
	case g.Step != nil:
		m.Turn, m.Act, m.Deadline = int(g.Step.Turn), int(g.Step.Act), g.Step.Deadline
	case g.Status == store.StatusOver:
		t, a, err := lastStep(tx, id)
		if err != nil {
			return err
		}
		m.Turn, m.Act, m.Over = int(t), int(a), true
	}
	return nil
}

// lastStep is the turn and activation of the log's last state record, sealed or not: the
// last step resolved (a step opened but not resolved when the game ended does not count).
func lastStep(tx *store.Tx, id ident.GameID) (uint64, uint64, error) {
	n, err := store.Len(tx, id)
	if err != nil {
		return 0, 0, err
	}
	for i := n; i > 0; i-- {
		r, err := store.Record(tx, id, i-1)
		if err != nil {
			return 0, 0, err
		}
		if r.Type == gamelog.TypeState || r.Type == gamelog.TypeSealed && r.Get("what") == gamelog.TypeState {
			return r.Uint("turn"), r.Uint("activation"), nil
		}
	}
	return 0, 0, nil
}

// tokenized reports whether a reply to r's mail carries r's key in its address (replyTo): the
// mail then asks for no KEY line.
func (h *Host) tokenized(g *game, r recipient) bool {
	return h.cfg.ReplyTokens && (r.p != nil || g.isReferee(r.address))
}
