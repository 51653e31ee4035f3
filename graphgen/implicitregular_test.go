package graphgen

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFeistelBijection checks that FeistelInverse undoes FeistelForward,
// and that the forward network permutes all 4^w values, for small w.
func TestFeistelBijection(t *testing.T) {
	src := rand.NewPCG(1, 2)
	for w := uint(1); w <= 8; w++ {
		var k FeistelKey
		for i := range k {
			k[i] = src.Uint64() | uint64(i&1)
		}
		N := uint64(1) << (2 * w)
		seen := make([]bool, N)
		for x := range N {
			y := FeistelForward(x, &k, w)
			if y >= N || seen[y] {
				t.Fatalf("w=%d: F(%d) = %d repeats or leaves [0, %d)", w, x, y, N)
			}
			seen[y] = true
			if z := FeistelInverse(y, &k, w); z != x {
				t.Fatalf("w=%d: inverse(F(%d)) = %d", w, x, z)
			}
		}
	}
}

// TestPermutationRegularDegrees checks, on small n (powers of 4 and not,
// so that cycle walking runs), that every π_j is a permutation whose
// inverse is Inverse, and that every vertex has exactly Δ neighbours with
// the edge relation symmetric (v lists w as often as w lists v).
func TestPermutationRegularDegrees(t *testing.T) {
	for _, tc := range []struct{ n, Delta int }{{3, 2}, {5, 4}, {16, 6}, {17, 4}, {100, 8}, {1000, 16}, {4097, 2}} {
		g, err := NewPermutationRegular(tc.n, tc.Delta, rand.NewPCG(uint64(tc.n), 7))
		if err != nil {
			t.Fatal(err)
		}
		if g.Order() != tc.n || g.Size() != int64(tc.n*tc.Delta/2) || g.Degree(0) != tc.Delta {
			t.Fatalf("n=%d Delta=%d: order %d size %d degree %d", tc.n, tc.Delta, g.Order(), g.Size(), g.Degree(0))
		}
		for j := range g.Permutations() {
			seen := make([]bool, tc.n)
			for u := range tc.n {
				v := g.Perm(j, u)
				if v < 0 || v >= tc.n || seen[v] {
					t.Fatalf("n=%d: π_%d is not a permutation (π(%d) = %d)", tc.n, j, u, v)
				}
				seen[v] = true
				if g.Inverse(j, v) != u {
					t.Fatalf("n=%d: π_%d⁻¹(π_%d(%d)) = %d", tc.n, j, j, u, g.Inverse(j, v))
				}
			}
		}
		mult := map[[2]int]int{}
		for v := range tc.n {
			deg := 0
			g.Visit(v, func(w int, _ int64) bool { deg++; mult[[2]int{v, w}]++; return false })
			if deg != tc.Delta {
				t.Fatalf("n=%d: vertex %d has %d neighbours, want %d", tc.n, v, deg, tc.Delta)
			}
		}
		for e, c := range mult {
			if mult[[2]int{e[1], e[0]}] != c {
				t.Fatalf("n=%d: %d lists %d %d times, the reverse %d", tc.n, e[0], e[1], c, mult[[2]int{e[1], e[0]}])
			}
		}
	}
	for _, bad := range []struct{ n, Delta int }{{0, 2}, {10, 3}, {10, 0}, {4, 4}} {
		if _, err := NewPermutationRegular(bad.n, bad.Delta, rand.NewPCG(1, 1)); err == nil {
			t.Errorf("n=%d Delta=%d: no error", bad.n, bad.Delta)
		}
	}
}

// TestPermutationCycleMean checks a(k)/(2k) against direct counts: d loops
// (a uniform permutation has one fixed point on average), and d² − d/2
// parallel pairs (d(d−1)/2 pairs of permutations agreeing at a vertex,
// as many with one the other's inverse, and d/2 from the 2-cycles of one).
func TestPermutationCycleMean(t *testing.T) {
	for d := 1; d <= 8; d++ {
		D := float64(d)
		if got := PermutationCycleMean(d, 1); got != D {
			t.Errorf("d=%d: loops %g, want %g", d, got, D)
		}
		if got := PermutationCycleMean(d, 2); math.Abs(got-(D*D-D/2)) > 1e-12 {
			t.Errorf("d=%d: parallel pairs %g, want %g", d, got, D*D-D/2)
		}
	}
}

