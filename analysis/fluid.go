package analysis

import (
	"fmt"
	"math"

	"github.com/graphalloc/graphalloc/alloc"
)

// FluidProcess is the mean-field rule of a process (its Descriptor's
// MeanField), the key by which Tails picks the ODE it solves.
//
// The mean-field equations, with s_i(t) the fraction of bins holding at
// least i balls after t·n balls (s_0 = 1, s_i(0) = 0 for i ≥ 1):
//
//	FamilyOneChoice    ds_i/dt = s_{i−1} − s_i                           (Poisson tails)
//	FamilyGreedy       ds_i/dt = s_{i−1}^d − s_i^d                       [Mitzenmacher 1996]
//	FamilyLeft         dy_{i,j}/dt = d·(y_{i−1,j} − y_{i,j})·Π_{k<j} y_{i,k}·Π_{k>j} y_{i−1,k},
//	                   s_i = (1/d)·Σ_j y_{i,j}                           [Vöcking 2003]
//	FamilyMaxOf        ds_i/dt = (1 − s_i)^d − (1 − s_{i−1})^d           [Redlich, "Unbalanced allocations"]
//	FamilyOnePlusBeta  ds_i/dt = (1−β)(s_{i−1} − s_i) + β(s_{i−1}^d − s_i^d) [Peres, Talwar, Wieder 2015: d = 2]
//	FamilyGBounded     ds_i/dt = 2 p_j (s_{j+g+1} + s_{j−g} − (s_j + s_{j+1})/2)       j = i−1, p_j = s_j − s_{j+1}
//	FamilyGMyopic      ds_i/dt = p_j (s_{j−g} + s_{j+g+1})                            (s_k = 1 for k ≤ 0)
//	FamilyNoisy        ds_i/dt = 2 p_j Σ_b p_b Φ((b − j)/(σ√2))                       [Los, Sauerwald 2022: the rules]
//	FamilyThreshold    ds_i/dt = ([i ≤ L] + s_L)(s_{i−1} − s_i)
//	FamilyMeanThinning ds_i/dt = ([i ≤ ⌈t⌉] + s_⌈t⌉)(s_{i−1} − s_i)   (time-dependent; derived in docs/theory.md)
//	FamilyQuantile     ds_i/dt = δ(s_{i−1} − s_i) + (s_{i−1} − max(s_i, δ))⁺      (derived in docs/theory.md)
//
// Each right-hand side is the rate at which bins move from load i−1 to
// load i: a ball raises a bin from i−1 to i exactly when the bin it picks
// holds i−1 balls, and a unit of t is n balls, while s_i counts bins in
// units of n. For greedy the ball goes to load i−1 → i iff the least loaded
// of d candidates holds exactly i−1 balls, probability s_{i−1}^d − s_i^d;
// for unbalanced (MaxOf[d]) iff the most loaded holds exactly i−1, probability
// (1 − s_i)^d − (1 − s_{i−1})^d.
//
// For left, y_{i,j} is the fraction of group j's bins (group j holds n/d of
// them) with load ≥ i. A ball takes one uniform candidate per group and ties
// go to the leftmost group, so it lands in group j at load i−1 → i iff
// group j's candidate holds exactly i−1 balls, every candidate k < j holds
// at least i (a tie at i−1 would go left, to k) and every candidate k > j at
// least i−1. That has probability (y_{i−1,j} − y_{i,j})·Π_{k<j} y_{i,k}·Π_{k>j} y_{i−1,k}
// per ball; dividing by the group's share 1/d of the bins gives the factor d.
//
// For the two-sample rules of Los and Sauerwald (g-bounded, g-myopic,
// noisy), two independent uniform candidates of loads j and b, the first
// taking the ball with probability f(j − b), f(δ) + f(−δ) = 1: the chosen
// bin holds j balls with probability 2 p_j Σ_b p_b f(j − b), which gives
// the three lines above (twoSampleSystem derives them). g = 0 and σ = 0
// are greedy with d = 2.
//
// For the thinning rules (Threshold(L), Mean-Thinning) a ball's first
// uniform bin takes it iff its load is below the threshold — L, or the
// average t, which for t in (k, k+1) means a load ≤ k, i.e. below ⌈t⌉ —
// and otherwise a second uniform bin takes it: a bin of load i−1 is hit
// first with probability s_{i−1} − s_i, and the ball is rejected with
// probability s_L (s_⌈t⌉), whence the lines above. Mean-Thinning's
// right-hand side changes at every whole t; the solver steps exactly to
// each such time (see fluidSystem.piece).
//
// For Quantile(δ) the first bin is rejected iff it is among the δn
// heaviest, i.e. its rank, as a fraction of n counted from the heaviest
// bin, is below δ. The bins of load i−1 hold the ranks [s_i, s_{i−1}), of
// which those at or above δ, a length (s_{i−1} − max(s_i, δ))⁺, keep the
// ball when hit first; every ball is rejected with probability δ and then
// lands at load i−1 with probability s_{i−1} − s_i.
//
// Summed over i ≥ 1, every right-hand side telescopes to 1 (for left, first
// over j: Π_k y_{i−1,k} − Π_k y_{i,k}), so Σ_{i≥1} s_i(t) = t: balls are
// conserved. For d = 1 greedy, left and unbalanced are one-choice, and so is
// one-plus-beta with β = 0; with β = 1 it is greedy with the same d. Its d
// is 2 for (1+β) (D = 0 reads as 2); another d is the mixture of
// one-choice and Greedy[d] that graphical (1+β) is under walk sampling on
// K_n (alloc's graph descriptor).
//
// Citations: Mitzenmacher, The Power of Two Choices in Randomized Load
// Balancing, PhD thesis, Berkeley 1996, and Mitzenmacher, Richa, Sitaraman,
// The Power of Two Random Choices: A Survey (2001), for the method and
// greedy; Vöcking, How Asymmetry Helps Load Balancing, JACM 2003, for left;
// Redlich, Unbalanced Allocations, for unbalanced; Peres, Talwar, Wieder,
// Graphical Balanced Allocations and the (1+β)-Choice Process, RSA 2015;
// Los, Sauerwald, Balanced Allocations with the Choice of Noise, PODC 2022,
// for the two-sample rules (the equations are derived here, docs/theory.md).
//
// D is the number of choices, 1 ≤ d ≤ MaxFluidD, of the greedy, left,
// MaxOf and (1+β) families; Beta is β in [0, 1] of (1+β); Tolerance is g in [0, alloc.MaxG]
// of g-bounded and g-myopic; Sigma is σ in [0, alloc.MaxSigma] of noisy;
// Threshold is L in [0, alloc.MaxThreshold] of threshold; Delta is δ in
// (0, 1) of quantile.
type FluidProcess = alloc.MeanField

