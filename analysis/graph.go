package analysis

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/graphalloc/graphalloc/graphgen"
)

// GraphStats describes a graph as the theory of graphical allocation sees
// it: size, degrees, connectivity, and how well it expands. The JSON field
// names are those of the CLI's `info -f json`.
type GraphStats struct {
	N          int     `json:"n"`
	Edges      int64   `json:"edges"`
	MinDegree  int     `json:"min_degree"`
	MaxDegree  int     `json:"max_degree"`
	MeanDegree float64 `json:"mean_degree"` // 2|E|/n
	Regular    bool    `json:"regular"`     // every degree equal (n ≥ 1)
	Isolated   int     `json:"isolated"`    // vertices of degree 0
	// Components is the number of connected components, found by
	// breadth-first search (in closed form for Complete and Circulant);
	// LargestComponent the vertices in the largest.
	Components       int `json:"components"`
	LargestComponent int `json:"largest_component"`
	// Loops and Parallel count the loops and the parallel edges (each
	// repeat of an edge beyond its first copy) of a multigraph: the
	// permutation model's regular graph (graphgen.PermutationRegular) or a
	// file read as one (graphgen.CSR.Multi). Edges counts them too, and a
	// loop adds 2 to the degree of its vertex, as in the walk that the
	// graph process samples.
	Loops    int64    `json:"loops,omitempty"`
	Parallel int64    `json:"parallel_edges,omitempty"`
	Spectral Spectral `json:"spectral"`
}

// How Spectral was obtained.
const (
	SpectralExact        = "exact"        // closed form: K_n, circulants, cycles, tori, hypercubes
	SpectralLanczos      = "lanczos"      // Lanczos, with a certificate for the interval (see Spectral)
	SpectralDisconnected = "disconnected" // more than one component: μ₂ = 1, σ = 0
	SpectralNone         = "none"         // not computed; Note says why
)

// Spectral is what is known of the spectrum and the expansion of a graph.
//
// The random-walk matrix P = D⁻¹A has eigenvalues 1 = μ₁ ≥ μ₂ ≥ … ≥ μ_n ≥ −1;
// Gap = 1 − μ₂ is the spectral gap (λ₂ of the normalised Laplacian
// I − D^{−1/2}AD^{−1/2}). The conductance
//
//	φ = min over S with vol(S) ≤ vol(V)/2 of |E(S, V∖S)| / vol(S),
//
// vol(S) the sum of the degrees in S, is for a Δ-regular graph exactly the
// degree-normalised edge expansion σ = min over |S| ≤ n/2 of
// |E(S, V∖S)| / (Δ|S|) that Query.Expansion takes. Cheeger's inequality
// [Alon, Milman 1985; Sinclair, Jerrum 1989] brackets it with the gap:
//
//	Gap/2 ≤ φ ≤ sqrt(2·Gap).
//
// The gap is reported as an interval [GapLower, GapUpper]. GapUpper is
// always an upper bound on the gap, rounding errors included; GapLower is
// a lower bound when Certified, and 0 otherwise, and every lower bound
// derived from the gap uses it: ExpansionLower = GapLower/2. See DescribeWith for how each end is proved, and
// docs/theory.md ("Certified spectral gaps") for the argument.
//
// The sweep cut of the eigenvector of μ₂ is an actual set S, so its
// conductance is an upper bound on φ whatever the accuracy of the vector.
//
// On a multigraph (GraphStats.Loops, Parallel) A_uv counts the edges
// between u and v and A_vv twice the loops at v, so d_v is the length of
// v's row, a step of P = D⁻¹A is a uniform slot of the row (as the graph
// process draws its edges), vol(S) counts a loop twice, and
// |E(S, V∖S)| each parallel edge and never a loop.
type Spectral struct {
	Method string `json:"method"` // SpectralExact, SpectralLanczos, SpectralDisconnected or SpectralNone
	Note   string `json:"note,omitempty"`
	// Lambda2 and Gap = 1 − Lambda2 are the point estimates: the closed
	// form, or the Rayleigh quotient of the Lanczos vector (so Gap is
	// GapUpper up to rounding).
	Lambda2 float64 `json:"lambda2"`
	Gap     float64 `json:"gap"`
	// GapLower ≤ 1 − μ₂ ≤ GapUpper. GapLower is 0 unless Certified.
	GapLower float64 `json:"gap_lower"`
	GapUpper float64 `json:"gap_upper"`
	// Certified says that GapLower is proved; Certificate says how
	// (CertClosedForm, CertComponents, CertDense or CertChebyshev), and
	// FailureProb, for CertChebyshev, is the probability over its random
	// vector that a false lower end would have passed (0 for the others,
	// which are deterministic).
	Certified   bool    `json:"certified"`
	Certificate string  `json:"certificate,omitempty"`
	FailureProb float64 `json:"failure_probability,omitempty"`
	// Lanczos only: the steps run, the steps of the Chebyshev test, and
	// the residual ‖P̃y − θy‖/‖y‖ of the Ritz pair (as computed; not
	// part of any proof).
	Iterations   int     `json:"iterations,omitempty"`
	FilterDegree int     `json:"filter_degree,omitempty"`
	Residual     float64 `json:"residual,omitempty"`
	// Converged says that the interval is certified and narrower than the
	// tolerance: GapUpper − GapLower ≤ Tol·GapLower.
	Converged bool `json:"converged"`
	// Cheeger's bounds on the conductance φ (σ for regular graphs):
	// ExpansionLower = GapLower/2 (0 unless Certified),
	// ExpansionUpper = min(1, sqrt(2·GapUpper)).
	ExpansionLower float64 `json:"expansion_lower"`
	ExpansionUpper float64 `json:"expansion_upper"`
	// Expansion is φ exactly when ExpansionExact: ⌈n/2⌉/(n−1) for K_n,
	// 1/⌊n/2⌋ for the cycle C_n, 1/dim for the hypercube, 0 for a
	// disconnected graph.
	Expansion      float64 `json:"expansion,omitempty"`
	ExpansionExact bool    `json:"expansion_exact"`
	// Sweep is the best sweep cut of the eigenvector of μ₂, nil if not
	// computed.
	Sweep *SweepCut `json:"sweep,omitempty"`
}

