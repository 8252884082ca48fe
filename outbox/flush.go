package outbox

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"navarch/mail"
	"navarch/store"
)

// Flush sends every queued mail that is due, in order, every mail queued without a class
// (answers, reports) before the bulk mail queued before it (welcomes; store.OutboxFirstNow),
// and folds the sends into the store. The queue is streamed: a few mails ahead are read,
// one read transaction each, and their maps drawn by the drawer's pool while the mail
// before them is sent; nothing holds the store's write lock meanwhile.
//
// A mail the server defers (Temporary) gets its next attempt stored and the pass goes on
// with the next mail; a mail refused for good leaves the queue, noted (Config.Refused). A
// failure of the whole outbox stops the pass and is returned as a *Failure, as is a store
// that cannot take in the journal (a full disk: the loop tries again soon). It returns the
// time the first deferred mail falls due (zero: none is deferred).
//
// A mail once handed to the server is seen through even when ctx ends meanwhile (the send
// is bounded by the SMTP timeout) and recorded at once (journal.go): a graceful stop never
// leaves a sent mail queued to be sent again. When ctx has ended, no new send starts.
func (o *Outbox) Flush(ctx context.Context) (time.Time, error) {
	next, err := o.pass(ctx)
	if ferr := o.fold(); ferr != nil {
		o.log.Warn("recording sent mail in the store failed; kept in the journal", "err", ferr)
		o.fail(Store, ferr)
		if err == nil { // retried with the store's backoff
			err = &Failure{Store, ferr}
		}
	}
	o.noteQueue()
	return next, err
}

func (o *Outbox) pass(ctx context.Context) (time.Time, error) {
	var ahead []*prepared
	defer func() { // the drawings under way finish before the pass ends
		for _, p := range ahead {
			<-p.done
		}
	}()
	now := o.cfg.Clock.Now()
	var next time.Time
	var after uint64
	more := true
	window := 1 // until the server has taken a mail, draw no more than the next one
	for {
		for more && len(ahead) < window {
			var e store.OutboxEntry
			err := o.cfg.Store.View(func(tx *store.Tx) error {
				held := func(seq uint64) bool {
					if o.sent[seq] || slices.ContainsFunc(ahead, func(p *prepared) bool { return p.e.Seq == seq }) {
						return true
					}
					if r := store.OutboxRetryOf(tx, seq); !r.Due(now) {
						if next.IsZero() || r.Next.Before(next) {
							next = r.Next
						}
						return true
					}
					return false
				}
				var first bool
				if e, first = store.OutboxFirstNow(tx, held); first { // answers and reports before bulk mail
					return nil
				}
				if e, more = store.OutboxNextAfter(tx, after, held); more {
					after = e.Seq
				}
				return nil
			})
			if err != nil {
				return next, &Failure{Store, err}
			}
			if more {
				ahead = append(ahead, o.prepare(e))
			}
		}
		if len(ahead) == 0 || ctx.Err() != nil {
			return next, nil
		}
		p := ahead[0]
		<-p.done
		ahead = ahead[1:]
		at, err := o.sendOne(context.WithoutCancel(ctx), p)
		if err != nil {
			return next, err
		}
		if !at.IsZero() && (next.IsZero() || at.Before(next)) {
			next = at
		}
		window = 2 * cap(o.drawer.workers)
		if len(o.pending) >= foldEvery {
			if err := o.fold(); err != nil {
				o.log.Warn("recording sent mail in the store failed; kept in the journal", "err", err)
			}
		}
	}
}

// foldEvery is how many sends the journal gathers at most before a pass folds them.
const foldEvery = 32

// prepared is a queued mail decoded and its maps drawn (done closes when it is).
type prepared struct {
	e    store.OutboxEntry
	o    mail.Outgoing
	err  error // the entry cannot be read
	done chan struct{}
}

// prepare decodes a queued mail and, when it has maps to draw, draws them on a worker.
func (o *Outbox) prepare(e store.OutboxEntry) *prepared {
	p := &prepared{e: e, done: make(chan struct{})}
	p.o, p.err = mail.UnmarshalOutgoing(e.Mail)
	if p.err != nil || !hasOrders(p.o) {
		close(p.done)
		return p
	}
	go func() {
		defer func() {
			if r := recover(); r != nil {
				o.log.Error("panic drawing a map", "message-id", p.o.MessageID, "panic", r)
				p.o.Attachments = slices.DeleteFunc(p.o.Attachments, func(a mail.Attachment) bool { return a.Draw != "" })
			}
			close(p.done)
		}()
		o.drawer.fill(&p.o)
	}()
	return p
}

