//go:build linux

package alloc

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time (user and system) of the calling thread
// (RUSAGE_THREAD); the benchmarks lock themselves to a thread.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// processCPU returns the CPU time of the whole process (RUSAGE_SELF), for
// benchmarks that run several goroutines.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
