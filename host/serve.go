package host

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"navarch/mail"
	"navarch/store"
)

// Sender delivers one outgoing mail (mail.SMTP in production).
type Sender interface {
	Send(ctx context.Context, o mail.Outgoing) error
}

// Flush sends the outbox in order, removing each mail once the server took it (docs/DESIGN.md 5: sent
// after commit), every mail queued without a class (answers, reports) before the bulk mail
// queued before it (welcomes; store.OutboxFirstNow). The outbox is streamed: a few mails ahead are read, one read transaction
// each, and their maps drawn by a pool of drawers (one a core) while the mail before them is
// sent; nothing holds the store's write lock meanwhile. A temporary failure stops the flush,
// to be retried; a mail refused for good (an explicit 5xx to its recipient or its content)
// is taken out so that it cannot block the others, logged, noted in its game's log and, if
// it was a player's, told to the game's referees.
//
// A mail once handed to the server is seen through even when ctx ends meanwhile (the send
// is bounded by the SMTP timeout) and its outcome recorded at once, in a transaction of its
// own: a graceful stop never leaves a sent mail queued to be sent again.
// When ctx has ended, no new send starts.
func (h *Host) Flush(ctx context.Context, s Sender) error {
	d := h.newDrawer()
	workers := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var ahead []*prepared
	defer func() { // the drawings under way finish before Flush returns
		for _, p := range ahead {
			<-p.done
		}
	}()
	var after uint64
	more := true
	window := 1 // until the server has taken a mail, draw no more than the next one
	held := func(seq uint64) bool {
		return slices.ContainsFunc(ahead, func(p *prepared) bool { return p.e.Seq == seq })
	}
	for {
		for more && len(ahead) < window {
			var e store.OutboxEntry
			if err := h.s.View(func(tx *store.Tx) error {
				var now bool
				if e, now = store.OutboxFirstNow(tx, held); now { // answers and reports before bulk mail
					return nil
				}
				if e, more = store.OutboxNextAfter(tx, after, held); more {
					after = e.Seq
				}
				return nil
			}); err != nil {
				return err
			}
			if more {
				ahead = append(ahead, d.prepare(e, workers))
			}
		}
		if len(ahead) == 0 || ctx.Err() != nil {
			return nil
		}
		p := ahead[0]
		<-p.done
		ahead = ahead[1:]
		if err := h.sendOne(context.WithoutCancel(ctx), s, p); err != nil {
			return err
		}
		window = 2 * cap(workers)
	}
}

// prepared is a queued mail decoded and its maps drawn (done closes when it is).
type prepared struct {
	e    store.OutboxEntry
	o    mail.Outgoing
	err  error // the entry cannot be read
	done chan struct{}
}

// prepare decodes a queued mail and, when it has maps to draw, draws them on a worker.
func (d *drawer) prepare(e store.OutboxEntry, workers chan struct{}) *prepared {
	p := &prepared{e: e, done: make(chan struct{})}
	p.o, p.err = mail.UnmarshalOutgoing(e.Mail)
	if p.err != nil || !slices.ContainsFunc(p.o.Attachments, func(a mail.Attachment) bool { return a.Draw != "" }) {
		close(p.done)
		return p
	}
	go func() {
		defer func() {
			if r := recover(); r != nil {
				d.h.log.Error("panic drawing a map", "message-id", p.o.MessageID, "panic", r)
				p.o.Attachments = slices.DeleteFunc(p.o.Attachments, func(a mail.Attachment) bool { return a.Draw != "" })
			}
			close(p.done)
		}()
		d.fill(&p.o, workers)
	}()
	return p
}

// sendOne sends one queued mail and records the outcome.
func (h *Host) sendOne(ctx context.Context, s Sender, p *prepared) error {
	o, err := p.o, p.err
	if err == nil {
		err = s.Send(ctx, o)
	}
	if errors.Is(err, mail.ErrTemporary) {
		return err
	}
	refused := err
	h.logSent(o, refused)
	err = h.s.Update(func(tx *store.Tx) error {
		if err := store.OutboxDone(tx, p.e.Seq); err != nil || refused == nil {
			return err
		}
		return h.undelivered(tx, o, refused)
	})
	if err != nil && refused != nil { // a broken game must not hold up the outbox
		h.log.Error("noting a refused mail failed", "message-id", o.MessageID, "err", err)
		err = h.s.Update(func(tx *store.Tx) error { return store.OutboxDone(tx, p.e.Seq) })
	}
	return err
}

// Serve runs the daemon until ctx ends: intake hands mail to Handle, the outbox is flushed
// after each mail and on a timer with backoff, and deadlines are kept every minute. Each
// loop recovers from panics (logged, the loop goes on).
func (h *Host) Serve(ctx context.Context, in *mail.Intake, s Sender) error {
	wake := h.cfg.Wake
	if wake == nil {
		wake = make(chan struct{}, 1)
	}
	if in.Mailbox == "" {
		in.Mailbox = "INBOX"
	}
	h.warnStranded()
	in.Wake, in.Handle, in.Park = wake, h.observed(h.Handle), h.observedPark(h.Park)
	in.Load, in.Save = h.loadCursor(in.Mailbox), h.saveCursor(in.Mailbox)
	var wg sync.WaitGroup
	run := func(name string, f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				func() {
					defer func() {
						if p := recover(); p != nil {
							h.log.Error("panic; restarting", "loop", name, "panic", p)
							time.Sleep(time.Second)
						}
					}()
					f()
				}()
			}
		}()
	}
	run("intake", func() { in.Run(ctx) })
	run("outbox", func() { h.sendLoop(ctx, s, wake) })
	run("deadlines", func() { h.tickLoop(ctx) })
	run("beacon", func() { h.beaconLoop(ctx, wake) })
	wg.Wait()
	return ctx.Err()
}

