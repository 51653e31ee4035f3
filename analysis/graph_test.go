package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
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

// TestDescribeSpectrum compares μ₂ with the dense oracle: exactly (1e-9)
// for the closed forms, and for power iteration within the tolerance its
// stopping rule implies, and never below the true gap by more than
// rounding (the Rayleigh quotient approaches μ₂ from below).
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
		{"regular/n=200/d=3", reg(200, 3), SpectralPower},
		{"regular/n=200/d=16", reg(200, 16), SpectralPower},
		{"hypercube/dim=6", hyper, SpectralPower},
		{"torus/6x6", torus, SpectralPower},
		{"star", star, SpectralPower},
		{"gnp/n=150/p=0.1", gnp, SpectralPower},
		{"nonregular/n=120", non, SpectralPower},
		{"K_30 as CSR", k30, SpectralPower},
	}
	opt := DescribeOptions{MaxIter: 20000, Tol: 1e-12}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := tc.g.(*graphgen.CSR); ok && len(graphgenComponents(tc.g)) > 1 {
				t.Skip("random graph came out disconnected")
			}
			st := DescribeWith(tc.g, opt)
			sp := st.Spectral
			if sp.Method != tc.method {
				t.Fatalf("method %q (%s), want %q", sp.Method, sp.Note, tc.method)
			}
			want := denseLambda2(t, tc.g)
			tol := 1e-9
			if sp.Method == SpectralPower {
				// Stopped when the relative change of the gap fell below
				// 1e-12; the remaining error is a small multiple of that.
				tol = 1e-6
				if !sp.Converged {
					t.Errorf("not converged: %s", sp.Note)
				}
			}
			if math.Abs(sp.Lambda2-want) > tol {
				t.Errorf("μ₂ = %.12f, dense oracle %.12f (method %s, %d iterations)", sp.Lambda2, want, sp.Method, sp.Iterations)
			}
			if sp.Lambda2 > want+1e-9 {
				t.Errorf("μ₂ = %.12f above the true %.12f", sp.Lambda2, want)
			}
			checkCheeger(t, st)
		})
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
	if math.Abs(sp.ExpansionLower-min(sp.Gap/2, 1)) > 1e-15 {
		t.Errorf("ExpansionLower %g, Gap/2 = %g", sp.ExpansionLower, sp.Gap/2)
	}
	if sp.Sweep != nil && sp.Sweep.Conductance < sp.ExpansionLower-1e-9 {
		t.Errorf("sweep cut conductance %g below the Cheeger lower bound %g", sp.Sweep.Conductance, sp.ExpansionLower)
	}
	if sp.ExpansionExact && (sp.Expansion < sp.ExpansionLower-1e-12 || sp.Expansion > sp.ExpansionUpper+1e-12) {
		t.Errorf("exact expansion %g outside the Cheeger bounds [%g, %g]", sp.Expansion, sp.ExpansionLower, sp.ExpansionUpper)
	}
}

