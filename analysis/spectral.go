package analysis

import (
	"fmt"
	"math"
	"slices"

	"github.com/graphalloc/graphalloc/graphgen"
)

// How Spectral's interval was certified.
const (
	CertClosedForm  = "closed form"               // the graph is recognised and its spectrum known; only rounding is bounded
	CertComponents  = "components"                // disconnected: gap 0 exactly
	CertDense       = "dense Cholesky"            // deterministic: a Cholesky factorisation proves the upper end of μ₂
	CertChebyshev   = "randomised Chebyshev test" // the upper end of μ₂ is wrong with probability at most FailureProb
	closedFormSlack = 32 * unitRoundoff           // relative rounding of the closed forms (a few operations each)
)

// spectralCSR fills the spectrum of a connected CSR g on n ≥ 2 vertices:
// a closed form when g is recognised (closedFormCSR), else certifySpectral.
func spectralCSR(g *graphgen.CSR, st *GraphStats, o DescribeOptions, sweepToo bool) Spectral {
	if sp, ok := closedFormCSR(g, st, o, sweepToo); ok {
		return sp
	}
	return certifySpectral(g, st.Edges, o, sweepToo)
}

// closedFormCSR recognises three families in a connected CSR and returns
// their exact spectrum (graphgen.Spectrum) with the rounding of the closed
// form as the interval:
//
//   - (n−1)-regular: K_n, μ₂ = −1/(n−1), σ = ⌈n/2⌉/(n−1);
//   - 2-regular, n ≥ 3: the cycle C_n (a connected 2-regular graph is
//     one), gap 1 − cos(2π/n), σ = 1/⌊n/2⌋;
//   - the torus or hypercube that o.Plan describes, once every row of g is
//     checked to be exactly that lattice's (O(|E| log Δ)): gap
//     2·sin²(π/side)/dim, and σ = 1/dim for the hypercube [Harper 1964].
//
// A multigraph with a loop or a parallel edge is none of them.
func closedFormCSR(g *graphgen.CSR, st *GraphStats, o DescribeOptions, sweepToo bool) (Spectral, bool) {
	n := st.N
	if !st.Regular || st.Loops > 0 || st.Parallel > 0 {
		return Spectral{}, false
	}
	switch {
	case st.MaxDegree == n-1:
		return completeSpectral(n), true
	case st.MaxDegree == 2 && n >= 3:
		plan, err := graphgen.Spec{Kind: "cycle"}.Plan(n)
		if err != nil || plan.Spectrum == nil {
			return Spectral{}, false
		}
		sp := exactSpectral(plan.Spectrum.Gap, "cycle C_n: gap 1 − cos(2π/n)")
		sp.Expansion, sp.ExpansionExact = 1/float64(n/2), true
		if sweepToo {
			// Number the vertices along the cycle; cos(2π·position/n) is an
			// eigenvector of μ₂.
			f := make([]float64, n)
			prev, v := -1, 0
			for i := range n {
				f[v] = math.Cos(2 * math.Pi * float64(i) / float64(n))
				nb := g.Neighbors(v)
				next := int(nb[0])
				if next == prev {
					next = int(nb[1])
				}
				prev, v = v, next
			}
			sp.Sweep = sweep(f, g.Degree, csrNeighbours(g), 2*st.Edges)
		}
		return sp, true
	}
	p := o.Plan
	if p == nil || p.Spectrum == nil || p.Dim < 1 || p.Side < 2 || p.N != n || !isTorus(g, p.Dim, p.Side) {
		return Spectral{}, false
	}
	what := fmt.Sprintf("torus, dim %d, side %d: gap 2·sin²(π/side)/dim", p.Dim, p.Side)
	if p.Side == 2 {
		what = fmt.Sprintf("hypercube Q_%d: gap 2/dim", p.Dim)
	}
	sp := exactSpectral(p.Spectrum.Gap, what)
	if p.Side == 2 {
		sp.Expansion, sp.ExpansionExact = 1/float64(p.Dim), true
	}
	if sweepToo {
		// The character of the first coordinate, an eigenvector of μ₂.
		f := make([]float64, n)
		for v := range f {
			f[v] = math.Cos(2 * math.Pi * float64(v%p.Side) / float64(p.Side))
		}
		sp.Sweep = sweep(f, g.Degree, csrNeighbours(g), 2*st.Edges)
	}
	return sp, true
}