// The outbox's retry backoff: from Config.SendRetry (default a second), doubling after each
// failed flush, up to maxSendRetry.
const maxSendRetry = time.Minute

// Prober is a Sender that can tell cheaply whether its server answers (mail.SMTP does).
type Prober interface {
	Probe(ctx context.Context) error
}

// sendLoop flushes the outbox after each mail handled (wake), every 30 seconds, and after a
// failure with backoff. The backoff is cut short, and starts again from the beginning, when
// new mail is to be sent or the server answers again after failing to.
func (h *Host) sendLoop(ctx context.Context, s Sender, wake chan struct{}) {
	first := cmp.Or(h.cfg.SendRetry, time.Second)
	backoff := first
	for ctx.Err() == nil {
		err := h.Flush(ctx, s)
		if err == nil || ctx.Err() != nil {
			backoff = first
			select {
			case <-wake:
			case <-time.After(30 * time.Second):
			case <-ctx.Done():
			}
			continue
		}
		h.log.Warn("outbox flush failed; retrying", "err", err, "in", backoff)
		if h.await(ctx, s, wake, backoff, first) {
			backoff = first
		} else {
			backoff = min(backoff*2, maxSendRetry)
		}
	}
}

// await waits out a backoff; it returns true, early, when new mail comes (wake) or when the
// server, having not answered a probe, answers one again (probes every interval).
func (h *Host) await(ctx context.Context, s Sender, wake chan struct{}, backoff, interval time.Duration) bool {
	timer := time.NewTimer(backoff)
	defer timer.Stop()
	var probes <-chan time.Time
	p, ok := s.(Prober)
	if ok {
		t := time.NewTicker(interval)
		defer t.Stop()
		probes = t.C
	}
	down := false
	for {
		select {
		case <-wake:
			return true
		case <-timer.C:
			return false
		case <-ctx.Done():
			return false
		case <-probes:
			if err := p.Probe(ctx); err != nil {
				down = true
			} else if down {
				return true
			}
		}
	}
}

// RetryParkedEvery is how often the daemon hands parked mails to Handle again (and once at
// start, which is when a mended navarch first runs).
const RetryParkedEvery = 15 * time.Minute

func (h *Host) tickLoop(ctx context.Context) {
	var retried time.Time
	for ctx.Err() == nil {
		if time.Since(retried) >= RetryParkedEvery {
			retried = time.Now()
			if _, left, err := h.RetryParked(); err != nil {
				h.log.Error("retrying parked mail", "err", err)
			} else if left > 0 {
				h.log.Warn("mails parked after our failures; see navarch parked", "parked", left)
			}
		}
		h.backup()
		err := h.Tick()
		if err != nil {
			h.log.Error("deadlines", "err", err)
		}
		if !errors.Is(err, ErrStoreDown) && h.cfg.Heartbeat != nil {
			parked := 0
			h.s.View(func(tx *store.Tx) error { parked = store.ParkedCount(tx); return nil })
			h.cfg.Heartbeat(parked)
		}
		select {
		case <-time.After(time.Minute):
		case <-ctx.Done():
		}
	}
}

func (h *Host) loadCursor(mailbox string) func() (mail.Cursor, error) {
	return func() (mail.Cursor, error) {
		var c mail.Cursor
		err := h.s.View(func(tx *store.Tx) error {
			sc := store.Cursor(tx, mailbox)
			c.UIDValidity, c.LastUID = sc.UIDValidity, sc.LastUID
			return nil
		})
		return c, err
	}
}

func (h *Host) saveCursor(mailbox string) func(mail.Cursor) error {
	return func(c mail.Cursor) error {
		if err := h.s.Update(func(tx *store.Tx) error {
			return store.PutCursor(tx, mailbox, store.IMAPCursor{UIDValidity: c.UIDValidity, LastUID: c.LastUID})
		}); err != nil {
			return fmt.Errorf("save imap cursor: %w", err)
		}
		return nil
	}
}

// backup takes the daemon's own backup when one is due; a failure is logged and tried again
// at the next pass.
func (h *Host) backup() {
	if !h.cfg.Backups.Due(h.cfg.Now()) {
		return
	}
	if path, err := h.cfg.Backups.Take(h.s, h.cfg.Now()); err != nil {
		h.log.Error("backup failed", "err", err)
	} else {
		h.log.Info("backup written", "path", path)
	}
}

// warnStranded logs, at start, each game under way this navarch cannot continue (Stranded):
// an upgrade that changed a ruleset's engine parks their mail until the navarch that began
// them runs again.
func (h *Host) warnStranded() {
	lines, err := h.Stranded()
	if err != nil {
		h.log.Error("cannot list the games this navarch cannot continue", "err", err)
	}
	for _, l := range lines {
		h.log.Error("a game under way this navarch cannot continue: its mail is parked until the navarch that began it runs, or its referee ends it (docs/deploy/README.md, Upgrading)", "game", l)
	}
}