// TestPermutationRegularShortCycles counts the cycles of lengths 1..6 in
// the 4-regular graph on 10^4 vertices over several seeds, against the
// Poisson means a(k)/(2k) of the permutation model: the totals over S
// independent graphs are Poisson with means S·a(k)/(2k) (the O(k²/n)
// corrections at n = 10^4 are below 0.4% of them), so the chi-squared sum
// over k has 6 degrees of freedom; 22.5 is its 99.9% point. A graph
// whose two permutations coincide (every edge doubled) is the negative
// control.
func TestPermutationRegularShortCycles(t *testing.T) {
	const (
		n, Delta, K = 10000, 4, 6
		chi2Limit   = 22.46 // χ²_6, 99.9%
	)
	seeds := 8
	if testing.Short() {
		seeds = 3
	}
	total := make([]int64, K+1)
	for s := range seeds {
		g, err := NewPermutationRegular(n, Delta, rand.NewPCG(uint64(s), 99))
		if err != nil {
			t.Fatal(err)
		}
		for k, c := range g.CountShortCycles(K) {
			total[k] += c
		}
	}
	chi2 := 0.0
	for k := 1; k <= K; k++ {
		mu := float64(seeds) * PermutationCycleMean(Delta/2, k)
		chi2 += (float64(total[k]) - mu) * (float64(total[k]) - mu) / mu
		t.Logf("k=%d: %d cycles in %d graphs, Poisson mean %.1f", k, total[k], seeds, mu)
	}
	if chi2 > chi2Limit {
		t.Errorf("chi-squared %.1f over k = 1..%d exceeds %.1f", chi2, K, chi2Limit)
	}

	g, _ := NewPermutationRegular(n, Delta, rand.NewPCG(1, 99))
	g.keys = []FeistelKey{g.keys[0], g.keys[0]}
	if c := g.CountShortCycles(2); float64(c[2]) < 100*PermutationCycleMean(2, 2) {
		t.Errorf("negative control: %d parallel pairs with π_0 = π_1, want about n", c[2])
	}
}

// TestPermutationRegularSpectralGap estimates the largest nontrivial
// |eigenvalue| of the random walk on the 16-regular graph on 10^5 vertices
// by power iteration on P² (the constant vector projected out), against
// the Alon–Boppana/Friedman value ρ = 2√15/16 ≈ 0.484: the spectral gap
// 1 − ρ. Friedman's theorem puts it below ρ + o(1) w.h.p. (the edge
// fluctuates by about n^{−2/3} ≈ 0.002 at this n), Alon–Boppana above
// ρ − o(1). Power iteration approaches it from below, slowly, since the
// Kesten–McKay density vanishes at the edge like a square root: after 60
// steps of P² it is within a few percent. Hence the band [0.93ρ, ρ + 0.02].
// The negative control, eight copies of one permutation (the union of its
// cycles: a long cycle has eigenvalues near 1), must fail it.
func TestPermutationRegularSpectralGap(t *testing.T) {
	if testing.Short() {
		t.Skip("10^5 vertices, 120 products with the walk matrix")
	}
	const n, Delta = 100000, 16
	rho := 2 * math.Sqrt(Delta-1) / Delta
	g, err := NewPermutationRegular(n, Delta, rand.NewPCG(5, 5))
	if err != nil {
		t.Fatal(err)
	}
	mu := secondEigenvalue(g, 60)
	t.Logf("largest nontrivial |μ| ≈ %.4f, ρ = %.4f, gap ≈ %.4f against %.4f", mu, rho, 1-mu, 1-rho)
	if mu < 0.93*rho || mu > rho+0.02 {
		t.Errorf("largest nontrivial |μ| ≈ %.4f, want within [%.4f, %.4f]", mu, 0.93*rho, rho+0.02)
	}
	g.keys = slices.Repeat(g.keys[:1], Delta/2)
	if mu := secondEigenvalue(g, 60); mu < rho+0.1 {
		t.Errorf("negative control: one permutation 8 times gives |μ| ≈ %.4f, want near 1", mu)
	}
}