// sendOne sends one queued mail and records the outcome; it returns when a deferred mail is
// due again (zero otherwise) and a failure of the whole outbox.
func (o *Outbox) sendOne(ctx context.Context, p *prepared) (time.Time, error) {
	m, err := p.o, p.err
	kind := Refused // an entry that cannot be read cannot be sent
	if err == nil {
		err = o.cfg.Sender.Send(ctx, m)
		kind = o.cfg.Kind(err)
	}
	switch {
	case err == nil:
		return time.Time{}, o.recordSent(p)
	case kind == Refused:
		o.fail(kind, err)
		return time.Time{}, o.recordRefused(p, err)
	case kind == Temporary:
		o.fail(kind, err)
		return o.deferMail(p, err)
	}
	o.fail(kind, err)
	return time.Time{}, &Failure{kind, err}
}

// recordSent records a mail the server took: in the journal, or, if that fails, in the store
// at once; a mail neither holds is passed over by this outbox until one of them does.
func (o *Outbox) recordSent(p *prepared) error {
	m := sentMail{p.e.Seq, p.o.MessageID}
	jerr := o.j.add(m) // first of all: a kill before this line sends the mail again
	o.sent[m.seq] = true
	o.pending = append(o.pending, m)
	o.notePending()
	o.logged(p.o, nil)
	o.sentOK()
	o.down = false
	if jerr == nil {
		return nil
	}
	if err := o.update(func(tx *store.Tx) error { return store.OutboxDone(tx, m.seq) }); err != nil {
		o.fail(Store, err)
		return &Failure{Store, errors.Join(jerr, err)}
	}
	o.pending = o.pending[:len(o.pending)-1] // the store has it; the journal never did
	o.notePending()
	return nil
}

// recordRefused takes a mail refused for good out of the queue and has it noted.
func (o *Outbox) recordRefused(p *prepared, cause error) error {
	o.logged(p.o, cause)
	note := o.cfg.Refused
	err := o.update(func(tx *store.Tx) error {
		if err := store.OutboxDone(tx, p.e.Seq); err != nil || note == nil || p.err != nil {
			return err
		}
		return note(tx, p.o, cause)
	})
	if err != nil && note != nil { // a broken game must not hold up the outbox
		o.log.Error("noting a refused mail failed", "message-id", p.o.MessageID, "err", err)
		err = o.update(func(tx *store.Tx) error { return store.OutboxDone(tx, p.e.Seq) })
	}
	if err != nil {
		return &Failure{Store, err}
	}
	return nil
}

// deferMail stores a deferred mail's next attempt: Retry doubled with each failure of the
// mail, up to MaxMailRetry.
func (o *Outbox) deferMail(p *prepared, cause error) (time.Time, error) {
	r := p.e.Retry
	r.Failures++
	r.Next = o.cfg.Clock.Now().Add(mailBackoff(o.cfg.Retry, r.Failures))
	o.log.Warn("mail deferred by the server; the others go on", "game", p.o.Game, "to", strings.Join(p.o.To, ","),
		"message-id", p.o.MessageID, "failures", r.Failures, "next", r.Next, "err", cause)
	if err := o.update(func(tx *store.Tx) error { return store.OutboxSetRetry(tx, p.e.Seq, r) }); err != nil {
		return time.Time{}, &Failure{Store, err}
	}
	return r.Next, nil
}

// mailBackoff is the wait after a mail's nth failure.
func mailBackoff(first time.Duration, n int) time.Duration {
	d := first
	for i := 1; i < n && d < MaxMailRetry; i++ {
		d *= 2
	}
	return min(d, MaxMailRetry)
}

// fold takes the mails the journal holds out of the store's queue, each only if the queued
// mail of that seq has that Message-ID (a journal beside a database restored from a backup
// takes out nothing else), and empties the journal.
func (o *Outbox) fold() error {
	if len(o.pending) == 0 {
		return nil
	}
	err := o.update(func(tx *store.Tx) error {
		for _, m := range o.pending {
			e, ok := store.OutboxMail(tx, m.seq)
			if !ok {
				continue
			}
			if q, err := mail.UnmarshalOutgoing(e.Mail); err != nil || q.MessageID != m.id {
				continue
			}
			if err := store.OutboxDone(tx, m.seq); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := o.j.clear(); err != nil {
		return err
	}
	o.pending = o.pending[:0]
	o.notePending()
	clear(o.sent)
	return nil
}

// logged writes the one log line of a mail the server took or refused for good: its game,
// recipient, kind and Message-ID; and tells the Observer.
func (o *Outbox) logged(m mail.Outgoing, refused error) {
	args := []any{"game", m.Game, "to", strings.Join(m.To, ","), "kind", m.Kind, "message-id", m.MessageID}
	if refused != nil {
		o.log.Error("mail refused for good", append(args, "err", refused)...)
	} else {
		o.log.Info("mail sent", args...)
	}
	if ob := o.cfg.Observer; ob != nil {
		if refused != nil {
			ob.Refused(m.Kind)
		} else {
			ob.Sent(m.Kind)
		}
	}
}
