package alloc

import "fmt"

// Greedy is Greedy[d], the d-choice process of Azar, Broder, Karlin and
// Upfal: each ball draws D bins uniformly and independently (with
// replacement) and goes to a least loaded one. For m = n the maximum load is
// ln ln n / ln d + O(1) w.h.p. [ABKU99]; for any m it is
// m/n + ln ln n / ln d ± O(1) [BCSV06].
//
// Ties: the ball goes to the first drawn of the least loaded candidates.
// Because the D draws are independent and identically distributed, their
// order is exchangeable, so "first drawn wins" gives exactly the law of
// "uniformly random among the tied candidates": TiesRandom and TiesLeft run
// the same loop and give the same loads for the same seed.
type Greedy struct {
	D    int
	Ties Ties
}

var _ Process = Greedy{}

// Name returns "greedy".
func (Greedy) Name() string { return "greedy" }

// Check requires n ≥ 1 and 1 ≤ D ≤ 2^20.
func (p Greedy) Check(n int) error {
	if p.D < 1 || p.D > maxChoices {
		return fmt.Errorf("alloc: greedy needs 1 <= d <= %d, got d=%d", maxChoices, p.D)
	}
	return checkBins("greedy", n)
}

// maxChoices bounds d for processes that probe d bins per ball.
const maxChoices = 1 << 20

// Place throws m balls, D probes each.
func (p Greedy) Place(b *Bins, m int64, r *Rand) Stats {
	switch p.D {
	case 1:
		OneChoice{}.Place(b, m, r)
	case 2:
		greedy2(b.wide(), m, r)
		b.balls += m
	default:
		greedyD(b.wide(), m, p.D, r)
		b.balls += m
	}
	return Stats{Probes: m * int64(p.D), MaxProbes: min(m, 1) * int64(p.D)}
}

func greedy2(L []uint32, m int64, r *Rand) {
	n := uint64(len(L))
	s := r.state
	for k := int64(0); k < m; k++ {
		var i, j uint64
		s, i = below(s, n)
		s, j = below(s, n)
		li, lj := L[i], L[j]
		// Written so that the compiler emits conditional moves: the
		// comparison is unpredictable (PERF.md, point 3).
		c, mn := i, li
		if lj < li {
			c, mn = j, lj
		}
		L[c] = mn + 1
	}
	r.state = s
}

func greedyD(L []uint32, m int64, d int, r *Rand) {
	n := uint64(len(L))
	s := r.state
	for k := int64(0); k < m; k++ {
		var c uint64
		s, c = below(s, n)
		mn := L[c]
		for j := 1; j < d; j++ {
			var x uint64
			s, x = below(s, n)
			if lx := L[x]; lx < mn {
				c, mn = x, lx
			}
		}
		L[c] = mn + 1
	}
	r.state = s
}
