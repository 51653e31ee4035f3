package alloc

import (
	"math/bits"
	"unsafe"
)

// The generator is wyrand (Wang Yi's 64-bit "wyhash" generator): the state
// advances by an odd constant and the output is the folded 128-bit product of
// the state with a second constant. It has period 2^64, passes BigCrush and
// PractRand, and a step is an add and one 64×64→128 multiply, which is why
// the hot loops below keep its state in a local variable and call it inline
// (docs/theory.md, note 1: 3–10× cheaper than *rand.Rand).
const (
	wyInc = 0xa0761d6478bd642f
	wyMix = 0xe7037ed1a0b428db
)

// Rand is the pseudo-random source handed to every process. It implements
// math/rand/v2's Source, so it can also drive rand.New and the graph
// generators. The zero value is a valid generator (state 0).
//
// Rand is a counter-based generator: two Rands whose states differ by
// k·wyInc produce the same stream k draws apart. Seeds derived with
// DeriveSeed are spread uniformly, so two trials of 10^10 draws each overlap
// with probability about 10^-9.
type Rand struct {
	state uint64
	// coins holds ncoins unused random bits, lowest first: fair coins
	// cost 1/64 of a draw each, and survive from one batch of balls to
	// the next so that batching never changes a result.
	coins  uint64
	ncoins int
}

// NewRand returns a generator whose state is seed.
func NewRand(seed uint64) *Rand { return &Rand{state: seed} }

// Uint64 returns a uniform 64-bit value.
func (r *Rand) Uint64() uint64 {
	var x uint64
	r.state, x = next(r.state)
	return x
}

// Uint64n returns a uniform value in [0, n); n must be positive.
func (r *Rand) Uint64n(n uint64) uint64 {
	var x uint64
	r.state, x = below(r.state, n)
	return x
}

// Coin returns a fair random bit, taken from the coin buffer (refilled by
// one Uint64 draw every 64 coins).
func (r *Rand) Coin() bool {
	if r.ncoins == 0 {
		r.coins, r.ncoins = r.Uint64(), 64
	}
	c := r.coins&1 != 0
	r.coins >>= 1
	r.ncoins--
	return c
}

// Float64 returns a uniform value in [0, 1) with 53 random bits.
func (r *Rand) Float64() float64 {
	return float64(r.Uint64()>>11) * 0x1p-53
}

// next advances the state s and returns it with the step's output.
func next(s uint64) (uint64, uint64) {
	s += wyInc
	hi, lo := bits.Mul64(s, s^wyMix)
	return s, hi ^ lo
}

// below returns the advanced state and a uniform value in [0, n), n > 0,
// by Lemire's multiply-shift: the high word of x·n is uniform on [0, n)
// once the draws whose low word falls below 2^64 mod n are rejected. The
// threshold 2^64 mod n (a division) is computed only when the low word is
// below n, which happens with probability n/2^64, so the common path is two
// multiplies and a predictable branch.
//
// D. Lemire, "Fast random integer generation in an interval", ACM TOMACS 2019.
func below(s, n uint64) (uint64, uint64) {
	for {
		s += wyInc
		hi, lo := bits.Mul64(s, s^wyMix)
		c, frac := bits.Mul64(hi^lo, n)
		if frac >= n || frac >= -n%n {
			return s, c
		}
	}
}

// splitmix64 is Vigna's mixing function: a bijection of the 64-bit integers
// whose outputs for consecutive inputs are statistically independent.
func splitmix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Streams of DeriveSeed: the randomness of trials and of graph generation
// never share a stream.
const (
	StreamTrial uint64 = iota
	StreamGraph
)

// DeriveSeed returns the seed of item index of the given stream of a run with
// base seed seed. It depends on those three values alone, which is what
// makes results independent of scheduling and worker count.
func DeriveSeed(seed, stream, index uint64) uint64 {
	return splitmix64(splitmix64(splitmix64(seed)^stream) ^ index)
}

// TrialRand returns the generator of trial i of a run with base seed seed.
func TrialRand(seed uint64, i int) *Rand {
	return NewRand(DeriveSeed(seed, StreamTrial, uint64(i)))
}

// readAhead is the generator read ahead of its use, for the loops whose
// draws are not all bins drawn in a fixed order (memory's tie draws come
// between one ball's bins and the next's): ring holds the next `ahead`
// outputs, output i in ring[i&(ahead-1)], and s is the state after the
// newest. Each output, as it enters, has the cache line of the bin it
// would name as a draw below n prefetched in L; a loop takes every draw,
// bin or not, from the stream in order (aheadDraw), so the draws are exactly
// those of below, and the prefetches of outputs that end as other draws
// are only wasted. For large n (pipelined): a call per draw.
type readAhead struct {
	ring [ahead]uint64
	s    uint64
	i    uint64
}

// aheadStart starts a's stream at generator state s, prefetching in the
// bins of L (one-byte or four-byte loads).
func aheadStart[T uint8 | uint32](a *readAhead, s uint64, L []T) {
	n := uint64(len(L))
	for j := range a.ring {
		var x uint64
		s, x = next(s)
		a.ring[j] = x
		hi, _ := bits.Mul64(x, n)
		prefetch(unsafe.Pointer(&L[hi]))
	}
	a.s, a.i = s, 0
}

// aheadDraw is below(s, bound) on a's stream: the next output, or the one
// after it on the rare rejection; L and n are the stream's bins.
func aheadDraw[T uint8 | uint32](a *readAhead, L []T, n, bound uint64) uint64 {
	for {
		o, in := a.take()
		hi, _ := bits.Mul64(in, n)
		prefetch(unsafe.Pointer(&L[hi]))
		c, frac := bits.Mul64(o, bound)
		if frac >= bound || frac >= -bound%bound {
			return c
		}
	}
}

// take takes the next output, o, and enters a new one, in, whose bin the
// caller prefetches: aheadDraw's step, small enough to be inlined where
// aheadDraw is not.
func (a *readAhead) take() (o, in uint64) {
	j := a.i & (ahead - 1)
	o = a.ring[j]
	a.s, in = next(a.s)
	a.ring[j] = in
	a.i++
	return o, in
}

// state returns the generator state after the outputs drawn, the state
// the plain loop leaves.
func (a *readAhead) state() uint64 {
	inc := uint64(wyInc)
	return a.s - ahead*inc // modulo 2^64, as the state advances
}
