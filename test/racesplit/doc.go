// Package racesplit tells a test whether it runs under the race detector, and skips the tests
// that make test runs without it (make long). Its own test, TestRaceSplit, holds the
// Makefile's split of the packages between the run under the race detector and the run
// without it to its rule (docs/DEVELOPING.md, "How make test runs the tests"): a package
// outside the race list starts no goroutine and shares no memory across goroutines, and every
// test skipped under the detector is one make long runs.
package racesplit

import (
	"os"
	"testing"
)

// Long skips t under the race detector, unless NAVARCH_RACE_LONG is set: make long runs it
// without the detector, which slows it many times over (a whole game, drawn map by map, or a
// check of thousands of inputs on one goroutine). A test that calls it must be named in the
// Makefile's LONG_TESTS (TestRaceSplit fails otherwise).
func Long(t testing.TB) {
	t.Helper()
	if Enabled && os.Getenv("NAVARCH_RACE_LONG") == "" {
		t.Skip("under the race detector: make long runs it without (NAVARCH_RACE_LONG=1 runs it here)")
	}
}
