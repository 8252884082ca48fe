package beacon_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"navarch/beacon"
	"navarch/beacon/beacontest"
)

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// TestFetchFromALocalRelay: a round is served once published, verified under the chain's
// key; before, the client says ErrNotYet; a relay serving a bad signature is refused, and
// the next relay is tried.
func TestFetchFromALocalRelay(t *testing.T) {
	genesis := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	clk := &clock{now: genesis.Add(time.Minute)}
	b := beacontest.New("fetch", genesis, 3*time.Second, clk.Now)
	url, stop := b.Server()
	defer stop()
	c := &beacon.Client{Chain: b.Chain, Relays: []string{url}}
	ctx := context.Background()
	r, err := c.Fetch(ctx, 21)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Chain.Verify(r); err != nil || r.Number != 21 {
		t.Fatalf("round %d: %v", r.Number, err)
	}
	if _, err := c.Fetch(ctx, 22); !errors.Is(err, beacon.ErrNotYet) {
		t.Errorf("round 22 before its time: %v, want ErrNotYet", err)
	}
	clk.Add(3 * time.Second)
	if _, err := c.Fetch(ctx, 22); err != nil {
		t.Errorf("round 22 at its time: %v", err)
	}
	b.Corrupt(5)
	if _, err := c.Fetch(ctx, 5); !errors.Is(err, beacon.ErrBadSignature) {
		t.Errorf("a corrupted round: %v, want ErrBadSignature", err)
	}
	good := beacontest.New("fetch", genesis, 3*time.Second, clk.Now) // the same key, honest
	url2, stop2 := good.Server()
	defer stop2()
	c.Relays = []string{url, url2}
	if _, err := c.Fetch(ctx, 5); err != nil {
		t.Errorf("a corrupted round, then an honest relay: %v", err)
	}
	other := beacontest.New("another key", genesis, 3*time.Second, clk.Now)
	if err := b.Chain.Verify(other.Round(5)); !errors.Is(err, beacon.ErrBadSignature) {
		t.Errorf("a round of another key: %v", err)
	}
	b.SetDown(true)
	c.Relays = []string{url}
	if _, err := c.Fetch(ctx, 5); err == nil || errors.Is(err, beacon.ErrNotYet) {
		t.Errorf("a relay down: %v", err)
	}
}

// TestFetchFromAHangingRelay: a relay that takes the request and never answers is given up
// after the client's timeout, and the next relay answers.
func TestFetchFromAHangingRelay(t *testing.T) {
	genesis := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	clk := &clock{now: genesis.Add(time.Minute)}
	b := beacontest.New("fetch", genesis, 3*time.Second, clk.Now)
	url, stop := b.Server()
	defer stop()
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer hang.Close()
	defer close(release)
	c := &beacon.Client{Chain: b.Chain, Relays: []string{hang.URL, url}, Timeout: 50 * time.Millisecond}
	if r, err := c.Fetch(context.Background(), 21); err != nil || r.Number != 21 {
		t.Fatalf("round 21 past a hanging relay: %d, %v", r.Number, err)
	}
	c.Relays = []string{hang.URL}
	if _, err := c.Fetch(context.Background(), 21); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a hanging relay alone: %v, want its timeout", err)
	}
}
