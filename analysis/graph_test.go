package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/graphalloc/graphalloc/graphgen"
)

// denseLambda2 returns μ₂ of D⁻¹A for a small connected graph, from a dense
// symmetric eigendecomposition of D^{−1/2}AD^{−1/2} (gonum/mat): an oracle
// independent of both closed forms and power iteration.
func denseLambda2(t *testing.T, g graphgen.Graph) float64 {
	t.Helper()
	n := g.Order()
	a := mat.NewSymDense(n, nil)
	for v := range n {
		g.Visit(v, func(w int, _ int64) bool {
			a.SetSym(v, w, 1/math.Sqrt(float64(g.Degree(v))*float64(g.Degree(w))))
			return false
		})
	}
	var es mat.EigenSym
	if !es.Factorize(a, false) {
		t.Fatal("eigendecomposition failed")
	}
	ev := es.Values(nil) // ascending
	return ev[n-2]
}

func mustCSR(t *testing.T, g *graphgen.CSR, err error) *graphgen.CSR {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestDescribeSpectrum compares the interval with the dense oracle: the
// closed forms to 1e-9, Lanczos (certified by the dense Cholesky
// factorisation here, n ≤ 2048) must contain μ₂ and, converged, be
// narrower than Tol relative.
func TestDescribeSpectrum(t *testing.T) {
	src := rand.NewPCG(1, 2)
	reg := func(n, d int) graphgen.Graph {
		g, _, err := graphgen.RandomRegular(n, d, src)
		return mustCSR(t, g, err)
	}
	circ := func(n, d int) graphgen.Graph {
		g, err := graphgen.RandomCirculant(n, d, src)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	hyper, _ := graphgen.Hypercube(6)
	torus, _ := graphgen.Torus(2, 6)
	star, _, _ := graphgen.FromEdges(9, []uint32{0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8})
	gnp, _ := graphgen.Gnp(150, 0.1, src)
	non, _, _ := graphgen.Nonregular(120, 3, 12, src)
	k30, err := graphgen.FromIterator(graphgen.Complete(30))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		g      graphgen.Graph
		method string
	}{
		{"complete/n=2", graphgen.Complete(2), SpectralExact},
		{"complete/n=50", graphgen.Complete(50), SpectralExact},
		{"circulant/n=100/d=6", circ(100, 6), SpectralExact},
		{"circulant/n=101/d=10", circ(101, 10), SpectralExact},
		{"circulant/n=200/d=7", circ(200, 7), SpectralExact},
		{"circulant/n=64/d=63", circ(64, 63), SpectralExact},
		{"regular/n=200/d=3", reg(200, 3), SpectralLanczos},
		{"regular/n=200/d=16", reg(200, 16), SpectralLanczos},
		// No Plan: the lattices are not recognised, Lanczos certifies them.
		{"hypercube/dim=6", hyper, SpectralLanczos},
		{"torus/6x6", torus, SpectralLanczos},
		{"star", star, SpectralLanczos},
		{"gnp/n=150/p=0.1", gnp, SpectralLanczos},
		{"nonregular/n=120", non, SpectralLanczos},
		// Every degree n − 1: recognised as K_30.
		{"K_30 as CSR", k30, SpectralExact},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := tc.g.(*graphgen.CSR); ok && len(graphgenComponents(tc.g)) > 1 {
				t.Skip("random graph came out disconnected")
			}
			st := Describe(tc.g)
			sp := st.Spectral
			if sp.Method != tc.method {
				t.Fatalf("method %q (%s), want %q", sp.Method, sp.Note, tc.method)
			}
			want := denseLambda2(t, tc.g)
			if math.Abs(sp.Lambda2-want) > 1e-9 {
				t.Errorf("μ₂ = %.12f, dense oracle %.12f (method %s, %d iterations)", sp.Lambda2, want, sp.Method, sp.Iterations)
			}
			checkInterval(t, sp, 1-want, 1e-4)
			checkCheeger(t, st)
		})
	}
}

