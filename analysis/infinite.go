package analysis

import (
	"fmt"
	"math"
)

// InfiniteMaxD and InfiniteMaxLoad bound the d and the m/n InfiniteTails
// takes.
const (
	InfiniteMaxD    = 64
	InfiniteMaxLoad = 16
)

// infiniteLevels bounds the levels InfiniteTails integrates: Poisson(16)'s
// tail at level 96 is below 1e-45.
const infiniteLevels = 96

// InfiniteTails returns the fixed point s_0, s_1, … of the mean-field
// equations of the infinite process of Azar, Broder, Karlin and Upfal
// (SIAM J. Comput. 1999, §5) with Greedy[d] insertions (d = 1: one
// choice) at m/n = lam: each step a uniformly random ball leaves, then one
// arrives by the rule. With s_i the fraction of bins holding at least i
// balls and n steps a unit of time,
//
//	ds_i/dt = s_{i−1}^d − s_i^d − i·(s_i − s_{i+1})/lam     (s_0 = 1)
//
// (an insertion raises a bin from i−1 to i as in the static process; a
// deletion takes a ball of a bin of load exactly i with probability
// i·(s_i − s_{i+1})/lam, the share of the balls such bins hold). The
// equations hold Σ_{i≥1} s_i = lam at the fixed point. For d = 1 the fixed
// point is Poisson(lam)'s tails, the balls being spread uniformly.
//
// Method: explicit Euler steps of the system truncated where Poisson(lam)'s
// tail falls below 1e-45 (every d ≥ 2 lies below d = 1), from
// Poisson(lam)'s tails (the fixed point for d = 1, of the right mass), with
// a step below the stability limit of the fastest level, until no level
// moves by more than 1e-15 of itself (or 1e-45) in a step. Euler's fixed
// points are the system's, so the result is the fixed point to that
// tolerance; the test checks d = 1 against Poisson's tails and the mass
// for every d. The list stops at the last s_i ≥ tol (tol in [1e-30, 1)).
//
// It is the mean-field (n → ∞) state after the process has run long
// enough to forget its start (a ball lives n·lam steps on average); at
// finite n a bin's tails differ by O(1/n) beside the sampling noise.
func InfiniteTails(d int, lam, tol float64) ([]float64, error) {
	switch {
	case d < 1 || d > InfiniteMaxD:
		return nil, fmt.Errorf("analysis: the infinite process's fixed point needs 1 <= d <= %d, got %d", InfiniteMaxD, d)
	case !(lam > 0 && lam <= InfiniteMaxLoad):
		return nil, fmt.Errorf("analysis: the infinite process's fixed point needs 0 < m/n <= %d, got %g", InfiniteMaxLoad, lam)
	case !(tol >= 1e-30 && tol < 1):
		return nil, fmt.Errorf("analysis: tol must lie in [1e-30, 1), got %g", tol)
	}
	// The levels: up to where Poisson(lam)'s tail falls below 1e-45, which
	// every d ≥ 2 lies below.
	K := 0
	s := make([]float64, infiniteLevels+2)
	p := math.Exp(-lam) // P(X = i) for X ~ Poisson(lam)
	s[0] = 1
	for K < infiniteLevels && s[K] >= 1e-45 {
		K++
		s[K] = max(s[K-1]-p, 0)
		p *= lam / float64(K)
	}
	s = s[:K+2]
	pw := func(x float64) float64 {
		y := x
		for range d - 1 {
			y *= x
		}
		return y
	}
	dt := 0.5 / (float64(K+1)/lam + float64(d))
	ds := make([]float64, K+1)
	for range 10_000_000 {
		done := true
		for i := 1; i <= K; i++ {
			ds[i] = dt * (pw(s[i-1]) - pw(s[i]) - float64(i)*(s[i]-s[i+1])/lam)
			if math.Abs(ds[i]) > 1e-15*s[i]+1e-45*dt {
				done = false
			}
		}
		for i := 1; i <= K; i++ {
			s[i] = max(s[i]+ds[i], 0)
		}
		if done {
			break
		}
	}
	last := 0
	for i := 1; i <= K && s[i] >= tol; i++ {
		last = i
	}
	return s[:last+1], nil
}