// exactSpectral is the Spectral of a closed-form gap, with the interval
// gap·(1 ∓ 32u) for the rounding of its few operations.
func exactSpectral(gap float64, note string) Spectral {
	sp := Spectral{Method: SpectralExact, Certificate: CertClosedForm, Certified: true, Converged: true,
		Note: note, Gap: gap, Lambda2: 1 - gap,
		GapLower: gap * (1 - closedFormSlack), GapUpper: gap * (1 + closedFormSlack)}
	sp.cheeger()
	return sp
}

// csrNeighbours is the neighbour visitor of g for sweep.
func csrNeighbours(g *graphgen.CSR) func(v int, do func(w int)) {
	return func(v int, do func(w int)) {
		for _, w := range g.Neighbors(v) {
			do(int(w))
		}
	}
}

// isTorus reports whether g is exactly graphgen.Torus(dim, side) (the
// hypercube for side 2), vertex for vertex: every row holds exactly the
// neighbours v ± side^i of v's coordinates, wrapping around.
func isTorus(g *graphgen.CSR, dim, side int) bool {
	n := g.Order()
	deg := 2 * dim
	if side == 2 {
		deg = dim
	}
	stride := make([]int, dim)
	for i, s := 0, 1; i < dim; i++ {
		stride[i] = s
		if i < dim-1 && s > n/side {
			return false
		}
		s *= side
	}
	want := make([]int, 0, deg)
	for v := range n {
		row := g.Neighbors(v)
		if len(row) != deg {
			return false
		}
		want = want[:0]
		for _, st := range stride {
			x := v / st % side
			up, down := v+st, v-st
			if x == side-1 {
				up = v - (side-1)*st
			}
			if x == 0 {
				down = v + (side-1)*st
			}
			want = append(want, up)
			if side > 2 {
				want = append(want, down)
			}
		}
		slices.Sort(want)
		for _, u := range row {
			if _, found := slices.BinarySearch(want, int(u)); !found {
				return false
			}
		}
	}
	return true
}

// certifySpectral computes and certifies μ₂ of a connected CSR g on n ≥ 2
// vertices that no closed form covers. Lanczos (walk.lanczos) gives a Ritz
// value θ and vector y; then
//
//   - the upper end of the gap is 1 − (θ less rounding), always valid: μ₂
//     is the largest eigenvalue of P̃, so μ₂ ≥ any Rayleigh quotient
//     (rayleighBound);
//   - the lower end, 1 − t, needs a proof that no eigenvalue of P̃ lies
//     above t: for n ≤ o.DenseMax a Cholesky factorisation at
//     t ≈ θ + ‖r‖ (walk.denseUpper, deterministic); otherwise the
//     randomised Chebyshev test (walk.chebTest), whose failure
//     probability is reported. If the proof fails the interval is not
//     certified and the lower end is not reported (0).
//
// The residual bound |λ − θ| ≤ ‖r‖ alone would only say that some
// eigenvalue lies near θ, not that none lies above it: Lanczos can miss an
// eigenvector to which its start vector is (nearly) orthogonal, which is
// why the upper end of μ₂ has its own proof.
func certifySpectral(g *graphgen.CSR, edges int64, o DescribeOptions, sweepToo bool) Spectral {
	n := g.Order()
	per := float64(n) + 2*float64(edges) // one product with P
	budget := o.MaxWork / per            // products with P allowed
	dense := n <= o.DenseMax
	sp := Spectral{Method: SpectralLanczos}
	// With full reorthogonalisation n steps span everything; without,
	// steps beyond n still refine θ (the lost orthogonality only repeats
	// converged Ritz values). Two Lanczos passes and the test share the
	// budget; the test usually needs more.
	allowed := int(min(budget/5, 1<<40))
	if dense {
		allowed = min(n, int(min(budget, 1<<40)))
	}
	if allowed < min(20, n) {
		return Spectral{Method: SpectralNone,
			Note: fmt.Sprintf("a product with the walk costs n + 2|E| = %.3g: too many for 20 Lanczos steps in the budget %.3g", per, o.MaxWork)}
	}
	maxSteps := min(o.MaxIter, allowed)
	w := newWalk(g, !dense, o.Context)
	w.progress = o.Progress
	L := w.lanczos(lanczosOptions{maxSteps: maxSteps, full: dense, tol: o.Tol, seed: o.Seed})
	if w.cancelled() {
		return cancelledSpectral(o.Context)
	}
	theta, lower, r := w.rayleighBound(L.y)
	sp.Iterations, sp.Residual = L.steps, r
	sp.Lambda2, sp.Gap = theta, 1-theta
	sp.GapUpper = 1 - lower
	var upper float64
	ok := false
	if dense {
		// μ₂ − θ is of the order of r²/(μ₂ − μ₃), so first try a t that
		// close (the factorisation decides), then the residual bound.
		t := theta + 1.01*r + 1e-13
		if t1 := theta + 1e3*r*r + 1e-13; t1 < t {
			upper, ok = w.denseUpper(t1)
		}
		if !ok && !w.cancelled() {
			upper, ok = w.denseUpper(t)
		}
		if ok {
			sp.Certificate = CertDense
		} else {
			sp.Note = fmt.Sprintf("the Cholesky factorisation of tI − N + 2u₁u₁ᵀ at t = θ + ‖r‖ = %.6g failed: an eigenvalue lies above t (or within rounding of it), missed by Lanczos", t)
		}
	} else {
		c := w.chebCertify(L, theta, lower, r, budget, o)
		if c.cancelled {
			return cancelledSpectral(o.Context)
		}
		sp.FilterDegree, sp.FailureProb, sp.Note = c.steps, c.delta, c.note
		if c.proved {
			upper, ok = c.upper, true
			sp.Certificate = CertChebyshev
		}
	}
	if ok {
		sp.Certified = true
		sp.GapLower = max(1-upper, 0)
	}
	return finishSpectral(sp, w, L.y, g, edges, sweepToo, o.Tol)
}