// checkInterval: sp is certified, its interval holds the true gap (up to
// the oracle's own rounding, 1e-12) and is as narrow as tol relative.
func checkInterval(t *testing.T, sp Spectral, gap, tol float64) {
	t.Helper()
	if !sp.Certified || !sp.Converged {
		t.Errorf("certified %v, converged %v: %s", sp.Certified, sp.Converged, sp.Note)
	}
	if !(sp.GapLower <= gap+1e-12 && gap <= sp.GapUpper+1e-12) {
		t.Errorf("gap %.15g outside [%.15g, %.15g] (%s)", gap, sp.GapLower, sp.GapUpper, sp.Certificate)
	}
	if sp.GapUpper-sp.GapLower > tol*sp.GapLower {
		t.Errorf("interval [%.12g, %.12g] wider than %g relative", sp.GapLower, sp.GapUpper, tol)
	}
}

// graphgenComponents is yourbasic's Components through the Graph.
func graphgenComponents(g graphgen.Graph) [][]int {
	c, _ := graphgen.FromIterator(g)
	var comps [][]int
	seen := make([]bool, c.Order())
	for s := range c.Order() {
		if seen[s] {
			continue
		}
		comp, stack := []int{}, []int{s}
		seen[s] = true
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			comp = append(comp, v)
			for _, w := range c.Neighbors(v) {
				if !seen[w] {
					seen[w] = true
					stack = append(stack, int(w))
				}
			}
		}
		comps = append(comps, comp)
	}
	return comps
}

// checkCheeger: the bounds are ordered and bracket the sweep cut's
// conductance from below, and the exact value when known.
func checkCheeger(t *testing.T, st GraphStats) {
	t.Helper()
	sp := st.Spectral
	if sp.ExpansionLower < 0 || sp.ExpansionLower > sp.ExpansionUpper || sp.ExpansionUpper > 1 {
		t.Errorf("Cheeger bounds %g, %g out of order", sp.ExpansionLower, sp.ExpansionUpper)
	}
	if math.Abs(sp.ExpansionLower-min(sp.GapLower/2, 1)) > 1e-15 || (!sp.Certified && sp.ExpansionLower != 0) {
		t.Errorf("ExpansionLower %g, GapLower/2 = %g (certified %v)", sp.ExpansionLower, sp.GapLower/2, sp.Certified)
	}
	if math.Abs(sp.ExpansionUpper-min(math.Sqrt(2*sp.GapUpper), 1)) > 1e-15 {
		t.Errorf("ExpansionUpper %g, sqrt(2·GapUpper) = %g", sp.ExpansionUpper, math.Sqrt(2*sp.GapUpper))
	}
	if sp.Sweep != nil && sp.Sweep.Conductance < sp.ExpansionLower-1e-9 {
		t.Errorf("sweep cut conductance %g below the Cheeger lower bound %g", sp.Sweep.Conductance, sp.ExpansionLower)
	}
	if sp.ExpansionExact && (sp.Expansion < sp.ExpansionLower-1e-12 || sp.Expansion > sp.ExpansionUpper+1e-12) {
		t.Errorf("exact expansion %g outside the Cheeger bounds [%g, %g]", sp.Expansion, sp.ExpansionLower, sp.ExpansionUpper)
	}
}

// TestDescribeCirculantAgainstLanczos: the circulant's closed form against
// the certified interval of an explicit copy of the same graph (the
// randomised test above 2048 vertices): the intervals must overlap and
// the exact gap lie in the certified one.
func TestDescribeCirculantAgainstLanczos(t *testing.T) {
	for i, c := range []struct{ n, d int }{{500, 8}, {3000, 6}, {2000, 40}} {
		t.Run(fmt.Sprintf("n=%d/d=%d", c.n, c.d), func(t *testing.T) {
			g, err := graphgen.RandomCirculant(c.n, c.d, rand.NewPCG(uint64(i), 1))
			if err != nil {
				t.Fatal(err)
			}
			exact := Describe(g)
			csr, err := g.CSR()
			if err != nil {
				t.Fatal(err)
			}
			lz := DescribeWith(csr, DescribeOptions{Tol: 1e-3})
			if exact.Spectral.Method != SpectralExact || lz.Spectral.Method != SpectralLanczos {
				t.Fatalf("methods %q, %q (%s)", exact.Spectral.Method, lz.Spectral.Method, lz.Spectral.Note)
			}
			checkInterval(t, lz.Spectral, exact.Spectral.Gap, 1e-3)
			if exact.Components != lz.Components || exact.Regular != lz.Regular || exact.MinDegree != lz.MinDegree || exact.Edges != lz.Edges {
				t.Errorf("implicit %+v, explicit %+v", exact, lz)
			}
			if exact.Spectral.Sweep == nil || lz.Spectral.Sweep == nil {
				t.Fatal("no sweep cut")
			}
		})
	}
}

