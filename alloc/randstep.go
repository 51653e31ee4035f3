package alloc

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
