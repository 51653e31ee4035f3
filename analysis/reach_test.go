package analysis

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	ybgraph "github.com/yourbasic/graph"
)

func mkGraph(n int, edges ...[2]int) *ybgraph.Mutable {
	g := ybgraph.New(n)
	for _, e := range edges {
		g.AddBoth(e[0], e[1])
	}
	return g
}

func pathGraph(n int) *ybgraph.Mutable {
	g := ybgraph.New(n)
	for v := 0; v+1 < n; v++ {
		g.AddBoth(v, v+1)
	}
	return g
}

func cycleGraph(n int) *ybgraph.Mutable {
	g := pathGraph(n)
	g.AddBoth(n-1, 0)
	return g
}

func completeGraph(n int) *ybgraph.Mutable {
	g := ybgraph.New(n)
	for v := range n {
		for w := v + 1; w < n; w++ {
			g.AddBoth(v, w)
		}
	}
	return g
}

// petersen: outer 5-cycle 0..4, inner pentagram 5..9, spokes i–i+5.
// 3-regular, 15 edges, edge connectivity 3.
func petersen() *ybgraph.Mutable {
	g := ybgraph.New(10)
	for i := range 5 {
		g.AddBoth(i, (i+1)%5)
		g.AddBoth(5+i, 5+(i+2)%5)
		g.AddBoth(i, i+5)
	}
	return g
}

// bruteEdgeConnectivity returns the size of the smallest edge set whose
// removal disconnects g (g connected, at least two vertices), trying every
// subset by increasing size: independent of the polynomial.
func bruteEdgeConnectivity(t *testing.T, g *ybgraph.Mutable) int {
	t.Helper()
	var edges [][2]int
	for v := range g.Order() {
		g.Visit(v, func(w int, _ int64) bool {
			if v < w {
				edges = append(edges, [2]int{v, w})
			}
			return false
		})
	}
	connectedWithout := func(mask uint64) bool {
		h := ybgraph.New(g.Order())
		for i, e := range edges {
			if mask&(1<<i) == 0 {
				h.AddBoth(e[0], e[1])
			}
		}
		return ybgraph.Connected(h)
	}
	for k := 1; k <= len(edges); k++ {
		// Every mask with k bits set.
		for mask := uint64(1)<<k - 1; mask < 1<<len(edges); {
			if !connectedWithout(mask) {
				return k
			}
			// Gosper's hack: the next larger number with k bits.
			c := mask & -mask
			r := mask + c
			mask = (((r ^ mask) >> 2) / c) | r
		}
	}
	t.Fatal("no disconnecting edge set")
	return 0
}

func mustReach(t *testing.T, g ybgraph.Iterator, root int) *ReachPoly {
	t.Helper()
	r, err := ReachPolynomial(g, root)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func coefs(r *ReachPoly) []int64 {
	out := make([]int64, len(r.Coef))
	for i, c := range r.Coef {
		out[i] = c.Int64()
	}
	return out
}

// Hand-computed polynomials.
func TestReachPolynomialHand(t *testing.T) {
	cases := []struct {
		name string
		g    ybgraph.Iterator
		root int
		want []int64 // coefficients of 1, p, p², …
	}{
		// One edge: the other end is reached with probability p.
		{"edge", pathGraph(2), 0, []int64{1, 1}},
		// Path 0–1–2 from an end: 1 + p + p².
		{"path3 end", pathGraph(3), 0, []int64{1, 1, 1}},
		// From the middle: 1 + 2p (the p² coefficient is 0).
		{"path3 middle", pathGraph(3), 1, []int64{1, 2, 0}},
		// Triangle: each other vertex is reached directly (p) or, failing
		// that, around (1 − p)p²: 1 + 2(p + p² − p³) = 1 + 2p + 2p² − 2p³.
		{"triangle", cycleGraph(3), 0, []int64{1, 2, 2, -2}},
		// An isolated vertex beside the root's edge changes nothing.
		{"edge plus isolated", mkGraph(3, [2]int{0, 1}), 0, []int64{1, 1}},
		// Parallel listings count once: the edge listed three times.
		{"repeated edge", mkGraph(2, [2]int{0, 1}, [2]int{0, 1}, [2]int{1, 0}), 1, []int64{1, 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := mustReach(t, tc.g, tc.root)
			got := coefs(r)
			if len(got) != len(tc.want) {
				t.Fatalf("coefficients %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("coefficients %v, want %v", got, tc.want)
				}
			}
		})
	}
}

// EV is the same function in the N-form (Eval), the power basis (EvalRat),
// and at the ends: EV(0) = 1, EV(1) = |V|.
func TestReachPolynomialForms(t *testing.T) {
	for _, g := range []*ybgraph.Mutable{petersen(), completeGraph(5), cycleGraph(7)} {
		r := mustReach(t, g, 0)
		if r.Coef[0].Int64() != 1 || r.DerivAt1(0).Int64() != int64(g.Order()) {
			t.Errorf("EV(0) = %v, EV(1) = %v; want 1 and %d", r.Coef[0], r.DerivAt1(0), g.Order())
		}
		for _, p := range []*big.Rat{big.NewRat(0, 1), big.NewRat(1, 3), big.NewRat(1, 2), big.NewRat(9, 10), big.NewRat(1, 1)} {
			exact, _ := r.EvalRat(p).Float64()
			pf, _ := p.Float64()
			if got := r.Eval(pf); math.Abs(got-exact) > 1e-12*exact {
				t.Errorf("Eval(%v) = %v, EvalRat = %v", p, got, exact)
			}
		}
	}
}

// The characterisation of [GJ10]: EV′(G;1) = … = EV^(k−1)(G;1) = 0 iff
// G is k-edge-connected, checked against a brute-force edge connectivity
// and from every root.
func TestReachEdgeConnectivity(t *testing.T) {
	// Two triangles joined by two disjoint edges: 2-edge-connected, not 3.
	twoTriangles := mkGraph(6, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 0},
		[2]int{3, 4}, [2]int{4, 5}, [2]int{5, 3}, [2]int{0, 3}, [2]int{1, 4})
	// Two K4 joined by a bridge: 1-edge-connected although δ = 3.
	bridged := mkGraph(8, [2]int{0, 1}, [2]int{0, 2}, [2]int{0, 3}, [2]int{1, 2}, [2]int{1, 3}, [2]int{2, 3},
		[2]int{4, 5}, [2]int{4, 6}, [2]int{4, 7}, [2]int{5, 6}, [2]int{5, 7}, [2]int{6, 7}, [2]int{3, 4})
	// K_{3,3}: 3-edge-connected.
	k33 := ybgraph.New(6)
	for a := range 3 {
		for b := 3; b < 6; b++ {
			k33.AddBoth(a, b)
		}
	}
	cases := []struct {
		name   string
		g      *ybgraph.Mutable
		lambda int // known edge connectivity
	}{
		{"path5", pathGraph(5), 1},
		{"star", mkGraph(5, [2]int{0, 1}, [2]int{0, 2}, [2]int{0, 3}, [2]int{0, 4}), 1},
		{"cycle6", cycleGraph(6), 2},
		{"two triangles, two links", twoTriangles, 2},
		{"two K4, one bridge", bridged, 1},
		{"K4", completeGraph(4), 3},
		{"K5", completeGraph(5), 4},
		{"K6", completeGraph(6), 5},
		{"K33", k33, 3},
		{"petersen", petersen(), 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if b := bruteEdgeConnectivity(t, tc.g); b != tc.lambda {
				t.Fatalf("brute force gives λ = %d, case says %d", b, tc.lambda)
			}
			for root := range tc.g.Order() {
				r := mustReach(t, tc.g, root)
				if got := r.EdgeConnectivity(); got != tc.lambda {
					t.Errorf("root %d: EdgeConnectivity = %d, want %d", root, got, tc.lambda)
				}
				for k := 1; k <= tc.lambda+1; k++ {
					if got, want := r.KEdgeConnected(k), k <= tc.lambda; got != want {
						t.Errorf("root %d: KEdgeConnected(%d) = %v, want %v", root, k, got, want)
					}
				}
				// The first non-zero derivative has sign (−1)^(λ+1).
				want := 1
				if tc.lambda%2 == 1 {
					want = -1
				}
				if s := r.DerivAt1(tc.lambda).Sign(); s != -want {
					t.Errorf("root %d: sign of EV^(λ)(1) = %d, want %d", root, s, -want)
				}
			}
		})
	}
}