func TestDescribeBasics(t *testing.T) {
	path, _, _ := graphgen.FromEdges(10, []uint32{0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9})
	// A triangle, an edge and an isolated vertex.
	split, _, _ := graphgen.FromEdges(6, []uint32{0, 1, 1, 2, 2, 0, 3, 4})
	cyc, _ := graphgen.Cycle(100)
	twoCycles, _ := graphgen.NewCirculant(12, []int{2}) // even and odd vertices
	tests := []struct {
		name                      string
		g                         graphgen.Graph
		n                         int
		edges                     int64
		minDeg, maxDeg, isolated  int
		regular                   bool
		components, largest       int
		method                    string
		expansionExact, expansion float64 // expansion < 0: not exact
	}{
		{"empty", graphgen.Complete(0), 0, 0, 0, 0, 0, false, 0, 0, SpectralNone, -1, 0},
		{"K_1", graphgen.Complete(1), 1, 0, 0, 0, 1, true, 1, 1, SpectralNone, -1, 0},
		{"K_7", graphgen.Complete(7), 7, 21, 6, 6, 0, true, 1, 7, SpectralExact, 4.0 / 6, 0},
		{"path10", path, 10, 9, 1, 2, 0, false, 1, 10, SpectralLanczos, -1, 0},
		{"split", split, 6, 4, 0, 2, 1, false, 3, 3, SpectralDisconnected, 0, 0},
		{"cycle100", cyc, 100, 100, 2, 2, 0, true, 1, 100, SpectralExact, 1.0 / 50, 0},
		{"circulant/two cycles", twoCycles, 12, 12, 2, 2, 0, true, 2, 6, SpectralDisconnected, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := Describe(tc.g)
			if st.N != tc.n || st.Edges != tc.edges || st.MinDegree != tc.minDeg || st.MaxDegree != tc.maxDeg ||
				st.Isolated != tc.isolated || st.Regular != tc.regular || st.Components != tc.components || st.LargestComponent != tc.largest {
				t.Errorf("got %+v", st)
			}
			if tc.n > 0 && math.Abs(st.MeanDegree-2*float64(tc.edges)/float64(tc.n)) > 1e-12 {
				t.Errorf("mean degree %g", st.MeanDegree)
			}
			sp := st.Spectral
			if sp.Method != tc.method {
				t.Errorf("method %q, want %q", sp.Method, tc.method)
			}
			if tc.expansionExact >= 0 && (!sp.ExpansionExact || math.Abs(sp.Expansion-tc.expansionExact) > 1e-12) {
				t.Errorf("exact expansion %v %g, want %g", sp.ExpansionExact, sp.Expansion, tc.expansionExact)
			}
			checkCheeger(t, st)
		})
	}
}

// TestDescribeCycle: a connected 2-regular graph is a cycle, so its gap is
// the closed form 1 − cos(2π/n) (computed here as 2·sin²(π/n)) and σ =
// 1/⌊n/2⌋ exactly (two edges leave an arc of ⌊n/2⌋ vertices). Before, power
// iteration reported a gap of 2.28e-4 for C_1000 after 10^5 iterations, the
// true one being 1.97e-5.
func TestDescribeCycle(t *testing.T) {
	for _, n := range []int{3, 100, 1000, 1001, 1 << 20} {
		cyc, _ := graphgen.Cycle(n)
		sp := DescribeWith(cyc, DescribeOptions{MaxIter: 100000}).Spectral
		x := math.Sin(math.Pi / float64(n))
		checkInterval(t, sp, 2*x*x, 1e-12)
		sigma := 1 / float64(n/2)
		if sp.Method != SpectralExact || !sp.ExpansionExact || sp.Expansion != sigma || sp.ExpansionLower > sigma {
			t.Errorf("C_%d: %+v, want σ = %g", n, sp, sigma)
		}
		if n == 3 {
			continue // C_3 is K_3, recognised as complete: no sweep
		}
		if sp.Sweep == nil || sp.Sweep.Conductance < sigma-1e-12 || sp.ExpansionUpper < sigma {
			t.Errorf("C_%d: sweep %+v, upper %g, true σ = %g", n, sp.Sweep, sp.ExpansionUpper, sigma)
		}
		if n <= 1001 && sp.Sweep.Conductance > sigma+1e-12 {
			t.Errorf("C_%d: sweep cut conductance %g, want the optimal %g", n, sp.Sweep.Conductance, sigma)
		}
	}
}

