package alloc

import "unsafe"

// The generator's step and bounded draw, for hot loops outside this package
// (queue's event loops): such a loop keeps the state in a local variable,
// as this package's loops do, and hands it back with SetState, so that a
// trial's stream is the one TrialRand gives whoever draws from it. Both
// inline.

// Step advances the state s and returns it with the step's 64-bit output:
// Uint64's draw.
func Step(s uint64) (uint64, uint64) { return next(s) }

// Below advances the state s and returns it with a uniform value in
// [0, n), n > 0, by Lemire's multiply-shift with rejection: Uint64n's draw.
func Below(s, n uint64) (uint64, uint64) { return below(s, n) }

// State returns r's state, for a loop that draws with Step and Below.
func (r *Rand) State() uint64 { return r.state }

// SetState sets r's state to s, the state such a loop ended with.
func (r *Rand) SetState(s uint64) { r.state = s }

// Prefetch asks the CPU to bring the cache line holding p into every
// level of the cache without waiting for it (a no-op where prefetch is
// not available: see CanPrefetch). It never faults.
func Prefetch(p unsafe.Pointer) { prefetch(p) }

// CanPrefetch says whether Prefetch issues real prefetches; a loop should
// pipeline its memory accesses only if it does (a touch by a plain load
// serialises on the miss it is meant to hide).
const CanPrefetch = havePrefetch
