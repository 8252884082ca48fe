package host

import (
	"fmt"
	"runtime/debug"

	"navarch/mail"
	"navarch/store"
)

// Park sets aside a mail that Handle keeps failing on (our failure, not the sender's): the mail
// is kept whole in the store, so that the mail behind it is no longer held up, and it is
// handled again by RetryParked. Its sender is told once that nothing of it was applied and
// that it need not be sent again. A mail that was applied after all is not parked.
func (h *Host) Park(raw []byte, cause error) error {
	m := store.ParkedMail{Raw: raw, Cause: cause.Error(), At: h.cfg.Now().UTC(), Attempts: 1}
	var in *mail.Incoming
	func() {
		defer func() { recover() }() // a mail that breaks the reader is parked all the same
		in, _ = mail.Parse(raw, mail.Options{Own: h.own, Self: h.self})
	}()
	msgID := ""
	if in != nil {
		msgID, m.From, m.Subject = in.MessageID, in.From, in.Subject
	}
	m.Key = messageKey(msgID, raw)
	log := h.log.With("message-id", m.Key)
	return h.s.Update(func(tx *store.Tx) error {
		if _, done := store.Processed(tx, m.From, m.Key); done {
			return nil
		}
		fresh, err := store.Park(tx, m)
		if err != nil || !fresh {
			return err
		}
		log.Error("mail parked: our failure; see navarch parked", "from", m.From, "cause", m.Cause)
		if in == nil || in.From == "" || in.NoReply != "" {
			return nil
		}
		if ok, err := h.allow(tx, in.From); !ok || err != nil {
			return err
		}
		return h.strangerMail(tx, in.From, in.MessageID, "parked",
			"Your mail ("+quoteSubject(in.Subject)+") could not be handled because of a fault on our side, not a mistake of yours. Nothing of it has been applied.",
			"It is kept, and the operator has been told. It will be handled as soon as the fault is mended, and you will then get the usual answer. You need not send it again.")
	})
}

func quoteSubject(s string) string {
	if s == "" {
		return "no subject"
	}
	return fmt.Sprintf("%q", s)
}

// RetryParked hands every parked mail to Handle again, in the order they were parked; each
// that now succeeds is removed. It returns how many were handled and how many are left.
func (h *Host) RetryParked() (handled, left int, err error) {
	var parked []store.ParkedMail
	if err := h.s.View(func(tx *store.Tx) error { parked = store.Parked(tx); return nil }); err != nil {
		return 0, 0, err
	}
	for _, m := range parked {
		herr := h.handleRecovered(m.Raw)
		if herr == nil && m.Raw == nil {
			herr = fmt.Errorf("the parked record cannot be read: %s", m.Cause)
		}
		err := h.s.Update(func(tx *store.Tx) error {
			if herr == nil {
				return store.Unpark(tx, m.Seq)
			}
			m.Attempts++
			m.Cause = herr.Error()
			return store.UpdateParked(tx, m)
		})
		if err != nil {
			return handled, len(parked) - handled, err
		}
		if herr == nil {
			handled++
			h.log.Info("parked mail handled", "message-id", m.Key, "from", m.From)
		} else {
			h.log.Warn("parked mail still fails", "message-id", m.Key, "from", m.From, "attempts", m.Attempts, "err", herr)
		}
	}
	return handled, len(parked) - handled, nil
}

// Parked lists the parked mails.
func (h *Host) Parked() ([]store.ParkedMail, error) {
	var parked []store.ParkedMail
	err := h.s.View(func(tx *store.Tx) error { parked = store.Parked(tx); return nil })
	return parked, err
}

// DropParked gives up on a parked mail: it is removed and will not be handled.
func (h *Host) DropParked(seq uint64) error {
	return h.s.Update(func(tx *store.Tx) error { return store.Unpark(tx, seq) })
}

// handleRecovered is Handle with a panic turned into an error (our bug), with its stack.
func (h *Host) handleRecovered(raw []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	return h.Handle(raw)
}
