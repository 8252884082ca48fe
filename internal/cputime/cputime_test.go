package cputime

import (
	"runtime"
	"testing"
)

// TestThreadAdvances: where it is measured, a thread's CPU time grows as it computes.
func TestThreadAdvances(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	a, ok := Thread()
	if !ok {
		t.Skip("no thread CPU time on this system")
	}
	x := 0
	for i := range 20_000_000 {
		x ^= i
	}
	if b, _ := Thread(); b <= a {
		t.Errorf("thread CPU time %v then %v (x %d)", a, b, x)
	}
}
