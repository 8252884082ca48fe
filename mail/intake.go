package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// IMAP is the mailbox navarch reads (docs/DESIGN.md 4: IDLE where offered, otherwise polling).
type IMAP struct {
	Host      string
	Port      int
	TLS       string // TLSImplicit, TLSStart or TLSNone
	Username  string
	Password  string
	Mailbox   string        // default INBOX
	Poll      time.Duration // polling interval without IDLE, and the longest IDLE; default 1 minute
	Timeout   time.Duration // the watchdog on every command; default 60 seconds
	TLSConfig *tls.Config
}

// Cursor is how far intake has read a mailbox. UIDs are only comparable within one
// UIDVALIDITY; when it changes, reading starts again from the first message and the
// Message-ID index keeps every mail from being applied twice.
type Cursor struct {
	UIDValidity uint32
	LastUID     uint32
}

// Intake hands every new mail of a mailbox to Handle, in UID order, restart-safe: the cursor
// moves past a mail only after Handle has committed it, and the mail is then flagged \Seen.
type Intake struct {
	IMAP
	Load   func() (Cursor, error)
	Save   func(Cursor) error
	Handle func(raw []byte) error
	// Park, if set, sets aside a mail that Handle failed on Attempts times in a row, or
	// panicked on, so that the mail behind it is handled; the mail is then flagged \Flagged as
	// well as \Seen. Without Park, a failing mail is retried until it succeeds and a
	// panicking one is passed over.
	Park func(raw []byte, cause error) error
	// Attempts is how many times in a row a mail may fail before it is parked; default 5.
	Attempts int
	// Wake, if set, is signalled after every mail handled (the sender flushes the outbox).
	Wake chan<- struct{}
	Log  *slog.Logger
	// Health, if set, is told of each successful poll and each failed session (the
	// operator's health check and metrics); Now is its clock (default time.Now).
	Health *Health
	Now    func() time.Time

	failures map[Cursor]int // attempts so far by mail (UIDVALIDITY and UID)
}

// Run reads the mailbox until ctx ends, reconnecting with backoff after any failure (the
// client has no timeouts of its own: a watchdog closes a connection that stops answering).
func (in *Intake) Run(ctx context.Context) error {
	backoff := time.Second
	for {
		start := time.Now()
		err := in.session(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Since(start) > time.Minute {
			backoff = time.Second
		}
		sleep := backoff/2 + rand.N(backoff/2+1)
		in.failed(err, sleep)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(sleep):
		}
		backoff = min(backoff*2, 5*time.Minute)
	}
}

func (in *Intake) defaults() {
	if in.Mailbox == "" {
		in.Mailbox = "INBOX"
	}
	if in.Poll == 0 {
		in.Poll = time.Minute
	}
	if in.Timeout == 0 {
		in.Timeout = 60 * time.Second
	}
	if in.Attempts == 0 {
		in.Attempts = 5
	}
	if in.failures == nil {
		in.failures = map[Cursor]int{}
	}
	if in.Now == nil {
		in.Now = time.Now
	}
}

// failed logs and records a session's end. A refused login or a certificate is the
// operator's to fix: it is logged as an error naming the settings, once while it lasts
// (and again when the kind changes); the daemon keeps retrying, so that the mended setting
// is taken up as soon as the server accepts it.
func (in *Intake) failed(err error, retry time.Duration) {
	kind := ErrorKind(err)
	news := in.Health.Fail(in.Now(), kind, err)
	switch {
	case kind == KindAuth && news:
		in.Log.Error("the IMAP server refuses navarch's login: check imap.username and imap.password (or NAVARCH_IMAP_PASSWORD); retrying",
			"kind", kind, "err", err, "in", retry)
	case kind == KindTLS && news:
		in.Log.Error("TLS with the IMAP server failed: check imap.host, imap.tls and imap.ca_file; retrying", "kind", kind, "err", err, "in", retry)
	default:
		in.Log.Warn("imap session ended; reconnecting", "kind", kind, "err", err, "in", retry)
	}
}

// Check connects, logs in and selects the mailbox once, then logs out: the daemon's check of
// its settings at start. The error's kind is ErrorKind's.
func (in *Intake) Check(ctx context.Context) error {
	in.defaults()
	c, err := in.dial(make(chan struct{}, 1))
	if err != nil {
		return fmt.Errorf("imap dial: %w", err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if err := in.login(c); err != nil {
		return err
	}
	if err := in.guard(c, func() error { _, err := c.Select(in.Mailbox, nil).Wait(); return err }); err != nil {
		return fmt.Errorf("imap select %s: %w", in.Mailbox, err)
	}
	in.guard(c, func() error { return c.Logout().Wait() })
	return nil
}

// login logs in; a refusal by the server is marked errLogin (ErrorKind: KindAuth).
func (in *Intake) login(c *imapclient.Client) error {
	err := in.guard(c, func() error { return c.Login(in.Username, in.Password).Wait() })
	var ie *imap.Error
	if errors.As(err, &ie) {
		return fmt.Errorf("imap login as %s: %w: %w", in.Username, errLogin, err)
	}
	if err != nil {
		return fmt.Errorf("imap login: %w", err)
	}
	return nil
}

func (in *Intake) dial(wake chan struct{}) (*imapclient.Client, error) {
	opts := &imapclient.Options{TLSConfig: in.TLSConfig, Dialer: &net.Dialer{Timeout: in.Timeout, KeepAlive: 30 * time.Second},
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil { // runs on the reader goroutine: only signal
				select {
				case wake <- struct{}{}:
				default:
				}
			}
		}}}
	addr := net.JoinHostPort(in.Host, strconv.Itoa(in.Port))
	switch in.TLS {
	case TLSImplicit:
		return imapclient.DialTLS(addr, opts)
	case TLSNone:
		return imapclient.DialInsecure(addr, opts)
	}
	return imapclient.DialStartTLS(addr, opts)
}

