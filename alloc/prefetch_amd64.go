//go:build !purego

package alloc

import "unsafe"

// havePrefetch says whether prefetch and prefetch2 issue real prefetches;
// the loops pipeline their memory accesses only if they do. The purego
// build tag leaves this file and prefetch_amd64.s out for prefetch_other.go.
const havePrefetch = true

// prefetch asks the CPU to bring the cache line holding p into every level
// of the cache (PREFETCHT0) without waiting for it. It never faults.
//
//go:noescape
func prefetch(p unsafe.Pointer)

// prefetch2 is prefetch of two addresses, for the two choices of a ball.
//
//go:noescape
func prefetch2(p, q unsafe.Pointer)

// prefetch3 is prefetch of three addresses: one call instead of three (a
// call to assembly costs a few nanoseconds, as much as a ball in cache).
//
//go:noescape
func prefetch3(p, q, r unsafe.Pointer)