// SweepCut is a set S found by sorting the vertices by an eigenvector and
// taking the best prefix: Size = |S| (the side of smaller volume), Cut =
// |E(S, V∖S)|, Conductance = Cut / vol(S), an upper bound on φ.
type SweepCut struct {
	Size        int     `json:"size"`
	Cut         int64   `json:"cut"`
	Conductance float64 `json:"conductance"`
}

// DescribeOptions tunes Describe. The zero value gives the defaults.
type DescribeOptions struct {
	// MaxIter caps the Lanczos steps; default 3000.
	MaxIter int
	// Tol is the relative width wanted of the gap's interval: Converged
	// when GapUpper − GapLower ≤ Tol·GapLower; default 1e-4.
	Tol float64
	// MaxWork bounds the spectral work, in adjacency entries visited (one
	// product with the walk visits n + 2|E|; the circulant closed form
	// costs n·Δ/4 cosine updates): Lanczos gets at most a fifth of it and
	// the Chebyshev test the rest, at a wider interval if it must; when
	// even 20 Lanczos steps would exceed it, or the circulant scan would,
	// the spectrum is not computed. Default 4·10^10: 10^4 products for a
	// random 3-regular graph on 10^6 vertices, which its certification to
	// Tol = 1e-4 needs (about 40 s on two cores).
	MaxWork float64
	// Seed seeds the random vectors of Lanczos and of the Chebyshev test;
	// default 1.
	Seed uint64
	// FailureProb is the probability, over its random vector, with which
	// the Chebyshev test may pass a false bound; it sets the test's length
	// (which grows like log(sqrt(n)/FailureProb)); default 1e-6.
	FailureProb float64
	// DenseMax is the most vertices for which the gap is certified by a
	// dense Cholesky factorisation (deterministic, O(n²) memory and
	// n³/3 operations) instead of the randomised test; default 2048,
	// negative for never.
	DenseMax int
	// Plan is how the graph was made, if known (graphgen.Spec.Plan): a
	// torus or hypercube is then recognised, its rows checked against the
	// lattice, and given its closed form. Nil is fine.
	Plan *graphgen.Plan
	// Context, if not nil, stops the spectral computation once it is
	// done: Lanczos, the Chebyshev test and the circulant scan look at it
	// every product with the walk or every 65536 eigenvalues, so within
	// a fraction of a second (a dense certificate, up to DenseMax
	// vertices, only before its factorisation). The Spectral is then
	// SpectralNone with a note; the caller should check Context.Err().
	Context context.Context
	// Progress, if set, is called from the caller's goroutine after each
	// pass over the graph of Lanczos and the certificate (a product with
	// the walk, or a sum over its vertices), with the passes so far: a
	// long certification can show that it moves.
	Progress func(passes int)
}

