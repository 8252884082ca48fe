package adjtest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing the test.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}
func (r *recorder) Error(args ...any) { r.failures = append(r.failures, fmt.Sprint(args...)) }
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatal(args ...any) {
	r.Error(args...)
	runtime.Goexit()
}
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Log(...any)          {}

// Failures runs fn against a testing.TB that records what fn reports instead of failing t,
// and returns it, one failure a line: a harness's own checks are seen to fail with it.
func Failures(t testing.TB, fn func(tb testing.TB)) string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(r)
	}()
	<-done
	return strings.Join(r.failures, "\n")
}
