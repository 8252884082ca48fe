package host

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"navarch/mail"
	"navarch/outbox"
	"navarch/store"
)

// Serve runs the daemon until ctx ends: intake hands mail to Handle, the outbox (package
// outbox) sends after each mail, after each deadline pass and on its own timers, and
// deadlines are kept every minute. Each loop recovers from panics (logged, the loop goes on).
func (h *Host) Serve(ctx context.Context, in *mail.Intake, s Sender) error {
	wake := h.cfg.Wake
	if wake == nil {
		wake = make(chan struct{}, 1)
	}
	out, err := h.newOutbox(s, wake)
	if err != nil {
		return err
	}
	h.outbox.Store(out)
	if in.Mailbox == "" {
		in.Mailbox = "INBOX"
	}
	h.warnStranded()
	in.Wake, in.Handle, in.Park = wake, h.observed(h.Handle), h.observedPark(h.Park)
	in.Load, in.Save = h.loadCursor(in.Mailbox), h.saveCursor(in.Mailbox)
	in.Health = &h.health.intake
	if in.Now == nil {
		in.Now = h.cfg.Now
	}
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
	run("outbox", func() { out.Run(ctx) })
	run("deadlines", func() { h.tickLoop(ctx, out) })
	run("beacon", func() { h.beaconLoop(ctx, wake) })
	wg.Wait()
	return ctx.Err()
}

// RetryParkedEvery is how often the daemon hands parked mails to Handle again (and once at
// start, which is when a mended navarch first runs).
const RetryParkedEvery = 15 * time.Minute

// tickLoop keeps the deadlines, retries parked mail and takes the backups; the outbox is
// woken after each deadline pass, so that what it queued goes at once.
func (h *Host) tickLoop(ctx context.Context, out *outbox.Outbox) {
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
		out.Wake()
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