// cancelled reports whether ctx, which may be nil, is done.
func cancelled(ctx context.Context) bool { return ctx != nil && ctx.Err() != nil }

// cancelledSpectral is the Spectral of a computation stopped by ctx.
func cancelledSpectral(ctx context.Context) Spectral {
	return Spectral{Method: SpectralNone, Note: "not computed: " + ctx.Err().Error()}
}

func (o DescribeOptions) withDefaults() DescribeOptions {
	if o.MaxIter <= 0 {
		o.MaxIter = 3000
	}
	if !(o.Tol > 0) {
		o.Tol = 1e-4
	}
	if !(o.MaxWork > 0) {
		o.MaxWork = 4e10
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if !(o.FailureProb > 0 && o.FailureProb < 1) {
		o.FailureProb = 1e-6
	}
	switch {
	case o.DenseMax == 0:
		o.DenseMax = 2048
	case o.DenseMax < 0:
		o.DenseMax = 1
	}
	return o
}

// Describe returns the statistics of g with the default options; see
// DescribeWith.
func Describe(g graphgen.Graph) GraphStats { return DescribeWith(g, DescribeOptions{}) }

// DescribeWith returns the statistics of g: degrees in O(n), components in
// O(n + |E|) (breadth-first search), and the spectral gap, as an interval, with
// the expansion bounds it gives.
//
// The spectrum is in closed form for K_n (μ₂ = −1/(n−1), φ = ⌈n/2⌉/(n−1)),
// for a circulant with connection set S, whose eigenvalues
// Σ_{s∈S} cos(2πjs/n)/Δ are all ⌊n/2⌋ scanned (n·Δ/4 cosine updates by
// rotation, re-anchored with exact sines every 1024 steps and split over
// the CPUs: about a second per 10^9 updates), and for a CSR recognised as
// K_n (every degree n − 1), as a cycle (connected and 2-regular) or, given
// o.Plan, as a torus or hypercube (graphgen.Spectrum). These intervals
// only allow for rounding.
//
// Any other connected CSR gets Lanczos on the deflated walk P̃ (the
// random-walk matrix D⁻¹A, self-adjoint in the degree inner product, with
// its top eigenvector moved to −1; docs/theory.md, "Certified spectral
// gaps") and a certificate:
// the Rayleigh quotient θ of the Lanczos vector proves μ₂ ≥ θ, so
// GapUpper = 1 − θ always holds; GapLower = 1 − t needs μ₂ ≤ t, proved up
// to o.DenseMax vertices by a Cholesky factorisation of tI − N + 2u₁u₁ᵀ
// (deterministic), and above by a randomised Chebyshev filter test that
// a false t passes with probability at most FailureProb (default 1e-6).
// Lanczos runs until the residual estimate is below a hundredth of the
// width wanted, or (for large graphs) the drift of θ over 30 steps below
// a thirtieth, at most o.MaxIter steps; each step and each step of the
// test costs O(n + |E|), split over the CPUs in blocks fixed by the graph,
// so the result does not depend on their number. A random 3-regular graph
// on 10^6 vertices is certified to Tol = 1e-4 in about 940 Lanczos steps
// (run twice) and 6,700 test steps, 30–40 s on two cores, 4,500 test
// steps at FailureProb = 1e-3 (BenchmarkCertify). When the
// certificate fails (Lanczos had not converged, or the budget ran out),
// Certified is false, GapLower 0, and Note says why; ExpansionUpper is a
// valid upper bound in every case. The sweep cut of the Lanczos vector
// (as an eigenvector of D⁻¹A) takes O(n log n + |E|) more.
func DescribeWith(g graphgen.Graph, o DescribeOptions) GraphStats {
	return describe(g, o.withDefaults(), true)
}

// describe is DescribeWith with o's defaults filled, the sweep cut only
// if sweepToo.
func describe(g graphgen.Graph, o DescribeOptions, sweepToo bool) GraphStats {
	var st GraphStats
	st.N, st.Edges = g.Order(), g.Size()
	n := st.N
	if n > 0 {
		st.MeanDegree = 2 * float64(st.Edges) / float64(n)
	}
	switch g := g.(type) {
	case graphgen.Complete:
		st.MinDegree, st.MaxDegree = max(n-1, 0), max(n-1, 0)
		st.Regular = n > 0
		if n == 1 {
			st.Isolated = 1
		}
		st.Components, st.LargestComponent = min(n, 1), n
		st.Spectral = completeSpectral(n)
		return st
	case graphgen.Circulant:
		d := g.Degree(0)
		st.MinDegree, st.MaxDegree, st.Regular = d, d, true
		if d == 0 {
			st.Isolated = n
		}
		st.Components = g.Components()
		st.LargestComponent = n / st.Components
		st.Spectral = circulantSpectral(g, st.Components, o, sweepToo)
		return st
	}
	csr, ok := g.(*graphgen.CSR)
	if !ok {
		var err error
		if csr, err = graphgen.List(g); err != nil { // a multigraph stays one
			st.Spectral = Spectral{Method: SpectralNone, Note: err.Error()}
			return st
		}
	}
	if csr.Multi() {
		st.Loops, st.Parallel = csr.LoopsAndParallel()
	}
	off := csr.Offsets()
	for v := range n {
		d := off[v+1] - off[v]
		if v == 0 || d < st.MinDegree {
			st.MinDegree = d
		}
		st.MaxDegree = max(st.MaxDegree, d)
		if d == 0 {
			st.Isolated++
		}
	}
	st.Regular = n > 0 && st.MinDegree == st.MaxDegree
	var done bool
	if st.Components, st.LargestComponent, done = components(csr, o.Context); !done {
		st.Spectral = cancelledSpectral(o.Context)
		return st
	}
	switch {
	case n < 2:
		st.Spectral = Spectral{Method: SpectralNone, Note: "fewer than 2 vertices: no cut"}
	case st.Components > 1:
		st.Spectral = disconnectedSpectral()
	default:
		st.Spectral = spectralCSR(csr, &st, o, sweepToo)
	}
	return st
}

// components returns the number of connected components of g and the
// order of the largest, by breadth-first search: O(n + |E|) time and 5n
// bytes. It looks at ctx (nil: never) every 4096 vertices, and reports
// false once it is done.
func components(g *graphgen.CSR, ctx context.Context) (count, largest int, ok bool) {
	off, adj := g.Offsets(), g.Adjacency()
	n := g.Order()
	seen := make([]bool, n)
	queue := make([]uint32, 0, n)
	for s := range n {
		if seen[s] {
			continue
		}
		seen[s] = true
		queue = append(queue[:0], uint32(s))
		for i := 0; i < len(queue); i++ {
			v := queue[i]
			if i%4096 == 4095 && cancelled(ctx) {
				return 0, 0, false
			}
			for _, w := range adj[off[v]:off[v+1]] {
				if !seen[w] {
					seen[w] = true
					queue = append(queue, w)
				}
			}
		}
		count++
		largest = max(largest, len(queue))
		if s%4096 == 4095 && cancelled(ctx) {
			return 0, 0, false
		}
	}
	return count, largest, true
}

// FillQuery copies into q what the bounds need from s: MinDegree, Degree
// for a regular graph, and Expansion: the exact σ when known (K_n, cycles,
// hypercubes), else the Cheeger lower bound GapLower/2 when the gap's
// interval is certified (whether or not it is as narrow as the tolerance
// asked). The lower bound is the safe choice: [PTW15]'s gap bound
// O(log n / σ) only grows when σ is understated. Expansion is left 0
// (unknown) for non-regular or disconnected graphs and uncertified
// intervals. Topology, Core and CoreFraction are not known from the graph
// alone and are left to the caller.
func (s GraphStats) FillQuery(q *Query) {
	q.MinDegree = float64(s.MinDegree)
	if !s.Regular {
		return
	}
	q.Degree = float64(s.MaxDegree)
	sp := s.Spectral
	switch {
	case s.Components != 1:
	case sp.ExpansionExact && sp.Expansion > 0:
		q.Expansion = min(sp.Expansion, 1)
	case sp.Certified && sp.ExpansionLower > 0:
		q.Expansion = min(sp.ExpansionLower, 1)
	}
}

// cheeger fills the Cheeger bounds from the interval: the lower from its
// safe end, GapLower (0 unless certified), the upper from GapUpper.
func (sp *Spectral) cheeger() {
	sp.Gap = max(sp.Gap, 0)
	if !sp.Certified {
		sp.GapLower = 0
	}
	sp.ExpansionLower = min(sp.GapLower/2, 1)
	sp.ExpansionUpper = min(math.Sqrt(2*max(sp.GapUpper, 0)), 1)
}

func disconnectedSpectral() Spectral {
	return Spectral{Method: SpectralDisconnected, Lambda2: 1, ExpansionExact: true, Converged: true,
		Certified: true, Certificate: CertComponents,
		Note: "a component with at most half the volume has no edge leaving it"}
}

// completeSpectral: K_n has adjacency eigenvalues n−1 and −1 (n−1 times),
// so μ₂ = −1/(n−1); a set of k ≤ n/2 vertices has k(n−k) leaving edges, so
// σ = min (n−k)/(n−1) = ⌈n/2⌉/(n−1).
func completeSpectral(n int) Spectral {
	if n < 2 {
		return Spectral{Method: SpectralNone, Note: "fewer than 2 vertices: no cut"}
	}
	sp := exactSpectral(float64(n)/float64(n-1), "K_n: μ₂ = −1/(n−1), σ = ⌈n/2⌉/(n−1)")
	sp.Lambda2 = -1 / float64(n-1)
	sp.Expansion, sp.ExpansionExact = float64((n+1)/2)/float64(n-1), true
	return sp
}

// circulantSpectral scans the circulant's eigenvalues for μ₂ and, for
// moderate n, sweeps the eigenvector cos(2πj*u/n) of the maximising j*.
//
// The interval allows for the rounding of the scan: each cosine is within
// 1024·40u of its value (at most 1024 rotation steps from an exact anchor,
// each step adding a few roundings to a vector of length 1, and the
// rotation angle itself rounded), so μ₂ = max_j λ_j/Δ, a maximum of
// averages of such cosines, is at most the scanned maximum plus
// 1024·40u ≈ 1e-11; and it is at least λ_{j*}/Δ, recomputed with
// Circulant.Eigenvalue, less its rounding.
func circulantSpectral(g graphgen.Circulant, comps int, o DescribeOptions, sweepToo bool) Spectral {
	n, d := g.Order(), g.Degree(0)
	switch {
	case n < 2:
		return Spectral{Method: SpectralNone, Note: "fewer than 2 vertices: no cut"}
	case comps > 1:
		return disconnectedSpectral()
	}
	if work := float64(n) * float64(d) / 4; work > o.MaxWork {
		return Spectral{Method: SpectralNone,
			Note: fmt.Sprintf("the circulant's %d eigenvalues are exact but scanning them costs n·Δ/4 = %.3g cosine updates, above the budget %.3g", n/2, work, o.MaxWork)}
	}
	lam, jstar := circulantLambda2(n, g.ConnectionSet(), o.Context)
	if cancelled(o.Context) {
		return cancelledSpectral(o.Context)
	}
	// The maximiser's eigenvalue again, from exact integer angles
	// (Circulant.Eigenvalue: each cosine within about 20u of its value, the
	// angle 2π·r/n being rounded).
	lamStar := g.Eigenvalue(jstar)
	const scanErr = 1024 * 40 * unitRoundoff
	sp := Spectral{Method: SpectralExact, Lambda2: lamStar / float64(d), Converged: true,
		Certified: true, Certificate: CertClosedForm,
		Note: fmt.Sprintf("circulant: μ₂ = Σ_{s∈S} cos(2π·%d·s/n)/Δ, the largest of the eigenvalues j = 1..⌊n/2⌋", jstar)}
	sp.Gap = 1 - sp.Lambda2
	sp.GapLower = max(1-max(lam, lamStar)/float64(d)-scanErr, 0)
	sp.GapUpper = sp.Gap + 8*unitRoundoff*(float64(d)+4)
	sp.Converged = sp.GapUpper-sp.GapLower <= o.Tol*sp.GapLower
	sp.cheeger()
	// The sweep needs the vector and an ordering: O(n) memory and
	// n·Δ neighbour visits.
	if sweepToo && n <= 1<<24 && float64(n)*float64(d) <= o.MaxWork {
		f := make([]float64, n)
		for u := range f {
			r := uint64(jstar) * uint64(u) % uint64(n)
			f[u] = math.Cos(2 * math.Pi * float64(r) / float64(n))
		}
		S := g.ConnectionSet()
		sp.Sweep = sweep(f, func(int) int { return d }, func(v int, do func(w int)) {
			for _, s := range S {
				w := v + int(s)
				if w >= n {
					w -= n
				}
				do(w)
			}
		}, int64(n)*int64(d))
	}
	return sp
}

// circulantLambda2 returns max over j = 1..⌊n/2⌋ of λ_j = Σ_{s∈S} cos(2πjs/n)
// and the smallest maximising j. S is closed under negation, so λ_j =
// 2·Σ_{s∈S, s<n/2} cos(2πjs/n) + [n/2 ∈ S]·(−1)^j. The cosines advance by
// rotation, (c, s) ← (c·cos θ − s·sin θ, s·cos θ + c·sin θ), θ = 2πs/n,
// re-anchored with exact math.Sincos every 1024 steps so that the rounding
// error stays near 1e-13; the j range is split across the CPUs. Once ctx
// (nil: never) is done the chunks left are skipped and the result means
// nothing.
func circulantLambda2(n int, S []uint32, ctx context.Context) (float64, int) {
	var half []uint32
	self := false
	for _, s := range S {
		switch {
		case 2*uint64(s) < uint64(n):
			half = append(half, s)
		case 2*uint64(s) == uint64(n):
			self = true
		}
	}
	// Chunks of anchor·1024 values of j, anchored at j ≡ 1 mod 1024: every
	// λ_j is computed the same way whatever the number of CPUs, and the
	// first maximum in j order wins, so the result is deterministic.
	const anchor = 1024
	J := n / 2
	chunk := anchor * 64
	chunks := (J + chunk - 1) / chunk
	workers := min(runtime.GOMAXPROCS(0), max(chunks, 1))
	type best struct {
		lam float64
		j   int
	}
	res := make([]best, chunks)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			k := len(half)
			c, s := make([]float64, k), make([]float64, k)
			rc, rs := make([]float64, k), make([]float64, k)
			for i, x := range half {
				rs[i], rc[i] = math.Sincos(2 * math.Pi * float64(x) / float64(n))
			}
			for ch := w; ch < chunks && !cancelled(ctx); ch += workers {
				lo, hi := 1+ch*chunk, min(1+(ch+1)*chunk, J+1) // j in [lo, hi)
				b := best{lam: math.Inf(-1)}
				for j := lo; j < hi; j++ {
					if (j-1)%anchor == 0 {
						for i, x := range half {
							r := uint64(j) * uint64(x) % uint64(n)
							s[i], c[i] = math.Sincos(2 * math.Pi * float64(r) / float64(n))
						}
					}
					sum := 0.0
					for i := range c {
						ci, si := c[i], s[i]
						sum += ci
						c[i] = ci*rc[i] - si*rs[i]
						s[i] = si*rc[i] + ci*rs[i]
					}
					lam := 2 * sum
					if self {
						lam += float64(1 - 2*(j&1))
					}
					if lam > b.lam {
						b = best{lam, j}
					}
				}
				res[ch] = b
			}
		})
	}
	wg.Wait()
	b := best{lam: math.Inf(-1)}
	for _, r := range res {
		if r.lam > b.lam {
			b = r
		}
	}
	return b.lam, b.j
}

