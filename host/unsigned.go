package host

import (
	"fmt"

	"navarch/store"
)

// refuseUnsigned answers a player's or referee's mail that lacks the DKIM pass the
// installation requires (docs/deploy/README.md, DKIM). When the mail carries the right key
// (or comes by the tokenized reply address) although it was not signed by the owner's mail
// domain, someone else holds the key: the owner is told so at his address of record, with how
// to get a new one, at most once an hour per game and address (further such mails are
// logged, not answered), and the refusal is counted as forged.
func (h *Host) refuseUnsigned(tx *store.Tx, a *actor, log interface{ Info(string, ...any) }) error {
	log.Info("mail refused: no aligned DKIM pass", "game", a.g.Tag, "from", a.msg.From)
	key, err := h.keyOfActor(tx, a)
	if err != nil {
		return err
	}
	if !keyMatches(a.req.Key, key) && !h.tokenUsed(a.msg, a.id, key) {
		return h.refuse(tx, a, nil, func() error {
			h.rejected(tx, RejectDKIM)
			return h.done(tx, a, h.notice(tx, a.g, a.to(), a.msg.MessageID, "Your mail was not applied: this game requires mail signed (DKIM) by your mail domain, "+
				"and our mail server found no such signature. Nothing was changed; ask your mail provider whether it signs outgoing mail."))
		})
	}
	n, err := h.rate(tx, "leak:"+a.g.ID+":"+a.msg.From)
	if err != nil {
		return err
	}
	if n > 1 {
		h.log.Warn("mail refused: the sender's key without his domain's signature, owner told already this hour", "game", a.g.Tag, "from", a.msg.From, "message-id", a.msg.MessageID)
		return h.unauthenticated(tx, a.msg, func() error { h.rejected(tx, RejectForged); return h.keepMail(tx, a) })
	}
	how := fmt.Sprintf("Ask the operator for a new referee key (navarch game rekey %s %s); the old one stops counting.", a.g.Tag, a.msg.From)
	if a.p != nil {
		how = fmt.Sprintf("Ask the referee for a new key (the referee writes REKEY %s); it is mailed to you here, and the old one stops counting.", a.p.ID)
	}
	return h.refuse(tx, a, nil, func() error {
		h.rejected(tx, RejectForged)
		return h.done(tx, a, h.notice(tx, a.g, a.to(), "", fmt.Sprintf(
			"A mail in your name for game %s carried your key (or came by your reply address) but was not signed (DKIM) by your mail domain, "+
				"so it did not come from your mail provider: it was refused and nothing was changed. Your key is known to someone else.", a.g.Tag),
			how, "If you did send it, your mail provider did not sign it: ask it whether it signs outgoing mail."))
	})
}

// keyOfActor is the key of the sender: the player's, or the referee's.
func (h *Host) keyOfActor(tx *store.Tx, a *actor) (string, error) {
	if a.p != nil {
		return keyOf(tx, a.id, a.p.ID)
	}
	return refereeKey(tx, a.id, a.msg.From)
}
