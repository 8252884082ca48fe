//go:build !linux

// Package cputime reads the CPU time of the calling OS thread, which the benchmarks report
// beside wall time (steadier on a loaded machine; docs/BENCHMARKS.md).
package cputime

import "time"

// Thread is not measured on this system: 0, false.
func Thread() (time.Duration, bool) { return 0, false }