// sweep sorts the vertices by f and returns the prefix S (1 ≤ |S| < n)
// of least conductance |E(S, V∖S)| / min(vol S, vol V∖S), vol the total
// volume 2|E|. deg and nbrs must describe the same (multi)graph: nbrs
// reports each neighbour as often as deg counts it, so a loop, which adds
// 2 to the degree, twice (and never crosses a cut). It takes
// O(n log n + |E|) time.
func sweep(f []float64, deg func(int) int, nbrs func(v int, do func(w int)), vol int64) *SweepCut {
	n := len(f)
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		return cmp.Or(cmp.Compare(f[a], f[b]), cmp.Compare(a, b))
	})
	in := make([]bool, n)
	var cut, vs int64
	var best *SweepCut
	for i, v := range order[:n-1] {
		inside, loops := int64(0), int64(0)
		nbrs(int(v), func(w int) {
			switch {
			case w == int(v):
				loops++
			case in[w]:
				inside++
			}
		})
		d := int64(deg(int(v)))
		cut += d - 2*inside - loops
		vs += d
		in[v] = true
		small := min(vs, vol-vs)
		if small == 0 {
			continue
		}
		phi := float64(cut) / float64(small)
		if best == nil || phi < best.Conductance {
			size := i + 1
			if vol-vs < vs {
				size = n - size
			}
			best = &SweepCut{Size: size, Cut: cut, Conductance: phi}
		}
	}
	return best
}