// guard closes the connection if f does not return in time, which makes it return.
func (in *Intake) guard(c *imapclient.Client, f func() error) error {
	t := time.AfterFunc(in.Timeout, func() { c.Close() })
	defer t.Stop()
	return f()
}

func (in *Intake) session(ctx context.Context) error {
	in.defaults()
	wake := make(chan struct{}, 1)
	c, err := in.dial(wake)
	if err != nil {
		return fmt.Errorf("imap dial: %w", err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if err := in.login(c); err != nil {
		return err
	}
	var sel *imap.SelectData
	if err := in.guard(c, func() error { sel, err = c.Select(in.Mailbox, nil).Wait(); return err }); err != nil {
		return fmt.Errorf("imap select %s: %w", in.Mailbox, err)
	}
	for {
		if err := in.drain(c, sel.UIDValidity); err != nil {
			return err
		}
		in.Health.OK(in.Now()) // a poll that read the mailbox to its end
		if err := in.wait(ctx, c, wake); err != nil {
			return err
		}
	}
}

// drain handles every mail above the cursor.
func (in *Intake) drain(c *imapclient.Client, validity uint32) error {
	cur, err := in.Load()
	if err != nil {
		return err
	}
	if cur.UIDValidity != validity {
		cur = Cursor{UIDValidity: validity}
	}
	var uids []imap.UID
	err = in.guard(c, func() error {
		data, err := c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{{imap.UIDRange{Start: imap.UID(cur.LastUID + 1), Stop: 0}}}}, nil).Wait()
		if err == nil {
			uids = data.AllUIDs()
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("imap search: %w", err)
	}
	for _, uid := range uids {
		if uint32(uid) <= cur.LastUID { // "n:*" always matches the last message
			continue
		}
		if err := in.one(c, Cursor{validity, uint32(uid)}); err != nil {
			return err
		}
		cur.LastUID = uint32(uid)
		if err := in.Save(cur); err != nil {
			return err
		}
	}
	return nil
}

// one fetches a mail, hands it over, and flags it \Seen once it is committed or parked.
func (in *Intake) one(c *imapclient.Client, at Cursor) error {
	uid := imap.UID(at.LastUID)
	section := &imap.FetchItemBodySection{Peek: true}
	var raw []byte
	err := in.guard(c, func() error {
		bufs, err := c.Fetch(imap.UIDSetNum(uid), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err == nil && len(bufs) == 1 {
			raw = bufs[0].FindBodySection(section)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("imap fetch %d: %w", uid, err)
	}
	flags := []imap.Flag{imap.FlagSeen}
	if err := in.handle(uid, raw); err != nil {
		parked, perr := in.park(at, raw, err)
		if !parked {
			return perr
		}
		flags = append(flags, imap.FlagFlagged)
	}
	delete(in.failures, at)
	if in.Wake != nil {
		select {
		case in.Wake <- struct{}{}:
		default:
		}
	}
	return in.guard(c, func() error {
		return c.Store(imap.UIDSetNum(uid), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: flags}, nil).Close()
	})
}

// park decides what becomes of a mail that Handle failed on: retried (false and the error),
// parked (true), or, without Park, a panicking mail passed over (true).
func (in *Intake) park(at Cursor, raw []byte, err error) (bool, error) {
	var p *panicError
	isPanic := errors.As(err, &p)
	in.failures[at]++
	n := in.failures[at]
	if in.Park == nil {
		if isPanic {
			in.Log.Error("panic handling a mail; passed over", "uid", at.LastUID, "panic", p.value)
		}
		return isPanic, err
	}
	if n < in.Attempts && !isPanic {
		in.Log.Warn("handling a mail failed; will retry", "uid", at.LastUID, "attempt", n, "of", in.Attempts, "err", err)
		return false, err
	}
	if perr := in.Park(raw, err); perr != nil {
		return false, errors.Join(err, fmt.Errorf("park mail %d: %w", at.LastUID, perr))
	}
	in.Log.Error("mail parked after our failure", "uid", at.LastUID, "attempts", n, "err", err)
	return true, nil
}

// handle runs Handle; a panic in it is our bug, returned as a *panicError with its stack.
func (in *Intake) handle(uid imap.UID, raw []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &panicError{value: p, stack: debug.Stack()}
		}
	}()
	if err := in.Handle(raw); err != nil {
		return fmt.Errorf("handle mail %d: %w", uid, err)
	}
	return nil
}

// panicError is a panic caught in Handle.
type panicError struct {
	value any
	stack []byte
}

func (e *panicError) Error() string { return fmt.Sprintf("panic: %v\n%s", e.value, e.stack) }

// wait idles (or polls) until new mail may be there.
func (in *Intake) wait(ctx context.Context, c *imapclient.Client, wake chan struct{}) error {
	if !c.Caps().Has(imap.CapIdle) {
		select {
		case <-time.After(in.Poll):
		case <-ctx.Done():
			return ctx.Err()
		case <-c.Closed():
			return errors.New("imap connection closed")
		}
		return in.guard(c, func() error { return c.Noop().Wait() })
	}
	var idle *imapclient.IdleCommand
	if err := in.guard(c, func() (err error) { idle, err = c.Idle(); return err }); err != nil {
		return fmt.Errorf("imap idle: %w", err)
	}
	select {
	case <-wake:
	case <-time.After(in.Poll):
	case <-ctx.Done():
	case <-c.Closed():
	}
	return in.guard(c, func() error {
		if err := idle.Close(); err != nil {
			return err
		}
		return idle.Wait()
	})
}
