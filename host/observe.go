package host

import (
	"strings"
	"time"

	"navarch/mail"
)

// Observer is told what the daemon does with mail, for the operator's metrics
// (cmd/navarch/metrics.go). Its methods must be safe for concurrent use and quick.
type Observer interface {
	Received()                             // a mail was taken from the mailbox and handed to Handle
	Handled(took time.Duration, err error) // Handle returned, after took
	Parked()                               // a mail was set aside after our own failures
	Sent(kind string)                      // the SMTP server took a mail
	Refused(kind string)                   // the SMTP server refused a mail for good
	Rejected(reason string)                // an incoming mail was refused by authentication or the rate limit (RejectReasons)
}

// observed wraps Handle to tell the Observer of each mail and how long it took.
func (h *Host) observed(handle func([]byte) error) func([]byte) error {
	m := h.cfg.Metrics
	if m == nil {
		return handle
	}
	return func(raw []byte) error {
		m.Received()
		start := time.Now()
		err := handle(raw)
		m.Handled(time.Since(start), err)
		return err
	}
}

// observedPark wraps Park to count the mails parked.
func (h *Host) observedPark(park func([]byte, error) error) func([]byte, error) error {
	m := h.cfg.Metrics
	if m == nil {
		return park
	}
	return func(raw []byte, cause error) error {
		err := park(raw, cause)
		if err == nil {
			m.Parked()
		}
		return err
	}
}

// logSent writes the one log line of a mail the server took or refused for good:
// its game, recipient, kind and Message-ID; and tells the Observer.
func (h *Host) logSent(o mail.Outgoing, refused error) {
	args := []any{"game", o.Game, "to", strings.Join(o.To, ","), "kind", o.Kind, "message-id", o.MessageID}
	if refused != nil {
		h.log.Error("mail refused for good", append(args, "err", refused)...)
	} else {
		h.log.Info("mail sent", args...)
	}
	if m := h.cfg.Metrics; m != nil {
		if refused != nil {
			m.Refused(o.Kind)
		} else {
			m.Sent(o.Kind)
		}
	}
}
