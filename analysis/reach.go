package analysis

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"

	ybgraph "github.com/yourbasic/graph"
)

// The reachability polynomial of a rooted graph [GJ10]: every edge works
// independently with probability p, and EV(G; p) is the expected number of
// vertices joined to the root by working edges (the root included). Summing
// over the set S of working edges,
//
//	EV(G; p) = Σ_S p^|S| (1 − p)^(|E| − |S|) · |reach(S)|
//	         = Σ_k N_k p^k (1 − p)^(|E| − k),   N_k = Σ_{|S| = k} |reach(S)|,
//
// a polynomial of degree at most |E| with integer coefficients. Only the
// root's connected component matters (the other edges sum out to a factor
// p + (1 − p) = 1), so everything below works on that component.
//
// Edge connectivity. Write EV = Σ_v P(v reached) and q = 1 − p. A vertex v
// is cut off from the root only if every edge of some root–v cut fails, so
// 1 − P(v reached) = c_v q^λ_v + O(q^(λ_v + 1)), where λ_v is the local edge
// connectivity between the root and v and c_v > 0 counts the minimum
// root–v cuts. These leading terms are all of one sign, so
// |V| − EV(G; 1 − q) = c q^λ + O(q^(λ+1)) with c > 0 and λ = min_v λ_v, the
// edge connectivity of the component. Hence, for a connected G with at least
// two vertices, the characterisation of [GJ10]:
//
//	G is k-edge-connected  ⟺  EV′(G; 1) = … = EV^(k−1)(G; 1) = 0,
//
// and EV^(λ)(G; 1) ≠ 0 (its sign is (−1)^(λ+1)). For a disconnected G the
// statement holds for the root's component.
//
// [GJ10] G. Gordon, E. Jager, Distinguished vertices in probabilistic rooted
// graphs, Networks 55(3), 2010, and the references there (Colbourn's
// resilience; Siegrist, Amin, Slater's pair-connected reliability).

// MaxReachExactEdges is the largest number of edges (in the root's
// component) ReachPolynomial accepts: the work is about 2^|E| union-find
// steps, under a second for 25 edges.
const MaxReachExactEdges = 30

// ReachPoly is EV(G; p) for a rooted graph, exactly.
type ReachPoly struct {
	Vertices int // vertices in the root's component
	Edges    int // edges in the root's component: the degree bound of the polynomial
	// N[k] = Σ over the k-edge subsets S of the component of the number
	// of vertices S joins to the root (the root included): EV(G; p) =
	// Σ_k N[k] p^k (1 − p)^(Edges − k). N[Edges] = Vertices.
	N []*big.Int
	// Coef are the coefficients in powers of p: EV(G; p) = Σ_j Coef[j] p^j.
	// Coef[0] = 1 (at p = 0 only the root is reached).
	Coef []*big.Int
}

// ReachPolynomial returns EV(G; p) of g rooted at root, exactly. g is read
// through yourbasic's Iterator (graphgen's graphs implement it) and must be
// undirected (Visit lists each edge from both ends); each
// undirected edge {v, w}, v ≠ w, is one edge, however many times and in
// which directions Visit lists it (self-loops, which never change what is
// reached, are ignored).
//
// Method: enumerate the subsets of the root component's edges by a
// depth-first include/exclude recursion over a union-find with rollback
// (union by size, no path compression), adding the root's component size
// at every leaf to N[|S|]. O(2^|E| log |V|) time, O(|V| + |E|) space.
//
// Errors: root out of range, or more than MaxReachExactEdges edges in the
// root's component (use ReachMonteCarlo).
func ReachPolynomial(g ybgraph.Iterator, root int) (*ReachPoly, error) {
	verts, edges, err := rootComponent(g, root)
	if err != nil {
		return nil, err
	}
	if len(edges) > MaxReachExactEdges {
		return nil, fmt.Errorf("analysis: exact reachability polynomial needs at most %d edges in the root's component, got %d (use ReachMonteCarlo)", MaxReachExactEdges, len(edges))
	}
	e := len(edges)
	// Relabel the component 0..len(verts)−1 with the root at 0.
	parent := make([]int32, len(verts))
	size := make([]int32, len(verts))
	for i := range parent {
		parent[i], size[i] = int32(i), 1
	}
	find := func(x int32) int32 {
		for parent[x] != x {
			x = parent[x]
		}
		return x
	}
	counts := make([]uint64, e+1) // ≤ 2^30·2^31: fits
	var rec func(i, k int)
	rec = func(i, k int) {
		if i == e {
			counts[k] += uint64(size[find(0)])
			return
		}
		rec(i+1, k) // edge i fails
		a, b := find(edges[i][0]), find(edges[i][1])
		if a == b {
			rec(i+1, k+1) // works, changes nothing
			return
		}
		if size[a] < size[b] {
			a, b = b, a
		}
		parent[b] = a
		size[a] += size[b]
		rec(i+1, k+1)
		size[a] -= size[b]
		parent[b] = b
	}
	rec(0, 0)

	r := &ReachPoly{Vertices: len(verts), Edges: e, N: make([]*big.Int, e+1), Coef: make([]*big.Int, e+1)}
	for k, c := range counts {
		r.N[k] = new(big.Int).SetUint64(c)
	}
	// p^k (1 − p)^(E−k) = Σ_{j≥k} C(E−k, j−k) (−1)^(j−k) p^j.
	for j := range r.Coef {
		r.Coef[j] = new(big.Int)
	}
	var t big.Int
	for k := 0; k <= e; k++ {
		for j := k; j <= e; j++ {
			t.Binomial(int64(e-k), int64(j-k))
			t.Mul(&t, r.N[k])
			if (j-k)%2 == 1 {
				r.Coef[j].Sub(r.Coef[j], &t)
			} else {
				r.Coef[j].Add(r.Coef[j], &t)
			}
		}
	}
	return r, nil
}

