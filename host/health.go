package host

import (
	"errors"

	"navarch/mail"
	"navarch/store"
)

// Health is what the daemon's two mail connections have done lately: the mailbox's polls
// (mail.Intake records them) and the outbox's sends. The metrics and navarch health read it.
type Health struct {
	Intake mail.HealthStatus
	Send   mail.HealthStatus
}

// health is the daemon's record of both connections.
type health struct {
	intake, send mail.Health
}

// Health returns a copy of what the mailbox and the outbox have done lately.
func (h *Host) Health() Health {
	return Health{Intake: h.health.intake.Status(), Send: h.health.send.Status()}
}

// sent records the outcome of one send for the operator. A mail accepted, or refused for
// good (a 5xx to its recipient or content; a mail that cannot be composed), shows the
// server working; a failure to be retried (mail.ErrTemporary) is the connection's, by its
// kind (mail.SendErrorKind). A refused login or a certificate is the operator's to fix and
// logged as an error naming the settings, once while it lasts; it is retried like any
// other failure, so that queued mail leaves as soon as it is mended.
func (h *Host) sent(err error) {
	if !errors.Is(err, mail.ErrTemporary) {
		h.health.send.OK(h.cfg.Now())
		return
	}
	kind := mail.SendErrorKind(err)
	news := h.health.send.Fail(h.cfg.Now(), kind, err)
	switch {
	case kind == mail.KindAuth && news:
		h.log.Error("the SMTP server refuses navarch's login: check smtp.username and smtp.password (or NAVARCH_SMTP_PASSWORD); mail waits in the outbox",
			"kind", kind, "err", err)
	case kind == mail.KindTLS && news:
		h.log.Error("TLS with the SMTP server failed: check smtp.host, smtp.tls and smtp.ca_file; mail waits in the outbox", "kind", kind, "err", err)
	}
}

// The reasons an incoming mail is refused by authentication or the rate limit
// (Observer.Rejected): answered or not, nothing it asked for is applied.
const (
	RejectDKIM     = "dkim"     // no DKIM pass aligned with the From domain (require_dkim_authserv_id)
	RejectKey      = "key"      // a player's mail without his key, or with another key
	RejectForged   = "forged"   // a referee's or game master's address without the referee's or game master's key
	RejectStranger = "stranger" // from an address that is no player or referee of the game (or no game master)
	RejectRate     = "rate"     // over the sender's rate limit
)

// RejectReasons lists every reason, for metrics that show each.
var RejectReasons = []string{RejectDKIM, RejectKey, RejectForged, RejectStranger, RejectRate}

// rejected tells the Observer of a refused mail once its transaction commits (a
// transaction run again for an engine counts once).
func (h *Host) rejected(tx *store.Tx, reason string) {
	if m := h.cfg.Metrics; m != nil {
		tx.AfterCommit(func() { m.Rejected(reason) })
	}
}
