package outbox

import (
	"context"
	"errors"
	"time"
)

// Run is the send loop, until ctx ends: a pass (Flush) when woken (Config.Wake), when a
// deferred mail falls due, every Config.Idle, and after a failure of the whole outbox with
// backoff. The backoff is cut short, and starts again from the beginning, when new mail is
// to be sent (not after a refused login or TLS failure, which are the operator's to mend) or
// the server answers again after failing to. A panic is logged and the loop goes on. At the
// end the journal is folded into the store.
func (o *Outbox) Run(ctx context.Context) {
	backoff := o.cfg.Retry
	for ctx.Err() == nil {
		next, err := o.safeFlush(ctx)
		if ctx.Err() != nil {
			break
		}
		var f *Failure
		if !errors.As(err, &f) {
			backoff = o.cfg.Retry
			o.backingOff(time.Time{})
			o.idle(ctx, next)
			continue
		}
		o.log.Warn("outbox: sending failed; retrying", "kind", f.Kind, "err", f.Err, "in", backoff)
		o.backingOff(o.cfg.Clock.Now().Add(backoff))
		if o.await(ctx, f.Kind, backoff) {
			backoff = o.cfg.Retry
		} else {
			backoff = min(backoff*2, maxBackoff(f.Kind))
		}
	}
	if err := o.Close(); err != nil {
		o.log.Warn("outbox: recording sent mail at stop failed; kept in the journal", "err", err)
	}
}

// safeFlush is Flush with a panic taken for a failure.
func (o *Outbox) safeFlush(ctx context.Context) (next time.Time, err error) {
	defer func() {
		if p := recover(); p != nil {
			o.log.Error("panic in the outbox; going on", "panic", p)
			err = &Failure{Connection, errors.New("panic")}
		}
	}()
	return o.Flush(ctx)
}

func maxBackoff(k Kind) time.Duration {
	switch k {
	case Auth, TLS:
		return MaxAuthRetry
	case Store:
		return MaxStoreRetry
	}
	return MaxRetry
}

// idle waits for a wake-up, the first deferred mail's time (next, zero for none) or Idle.
func (o *Outbox) idle(ctx context.Context, next time.Time) {
	wait := o.cfg.Idle
	if !next.IsZero() {
		wait = min(wait, max(0, next.Sub(o.cfg.Clock.Now())))
	}
	t := o.cfg.Clock.NewTimer(wait)
	defer t.Stop()
	select {
	case <-o.cfg.Wake:
	case <-t.C():
	case <-ctx.Done():
	}
}

// await waits out a backoff; it returns true, early, when new mail comes (Wake; not after a
// refused login or TLS failure) or when the server, having not answered a probe, answers
// one again (a probe every Config.Retry; a server that takes connections but fails sends is
// not probed into a retry every Retry).
func (o *Outbox) await(ctx context.Context, k Kind, backoff time.Duration) bool {
	t := o.cfg.Clock.NewTimer(backoff)
	defer t.Stop()
	wake := o.cfg.Wake
	if k == Auth || k == TLS {
		wake = nil
	}
	p, probing := o.cfg.Sender.(Prober)
	probing = probing && k == Connection
	for {
		var probe <-chan time.Time
		var pt Timer
		if probing {
			pt = o.cfg.Clock.NewTimer(o.cfg.Retry)
			probe = pt.C()
		}
		select {
		case <-wake:
			stop(pt)
			return true
		case <-t.C():
			stop(pt)
			return false
		case <-ctx.Done():
			stop(pt)
			return false
		case <-probe:
			if err := p.Probe(ctx); err != nil {
				o.down = true
			} else if o.down {
				o.down = false
				return true
			}
		}
	}
}

func stop(t Timer) {
	if t != nil {
		t.Stop()
	}
}