// chebCert is what chebCertify tried and proved: the randomised test at
// t0 with m steps and width s, which passed after steps steps (or failed
// at steps) with failure probability delta; when proved, μ₂ ≤ upper =
// t0 + s. m is 0 when no budget was left for the test.
type chebCert struct {
	t0, s, upper, delta float64
	m, steps            int
	proved, cancelled   bool
	note                string
}

// chebCertify runs the randomised Chebyshev test (walk.chebTest) on the
// Lanczos result L, θ its Rayleigh quotient, lower ≤ μ₂ and r its
// residual, aiming at an interval of the width o.Tol asks for, within
// budget products with P. The test proves μ₂ ≤ t0 + s, not μ₂ ≤ t0: if
// μ₂ > t0 + s it fails but with probability delta, and between t0 and
// t0 + s it proves nothing, so the end reported is t0 + s.
func (w *walk) chebCertify(L lanczosResult, theta, lower, r, budget float64, o DescribeOptions) chebCert {
	// Aim the test at [lower, lower + width]: t0 leaves room for θ's
	// remaining error, estimated from its drift, or from the residual
	// when that is smaller (an eigenvalue lies within ‖r‖ of θ; the test
	// checks that it is μ₂).
	n := w.n
	width := targetWidth(o.Tol, theta)
	rho := max(0.1*width, min(3*math.Abs(L.drift), 1.01*r), 2*(max(theta, L.theta)-lower))
	t0 := max(theta, L.theta) + rho
	s := max(lower+width-t0, 0.5*width)
	alpha, beta := 2/(t0+1), (1-t0)/(1+t0)
	m := chebDegree(n, w.dmax, alpha, beta, s, o.FailureProb)
	left := int(min(budget, 1<<40)) - 2*L.steps - 4 // MaxWork may be +Inf or MaxFloat64
	if m > left {
		if left < 10 {
			return chebCert{note: fmt.Sprintf("no budget left for the Chebyshev test (%.3g products with the walk allowed)", budget)}
		}
		m = left
		s = chebWidth(n, alpha, m, o.FailureProb)
	}
	c := chebCert{t0: t0, s: s, m: m}
	pass, steps, delta := w.chebTest(t0, s, m, o.Seed)
	if w.cancelled() {
		c.cancelled = true
		return c
	}
	c.steps, c.delta = steps, delta
	switch {
	case !pass:
		c.note = fmt.Sprintf("the Chebyshev test failed after %d steps, which shows μ₂ > %.8g (up to rounding): Lanczos had not converged", steps, t0)
	case !(delta < 0.01):
		c.note = fmt.Sprintf("the Chebyshev test passed, but its failure probability bound is %.2g", delta)
	default:
		c.upper, c.proved = t0+s, true
		if delta > o.FailureProb {
			c.note = fmt.Sprintf("failure probability %.2g, above the %.2g asked for: the rounding-error bound dominates", delta, o.FailureProb)
		}
	}
	return c
}

