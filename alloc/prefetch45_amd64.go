//go:build !purego

package alloc

import "unsafe"

// prefetch4 and prefetch5 are prefetch of four and five addresses: a step
// of the dynamic engine's loops (zdyn_loops.go) prefetches the lines of
// the step it draws and of the step it reads ahead in one call, since each
// call to assembly makes the loop spill and reload its live registers
// (one call a step instead of two: about 10% less a step, BENCHMARKS.md,
// "Deletions").
//
//go:noescape
func prefetch4(p, q, r, s unsafe.Pointer)

//go:noescape
func prefetch5(p, q, r, s, t unsafe.Pointer)