// TestDescribeHypercube: Q_d has μ₂ = 1 − 2/d and σ = 1/d (Harper), so
// Cheeger's lower bound gap/2 meets σ: a gap estimate a little high (power
// iteration printed 0.08337 ≤ σ for Q_12) makes it wrong. Without a Plan
// Lanczos certifies it; with one the closed form applies.
func TestDescribeHypercube(t *testing.T) {
	g, _ := graphgen.Hypercube(10)
	sp := Describe(g).Spectral
	checkInterval(t, sp, 0.2, 1e-4)
	if sp.Certificate != CertDense || sp.ExpansionLower > 0.1 || sp.Sweep == nil || sp.Sweep.Conductance < 0.1-1e-12 {
		t.Errorf("Q_10: %+v", sp)
	}
	spec, _ := graphgen.ParseSpec("hypercube")
	plan, _ := spec.Plan(1 << 12)
	q12, _ := graphgen.Hypercube(12)
	sp = DescribeWith(q12, DescribeOptions{Plan: &plan}).Spectral
	checkInterval(t, sp, 2.0/12, 1e-12)
	if sp.Method != SpectralExact || sp.ExpansionLower > 1.0/12 || sp.Expansion != 1.0/12 {
		t.Errorf("Q_12: %+v", sp)
	}
}

func TestDescribeBudget(t *testing.T) {
	g, err := graphgen.RandomCirculant(1e9, 16, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	st := DescribeWith(g, DescribeOptions{MaxWork: 1e8})
	if st.Spectral.Method != SpectralNone || st.N != 1e9 || st.Edges != 8e9 || !st.Regular || st.MinDegree != 16 {
		t.Errorf("got %+v", st)
	}
	if st.Components != 1 && st.Components != st.N/st.LargestComponent {
		t.Errorf("components %d, largest %d", st.Components, st.LargestComponent)
	}
	reg, _, _ := graphgen.RandomRegular(1000, 4, rand.NewPCG(1, 2))
	if sp := DescribeWith(reg, DescribeOptions{MaxWork: 1e4}).Spectral; sp.Method != SpectralNone || sp.Note == "" {
		t.Errorf("budget ignored: %+v", sp)
	}
}

func TestFillQuery(t *testing.T) {
	reg, _, _ := graphgen.RandomRegular(500, 8, rand.NewPCG(1, 2))
	non, _, _ := graphgen.Nonregular(500, 4, 40, rand.NewPCG(1, 2))
	cyc, _ := graphgen.Cycle(1000)
	tests := []struct {
		name      string
		g         graphgen.Graph
		degree    float64
		expansion float64 // -1: the certified Cheeger lower bound
	}{
		{"K_100", graphgen.Complete(100), 99, 50.0 / 99},
		{"cycle", cyc, 2, 1.0 / 500},
		{"regular", reg, 8, -1},
		{"nonregular", non, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := Describe(tc.g)
			var q Query
			st.FillQuery(&q)
			want := tc.expansion
			if want < 0 {
				want = st.Spectral.GapLower / 2
			}
			if q.Degree != tc.degree || q.MinDegree != float64(st.MinDegree) || q.Expansion != want || (tc.expansion < 0 && !(want > 0)) {
				t.Errorf("query %+v, want Expansion %g", q, want)
			}
			if err := (Query{N: 100, M: 100, Expansion: q.Expansion, Degree: q.Degree}).Validate(); err != nil {
				t.Error(err)
			}
		})
	}
	// An uncertified interval is not fed to the bounds: a budget that
	// leaves the Chebyshev test no room.
	big, _, _ := graphgen.RandomRegular(5000, 3, rand.NewPCG(1, 2))
	st := DescribeWith(big, DescribeOptions{MaxWork: 50 * 20000})
	var q Query
	st.FillQuery(&q)
	if st.Spectral.Certified || q.Expansion != 0 || q.Degree != 3 || st.Spectral.Method != SpectralNone {
		t.Errorf("starved: %+v, query %+v", st.Spectral, q)
	}
}