// Monte Carlo against the exact value: the 95% CI must cover it for a fixed
// seed, and the error stays within 4 standard errors over several seeds.
func TestReachMonteCarlo(t *testing.T) {
	g := petersen()
	r := mustReach(t, g, 0)
	const samples = 4000
	for _, p := range []float64{0.3, 0.5, 0.8} {
		exact := r.Eval(p)
		misses := 0
		for seed := range uint64(5) {
			est, err := ReachMonteCarlo(g, 0, p, samples, rand.NewPCG(seed, 99))
			if err != nil {
				t.Fatal(err)
			}
			se := est.Std / math.Sqrt(samples)
			if math.Abs(est.Mean-exact) > 4*se {
				t.Errorf("p=%g seed %d: estimate %.4f ± %.4f, exact %.4f", p, seed, est.Mean, se, exact)
			}
			if exact < est.CI95[0] || exact > est.CI95[1] {
				misses++
			}
		}
		// P(≥ 3 of 5 independent 95% intervals miss) ≈ 1e-3.
		if misses >= 3 {
			t.Errorf("p=%g: %d of 5 confidence intervals miss the exact value", p, misses)
		}
	}
	for _, tc := range []struct{ p, want float64 }{{0, 1}, {1, 10}} {
		est, err := ReachMonteCarlo(g, 3, tc.p, 10, rand.NewPCG(1, 2))
		if err != nil || est.Mean != tc.want || est.Std != 0 {
			t.Errorf("p=%g: %+v, %v; want mean %g exactly", tc.p, est, err, tc.want)
		}
	}
}

func TestReachErrors(t *testing.T) {
	if _, err := ReachPolynomial(completeGraph(9), 0); err == nil { // 36 edges
		t.Error("K9: want a too-many-edges error")
	}
	if _, err := ReachPolynomial(pathGraph(3), 3); err == nil {
		t.Error("root 3 of 3 vertices: want an error")
	}
	for _, tc := range []struct {
		root    int
		p       float64
		samples int
	}{{-1, 0.5, 10}, {0, 1.5, 10}, {0, math.NaN(), 10}, {0, 0.5, 1}} {
		if _, err := ReachMonteCarlo(pathGraph(3), tc.root, tc.p, tc.samples, rand.NewPCG(1, 1)); err == nil {
			t.Errorf("%+v: want an error", tc)
		}
	}
	// A lone root: EV ≡ 1, connectivity 0.
	r := mustReach(t, ybgraph.New(1), 0)
	if r.EdgeConnectivity() != 0 || r.Eval(0.5) != 1 {
		t.Errorf("single vertex: λ = %d, EV(½) = %g", r.EdgeConnectivity(), r.Eval(0.5))
	}
}

func BenchmarkReachPolynomial(b *testing.B) {
	g := petersen() // 15 edges: 2^15 leaves
	for b.Loop() {
		if _, err := ReachPolynomial(g, 0); err != nil {
			b.Fatal(err)
		}
	}
}
