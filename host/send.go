package host

import (
	"context"

	"navarch/mail"
	"navarch/outbox"
)

// Sender delivers one outgoing mail (mail.SMTP in production).
type Sender = outbox.Sender

// newOutbox returns the outbox that sends this host's queued mail through s: it draws maps
// from the host's engines (drawStates), and a mail refused for good is noted by undelivered.
func (h *Host) newOutbox(s Sender, wake chan struct{}) (*outbox.Outbox, error) {
	cfg := outbox.Config{Store: h.s, Sender: h.withHealth(s), Log: h.log, Clock: h.cfg.Clock, Wake: wake, Refused: h.undelivered,
		Maps: h.cfg.Maps, States: drawStates{h}, Retry: h.cfg.SendRetry}
	if h.cfg.Metrics != nil {
		cfg.Observer = h.cfg.Metrics
	}
	return outbox.New(cfg)
}

// withHealth has each send's outcome recorded for the operator (Host.sent, health.go); a
// Sender that probes its server still does.
func (h *Host) withHealth(s Sender) Sender {
	hs := healthSender{s, h}
	if p, ok := s.(outbox.Prober); ok {
		return healthProber{hs, p}
	}
	return hs
}

type healthProber struct {
	healthSender
	outbox.Prober
}

func (p healthProber) Send(ctx context.Context, o mail.Outgoing) error {
	return p.healthSender.Send(ctx, o)
}

// healthSender records each send's outcome.
type healthSender struct {
	Sender
	h *Host
}

func (s healthSender) Send(ctx context.Context, o mail.Outgoing) error {
	err := s.Sender.Send(ctx, o)
	s.h.sent(err)
	return err
}

// Flush sends the outbox once through s, as a pass of the daemon's send loop does
// (outbox.Outbox.Flush): for tools and tests that send without running Serve. It returns a
// failure of the whole outbox; a mail the server defers waits for its time.
func (h *Host) Flush(ctx context.Context, s Sender) error {
	o, err := h.newOutbox(s, nil)
	if err != nil {
		return err
	}
	_, err = o.Flush(ctx)
	if cerr := o.Close(); err == nil {
		err = cerr
	}
	return err
}

// Outbox returns the outbox Serve runs (nil before Serve): its Status is the daemon's send
// health.
func (h *Host) Outbox() *outbox.Outbox { return h.outbox.Load() }