// targetWidth is the width wanted on μ₂ for a relative width tol on the
// gap 1 − θ, with a little room for the rounding of the ends.
func targetWidth(tol, theta float64) float64 {
	return 0.97 * tol * max(1-theta, 0) / (1 + tol)
}

// finishSpectral fills Converged, the Cheeger bounds and the sweep cut of
// the Ritz vector y (an approximate eigenvector of D⁻¹A, in w's order).
func finishSpectral(sp Spectral, w *walk, y []float64, g *graphgen.CSR, edges int64, sweepToo bool, tol float64) Spectral {
	sp.Converged = sp.Certified && sp.GapUpper-sp.GapLower <= tol*sp.GapLower
	sp.cheeger()
	if sweepToo {
		f := y
		if w.perm != nil {
			f = make([]float64, len(y))
			for i, v := range w.perm {
				f[v] = y[i]
			}
		}
		sp.Sweep = sweep(f, g.Degree, csrNeighbours(g), 2*edges)
	}
	return sp
}

// ExpansionLowerBound returns a certified lower bound on the
// degree-normalised edge expansion σ = min over |S| ≤ n/2 of
// |E(S, V∖S)| / (Δ·|S|) of a Δ-regular graph g (for a graph that is not
// regular, on its conductance φ, which σ equals on regular graphs), and
// whether one could be given within o's budget (the zero value gives
// DescribeWith's defaults). It is what Query.Expansion should be given when
// the user has no better value: the bounds that use σ, such as [PTW15]'s
// gap O(log n / σ), only grow when σ is understated.
//
// The bound is σ exactly where it is known (K_n, the cycle, the hypercube;
// a torus or hypercube is recognised only through o.Plan), 0 with ok for a
// disconnected graph (σ = 0), and otherwise Cheeger's GapLower/2 from the
// certified interval of DescribeWith: in closed form for circulants, cycles
// and tori; by Lanczos and a Cholesky factorisation up to o.DenseMax
// vertices (deterministic, about 0.1 s at 2048 vertices); by Lanczos and
// the randomised Chebyshev test above that, wrong with probability at
// most o.FailureProb, within o.MaxWork (BenchmarkCertify: about 40 s for
// a random 3-regular graph on 10^6 vertices at the default Tol = 1e-4 and
// FailureProb = 1e-6 on two cores; the cost grows like
// log(sqrt(n)/FailureProb)/sqrt(Tol·gap)). It returns (0, false) when
// nothing positive could be certified: fewer than 2 vertices, a budget too
// small, a failed test, or an interval whose lower end is 0. It does not
// compute the sweep cut.
func ExpansionLowerBound(g graphgen.Graph, o DescribeOptions) (float64, bool) {
	st := describe(g, o.withDefaults(), false)
	sp := st.Spectral
	switch {
	case sp.Method == SpectralNone:
		return 0, false
	case sp.ExpansionExact:
		return min(sp.Expansion, 1), true
	case sp.Certified && sp.ExpansionLower > 0:
		return sp.ExpansionLower, true
	}
	return 0, false
}

// SpecExpansion returns what ExpansionLowerBound gives for the graph that
// spec sp builds (with plan p = sp.Plan(n)), from the spec alone, for the
// families whose spectrum is a closed form: σ exactly for K_n, the cycle
// and the hypercube, Cheeger's certified gap/2 for the torus. It builds
// nothing, so it costs O(1) whatever n; for other kinds it returns
// (0, false).
func SpecExpansion(sp graphgen.Spec, p graphgen.Plan) (float64, bool) {
	var s Spectral
	switch {
	case sp.Kind == "complete":
		s = completeSpectral(p.N)
	case sp.Kind == "cycle" && p.N >= 3 && p.Spectrum != nil:
		s = exactSpectral(p.Spectrum.Gap, "")
		s.Expansion, s.ExpansionExact = 1/float64(p.N/2), true
	case (sp.Kind == "torus" || sp.Kind == "hypercube") && p.Spectrum != nil && p.Dim >= 1 && p.Side >= 2:
		s = exactSpectral(p.Spectrum.Gap, "")
		if p.Side == 2 {
			s.Expansion, s.ExpansionExact = 1/float64(p.Dim), true
		}
	default:
		return 0, false
	}
	switch {
	case s.ExpansionExact && s.Expansion > 0:
		return min(s.Expansion, 1), true
	case s.Certified && s.ExpansionLower > 0:
		return s.ExpansionLower, true
	}
	return 0, false
}
