package alloc

import (
	"math/bits"
	"unsafe"
)

// OneChoice places every ball in a uniformly random bin. Its maximum load for
// m = n is (1+o(1)) ln n / ln ln n w.h.p., and for m ≫ n it is
// m/n + (1+o(1)) sqrt(2 (m/n) ln n) [Raab, Steger 1998].
type OneChoice struct{}

var oneChoiceDescriptor = Descriptor{
	Name:      "one-choice",
	Synopsis:  "a uniform bin",
	D:         1,
	Family:    FamilyOneChoice,
	BinBytes:  1,
	levels:    always,
	meanField: ownField,
	build:     func(Params) Rule { return OneChoice{} },
}

// Name returns the command-line name, "one-choice".
func (OneChoice) Name() string { return oneChoiceDescriptor.Name }

// String returns "one-choice".
func (OneChoice) String() string { return oneChoiceDescriptor.Name }

// Check requires n ≥ 1.
func (p OneChoice) Check(n int) error { return checkBins(p.Name(), n) }

// Place throws m balls, one probe each.
func (p OneChoice) Place(b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	b.place(m,
		func(L []uint8, m int64) int64 { return oneChoice(L, m, r) },
		func(L []uint32, m int64) int64 { return oneChoice(L, m, r) })
	return Stats{Probes: m, MaxProbes: min(m, 1)}
}

// The loops below share a shape. Each is generic in the load type (one
// byte or four, see Bins). On one-byte loads it stops before a ball that
// would raise a bin above limit8 (see full), leaves r at that ball's first
// draw and returns the balls placed, so that the uint32 loop resumes with
// the very same ball. For large n (see pipelined) a second version draws
// each ball's bins `ahead` balls early into a ring, with the generator state
// before the draws, and prefetches their cache lines; balls are still placed
// one at a time in order, so the loads are exactly those of the simple loop.

// ahead is how many balls a pipelined loop draws in advance: enough
// outstanding cache misses to cover a DRAM access (about 100 ns, 16–64
// balls; docs/theory.md, note 4), and few enough that the ring stays in L1.
const ahead = 32

// pipelineMin is the size of a four-byte load array from which the
// pipelined loops pay; a one-byte array pays from four times that. Below
// it the array sits in L2 (taken as 1 MiB) or L3 and the ring costs more than
// the misses it hides. Measured, ns/ball plain/pipelined:
// Greedy[2] on one-byte loads 3.7/4.3 at n = 2^22 and 4.0/4.3 at 2^23, but
// 14.7/5.2 at 2^24; on four-byte loads 5.5/4.8 at 2^20 and 7.6/4.8 at 2^22.
// A variable so that the tests can pipeline small arrays.
var pipelineMin uintptr = 4 << 20

// pipelined reports whether a loop over n loads of size bytes should
// pipeline its accesses.
func pipelined(n int, size uintptr) bool {
	if size == 1 {
		return havePrefetch && uintptr(n)/4 >= pipelineMin
	}
	return havePrefetch && uintptr(n)*size >= pipelineMin
}

func oneChoice[T uint8 | uint32](L []T, m int64, r *Rand) int64 {
	if pipelined(len(L), unsafe.Sizeof(L[0])) {
		return oneChoicePiped(L, m, r)
	}
	return oneChoicePlain(L, m, r)
}

// rewind returns the generator state before the ball that left it at s,
// a ball that made draws accepted draws below(·, n), each after any number
// of rejected ones, in a batch that started at state start. Every draw
// advances the state by wyInc and whether the draw that produced a state
// was accepted depends on that state alone, so the walk back is exact:
// back over draws accepted draws and the rejected ones before them, to the
// previous ball's last (accepted) draw or to start.
func rewind(s, start, n uint64, draws int) uint64 {
	t := -n % n // below accepts a draw iff its fraction is ≥ 2^64 mod n
	for s != start {
		hi, lo := bits.Mul64(s, s^wyMix)
		if _, frac := bits.Mul64(hi^lo, n); frac >= t {
			if draws == 0 {
				break // the previous ball's draw
			}
			draws--
		}
		s -= wyInc
	}
	return s
}

// rule returns OneChoice's rule for the batched driver (see rule).
func (OneChoice) rule(int) rule { return oneChoiceRule{} }

// oneChoiceRule is OneChoice as a rule: one uniform bin, drawn as
// oneChoice draws it.
type oneChoiceRule struct{}
