//go:build unix

// Package cputime reads the CPU time this process has used, for
// benchmarks that report CPU per operation beside wall time: on a shared
// machine wall time also counts other processes' turns on the cores.
package cputime

import (
	"syscall"
	"time"
)

// Used returns the user plus system CPU time of every thread of the
// process so far (getrusage RUSAGE_SELF), or 0 where it cannot be read.
func Used() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