// DefaultTailTol is the cut-off of Tails: it returns the tails down to the
// last one ≥ 1e-300.
const DefaultTailTol = 1e-300

// MaxFluidLoad is the largest t = m/n Tails accepts. The work grows with t
// (about linearly for greedy and left, as t^1.5 for one-choice and
// unbalanced, whose distributions widen): t = 1000 takes under a second for
// one-choice and greedy with d = 2, about ten for left with d = 4.
const MaxFluidLoad = 1e4

// MaxFluidD is the largest d Tails accepts. The work grows with d (left
// holds d groups per level; greedy and unbalanced cost O(d) per level and
// their equations stiffen as d grows).
const MaxFluidD = 1024

// solverSettings are the integrator's tolerances: the local error of each
// step is held below atol + rtol·|y| in every component.
type solverSettings struct {
	rtol, atol float64
	// theta caps the growth of every component ≥ tol to a factor e^theta
	// per step, which keeps tails far below atol relatively accurate.
	theta float64
}

var defaultSettings = solverSettings{rtol: 1e-12, atol: 1e-20, theta: 0.5}

const maxSteps = 50_000_000

// Tails returns the fluid limit s_0, s_1, …, s_L of p at time t = m/n:
// s_i is the fraction of bins holding at least i balls as n → ∞, s_0 = 1,
// and the list stops at the last entry ≥ DefaultTailTol. It is
// TailsTol(p, t, DefaultTailTol).
func Tails(p FluidProcess, t float64) ([]float64, error) {
	return TailsTol(p, t, DefaultTailTol)
}

// TailsTol is Tails with the cut-off tol in [1e-300, 1): the result ends at
// the last s_i ≥ tol (s_0 = 1 is always there).
//
// Method. The equations for levels 0..K are closed: level i reads only
// levels i−1 and i (the two-sample rules read levels around i−1 too, but
// only the frozen levels, exactly 1, and the empty ones, exactly 0, lie
// outside what is integrated), so truncating the system above any level is
// exact for the levels kept. The solver integrates the levels that are moving (from
// the first one not yet exactly 1 to a few levels past the last one above
// tol·1e-5, growing the system as the front advances) with the adaptive
// Dormand–Prince 5(4) Runge–Kutta pair, holding the local error of every
// component below 1e-20 + 1e-12·|y|, and lets no tail ≥ tol grow by more
// than a factor e^0.5 in one step. Every one of these systems conserves
// Σ s_i and is cooperative, which makes its flow non-expansive in ℓ1, so
// local errors do not amplify.
//
// Accuracy, measured against closed forms (Poisson tails for one-choice at
// every level; s_1 for every process: tanh t for greedy d = 2 and the others
// in fluid_test.go) and against a run with far tighter tolerances: absolute
// error below 1e-12 on every tail for t ≤ 100 (Σ s_i − t stays below 1e-10
// up to t = 1000); relative error below 1e-9 where s_i ≥ 1e-15, and below
// 1e-3 on the deepest tails, down to 1e-300.
//
// Cost: noisy reads every level, O(levels²) a step; t = 100 takes about a
// second at σ = 1.5.
//
// Errors: a family without a fluid limit, d outside [1, MaxFluidD], β outside
// [0, 1], g or σ out of range, t outside [0, MaxFluidLoad] or tol outside
// [1e-300, 1).
func TailsTol(p FluidProcess, t, tol float64) ([]float64, error) {
	return tailsWith(p, t, tol, defaultSettings)
}

