package host

import (
	"strings"

	"navarch/mail"
	"navarch/store"
)

// A mail that navarch neither applies nor answers is dropped, never in silence: it is
// logged with its reason, counted under it (Figures.Dropped, the metrics'
// navarch_mails_dropped_total) and noted for the operator (navarch dropped; navarch game
// mail for the game it names). A copy of a mail handled before is logged and counted only:
// the first copy was handled and shows where its answer does.

// The reasons a mail is dropped: the labels of the dropped-mail counter.
const (
	DropOwn        = "own"        // navarch's own mail: a Message-ID it wrote, or its own From address
	DropAutomatic  = "automatic"  // an auto-reply (RFC 3834)
	DropBounce     = "bounce"     // a bounce or a delivery report
	DropList       = "list"       // a mailing list's mail
	DropBulk       = "bulk"       // asks not to be auto-answered (Precedence, X-Auto-Response-Suppress) and did not authenticate
	DropRate       = "rate"       // over the hourly limit of its sender, who was told once
	DropStranger   = "stranger"   // from a stranger answered today already (out.go: once a day)
	DropUnreadable = "unreadable" // names no one to answer: no From address, or none that can be read
	DropDuplicate  = "duplicate"  // a copy of a mail handled before (same sender and Message-ID)
)

// DropReasons lists every reason, each reported even at zero so that a dashboard's series
// do not come and go.
var DropReasons = []string{DropOwn, DropAutomatic, DropBounce, DropList, DropBulk, DropRate, DropStranger, DropUnreadable, DropDuplicate}

// noReplyReason is the counter's label for mail.Incoming.NoReply's words.
func noReplyReason(why string) string {
	switch {
	case why == "no From address":
		return DropUnreadable
	case why == "our own mail" || why == "from our own address":
		return DropOwn
	case strings.Contains(why, "bounce") || strings.Contains(why, "report"):
		return DropBounce
	case strings.Contains(why, "list"):
		return DropList
	}
	return DropAutomatic
}

// drop notes and counts a mail dropped unanswered, and logs it. in may be nil (a mail that
// could not be read at all); game is the tag of the game it names, if known.
func (h *Host) drop(tx *store.Tx, in *mail.Incoming, msgID, game, reason, why string) error {
	m := store.DroppedMail{At: h.cfg.Now().UTC(), MessageID: msgID, Game: game, Reason: reason, Why: why}
	if in != nil {
		m.From, m.Subject = in.From, in.Subject
		if m.Game == "" {
			m.Game = mail.GameTag(in.Subject)
		}
	}
	h.log.Info("mail dropped", "message-id", msgID, "from", m.From, "game", m.Game, "reason", reason, "why", why)
	return store.AddDropped(tx, m)
}

// dropStranger notes a stranger's mail not answered: he was answered today already.
func (h *Host) dropStranger(tx *store.Tx, from, msgID string) error {
	return h.drop(tx, &mail.Incoming{From: from}, msgID, "", DropStranger, "from an address that plays no game here, answered once today already")
}

// duplicate counts and logs a copy of a mail handled before.
func (h *Host) duplicate(tx *store.Tx, in *mail.Incoming, msgID string) error {
	from := ""
	if in != nil {
		from = in.From
	}
	h.log.Info("mail dropped", "message-id", msgID, "from", from, "reason", DropDuplicate, "why", "handled before (same sender and Message-ID)")
	return store.CountDropped(tx, DropDuplicate)
}

// Dropped lists the notes of dropped mail kept (store.MaxDropped, the latest), oldest
// first; with a tag, only those naming that game.
func (h *Host) Dropped(tag string) ([]store.DroppedMail, error) {
	var out []store.DroppedMail
	err := h.s.View(func(tx *store.Tx) error {
		return store.Dropped(tx, func(m store.DroppedMail) error {
			if tag == "" || m.Game == tag {
				out = append(out, m)
			}
			return nil
		})
	})
	return out, err
}
