package host

import (
	"context"
	"sync"
	"testing"
	"time"

	"navarch/adjudicator/lepanto"
	"navarch/mail"
	"navarch/outbox"
	"navarch/store"
)

// A deadline pass wakes the outbox: the mail it queues goes at once, not at the outbox's
// next look (its clock stands still here, so its own timers never fire).
func TestDeadlinePassWakesTheOutbox(t *testing.T) {
	f, _ := joinedFixture(t, lepanto.Ruleset, "")
	f.drain()
	clock := outbox.NewManualClock(f.now)
	f.h.cfg.Clock = clock
	var mu sync.Mutex
	var sent []mail.Outgoing
	sender := senderFunc(func(_ context.Context, o mail.Outgoing) error {
		mu.Lock()
		defer mu.Unlock()
		sent = append(sent, o)
		return nil
	})
	out, err := f.h.newOutbox(sender, make(chan struct{}, 1))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	wg.Add(1)
	go func() { defer wg.Done(); out.Run(ctx) }()
	waitUntil(t, "the outbox idle", func() bool { n, _ := clock.Waiting(); return n == 1 })
	f.now = f.deadline().Add(time.Hour)
	wg.Add(1)
	go func() { defer wg.Done(); f.h.tickLoop(ctx, out) }()
	waitUntil(t, "the deadline's mail sent", func() bool {
		mu.Lock()
		defer mu.Unlock()
		queued := 0
		f.s.View(func(tx *store.Tx) error { queued = store.OutboxLen(tx); return nil })
		return len(sent) > 0 && queued == 0
	})
}

// waitUntil polls for an outcome for up to 20 s of real time.
func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("no %s", what)
		}
	}
}