// secondEigenvalue estimates the largest |μ| of P = A/Δ on the vectors
// orthogonal to the constants, by iters steps of power iteration on P².
func secondEigenvalue(g PermutationRegular, iters int) float64 {
	n, d := g.n, len(g.keys)
	fwd, inv := make([]int32, n*d), make([]int32, n*d)
	for u := range n {
		for j := range d {
			v := g.Perm(j, u)
			fwd[u*d+j] = int32(v)
			inv[v*d+j] = int32(u)
		}
	}
	mul := func(y, x []float64) {
		for u := range n {
			s := 0.0
			for j := range d {
				s += x[fwd[u*d+j]] + x[inv[u*d+j]]
			}
			y[u] = s / float64(2*d)
		}
	}
	x, y := make([]float64, n), make([]float64, n)
	src := rand.New(rand.NewPCG(3, 3))
	for i := range x {
		x[i] = src.NormFloat64()
	}
	norm := func(x []float64) float64 {
		mean := 0.0
		for _, v := range x {
			mean += v
		}
		mean /= float64(n)
		s := 0.0
		for i := range x {
			x[i] -= mean
			s += x[i] * x[i]
		}
		return math.Sqrt(s)
	}
	var ratio float64
	for range iters {
		a := norm(x)
		mul(y, x)
		mul(x, y)
		ratio = norm(x) / a
	}
	return math.Sqrt(ratio)
}

// TestPermutationRegularBeyond32Bits: vertex ids above 2^32 − 1. At
// n = 10^10 (w = 17) every π_j and π_j⁻¹ maps [n] into [n] and undoes the
// other, on vertices on both sides of 2^32; the spec plans and builds in
// O(Δ) memory up to MaxImplicitOrder and refuses more, while the explicit
// regular graph, whose ids are 32-bit, stops at MaxOrder.
func TestPermutationRegularBeyond32Bits(t *testing.T) {
	const n = 10_000_000_000
	g, err := NewPermutationRegular(n, 16, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	if g.Half() != 17 {
		t.Errorf("w = %d at n = 10^10, want 17", g.Half())
	}
	src := rand.New(rand.NewPCG(3, 4))
	above := 0
	for range 20000 {
		u := src.IntN(n)
		for j := range g.Permutations() {
			v, w := g.Perm(j, u), g.Inverse(j, u)
			if v < 0 || v >= n || w < 0 || w >= n {
				t.Fatalf("π_%d(%d) = %d, π⁻¹ = %d: outside [0, %d)", j, u, v, w, n)
			}
			if g.Inverse(j, v) != u || g.Perm(j, w) != u {
				t.Fatalf("π_%d and its inverse disagree at %d", j, u)
			}
			if v > MaxOrder {
				above++
			}
		}
	}
	// A fraction p = 1 − 2^32/n ≈ 0.5705 of [n] lies above 2^32 − 1: the
	// 160000 images must too, within 6 standard errors of a binomial
	// proportion (truncated ids would give 0).
	p, N := 1-float64(MaxOrder+1)/n, float64(20000*8)
	if frac := float64(above) / N; math.Abs(frac-p) > 6*math.Sqrt(p*(1-p)/N) {
		t.Errorf("%.4f of the images above 2^32 − 1, want %.4f ± %.4f: ids are truncated", frac, p, 6*math.Sqrt(p*(1-p)/N))
	}

	for _, tc := range []struct {
		spec string
		n    int
		ok   bool
	}{
		{"regular:degree=16,implicit", n, true},
		{"regular:degree=16,implicit", MaxImplicitOrder, true},
		{"regular:degree=16,implicit", MaxImplicitOrder + 2, false},
		{"regular:degree=16", MaxOrder + 1, false},
		{"torus:dim=2,implicit", MaxImplicitOrder, true},
		{"complete", n, true},
		{"complete", MaxCompleteOrder + 1, false},
		{"cycle", MaxOrder + 1, false},
	} {
		sp, err := ParseSpec(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		p, err := sp.Plan(tc.n)
		if (err == nil) != tc.ok {
			t.Errorf("%s at n = %d: plan error %v, want ok = %v", tc.spec, tc.n, err, tc.ok)
			continue
		}
		if err != nil || tc.spec == "torus:dim=2,implicit" {
			continue
		}
		if p.Bytes > 1<<20 {
			t.Errorf("%s at n = %d plans %d bytes, want O(Δ)", tc.spec, tc.n, p.Bytes)
		}
		if p.Edges < 0 {
			t.Errorf("%s at n = %d plans %d edges", tc.spec, tc.n, p.Edges)
		}
		g, _, err := sp.Build(tc.n, rand.NewPCG(1, 1))
		if err != nil || g.Order() != tc.n {
			t.Errorf("%s at n = %d: built %v, %v", tc.spec, tc.n, g, err)
		}
	}
}
