package outbox

import (
	"maps"
	"time"

	"navarch/store"
)

// Status is the outbox's health, for the operator.
type Status struct {
	LastSent time.Time    // when the server last took a mail (zero: not since start)
	Err      string       // the latest failure, "" once a mail has gone since
	Kind     Kind         // its kind
	Failures map[Kind]int // failed attempts by kind since start
	// RetryAt is when the whole outbox tries again after a failure of the server, the
	// installation or the store (zero: it is not backing off).
	RetryAt  time.Time
	Queued   int           // mails queued: not yet taken by the server nor refused for good
	Deferred int           // of them, mails waiting out their own backoff
	Oldest   time.Duration // how long the oldest queued mail has waited, as this outbox saw it
	// oldest: the first seq queued and since when this outbox has seen it first
	oldestSeq   uint64
	oldestSince time.Time
	pending     int // sent, still queued until the journal is folded
}

// Status returns the outbox's health now. It counts the queue (a read transaction walking
// the outbox's pages): call it when asked, as a metrics scrape does, not for every mail.
func (o *Outbox) Status() Status {
	now := o.cfg.Clock.Now()
	var n, deferred int
	var first uint64
	var queued bool
	err := o.cfg.Store.View(func(tx *store.Tx) error {
		n, deferred = store.OutboxLen(tx), store.OutboxDeferred(tx, now)
		first, queued = store.OutboxFirst(tx)
		return nil
	})
	o.mu.Lock()
	defer o.mu.Unlock()
	if err == nil {
		o.noteFirst(first, queued, now)
		o.status.Queued, o.status.Deferred = max(0, n-o.status.pending), deferred
	}
	s := o.status
	s.Failures = maps.Clone(s.Failures)
	if s.Queued > 0 {
		s.Oldest = now.Sub(s.oldestSince)
	}
	return s
}

// noteQueue notes the first mail queued (a cursor's first key), for the age of the oldest.
func (o *Outbox) noteQueue() {
	now := o.cfg.Clock.Now()
	var first uint64
	var queued bool
	if o.cfg.Store.View(func(tx *store.Tx) error { first, queued = store.OutboxFirst(tx); return nil }) != nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.noteFirst(first, queued, now)
}

// noteFirst notes since when the first queued mail has been first (o.mu held).
func (o *Outbox) noteFirst(first uint64, queued bool, now time.Time) {
	switch {
	case !queued:
		o.status.oldestSeq, o.status.oldestSince = 0, time.Time{}
	case first != o.status.oldestSeq:
		o.status.oldestSeq, o.status.oldestSince = first, now
	}
}

// fail notes a failure.
func (o *Outbox) fail(k Kind, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.status.Err, o.status.Kind = err.Error(), k
	o.status.Failures[k]++
}

// sentOK notes a mail taken by the server: the outbox works again.
func (o *Outbox) sentOK() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.status.LastSent = o.cfg.Clock.Now()
	o.status.Err, o.status.Kind, o.status.RetryAt = "", "", time.Time{}
}

func (o *Outbox) backingOff(until time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.status.RetryAt = until
}

// notePending notes how many sent mails the store still has queued.
func (o *Outbox) notePending() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.status.pending = len(o.pending)
}