// TestDescribeCirculantAgainstPower: the circulant's exact gap against
// power iteration on an explicit copy of the same graph.
func TestDescribeCirculantAgainstPower(t *testing.T) {
	for i, c := range []struct{ n, d int }{{500, 8}, {1000, 5}, {2000, 40}} {
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
			pw := DescribeWith(csr, DescribeOptions{MaxIter: 20000, Tol: 1e-11})
			if exact.Spectral.Method != SpectralExact || pw.Spectral.Method != SpectralPower {
				t.Fatalf("methods %q, %q", exact.Spectral.Method, pw.Spectral.Method)
			}
			e, p := exact.Spectral.Gap, pw.Spectral.Gap
			if p < e-1e-9 || (pw.Spectral.Converged && p > e*(1+1e-4)) {
				t.Errorf("exact gap %.10g, power iteration %.10g after %d iterations (converged %v)", e, p, pw.Spectral.Iterations, pw.Spectral.Converged)
			}
			if exact.Components != pw.Components || exact.Regular != pw.Regular || exact.MinDegree != pw.MinDegree || exact.Edges != pw.Edges {
				t.Errorf("implicit %+v, explicit %+v", exact, pw)
			}
			if exact.Spectral.Sweep == nil || pw.Spectral.Sweep == nil {
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
		{"path10", path, 10, 9, 1, 2, 0, false, 1, 10, SpectralPower, -1, 0},
		{"split", split, 6, 4, 0, 2, 1, false, 3, 3, SpectralDisconnected, 0, 0},
		{"cycle100", cyc, 100, 100, 2, 2, 0, true, 1, 100, SpectralPower, -1, 0},
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

// TestDescribeCycle: on C_n power iteration converges slowly (μ₂ and μ₃
// are close), so with the default options it may stop early; whatever it
// reports, the gap estimate must not undercut the true 1 − cos(2π/n) and
// the sweep cut, an actual cut, must not undercut the true σ = 1/⌊n/2⌋
// (two edges leave an arc of ⌊n/2⌋ vertices).
func TestDescribeCycle(t *testing.T) {
	for _, n := range []int{100, 1001} {
		cyc, _ := graphgen.Cycle(n)
		sp := Describe(cyc).Spectral
		gap := 1 - math.Cos(2*math.Pi/float64(n))
		if sp.Gap < gap-1e-12 {
			t.Errorf("C_%d: gap estimate %g below the true %g", n, sp.Gap, gap)
		}
		sigma := 1 / float64(n/2)
		if sp.Sweep == nil || sp.Sweep.Conductance < sigma-1e-12 || sp.ExpansionUpper < sigma {
			t.Errorf("C_%d: sweep %+v, upper %g, true σ = %g", n, sp.Sweep, sp.ExpansionUpper, sigma)
		}
		// At n = 100, 1000 iterations nearly converge and the sweep finds
		// the optimal arc; at n = 1001 the estimate is far off (the
		// lazy walk's μ₃/μ₂ ratio is 1 − O(1/n²)) and says so.
		if n == 100 && sp.Sweep.Conductance > sigma+1e-12 {
			t.Errorf("C_%d: sweep cut conductance %g, want the optimal %g", n, sp.Sweep.Conductance, sigma)
		}
		if n == 1001 && (sp.Converged || sp.Note == "") {
			t.Errorf("C_%d: power iteration claims convergence: %+v", n, sp)
		}
	}
}

// TestDescribeHypercube: Q_d has μ₂ = 1 − 2/d and σ = 1/d (Harper), so the
// Cheeger bounds 1/d ≤ σ ≤ 2/sqrt(d) hold with equality at the bottom.
func TestDescribeHypercube(t *testing.T) {
	g, _ := graphgen.Hypercube(10)
	// μ₂ is isolated: the lazy walk's eigenvalues are 0.9 and then 0.8,
	// so the error falls geometrically, by (0.8/0.9)² a step, and is
	// about 4 times the last change when the iteration stops.
	for _, tol := range []float64{0, 1e-10} {
		sp := DescribeWith(g, DescribeOptions{Tol: tol}).Spectral
		want := 5 * max(tol, 1e-4) // the default tolerance is 1e-4
		if !sp.Converged || sp.Gap < 0.2-1e-12 || sp.Gap-0.2 > want*0.2 {
			t.Errorf("tol %g: gap %g (converged %v), want 2/10 within a relative %g", tol, sp.Gap, sp.Converged, want)
		}
	}
	sp := Describe(g).Spectral
	if sp.Sweep == nil || sp.Sweep.Conductance < 0.1-1e-12 {
		t.Errorf("sweep %+v below σ = 1/10", sp.Sweep)
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
		expansion bool // set, and then equal to the Cheeger lower bound or the exact value
	}{
		{"K_100", graphgen.Complete(100), 99, true},
		{"regular", reg, 8, true},
		{"nonregular", non, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := Describe(tc.g)
			var q Query
			st.FillQuery(&q)
			if q.Degree != tc.degree || q.MinDegree != float64(st.MinDegree) || (q.Expansion > 0) != tc.expansion {
				t.Errorf("query %+v", q)
			}
			if err := (Query{N: 100, M: 100, Expansion: q.Expansion, Degree: q.Degree}).Validate(); err != nil {
				t.Error(err)
			}
		})
	}
	// An unconverged estimate is not fed to the bounds.
	st := DescribeWith(cyc, DescribeOptions{MaxIter: 30})
	var q Query
	st.FillQuery(&q)
	if st.Spectral.Converged || q.Expansion != 0 || q.Degree != 2 {
		t.Errorf("cycle: converged %v, query %+v", st.Spectral.Converged, q)
	}
	if !slices.Contains([]string{SpectralPower}, st.Spectral.Method) {
		t.Errorf("cycle: method %q", st.Spectral.Method)
	}
}

// BenchmarkDescribe: a random 16-regular graph on 10^6 vertices (degrees,
// components, power iteration, sweep) and the circulant closed form on
// n = 10^8.
func BenchmarkDescribe(b *testing.B) {
	if testing.Short() {
		b.Skip("large")
	}
	reg, _, err := graphgen.RandomRegular(1_000_000, 16, rand.NewPCG(1, 2))
	if err != nil {
		b.Fatal(err)
	}
	circ, _ := graphgen.RandomCirculant(100_000_000, 16, rand.NewPCG(1, 2))
	for _, c := range []struct {
		name string
		g    graphgen.Graph
	}{{"regular/n=1e6/d=16", reg}, {"circulant/n=1e8/d=16", circ}} {
		b.Run(c.name, func(b *testing.B) {
			var st GraphStats
			for b.Loop() {
				st = Describe(c.g)
			}
			b.ReportMetric(float64(st.Spectral.Iterations), "iterations")
			b.ReportMetric(st.Spectral.Gap, "gap")
		})
	}
}

// Describe on the hypercube Q_8: μ₂ = 1 − 2/8, so Cheeger brackets the
// edge expansion σ = 1/8 (Harper) between gap/2 and sqrt(2·gap). Power
// iteration stops a little above the true gap (0.7072 > sqrt(1/2)), and
// μ₂ has 8 eigenvectors, so the sweep cut of the one found is not a
// half-cube.
func ExampleDescribe() {
	g, _ := graphgen.Hypercube(8)
	st := Describe(g)
	sp := st.Spectral
	fmt.Printf("n=%d edges=%d %d-regular=%v components=%d\n", st.N, st.Edges, st.MaxDegree, st.Regular, st.Components)
	fmt.Printf("gap %.3f (%s, converged %v)\n", sp.Gap, sp.Method, sp.Converged)
	fmt.Printf("%.4f <= sigma <= %.4f, sweep cut %.4f\n", sp.ExpansionLower, sp.ExpansionUpper, sp.Sweep.Conductance)
	var q Query
	st.FillQuery(&q)
	fmt.Printf("Query: Degree=%g Expansion=%.4f\n", q.Degree, q.Expansion)
	// Output:
	// n=256 edges=1024 8-regular=true components=1
	// gap 0.250 (power iteration, converged true)
	// 0.1250 <= sigma <= 0.7072, sweep cut 0.2461
	// Query: Degree=8 Expansion=0.1250
}