// BenchmarkDescribe: the circulant closed form on n = 10^8 (degrees,
// components, the scan of n/2 eigenvalues, no sweep at this size).
func BenchmarkDescribe(b *testing.B) {
	if testing.Short() {
		b.Skip("large")
	}
	circ, _ := graphgen.RandomCirculant(100_000_000, 16, rand.NewPCG(1, 2))
	b.Run("circulant/n=1e8/d=16", func(b *testing.B) {
		var st GraphStats
		for b.Loop() {
			st = Describe(circ)
		}
		b.ReportMetric(st.Spectral.Gap, "gap")
	})
}

// BenchmarkCertify: the spectral gap of a random 3-regular graph on 10^6
// vertices certified to 1e-4 relative (Lanczos, then the randomised
// Chebyshev test), at the default failure probability 1e-6 and at 1e-3,
// with the whole of DescribeWith (degrees, components, sweep cut). The
// budget is lifted so that the tolerance, not the budget, decides.
func BenchmarkCertify(b *testing.B) {
	if testing.Short() {
		b.Skip("large")
	}
	g, _, err := graphgen.RandomRegular(1_000_000, 3, rand.NewPCG(1, 2))
	if err != nil {
		b.Fatal(err)
	}
	for _, delta := range []float64{1e-6, 1e-3} {
		b.Run(fmt.Sprintf("regular/n=1e6/d=3/tol=1e-4/delta=%g", delta), func(b *testing.B) {
			var sp Spectral
			for b.Loop() {
				sp = DescribeWith(g, DescribeOptions{Tol: 1e-4, FailureProb: delta, MaxWork: 1e12}).Spectral
			}
			if !sp.Converged {
				b.Fatalf("not certified to 1e-4: %+v", sp)
			}
			b.ReportMetric(float64(sp.Iterations), "lanczos-steps")
			b.ReportMetric(float64(sp.FilterDegree), "test-steps")
			b.ReportMetric((sp.GapUpper-sp.GapLower)/sp.GapLower, "rel-width")
			b.ReportMetric(sp.FailureProb, "failure-prob")
		})
	}
}

// Describe on the hypercube Q_8: μ₂ = 1 − 2/8 (eight times), so Cheeger
// brackets the edge expansion σ = 1/8 (Harper) between gap/2 and
// sqrt(2·gap). Given as a bare CSR it is certified by Lanczos and a
// Cholesky factorisation; given with its Plan it is recognised and gets
// the closed form, and σ exactly. μ₂ has eight eigenvectors, so the sweep
// cut of the one Lanczos finds need not be a half-cube.
func ExampleDescribe() {
	g, _ := graphgen.Hypercube(8)
	st := Describe(g)
	sp := st.Spectral
	fmt.Printf("n=%d edges=%d %d-regular=%v components=%d\n", st.N, st.Edges, st.MaxDegree, st.Regular, st.Components)
	fmt.Printf("gap in [%.9f, %.9f] (%s, %s); contains 1/4: %v\n", sp.GapLower, sp.GapUpper, sp.Method, sp.Certificate, sp.GapLower <= 0.25 && 0.25 <= sp.GapUpper)
	fmt.Printf("%.4f <= sigma <= %.4f (lower end <= 1/8: %v), sweep cut %.4f\n", sp.ExpansionLower, sp.ExpansionUpper, sp.ExpansionLower <= 0.125, sp.Sweep.Conductance)

	spec, _ := graphgen.ParseSpec("hypercube")
	plan, _ := spec.Plan(256)
	st = DescribeWith(g, DescribeOptions{Plan: &plan})
	var q Query
	st.FillQuery(&q)
	fmt.Printf("with its Plan: %s, sigma = %g exactly; Query: Degree=%g Expansion=%g\n", st.Spectral.Method, st.Spectral.Expansion, q.Degree, q.Expansion)
	// Output:
	// n=256 edges=1024 8-regular=true components=1
	// gap in [0.250000000, 0.250000000] (lanczos, dense Cholesky); contains 1/4: true
	// 0.1250 <= sigma <= 0.7071 (lower end <= 1/8: true), sweep cut 0.2383
	// with its Plan: exact, sigma = 0.125 exactly; Query: Degree=8 Expansion=0.125
}