func tailsWith(p FluidProcess, t, tol float64, set solverSettings) ([]float64, error) {
	sys, err := newFluidSystem(p)
	if err != nil {
		return nil, err
	}
	if !(t >= 0 && t <= MaxFluidLoad) {
		return nil, fmt.Errorf("analysis: fluid limit needs a load t = m/n in [0, %g], got %g", float64(MaxFluidLoad), t)
	}
	if !(tol >= 1e-300 && tol < 1) {
		return nil, fmt.Errorf("analysis: tail cut-off needs 1e-300 <= tol < 1, got %g", tol)
	}
	y, levels, err := sys.solve(t, tol, tol*1e-5, set)
	if err != nil {
		return nil, err
	}
	w := sys.w
	s := make([]float64, levels)
	s[0] = 1
	for i := 1; i < levels; i++ {
		var v float64
		for j := range w {
			v += y[i*w+j]
		}
		v /= float64(w)
		// The exact tails lie in [0, 1] and do not increase with i; clip
		// rounding-level violations (far below the stated accuracy).
		s[i] = max(0, min(v, s[i-1]))
	}
	last := 0
	for i := range s {
		if s[i] >= tol {
			last = i
		}
	}
	return s[:last+1], nil
}

// fluidSystem is a truncated mean-field system: w components per level,
// level i at y[i*w : (i+1)*w], level 0 fixed at 1.
type fluidSystem struct {
	w int
	// f sets dy for the components of levels lo..hi (1 ≤ lo), reading
	// levels lo−1..hi of y.
	f func(y, dy []float64, lo, hi int)
	// piece, if not nil, makes the system piecewise autonomous: its
	// right-hand side may change at every whole t, and the solver calls
	// piece(k) before it integrates over [k, k+1), never stepping across
	// a whole t (Mean-Thinning's threshold is the average load t).
	piece func(k int)
}

