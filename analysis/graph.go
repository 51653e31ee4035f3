package analysis

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	ybgraph "github.com/yourbasic/graph"

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
	// Components is the number of connected components, found with
	// yourbasic/graph's Components (in closed form for Complete and
	// Circulant); LargestComponent the vertices in the largest.
	Components       int      `json:"components"`
	LargestComponent int      `json:"largest_component"`
	Spectral         Spectral `json:"spectral"`
}

// How Spectral.Lambda2 was obtained.
const (
	SpectralExact        = "exact"           // closed form: K_n, circulant eigenvalues
	SpectralPower        = "power iteration" // an estimate, see Spectral
	SpectralDisconnected = "disconnected"    // more than one component: λ₂ = 1, σ = 0
	SpectralNone         = "none"            // not computed; Note says why
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
// The sweep cut of the eigenvector of μ₂ is an actual set S, so its
// conductance is an upper bound on φ whatever the accuracy of the vector.
type Spectral struct {
	Method  string  `json:"method"` // SpectralExact, SpectralPower, SpectralDisconnected or SpectralNone
	Note    string  `json:"note,omitempty"`
	Lambda2 float64 `json:"lambda2"` // μ₂, the second largest eigenvalue of D⁻¹A
	Gap     float64 `json:"gap"`     // 1 − μ₂
	// Power iteration only: the iterations run and the relative change
	// of Gap in the last one. Converged says whether that change fell
	// below the tolerance before the iteration cap; it is true for the
	// exact methods too, false when nothing was computed.
	Iterations int     `json:"iterations,omitempty"`
	Change     float64 `json:"change,omitempty"`
	Converged  bool    `json:"converged"`
	// Cheeger's bounds on the conductance φ (σ for regular graphs):
	// ExpansionLower = Gap/2, ExpansionUpper = min(1, sqrt(2·Gap)).
	ExpansionLower float64 `json:"expansion_lower"`
	ExpansionUpper float64 `json:"expansion_upper"`
	// Expansion is φ exactly when ExpansionExact: ⌈n/2⌉/(n−1) for K_n,
	// 0 for a disconnected graph.
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
	// MaxIter caps the power iterations; default 1000.
	MaxIter int
	// Tol stops power iteration once an iteration changes the gap
	// estimate by less than Tol times itself; default 1e-4. On a random
	// regular graph, whose spectrum is dense up to μ₂, the estimate then
	// lies about 1% above the true gap (the error falls like 1/k after
	// k iterations there); an isolated μ₂ converges geometrically.
	Tol float64
	// MaxWork bounds the spectral work, in adjacency entries visited (one
	// power iteration visits n + 2|E|; the circulant closed form costs
	// n·Δ/4 cosine updates): when the whole cap of iterations would exceed
	// it, fewer are run; when even 20 would, or when the circulant scan
	// would, the spectrum is not computed. Default 4·10^9, a few seconds.
	MaxWork float64
	// Seed seeds the start vector of power iteration; default 1.
	Seed uint64
}

func (o DescribeOptions) withDefaults() DescribeOptions {
	if o.MaxIter <= 0 {
		o.MaxIter = 1000
	}
	if !(o.Tol > 0) {
		o.Tol = 1e-4
	}
	if !(o.MaxWork > 0) {
		o.MaxWork = 4e9
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// Describe returns the statistics of g with the default options; see
// DescribeWith.
func Describe(g graphgen.Graph) GraphStats { return DescribeWith(g, DescribeOptions{}) }

// DescribeWith returns the statistics of g: degrees in O(n), components in
// O(n + |E|) (yourbasic/graph), and the spectral gap and expansion bounds.
//
// The spectrum is exact for the implicit graphs: K_n has μ₂ = −1/(n−1) and
// φ = ⌈n/2⌉/(n−1); a circulant with connection set S has the eigenvalues
// Σ_{s∈S} cos(2πjs/n)/Δ, all ⌊n/2⌋ of which are scanned (n·Δ/4 cosine
// updates by rotation, re-anchored with exact sines every 1024 steps and
// split over the CPUs: about a second per 10^9 updates).
//
// For a CSR it is estimated by power iteration on the lazy walk
// (I + D^{−1/2}AD^{−1/2})/2, whose eigenvalues (1 + μ_i)/2 lie in [0, 1], so
// that the most negative μ_i cannot dominate. The top eigenvector,
// proportional to sqrt(deg), is projected out of the start vector
// (deterministic, from o.Seed) and again after every iteration. The
// Rayleigh quotient R then increases towards (1 + μ₂)/2 and μ₂ ≈ 2R − 1.
// Iteration stops when the gap estimate changes by less than o.Tol
// relative in one step, or after o.MaxIter steps (fewer if o.MaxWork
// says so); each step costs O(n + |E|), split over the CPUs in blocks fixed
// by the graph, so the result does not depend on their number. Because R
// approaches from below, the estimated Gap is an upper bound on the true
// gap up to rounding. It converges geometrically when μ₂ is isolated
// (hypercubes, a core joined by few edges), like 1/k after k steps when
// the spectrum is dense up to μ₂ (random regular graphs: the default
// tolerance stops after about 150 steps, the gap about 1% high), and
// hopelessly slowly for cycles, tori and paths, whose μ₃/μ₂ ratio is
// 1 − O(1/n²) (then Converged is false). ExpansionUpper is a valid upper
// bound in every case; ExpansionLower is Cheeger's bound evaluated at the
// estimate, close to the certified bound once converged but not below it
// (Cheeger's bound itself sits well below σ on expanders: 0.26 for a
// random 16-regular graph, whose sweep cut shows σ ≤ 0.34). The sweep cut
// of D^{−1/2}x, the final vector, takes O(n log n + |E|) more.
func DescribeWith(g graphgen.Graph, o DescribeOptions) GraphStats {
	o = o.withDefaults()
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
		st.Spectral = circulantSpectral(g, st.Components, o)
		return st
	}
	csr, ok := g.(*graphgen.CSR)
	if !ok {
		var err error
		if csr, err = graphgen.FromIterator(g); err != nil {
			st.Spectral = Spectral{Method: SpectralNone, Note: err.Error()}
			return st
		}
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
	comps := ybgraph.Components(csr)
	st.Components = len(comps)
	for _, c := range comps {
		st.LargestComponent = max(st.LargestComponent, len(c))
	}
	switch {
	case n < 2:
		st.Spectral = Spectral{Method: SpectralNone, Note: "fewer than 2 vertices: no cut"}
	case st.Components > 1:
		st.Spectral = disconnectedSpectral()
	default:
		st.Spectral = powerSpectral(csr, st.Edges, o)
	}
	return st
}

// FillQuery copies into q what the bounds need from s: MinDegree, Degree
// for a regular graph, and Expansion: the exact σ when known (K_n), else
// the Cheeger lower bound Gap/2 when the gap is exact or power iteration
// converged (see DescribeWith for how close a converged estimate is). The
// lower bound is the safe choice: [PTW15]'s gap bound O(log n / σ) only
// grows when σ is understated. Expansion is left 0
// (unknown) for non-regular or disconnected graphs and unconverged
// estimates. Topology, Core and CoreFraction are not known from the graph
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
	case sp.Converged && sp.ExpansionLower > 0:
		q.Expansion = min(sp.ExpansionLower, 1)
	}
}

// cheeger fills the Cheeger bounds from the gap.
func (sp *Spectral) cheeger() {
	sp.Gap = max(sp.Gap, 0)
	sp.ExpansionLower = min(sp.Gap/2, 1)
	sp.ExpansionUpper = min(math.Sqrt(2*sp.Gap), 1)
}

func disconnectedSpectral() Spectral {
	return Spectral{Method: SpectralDisconnected, Lambda2: 1, ExpansionExact: true, Converged: true,
		Note: "a component with at most half the volume has no edge leaving it"}
}

// completeSpectral: K_n has adjacency eigenvalues n−1 and −1 (n−1 times),
// so μ₂ = −1/(n−1); a set of k ≤ n/2 vertices has k(n−k) leaving edges, so
// σ = min (n−k)/(n−1) = ⌈n/2⌉/(n−1).
func completeSpectral(n int) Spectral {
	if n < 2 {
		return Spectral{Method: SpectralNone, Note: "fewer than 2 vertices: no cut"}
	}
	sp := Spectral{Method: SpectralExact, Note: "K_n: μ₂ = −1/(n−1), σ = ⌈n/2⌉/(n−1)",
		Lambda2: -1 / float64(n-1), ExpansionExact: true, Converged: true}
	sp.Gap = 1 - sp.Lambda2
	sp.Expansion = float64((n+1)/2) / float64(n-1)
	sp.cheeger()
	return sp
}

// circulantSpectral scans the circulant's eigenvalues for μ₂ and, for
// moderate n, sweeps the eigenvector cos(2πj*u/n) of the maximising j*.
func circulantSpectral(g graphgen.Circulant, comps int, o DescribeOptions) Spectral {
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
	lam, jstar := circulantLambda2(n, g.ConnectionSet())
	sp := Spectral{Method: SpectralExact, Lambda2: lam / float64(d), Converged: true,
		Note: fmt.Sprintf("circulant: μ₂ = Σ_{s∈S} cos(2π·%d·s/n)/Δ, the largest of the eigenvalues j = 1..⌊n/2⌋", jstar)}
	sp.Gap = 1 - sp.Lambda2
	sp.cheeger()
	// The sweep needs the vector and an ordering: O(n) memory and
	// n·Δ neighbour visits.
	if n <= 1<<24 && float64(n)*float64(d) <= o.MaxWork {
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
// error stays near 1e-13; the j range is split across the CPUs.
func circulantLambda2(n int, S []uint32) (float64, int) {
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
			for ch := w; ch < chunks; ch += workers {
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

// minPowerIter is the fewest power iterations that may count as converged:
// a start vector with little weight on the top eigenvectors can change
// slowly at first.
const minPowerIter = 10

// powerSpectral estimates μ₂ of a connected CSR with at least 2 vertices
// by power iteration on the lazy walk (see DescribeWith) and sweeps the
// resulting vector.
func powerSpectral(g *graphgen.CSR, edges int64, o DescribeOptions) Spectral {
	n := g.Order()
	off, adj := g.Offsets(), g.Adjacency()
	per := float64(n) + 2*float64(edges)
	if o.MaxWork/per < 20 {
		return Spectral{Method: SpectralNone,
			Note: fmt.Sprintf("power iteration costs n + 2|E| = %.3g per step, too many for 20 steps in the budget %.3g", per, o.MaxWork)}
	}
	iters := int(min(float64(o.MaxIter), o.MaxWork/per))
	isd := make([]float64, n) // 1/sqrt(deg)
	top := make([]float64, n) // the top eigenvector, sqrt(deg/2|E|)
	vol := 2 * float64(edges)
	for v := range n {
		d := float64(off[v+1] - off[v])
		isd[v] = 1 / math.Sqrt(d)
		top[v] = math.Sqrt(d / vol)
	}
	x, y, z := make([]float64, n), make([]float64, n), make([]float64, n)
	rng := rand.New(rand.NewPCG(o.Seed, 0x5eed))
	for v := range x {
		x[v] = rng.Float64() - 0.5
	}
	project(x, top)
	normalize(x)
	sp := Spectral{Method: SpectralPower}
	gap := math.Inf(1)
	// The product is split into row blocks of about equal work, fixed by
	// the graph alone, and the CPUs share them; the partial Rayleigh
	// quotients are summed in block order, so the result is the same
	// whatever the number of CPUs.
	blocks := min(64, max(1, int(per/(1<<16))))
	bounds := make([]int, blocks+1)
	for b, v := 1, 0; b < blocks; b++ {
		target := int(float64(b) * per / float64(blocks))
		for v < n && v+off[v] < target {
			v++
		}
		bounds[b] = v
	}
	bounds[blocks] = n
	workers := min(runtime.GOMAXPROCS(0), blocks)
	partial := make([]float64, blocks)
	var wg sync.WaitGroup
	for it := 1; it <= iters; it++ {
		for v := range n {
			z[v] = isd[v] * x[v]
		}
		for w := range workers {
			wg.Go(func() {
				for b := w; b < blocks; b += workers {
					var R float64
					for v := bounds[b]; v < bounds[b+1]; v++ {
						var s float64
						for _, u := range adj[off[v]:off[v+1]] {
							s += z[u]
						}
						y[v] = 0.5 * (x[v] + isd[v]*s)
						R += x[v] * y[v]
					}
					partial[b] = R
				}
			})
		}
		wg.Wait()
		var R float64
		for _, r := range partial {
			R += r
		}
		project(y, top)
		if normalize(y) == 0 {
			// x lay (numerically) in the kernel: μ = −1 only, as
			// for K_2.
			R = 0
		}
		x, y = y, x
		g2 := 2 * (1 - R) // 1 − μ₂ with μ₂ = 2R − 1
		sp.Iterations = it
		sp.Change = math.Abs(gap-g2) / g2
		gap = g2
		if sp.Change < o.Tol && it >= minPowerIter {
			sp.Converged = true
			break
		}
	}
	sp.Gap = gap
	sp.Lambda2 = 1 - gap
	if !sp.Converged {
		sp.Note = fmt.Sprintf("not converged after %d iterations (change %.2g, tolerance %.2g): the gap estimate is too high, expansion_lower unreliable", sp.Iterations, sp.Change, o.Tol)
	}
	sp.cheeger()
	for v := range n {
		x[v] *= isd[v] // the eigenvector of D⁻¹A
	}
	sp.Sweep = sweep(x, g.Degree, func(v int, do func(w int)) {
		for _, w := range adj[off[v]:off[v+1]] {
			do(int(w))
		}
	}, int64(vol))
	return sp
}

// project removes from x its component along the unit vector u.
func project(x, u []float64) {
	var dot float64
	for i := range x {
		dot += x[i] * u[i]
	}
	for i := range x {
		x[i] -= dot * u[i]
	}
}

// normalize scales x to unit length and returns its former length.
func normalize(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	s = math.Sqrt(s)
	if s > 0 {
		for i := range x {
			x[i] /= s
		}
	}
	return s
}

// sweep sorts the vertices by f and returns the prefix S (1 ≤ |S| < n)
// of least conductance |E(S, V∖S)| / min(vol S, vol V∖S), vol the total
// volume 2|E|. It takes O(n log n + |E|) time.
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
		inside := int64(0)
		nbrs(int(v), func(w int) {
			if in[w] {
				inside++
			}
		})
		d := int64(deg(int(v)))
		cut += d - 2*inside
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