// rootComponent returns the vertices of root's component, in BFS order with
// the root first, and its edges as pairs of positions in that order, each
// undirected edge once.
func rootComponent(g ybgraph.Iterator, root int) ([]int, [][2]int32, error) {
	n := g.Order()
	if root < 0 || root >= n {
		return nil, nil, fmt.Errorf("analysis: root %d out of range for a graph with %d vertices", root, n)
	}
	pos := map[int]int32{root: 0}
	verts := []int{root}
	var edges [][2]int32
	for i := 0; i < len(verts); i++ {
		v := verts[i]
		g.Visit(v, func(w int, _ int64) bool {
			if w == v {
				return false
			}
			pw, seen := pos[w]
			if !seen {
				pw = int32(len(verts))
				pos[w] = pw
				verts = append(verts, w)
			}
			edges = append(edges, [2]int32{min(int32(i), pw), max(int32(i), pw)})
			return false
		})
	}
	// Each undirected edge once: v→w and w→v (and repeated listings) give
	// the same pair.
	seen := make(map[[2]int32]bool, len(edges))
	out := edges[:0]
	for _, e := range edges {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return verts, out, nil
}

// Eval returns EV(G; p) for p in [0, 1], summing Σ_k N_k p^k (1 − p)^(E−k),
// whose terms are all non-negative: no cancellation, unlike the power
// basis. It returns NaN for p outside [0, 1].
func (r *ReachPoly) Eval(p float64) float64 {
	if !(p >= 0 && p <= 1) {
		return math.NaN()
	}
	var s float64
	for k, nk := range r.N {
		f, _ := new(big.Float).SetInt(nk).Float64()
		s += f * math.Pow(p, float64(k)) * math.Pow(1-p, float64(r.Edges-k))
	}
	return s
}

// EvalRat returns EV(G; p) exactly for a rational p.
func (r *ReachPoly) EvalRat(p *big.Rat) *big.Rat {
	s, pw, t := new(big.Rat), big.NewRat(1, 1), new(big.Rat)
	for _, c := range r.Coef {
		t.SetInt(c)
		t.Mul(t, pw)
		s.Add(s, t)
		pw.Mul(pw, p)
	}
	return s
}

// DerivAt1 returns the k-th derivative EV^(k)(G; 1) exactly:
// Σ_j Coef[j]·j(j−1)…(j−k+1). DerivAt1(0) = EV(G; 1) = Vertices.
func (r *ReachPoly) DerivAt1(k int) *big.Int {
	s, f := new(big.Int), new(big.Int)
	for j := k; j < len(r.Coef); j++ {
		f.MulRange(int64(j-k+1), int64(j)) // 1 for k = 0
		f.Mul(f, r.Coef[j])
		s.Add(s, f)
	}
	return s
}

// KEdgeConnected reports whether EV′(G; 1) = … = EV^(k−1)(G; 1) = 0,
// which for a root component with at least two vertices holds exactly when
// the component is k-edge-connected (see the package comment above
// ReachPoly). Every k ≤ 1 gives true.
func (r *ReachPoly) KEdgeConnected(k int) bool {
	for j := 1; j < k; j++ {
		if r.DerivAt1(j).Sign() != 0 {
			return false
		}
	}
	return true
}

// EdgeConnectivity returns the smallest k ≥ 1 with EV^(k)(G; 1) ≠ 0: the
// edge connectivity λ of the root's component. It returns 0 for a
// component of one vertex (EV ≡ 1). O(|E|²) big-integer operations.
func (r *ReachPoly) EdgeConnectivity() int {
	if r.Vertices < 2 {
		return 0
	}
	for k := 1; k <= r.Edges; k++ {
		if r.DerivAt1(k).Sign() != 0 {
			return k
		}
	}
	// Unreachable: the leading term c q^λ has λ ≤ min degree ≤ |E|.
	panic("analysis: reachability polynomial with every derivative at 1 zero")
}

// ReachEstimate is a Monte Carlo estimate of EV(G; p).
type ReachEstimate struct {
	P       float64    `json:"p"`
	Samples int        `json:"samples"`
	Mean    float64    `json:"mean"` // the estimate of EV(G; p)
	Std     float64    `json:"std"`  // sample standard deviation of the reached count
	CI95    [2]float64 `json:"ci95"` // Student-t 95% confidence interval for EV(G; p), within [1, |V|]
}

// ReachMonteCarlo estimates EV(G; p) of g rooted at root from samples
// independent percolations: each draws a fresh 64-bit key from src, decides
// edge {v, w} by a hash of (key, min(v, w), max(v, w)) compared with p, and
// counts the vertices a breadth-first search from the root reaches over
// working edges. Hashing the edge lets an edge be decided consistently from
// either end without an edge index, so any Iterator works and a sample costs
// O(edges reached) time and O(|V|) memory. Parallel edges share one coin:
// the graph is taken as simple. The CI is Student's t, mean ± t·s/√samples,
// cut to [1, |V|] where it reaches beyond: with many samples of a count
// bounded by |V| the normal approximation is sound, and the mean is in
// [1, |V|] for certain.
//
// Errors: root out of range, p outside [0, 1], samples < 2.
func ReachMonteCarlo(g ybgraph.Iterator, root int, p float64, samples int, src rand.Source) (ReachEstimate, error) {
	n := g.Order()
	switch {
	case root < 0 || root >= n:
		return ReachEstimate{}, fmt.Errorf("analysis: root %d out of range for a graph with %d vertices", root, n)
	case !(p >= 0 && p <= 1):
		return ReachEstimate{}, fmt.Errorf("analysis: edge probability needs 0 <= p <= 1, got %g", p)
	case samples < 2:
		return ReachEstimate{}, fmt.Errorf("analysis: Monte Carlo needs at least 2 samples, got %d", samples)
	}
	// Working iff hash < threshold; p = 1 must let every edge work.
	thr := uint64(math.Ldexp(p, 64))
	if p >= 1 {
		thr = math.MaxUint64
	}
	mark := make([]uint32, n) // sample number + 1 of the last visit
	queue := make([]int, 0, 64)
	x := make([]float64, samples)
	for s := range samples {
		key := src.Uint64()
		stamp := uint32(s + 1)
		queue = append(queue[:0], root)
		mark[root] = stamp
		for i := 0; i < len(queue); i++ {
			v := queue[i]
			g.Visit(v, func(w int, _ int64) bool {
				if mark[w] == stamp {
					return false
				}
				a, b := v, w
				if a > b {
					a, b = b, a
				}
				if edgeHash(key, uint64(a)<<32|uint64(b)) < thr || p >= 1 {
					mark[w] = stamp
					queue = append(queue, w)
				}
				return false
			})
		}
		x[s] = float64(len(queue))
	}
	sum := Summarize(x)
	ci := studentT95(sum.Mean, sum.Std, samples)
	ci = [2]float64{max(ci[0], 1), min(ci[1], float64(n))}
	return ReachEstimate{P: p, Samples: samples, Mean: sum.Mean, Std: sum.Std, CI95: ci}, nil
}

// edgeHash mixes a sample key and an edge into 64 uniform-looking bits:
// the splitmix64 finaliser (Stafford's Mix13) of key + edge·golden ratio.
func edgeHash(key, edge uint64) uint64 {
	z := key + edge*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
