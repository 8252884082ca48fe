package outbox

import (
	"sort"
	"sync"
	"time"
)

// ManualClock is a Clock that moves only when told (Advance), for tests. Its timers fire when the
// clock passes their time. It is safe for concurrent use.
type ManualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*timer
	change chan struct{} // closed and renewed whenever a timer is made or stopped
}

// NewManualClock returns a clock at start.
func NewManualClock(start time.Time) *ManualClock {
	return &ManualClock{now: start, change: make(chan struct{})}
}

// Now returns the clock's time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// NewTimer returns a timer firing d after Now (at once if d <= 0).
func (c *ManualClock) NewTimer(d time.Duration) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{c: c, at: c.now.Add(d), ch: make(chan time.Time, 1)}
	if d <= 0 {
		t.ch <- c.now
	} else {
		c.timers = append(c.timers, t)
	}
	c.changed()
	return t
}

// Advance moves the clock on by d, firing the timers it passes, earliest first.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	sort.SliceStable(c.timers, func(i, j int) bool { return c.timers[i].at.Before(c.timers[j].at) })
	kept := c.timers[:0]
	for _, t := range c.timers {
		if t.at.After(c.now) {
			kept = append(kept, t)
			continue
		}
		t.ch <- t.at
	}
	c.timers = kept
	c.changed()
}

// Waiting returns how many timers are pending, and the time until the earliest (0 if none).
func (c *ManualClock) Waiting() (int, time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var next time.Duration
	for i, t := range c.timers {
		if d := t.at.Sub(c.now); i == 0 || d < next {
			next = d
		}
	}
	return len(c.timers), next
}

// Changed returns a channel closed the next time a timer is made, stopped or fired.
func (c *ManualClock) Changed() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.change
}

func (c *ManualClock) changed() {
	close(c.change)
	c.change = make(chan struct{})
}

type timer struct {
	c  *ManualClock
	at time.Time
	ch chan time.Time
}

func (t *timer) C() <-chan time.Time { return t.ch }

func (t *timer) Stop() bool {
	c := t.c
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, x := range c.timers {
		if x == t {
			c.timers = append(c.timers[:i], c.timers[i+1:]...)
			c.changed()
			return true
		}
	}
	return false
}
