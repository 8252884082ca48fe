package host

import (
	"context"
	"errors"
	"fmt"
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
// after commit). A temporary failure stops the flush, to be retried; a mail refused for good
// (its recipient or its content) is taken out so that it cannot block the others, logged,
// noted in its game's log and, if it was a player's, told to the game's referees.
func (h *Host) Flush(ctx context.Context, s Sender) error {
	var queued []store.OutboxEntry
	if err := h.s.View(func(tx *store.Tx) error { queued = store.Outbox(tx); return nil }); err != nil {
		return err
	}
	for _, e := range queued {
		o, err := mail.UnmarshalOutgoing(e.Mail)
		if err == nil {
			err = s.Send(ctx, o)
		}
		if errors.Is(err, mail.ErrTemporary) || ctx.Err() != nil {
			return err
		}
		refused := err
		if refused != nil {
			h.log.Error("outgoing mail refused for good", "message-id", o.MessageID, "to", o.To, "err", refused)
		}
		err = h.s.Update(func(tx *store.Tx) error {
			if err := store.OutboxDone(tx, e.Seq); err != nil || refused == nil {
				return err
			}
			return h.undelivered(tx, o, refused)
		})
		if err != nil && refused != nil { // a broken game must not hold up the outbox
			h.log.Error("noting a refused mail failed", "message-id", o.MessageID, "err", err)
			err = h.s.Update(func(tx *store.Tx) error { return store.OutboxDone(tx, e.Seq) })
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Serve runs the daemon until ctx ends: intake hands mail to Handle, the outbox is flushed
// after each mail and on a timer with backoff, and deadlines are kept every minute. Each
// loop recovers from panics (logged, the loop goes on).
func (h *Host) Serve(ctx context.Context, in *mail.Intake, s Sender) error {
	wake := make(chan struct{}, 1)
	if in.Mailbox == "" {
		in.Mailbox = "INBOX"
	}
	in.Wake, in.Handle, in.Park = wake, h.Handle, h.Park
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
	wg.Wait()
	return ctx.Err()
}

func (h *Host) sendLoop(ctx context.Context, s Sender, wake chan struct{}) {
	backoff := time.Second
	for ctx.Err() == nil {
		if err := h.Flush(ctx, s); err != nil && ctx.Err() == nil {
			h.log.Warn("outbox flush failed; retrying", "err", err, "in", backoff)
			select {
			case <-time.After(backoff):
			case <-ctx.Done():
			}
			backoff = min(backoff*2, 10*time.Minute)
			continue
		}
		backoff = time.Second
		select {
		case <-wake:
		case <-time.After(30 * time.Second):
		case <-ctx.Done():
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