func newFluidSystem(p FluidProcess) (*fluidSystem, error) {
	needD := func() error {
		if p.D < 1 || p.D > MaxFluidD {
			return fmt.Errorf("analysis: %v needs 1 <= d <= %d, got %d", p.Family, MaxFluidD, p.D)
		}
		return nil
	}
	switch p.Family {
	case alloc.FamilyOneChoice:
		return &fluidSystem{w: 1, f: func(y, dy []float64, lo, hi int) {
			for i := lo; i <= hi; i++ {
				dy[i] = y[i-1] - y[i]
			}
		}}, nil
	case alloc.FamilyGreedy, alloc.FamilyMaxOf:
		if err := needD(); err != nil {
			return nil, err
		}
		d, maxOf := p.D, p.Family == alloc.FamilyMaxOf
		// Greedy: s_{i−1}^d − s_i^d = (a − b)·Σ_{k<d} a^k b^{d−1−k}, no
		// cancellation when a and b are both close to 1. MaxOf:
		// (1 − s_i)^d − (1 − s_{i−1})^d = (s_{i−1} − s_i)·Σ_{k<d} A^k B^{d−1−k}
		// with A = 1 − s_i, B = 1 − s_{i−1}: deep in the tail both powers
		// are close to 1 and the direct difference would lose every digit.
		return &fluidSystem{w: 1, f: func(y, dy []float64, lo, hi int) {
			for i := lo; i <= hi; i++ {
				a, b := y[i-1], y[i]
				if maxOf {
					dy[i] = (a - b) * powSum(1-b, 1-a, d)
				} else {
					dy[i] = (a - b) * powSum(a, b, d)
				}
			}
		}}, nil
	case alloc.FamilyOnePlusBeta:
		beta := p.Beta
		if !(beta >= 0 && beta <= 1) {
			return nil, fmt.Errorf("analysis: %v needs 0 <= beta <= 1, got %g", p.Family, beta)
		}
		if p.D == 0 {
			p.D = 2 // (1+β) itself
		}
		if err := needD(); err != nil {
			return nil, err
		}
		d := p.D
		// powSum(a, b, 2) is a + b exactly: d = 2 is (1+β) bit for bit.
		return &fluidSystem{w: 1, f: func(y, dy []float64, lo, hi int) {
			for i := lo; i <= hi; i++ {
				a, b := y[i-1], y[i]
				dy[i] = (a - b) * ((1 - beta) + beta*powSum(a, b, d))
			}
		}}, nil
	case alloc.FamilyGBounded, alloc.FamilyGMyopic:
		if !alloc.ParamOf(alloc.ParamG).InRange(float64(p.Tolerance)) {
			return nil, fmt.Errorf("analysis: %v needs 0 <= g <= %d, got %d", p.Family, alloc.MaxG, p.Tolerance)
		}
		return twoSampleSystem(p), nil
	case alloc.FamilyNoisy:
		if !alloc.ParamOf(alloc.ParamSigma).InRange(p.Sigma) {
			return nil, fmt.Errorf("analysis: %v needs 0 <= sigma <= %g, got %g", p.Family, float64(alloc.MaxSigma), p.Sigma)
		}
		return twoSampleSystem(p), nil
	case alloc.FamilyThreshold:
		if !alloc.ParamOf(alloc.ParamThreshold).InRange(float64(p.Threshold)) {
			return nil, fmt.Errorf("analysis: %v needs 0 <= threshold <= %d, got %d", p.Family, alloc.MaxThreshold, p.Threshold)
		}
		return thinningSystem(p.Threshold, false), nil
	case alloc.FamilyMeanThinning:
		return thinningSystem(0, true), nil
	case alloc.FamilyQuantile:
		if !alloc.ParamOf(alloc.ParamDelta).InRange(p.Delta) {
			return nil, fmt.Errorf("analysis: %v needs 0 < delta < 1, got %g", p.Family, p.Delta)
		}
		return quantileSystem(p.Delta), nil
	case alloc.FamilyLeft:
		if err := needD(); err != nil {
			return nil, err
		}
		d := p.D
		suf := make([]float64, d)
		return &fluidSystem{w: d, f: func(y, dy []float64, lo, hi int) {
			fd := float64(d)
			for i := lo; i <= hi; i++ {
				cur, prev := y[i*d:(i+1)*d], y[(i-1)*d:i*d]
				// suf[j] = Π_{k>j} y_{i−1,k}
				suf[d-1] = 1
				for j := d - 2; j >= 0; j-- {
					suf[j] = suf[j+1] * prev[j+1]
				}
				pre := 1.0 // Π_{k<j} y_{i,k}
				out := dy[i*d : (i+1)*d]
				for j := range d {
					out[j] = fd * (prev[j] - cur[j]) * pre * suf[j]
					pre *= cur[j]
				}
			}
		}}, nil
	}
	return nil, fmt.Errorf("analysis: no fluid limit for the %v family", p.Family)
}

// thinningSystem is the mean-field system of Threshold(L), or with mean of
// Mean-Thinning, whose threshold is ⌈t⌉ (L = k+1 on the piece [k, k+1)):
//
//	ds_i/dt = ([i ≤ L] + s_L)·(s_{i−1} − s_i).
//
// Level i reads level L besides i−1 and i; a level L below the window is
// exactly 1 and one above it exactly 0, so truncation stays exact. The
// system conserves balls (the rates sum to (1 − s_L) + s_L = 1) and is
// cooperative (every rate grows with s_L and s_{i−1}).
func thinningSystem(L int, mean bool) *fluidSystem {
	sys := &fluidSystem{w: 1}
	sys.f = func(y, dy []float64, lo, hi int) {
		sL := 0.0
		switch {
		case L < lo:
			sL = 1 // frozen: levels below lo may be stale in a stage state
		case L <= hi:
			sL = y[L]
		}
		for i := lo; i <= hi; i++ {
			r := sL
			if i <= L {
				r++
			}
			dy[i] = r * (y[i-1] - y[i])
		}
	}
	if mean {
		sys.piece = func(k int) { L = k + 1 }
	}
	return sys
}

// quantileSystem is the mean-field system of Quantile(δ):
//
//	ds_i/dt = δ·(s_{i−1} − s_i) + (s_{i−1} − max(s_i, δ))⁺.
//
// Level i reads only levels i−1 and i, so truncation is exact. It
// conserves balls (the kept shares sum to the ranks above δ, 1 − δ, and
// the rejected balls to δ) and is cooperative (the rate of level i grows
// with s_{i−1}); its right-hand side is Lipschitz, with a kink where s_i
// or s_{i−1} crosses δ, which the error control resolves by shorter steps.
func quantileSystem(delta float64) *fluidSystem {
	return &fluidSystem{w: 1, f: func(y, dy []float64, lo, hi int) {
		for i := lo; i <= hi; i++ {
			a, b := y[i-1], y[i]
			dy[i] = delta*(a-b) + max(0, a-max(b, delta))
		}
	}}
}

