package outbox

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"navarch/mail"
	"navarch/render"
	"navarch/store"
)

// Sender delivers one outgoing mail (mail.SMTP in production).
type Sender interface {
	Send(ctx context.Context, o mail.Outgoing) error
}

// Prober is a Sender that can tell cheaply whether its server answers (mail.SMTP does).
type Prober interface {
	Probe(ctx context.Context) error
}

// Observer is told of each mail the server took or refused for good (the daemon's metrics).
type Observer interface {
	Sent(kind string)
	Refused(kind string)
}

// Config is what an Outbox works with. Store and Sender are needed; the rest has defaults.
type Config struct {
	Store  *store.Store
	Sender Sender
	Log    *slog.Logger
	Clock  Clock // SystemClock by default
	// Wake is the outbox's wake-up call: a pass begins when it is signalled (after each mail
	// handled, a deadline pass, a command through the control socket). New makes one if nil.
	Wake chan struct{}
	// Refused notes a mail the server refused for good, in the transaction that takes it out
	// of the queue (the host: a note in its game's log, a notice to the referees). A failure
	// there is logged and the mail taken out all the same.
	Refused func(tx *store.Tx, o mail.Outgoing, cause error) error
	// Observer, if set, is told of each mail sent or refused.
	Observer Observer
	// Kind reads a send's error; KindOf by default.
	Kind func(error) Kind
	// Maps are the rulesets' maps by ruleset id, States the games' engines to draw them
	// from; a mail's map that cannot be drawn is left out of it.
	Maps   map[string]render.Map
	States States
	// Retry is the first wait, for a mail the server deferred and for the whole outbox after
	// a failure of the server; each doubles with every further failure, a mail's up to
	// MaxMailRetry, the outbox's up to MaxRetry (MaxStoreRetry when the store failed, so that
	// the backlog goes soon after a full disk has room again). Default a second.
	Retry time.Duration
	// Idle is how often the outbox looks at the queue with nothing to wake it (mail queued
	// by a command while no daemon ran is sent at start). Default 30 s.
	Idle time.Duration
	// Journal is the file of sends not yet folded into the store; DATABASE.sent by default.
	Journal string
}

// The longest waits (Config.Retry).
const (
	MaxMailRetry  = 15 * time.Minute
	MaxRetry      = time.Minute
	MaxAuthRetry  = 5 * time.Minute // a refused login or no TLS: the operator's to mend
	MaxStoreRetry = 4 * time.Second
)

// Outbox sends the store's queued mail. Run is its send loop; Flush is one pass of it.
// Only one of them runs at a time.
type Outbox struct {
	cfg    Config
	log    *slog.Logger
	drawer *drawer
	j      *journal
	// pending are the mails the server took that the store still has queued (journal.go):
	// passed over by every pass until fold takes them out.
	pending []sentMail
	sent    map[uint64]bool
	down    bool // a probe found the server not answering (loop.go)

	// update is the store's write transaction (tests put a full disk in its place).
	update func(func(*store.Tx) error) error

	mu     sync.Mutex // guards status
	status Status
}

// New returns an outbox; the journal left by an earlier run (a kill -9) is read at once, so
// that nothing in it is sent again.
func New(cfg Config) (*Outbox, error) {
	cfg.Log = cmp.Or(cfg.Log, slog.New(slog.DiscardHandler))
	if cfg.Clock == nil {
		cfg.Clock = SystemClock{}
	}
	if cfg.Wake == nil {
		cfg.Wake = make(chan struct{}, 1)
	}
	if cfg.Kind == nil {
		cfg.Kind = KindOf
	}
	cfg.Retry = cmp.Or(cfg.Retry, time.Second)
	cfg.Idle = cmp.Or(cfg.Idle, 30*time.Second)
	cfg.Journal = cmp.Or(cfg.Journal, cfg.Store.Path()+".sent")
	j, left, err := openJournal(cfg.Journal)
	if err != nil {
		return nil, err
	}
	o := &Outbox{cfg: cfg, log: cfg.Log, j: j, pending: left, sent: map[uint64]bool{},
		status: Status{Failures: map[Kind]int{}}}
	for _, m := range left {
		o.sent[m.seq] = true
	}
	o.drawer = newDrawer(o)
	o.update = cfg.Store.Update
	return o, nil
}

// Wake has the outbox begin a pass at once (it never blocks).
func (o *Outbox) Wake() {
	select {
	case o.cfg.Wake <- struct{}{}:
	default: // a wake-up is pending already
	}
}

// Close folds what the journal holds into the store (when it can) and closes the journal.
func (o *Outbox) Close() error {
	err := o.fold()
	o.j.close()
	return err
}

// Failure is a failure of the whole outbox (the server, the installation, the store), not of
// one mail's: a pass stops at it.
type Failure struct {
	Kind Kind
	Err  error
}

func (f *Failure) Error() string { return fmt.Sprintf("outbox: %s: %v", f.Kind, f.Err) }
func (f *Failure) Unwrap() error { return f.Err }
