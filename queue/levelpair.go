package queue

import "github.com/graphalloc/graphalloc/alloc"

// The level engine's loop for uniform sampling with d ≤ 2 and n ≤ 2^32
// (the classic supermarket model at any n a run can reach) draws three
// 64-bit words an event, whatever its kind: the exponential gap, the kind,
// and a pair of ranks, one from each 32-bit half by Lemire's multiply-shift
// on 32 bits. A half h gives the rank ⌊h·n/2^32⌋, exactly uniform on
// [0, n) once the halves whose product's low 32 bits fall below
// 2^32 mod n are rejected; the word is drawn again if either half is
// rejected, so an accepted pair is two independent uniform ranks. A
// completion takes the first rank, an arrival the larger of the two (its
// shortest candidate; d = 1 takes the first), and the count it moves is
// chosen without a branch: the kind of an event is a coin, which a branch
// mispredicts about every other event. The level reads the first four
// counts, and the ones above only for the rare rank below cnt[5]
// (levelFirst4).

// pairable reports whether the pair loop runs c on t.
func pairable(c *Config, t *topology) bool {
	return t.kind == kUniform && t.d <= 2 && c.N <= 1<<32
}

// pairReject is 2^32 mod n, the rejection bound of a 32-bit half, for
// 1 ≤ n ≤ 2^32.
func pairReject(n uint64) uint64 { return (1 << 32) % n }

// rankPairSlow finishes a pair whose first word x, drawn from s, had a
// half rejected: it draws words until both halves of one are accepted.
func rankPairSlow(s, n, reject uint64) (uint64, uint64, uint64) {
	for {
		var x uint64
		s, x = alloc.Step(s)
		a, b := (x&(1<<32-1))*n, (x>>32)*n
		if a&(1<<32-1) >= reject && b&(1<<32-1) >= reject {
			return s, a >> 32, b >> 32
		}
	}
}

// pick is the rank an event acts on, without a branch: a for a
// completion (arrival 0), for an arrival (arrival 1) the larger of a and
// b&second. Ranks are below 2^32, so the sign of a 64-bit difference
// orders them.
func pick(a, b, second, arrival uint64) uint64 {
	b &= second
	m := a ^ ((a ^ b) & uint64(int64(a-b)>>63)) // max(a, b)
	return a ^ ((a ^ m) & -arrival)
}