// twoSampleSystem is the mean-field system of a two-sample rule (g-bounded,
// g-myopic, noisy): two independent uniform candidates, of loads j and b,
// and a rule that gives the ball to the first with probability f(j − b),
// where f(δ) + f(−δ) = 1. The chosen bin holds j balls with probability
// Σ_b p_j p_b f(j−b) + Σ_a p_a p_j (1 − f(a−j)) = 2 p_j A_j, with
// p_b = s_b − s_{b+1} and A_j = Σ_b p_b f(j−b), so
//
//	ds_i/dt = 2 (s_{i−1} − s_i) A_{i−1}.
//
// Per rule, with S(k) = s_k (1 for k ≤ 0):
//
//	g-myopic   f = 1, 1/2, 0 for δ < −g, |δ| ≤ g, δ > g:      A_j = (S(j−g) + S(j+g+1)) / 2
//	g-bounded  f = 1 for δ < −g or 0 < δ ≤ g, 1/2 at δ = 0:    A_j = S(j+g+1) + S(j−g) − (S(j) + S(j+1)) / 2
//	noisy      f(δ) = Φ(−δ/(σ√2)):                            A_j = Σ_b p_b Φ((b − j)/(σ√2))
//
// (g-bounded: the adversary sends a ball to the more loaded of two
// candidates within g, and either at equal loads.) g = 0 and σ = 0 give
// A_j = (s_j + s_{j+1})/2 and Greedy[2]'s s_{i−1}² − s_i². Every A_j reads
// levels j−g..j+g+1 (the noise: all levels), not only i−1 and i; the
// levels the solver does not hold are exactly 1 (below its window) or 0
// (above it), which A_j reads as such, so truncation stays exact. Each
// system conserves balls (Σ_j 2 p_j A_j = Σ_{j,b} p_j p_b (f(j−b) +
// f(b−j)) = 1) and is cooperative (every rate grows with every other
// level), as the solver's error control assumes.
func twoSampleSystem(p FluidProcess) *fluidSystem {
	g := p.Tolerance
	sigma := p.Sigma
	var pb []float64  // p_b for b = lo−1..hi
	var phi []float64 // phi[h+δ] = Φ(δ/(σ√2)) for |δ| ≤ h, grown on demand
	h := -1
	growPhi := func(need int) {
		if need <= h {
			return
		}
		h = max(2*h, need, 64)
		phi = make([]float64, 2*h+1)
		for k := range phi {
			x := float64(k - h)
			switch {
			case sigma > 0:
				phi[k] = math.Erfc(-x/(2*sigma)) / 2 // Φ(x/(σ√2))
			case x > 0:
				phi[k] = 1
			case x == 0:
				phi[k] = 0.5
			}
		}
	}
	return &fluidSystem{w: 1, f: func(y, dy []float64, lo, hi int) {
		S := func(k int) float64 {
			switch {
			case k <= lo-1:
				return 1
			case k > hi:
				return 0
			}
			return y[k]
		}
		switch p.Family {
		case alloc.FamilyGMyopic:
			for i := lo; i <= hi; i++ {
				j := i - 1
				dy[i] = (S(j) - S(i)) * (S(j-g) + S(j+g+1))
			}
		case alloc.FamilyGBounded:
			for i := lo; i <= hi; i++ {
				j := i - 1
				pj := S(j) - S(i)
				dy[i] = 2 * pj * (S(j+g+1) + (S(j-g) - S(j)) + pj/2)
			}
		case alloc.FamilyNoisy:
			pb = pb[:0]
			for b := lo - 1; b <= hi; b++ {
				pb = append(pb, S(b)-S(b+1))
			}
			growPhi(len(pb))
			for i := lo; i <= hi; i++ {
				// A_j = Σ_k pb[k]·Φ((b − j)/(σ√2)), b = lo−1+k, j = i−1:
				// phi[h + k − (i − lo)] for k = 0..len(pb)−1.
				row := phi[h-(i-lo):]
				var a float64
				for k, v := range pb {
					a += v * row[k]
				}
				dy[i] = 2 * pb[i-lo] * a
			}
		}
	}}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// powSum returns Σ_{k=0}^{d−1} a^k b^{d−1−k}, so that
// a^d − b^d = (a − b)·powSum(a, b, d). O(d).
func powSum(a, b float64, d int) float64 {
	q, bm := 1.0, 1.0
	for m := 1; m < d; m++ {
		bm *= b
		q = a*q + bm
	}
	return q
}

// Dormand–Prince 5(4) coefficients [Dormand, Prince 1980; Hairer, Nørsett,
// Wanner, Solving Ordinary Differential Equations I, Table II.5.2]. Row 6 of
// dpA is b, the 5th-order weights, which propagate the solution (local
// extrapolation); dpE holds b − b̂, the weights of the error estimate. The
// systems are autonomous, so the nodes c are not needed.
var (
	dpA = [7][6]float64{
		{},
		{1. / 5},
		{3. / 40, 9. / 40},
		{44. / 45, -56. / 15, 32. / 9},
		{19372. / 6561, -25360. / 2187, 64448. / 6561, -212. / 729},
		{9017. / 3168, -355. / 33, 46732. / 5247, 49. / 176, -5103. / 18656},
		{35. / 384, 0, 500. / 1113, 125. / 192, -2187. / 6784, 11. / 84},
	}
	dpE = [7]float64{71. / 57600, 0, -71. / 16695, 71. / 1920, -17253. / 339200, 22. / 525, -1. / 40}
)

// solve integrates from the empty state to time t and returns the state and
// the number of levels held (the levels above are below flush).
//
// Details that keep the error at the level of the tolerances:
//   - Steps are added with compensated (Kahan) summation: components close
//     to 1 receive increments far below their last bit, which plain
//     addition would drop step after step, leaking balls.
//   - A level whose components are all exactly 1, above a level that is too,
//     has zero derivative and is frozen; the window of integrated levels
//     starts above the frozen ones and ends seven levels past the last
//     nonzero level (six stages and the FSAL evaluation can each carry mass
//     one level up), so the work per step is proportional to the width of
//     the moving part of the distribution, not to t.
//   - Components below flush in absolute value are set to zero after each
//     step; that perturbs every tail by at most flush, the flow being
//     non-expansive in ℓ1.
func (sys *fluidSystem) solve(t, tol, flush float64, set solverSettings) ([]float64, int, error) {
	s := newFluidState(sys)
	if t == 0 {
		return s.y, 1, nil
	}
	s.allocStages()
	s.grow(s.hi + 1)
	copy(s.yt[:s.w], s.y[:s.w]) // level 0, read by every stage

	h := t * 1e-6 // small: the tails grow like t^i at first
	if h == 0 {
		h = t
	}
	clk := newFluidClock(sys, t)
	sys.f(s.y, s.k[0], s.lo, s.hi)
	for steps := 0; clk.now < t; steps++ {
		if steps >= maxSteps {
			return nil, 0, fmt.Errorf("analysis: fluid solver took more than %d steps at t = %g of %g", maxSteps, clk.now, t)
		}
		last := false
		if clk.now+h >= clk.end {
			h, last = clk.end-clk.now, true
		}
		errMax := s.tryStep(h, set)
		if math.IsNaN(errMax) {
			return nil, 0, fmt.Errorf("analysis: fluid solver produced NaN at t = %g", clk.now)
		}
		if errMax > 1 {
			h *= max(0.2, 0.9*math.Pow(errMax, -0.2))
			if h < 1e-12*max(clk.now, t*1e-6) {
				return nil, 0, fmt.Errorf("analysis: fluid solver step underflow at t = %g", clk.now)
			}
			continue
		}

		changed := clk.advance(sys, t, h, last) // did a new piece begin, or flushing or freezing move y off yt?
		if s.accept(flush) {
			changed = true
		}
		if s.advanceWindow() || changed {
			sys.f(s.y, s.k[0], s.lo, s.hi)
		} else {
			s.k[0], s.k[6] = s.k[6], s.k[0]
		}
		fac := 5.0
		if errMax > 0 {
			fac = min(5, max(0.2, 0.9*math.Pow(errMax, -0.2)))
		}
		h = s.limitGrowth(h*fac, tol, set.theta)
	}
	return s.y, s.front + 1, nil
}

// fluidClock is the solver's time: now, and the end of the current piece
// of a piecewise system, a system whose f changes at every integer time
// (t for an autonomous system).
type fluidClock struct {
	now, end float64
	piece    int
}

func newFluidClock(sys *fluidSystem, t float64) fluidClock {
	c := fluidClock{end: t}
	if sys.piece != nil {
		sys.piece(0)
		c.end = min(t, 1)
	}
	return c
}

// advance moves the clock past an accepted step of size h, last if the
// step ends the piece, and reports whether the next piece began: f has
// changed, so k[6] is not f of the new state.
func (c *fluidClock) advance(sys *fluidSystem, t, h float64, last bool) bool {
	if !last {
		c.now += h
		return false
	}
	c.now = c.end
	if c.now < t { // the next piece of a piecewise system
		c.piece++
		sys.piece(c.piece)
		c.end = min(t, float64(c.piece+1))
		return true
	}
	return false
}

// fluidReach is how many levels past the last nonzero one the window
// extends: six stages and the FSAL evaluation can each carry mass one level
// up.
const fluidReach = 7

// fluidState is the working memory of solve: the state y with its Kahan
// compensation, the Runge–Kutta stages, and the window [lo, hi] of levels
// being integrated. Every slice holds capLevels·w components; grow extends
// them together, so one index addresses the same component in each.
type fluidState struct {
	sys       *fluidSystem
	w         int
	capLevels int
	y         []float64
	comp      []float64 // Kahan compensation of y
	yt        []float64 // stage state; the candidate new state after stage 6
	inc       []float64 // h·Σ b_r k_r, the step's increment
	k         [7][]float64
	lo, hi    int // levels < lo frozen at 1; levels > hi zero and not integrated
	front     int // last nonzero level
}

// newFluidState returns the empty state (level 0 full, the rest zero) on
// 64 levels; the stages are allocated by allocStages, which t = 0 does not
// need.
func newFluidState(sys *fluidSystem) *fluidState {
	s := &fluidState{sys: sys, w: sys.w, capLevels: 64, lo: 1, front: 0}
	s.hi = s.front + fluidReach
	s.y = make([]float64, s.capLevels*s.w)
	for j := range s.w {
		s.y[j] = 1
	}
	return s
}

func (s *fluidState) allocStages() {
	s.comp = make([]float64, len(s.y))
	s.yt = make([]float64, len(s.y))
	s.inc = make([]float64, len(s.y))
	for i := range s.k {
		s.k[i] = make([]float64, len(s.y))
	}
}

// grow makes room for at least levels levels, at least doubling the
// capacity so that a front moving up one level at a time copies O(levels)
// components in all.
func (s *fluidState) grow(levels int) {
	if levels <= s.capLevels {
		return
	}
	nc := max(levels, 2*s.capLevels)
	ext := func(v []float64) []float64 {
		u := make([]float64, nc*s.w)
		copy(u, v)
		return u
	}
	s.y, s.comp, s.yt, s.inc = ext(s.y), ext(s.comp), ext(s.yt), ext(s.inc)
	for i := range s.k {
		s.k[i] = ext(s.k[i])
	}
	s.capLevels = nc
}

// tryStep computes the six stages and the FSAL evaluation of a step of
// size h from y, given k[0] = f(y), on the window only. It leaves the
// 5th-order solution in yt, its increment in inc and f(yt) in k[6], and
// returns the error estimate scaled by the tolerances (≤ 1: accept).
func (s *fluidState) tryStep(h float64, set solverSettings) float64 {
	sys, lo, hi := s.sys, s.lo, s.hi
	a, b := lo*s.w, (hi+1)*s.w // components of the window
	k0, k1, k2, k3, k4, k5 := s.k[0][a:b], s.k[1][a:b], s.k[2][a:b], s.k[3][a:b], s.k[4][a:b], s.k[5][a:b]
	yw, tw, iw := s.y[a:b], s.yt[a:b], s.inc[a:b]
	// Level lo−1 of yt is 1, as in y: set when lo last moved.
	for c := range yw {
		tw[c] = yw[c] + h*(dpA[1][0]*k0[c])
	}
	sys.f(s.yt, s.k[1], lo, hi)
	for c := range yw {
		tw[c] = yw[c] + h*(dpA[2][0]*k0[c]+dpA[2][1]*k1[c])
	}
	sys.f(s.yt, s.k[2], lo, hi)
	for c := range yw {
		tw[c] = yw[c] + h*(dpA[3][0]*k0[c]+dpA[3][1]*k1[c]+dpA[3][2]*k2[c])
	}
	sys.f(s.yt, s.k[3], lo, hi)
	for c := range yw {
		tw[c] = yw[c] + h*(dpA[4][0]*k0[c]+dpA[4][1]*k1[c]+dpA[4][2]*k2[c]+dpA[4][3]*k3[c])
	}
	sys.f(s.yt, s.k[4], lo, hi)
	for c := range yw {
		tw[c] = yw[c] + h*(dpA[5][0]*k0[c]+dpA[5][1]*k1[c]+dpA[5][2]*k2[c]+dpA[5][3]*k3[c]+dpA[5][4]*k4[c])
	}
	sys.f(s.yt, s.k[5], lo, hi)
	for c := range yw {
		v := h * (dpA[6][0]*k0[c] + dpA[6][2]*k2[c] + dpA[6][3]*k3[c] + dpA[6][4]*k4[c] + dpA[6][5]*k5[c])
		iw[c] = v
		tw[c] = yw[c] + v
	}
	sys.f(s.yt, s.k[6], lo, hi)
	// yt now holds the 5th-order solution and k[6] = f(yt) (FSAL).
	k6 := s.k[6][a:b]
	errMax := 0.0
	for c := range yw {
		e := dpE[0]*k0[c] + dpE[2]*k2[c] + dpE[3]*k3[c] + dpE[4]*k4[c] + dpE[5]*k5[c] + dpE[6]*k6[c]
		sc := set.atol + set.rtol*max(math.Abs(yw[c]), math.Abs(tw[c]))
		errMax = max(errMax, math.Abs(h*e)/sc)
	}
	return errMax
}

// accept adds the step's increment to y on the window with compensated
// summation and flushes components below flush to zero. It reports whether
// y now differs from yt, in which case k[6] = f(yt) is not f(y).
func (s *fluidState) accept(flush float64) bool {
	y, comp, inc, yt := s.y, s.comp, s.inc, s.yt
	changed := false
	for c := s.lo * s.w; c < (s.hi+1)*s.w; c++ {
		yv := y[c]
		d := inc[c] + comp[c]
		v := yv + d
		comp[c] = d - (v - yv)
		if math.Abs(v) < flush {
			v, comp[c] = 0, 0
		}
		if v != yt[c] {
			changed = true
		}
		y[c] = v
	}
	return changed
}

// advanceWindow freezes the levels that reached exactly 1 above a frozen
// level and drops the levels flushed to 0, then re-extends the window
// fluidReach levels past the front. It reports whether the window grew
// upwards, which leaves k[6] unset on the new levels.
func (s *fluidState) advanceWindow() bool {
	w := s.w
	oldLo, oldHi := s.lo, s.hi
	for s.lo < s.hi && levelIs(s.y, s.lo, w, 1) {
		clear(s.comp[s.lo*w : (s.lo+1)*w])
		s.lo++
	}
	s.front = s.lo - 1
	for i := s.hi; i >= s.lo; i-- {
		if !levelIs(s.y, i, w, 0) {
			s.front = i
			break
		}
	}
	s.hi = s.front + fluidReach
	s.grow(s.hi + 1)
	if s.lo != oldLo {
		copy(s.yt[(s.lo-1)*w:s.lo*w], s.y[(s.lo-1)*w:s.lo*w])
	}
	return s.hi > oldHi
}

// limitGrowth caps the step h so that no component ≥ tol grows by more
// than a factor e^theta in one step: the error control alone keeps the
// error below atol, far above the tails that must stay relatively accurate.
func (s *fluidState) limitGrowth(h, tol, theta float64) float64 {
	y, k0 := s.y, s.k[0]
	rho := 0.0
	for c := s.lo * s.w; c < (s.hi+1)*s.w; c++ {
		if y[c] >= tol {
			rho = max(rho, k0[c]/y[c])
		}
	}
	if rho*h > theta {
		return theta / rho
	}
	return h
}

// levelIs reports whether every component of level i equals v.
func levelIs(y []float64, i, w int, v float64) bool {
	for _, x := range y[i*w : (i+1)*w] {
		if x != v {
			return false
		}
	}
	return true
}

// MaxLoadDist returns p[i] ≈ P(max load ≥ i) for i = 0..len(tails)−1 from
// the fluid tails of a run with n bins: the number of bins with load ≥ i is
// close to Poisson with mean n·s_i when that mean is small (Poisson
// clumping), so P(max ≥ i) ≈ 1 − exp(−n·s_i); p[0] = 1. The result does
// not increase with i. n must be ≥ 1; MaxLoadDist panics otherwise.
func MaxLoadDist(tails []float64, n float64) []float64 {
	if !(n >= 1) || math.IsInf(n, 1) {
		panic(fmt.Sprintf("analysis: MaxLoadDist needs a finite n >= 1, got %g", n))
	}
	p := make([]float64, len(tails))
	for i, s := range tails {
		if i == 0 {
			p[i] = 1
			continue
		}
		p[i] = -math.Expm1(-n * s)
		p[i] = min(p[i], p[i-1])
	}
	return p
}

// PredictedMaxLoad returns the most likely maximum load: the i maximising
// P(max = i) = P(max ≥ i) − P(max ≥ i+1) under MaxLoadDist(tails, n), the
// smallest such i on a tie; P(max ≥ len(tails)) is taken as 0. It returns 0
// for empty tails. n must be ≥ 1.
func PredictedMaxLoad(tails []float64, n float64) int {
	p := MaxLoadDist(tails, n)
	best, bestP := 0, -1.0
	for i := range p {
		next := 0.0
		if i+1 < len(p) {
			next = p[i+1]
		}
		if q := p[i] - next; q > bestP {
			best, bestP = i, q
		}
	}
	return best
}
