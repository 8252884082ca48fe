// Package cputime reads the CPU time of the calling OS thread, which the benchmarks report
// beside wall time (steadier on a loaded machine; docs/BENCHMARKS.md).
package cputime

import (
	"syscall"
	"time"
	"unsafe"
)

// Thread is the CPU time the calling OS thread has used (CLOCK_THREAD_CPUTIME_ID), and
// true; the caller keeps its goroutine on one thread (runtime.LockOSThread).
func Thread() (time.Duration, bool) {
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
