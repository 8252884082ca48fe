package host

import (
	"fmt"
	"time"

	"navarch/mail"
	"navarch/store"
)

// The rate limit (docs/DESIGN.md 4: never flood). Mail is counted in clock
// hours in two kinds of bucket that never meet: an authenticated player's (or referee's)
// own, counted after authentication, and the From address of mail that did not
// authenticate. A flood forged in a player's name fills only the latter, so it can never
// cost the player his mail. A player over his limit is told once; orders the game asked
// for and has not yet had from his side are never counted.

// RateLimit is how many mails one sender may send in an hour unless Config says otherwise.
const RateLimit = 30

// rate counts one mail against a bucket in the current clock hour and returns the count so
// far, this one included (store's hourly counters, which expire).
func (h *Host) rate(tx *store.Tx, bucket string) (int, error) {
	return store.CountHour(tx, bucket, h.cfg.Now())
}

// allow counts a mail that did not authenticate against its From address and says whether
// it may still be answered; beyond the limit it is dropped unanswered (logged).
func (h *Host) allow(tx *store.Tx, from string) (bool, error) {
	n, err := h.rate(tx, "anon:"+from)
	return n <= h.cfg.RateLimit, err
}

// unauthenticated answers a mail that did not authenticate, within its From address's limit;
// a mail asking not to be auto-answered (mail.Incoming.Bulk) is not answered. Either is
// dropped (drop.go).
func (h *Host) unauthenticated(tx *store.Tx, in *mail.Incoming, answer func() error) error {
	return h.unauthenticatedWarn(tx, in, nil, answer)
}

// unauthenticatedWarn is unauthenticated with warn, if not nil, run first within the limit
// even for a mail that asks not to be auto-answered: it tells others than the sender (those
// whose key the mail used), which that header does not ask to spare.
func (h *Host) unauthenticatedWarn(tx *store.Tx, in *mail.Incoming, warn, answer func() error) error {
	ok, err := h.allow(tx, in.From)
	if err != nil {
		return err
	}
	if !ok {
		h.rejected(tx, RejectRate)
		return h.drop(tx, in, in.MessageID, "", DropRate, fmt.Sprintf("more than %d mails an hour from an address that did not authenticate", h.cfg.RateLimit))
	}
	if warn != nil {
		if err := warn(); err != nil {
			return err
		}
	}
	if in.Bulk != "" {
		return h.drop(tx, in, in.MessageID, "", DropBulk, in.Bulk+", and the mail did not authenticate: not answered")
	}
	return answer()
}

// refuse answers a mail to a game that did not authenticate, and keeps it with the game's
// mail, within its From address's limit (warn as for unauthenticatedWarn). A mail asking not
// to be auto-answered is noted as dropped instead of kept.
func (h *Host) refuse(tx *store.Tx, a *actor, warn, answer func() error) error {
	return h.unauthenticatedWarn(tx, a.msg, warn, func() error {
		if err := h.keepMail(tx, a); err != nil {
			return err
		}
		return answer()
	})
}

// allowActor counts an authenticated mail against its sender's own limit and says whether it
// is to be applied. Over the limit it is not: the sender is told so with the first mail
// over it in the hour, and the later ones are logged.
func (h *Host) allowActor(tx *store.Tx, a *actor) (bool, error) {
	if a.asked() {
		return true, nil
	}
	who := a.msg.From
	if a.p != nil {
		who = a.p.ID
	}
	n, err := h.rate(tx, "auth:"+a.g.ID+":"+who)
	switch {
	case err != nil:
		return false, err
	case n <= h.cfg.RateLimit:
		return true, nil
	case n == h.cfg.RateLimit+1:
		h.rejected(tx, RejectRate)
		if err := h.keepMail(tx, a); err != nil {
			return false, err
		}
		next := h.cfg.Now().UTC().Truncate(time.Hour).Add(time.Hour)
		return false, h.done(tx, a, h.notice(tx, a.g, a.to(), a.msg.MessageID, fmt.Sprintf(
			"Your mail was not applied: you have sent more than %d mails to game %s within this hour. This mail and any more "+
				"until %s are not applied and not answered; send them again after then. Orders the game asks you for always count.",
			h.cfg.RateLimit, a.g.Tag, next.Format("15:04 UTC"))))
	}
	h.rejected(tx, RejectRate)
	return false, h.drop(tx, a.msg, a.msg.MessageID, a.g.Tag, DropRate, fmt.Sprintf("more than %d mails within the hour to game %s; the sender was told with the first one over", h.cfg.RateLimit, a.g.Tag))
}

// asked says whether the mail is orders (or NONE) the game waits for from the sender's side
// and has not yet had: the game's own pace bounds those, so the limit never costs them.
func (a *actor) asked() bool {
	if a.p == nil || a.g.Step == nil || !asks(a.g.Step, a.p) {
		return false
	}
	if _, ok := a.g.Step.Orders[orderKey(a.g.Step, a.p)]; ok {
		return false
	}
	return a.req.Command == mail.CmdOrders || a.req.Command == mail.CmdNone
}
