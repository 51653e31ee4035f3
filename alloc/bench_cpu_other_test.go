//go:build !linux

package alloc

import "time"

// threadCPU is not measured here: the benchmarks report wall-clock balls/s
// only.
func threadCPU() time.Duration { return 0 }

func processCPU() time.Duration { return 0 }
