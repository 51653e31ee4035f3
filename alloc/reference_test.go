package alloc

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/graphgen"
)

// The reference implementations below are a second, plain implementation of
// each process: one ball at a time, through the public Rand methods, drawing
// in the same order as the fast loops. For every ball they check the
// contract — the ball lands in one of its candidate bins, a least loaded
// one, and for a graph the candidates are the two ends of a real edge — and
// at the end the fast loop must have produced exactly the same loads.

// refPlace places m balls with the reference rule of p and fails t if a
// ball breaks the contract.
func refPlace(t *testing.T, p Process, L []uint32, m int64, r *Rand) {
	t.Helper()
	if _, ok := refSteps(p, L, m, r); ok {
		return // twinning, packing: several balls a step (thinning_test.go)
	}
	switch p.(type) {
	case Memory, KD: // a state through the balls (memory_test.go)
		refStatePlace(p, L, m, r)
		return
	}
	if walkSampled(p) { // walk_test.go
		for range m {
			L[refWalkChoose(t, p, L, r)]++
		}
		return
	}
	for k := int64(0); k < m; k++ {
		L[refChoose(t, p, L, k, r)]++
	}
}

// refChoose returns the bin the reference rule of p chooses for ball k from
// the loads L, which it only reads, and fails t if the choice breaks the
// contract.
func refChoose(t *testing.T, p Process, L []uint32, k int64, r *Rand) uint64 {
	t.Helper()
	n := uint64(len(L))
	{
		var cands []uint64
		var c uint64
		// within: the bins c must be least (most, for MaxOf) loaded
		// among, when that is not all the candidates.
		var within []uint64
		most := false
		switch p := p.(type) {
		case OneChoice:
			c = r.Uint64n(n)
			cands = []uint64{c}
		case Greedy:
			for range p.D {
				cands = append(cands, r.Uint64n(n))
			}
			c = cands[0]
			for _, x := range cands[1:] {
				if L[x] < L[c] {
					c = x
				}
			}
		case Left:
			start, size := leftGroups(len(L), p.D)
			random := p.Ties == TiesRandom
			tied := uint64(0)
			for j := range p.D {
				x := start[j] + r.Uint64n(size[j])
				if x < start[j] || x >= start[j]+size[j] {
					t.Fatalf("left: candidate %d outside group %d", x, j)
				}
				cands = append(cands, x)
				switch {
				case j == 0 || L[x] < L[c]:
					c, tied = x, 1
				case L[x] == L[c] && random:
					tied++
					if r.Uint64n(tied) == 0 {
						c = x
					}
				}
			}
		case Graphical:
			random := p.Ties != TiesLeft
			// Graphical (1+β): a coin first; after the edge a fair
			// coin, which names the end a one-choice step takes.
			lazy := p.OneMinusBeta > 0
			one := lazy && refOneChoiceStep(p.OneMinusBeta, r.Uint64())
			lesser := func(u, v uint64) uint64 {
				heads := lazy && r.Coin()
				if one {
					within = []uint64{} // see below
					if heads {
						return v
					}
					return u
				}
				if L[v] < L[u] {
					return v
				}
				return u
			}
			var u, v uint64
			switch g := p.Graph.(type) {
			case *graphgen.CSR:
				if p.Sample == SampleVertex {
					u = r.Uint64n(n)
					nb := g.Neighbors(int(u))
					if len(nb) == 0 {
						if lazy {
							r.Coin() // the end's coin, drawn for every ball
						}
						c = u
						cands = []uint64{u}
						break
					}
					v = uint64(nb[r.Uint64n(uint64(len(nb)))])
					c = lesser(u, v)
					if !one && random && L[v] == L[u] && r.Coin() {
						c = v
					}
				} else if D := uint64(g.RegularDegree()); D > 0 {
					// A uniform half-edge: a uniform vertex, a
					// uniform slot of its row; already oriented.
					u = r.Uint64n(n)
					v = uint64(g.Neighbors(int(u))[r.Uint64n(D)])
					if !random && v < u {
						u, v = v, u
					}
					c = lesser(u, v)
				} else {
					e := g.EdgeList()
					x := r.Uint64n(uint64(len(e) / 2))
					u, v = uint64(e[2*x]), uint64(e[2*x+1])
					if random && r.Coin() {
						u, v = v, u
					}
					c = lesser(u, v)
				}
				if len(cands) == 0 {
					if !g.HasEdge(int(u), int(v)) {
						t.Fatalf("graph: candidates %d, %d are not an edge", u, v)
					}
					cands = []uint64{u, v}
				}
			case graphgen.Complete:
				u = r.Uint64n(n)
				v = r.Uint64n(n - 1)
				if v >= u {
					v++
				}
				if !random && p.Sample == SampleEdge {
					u, v = min(u, v), max(u, v)
				}
				c = lesser(u, v)
				if u == v {
					t.Fatalf("complete: candidates equal")
				}
				cands = []uint64{u, v}
			case graphgen.Circulant:
				S := g.ConnectionSet()
				u = r.Uint64n(n)
				v = (u + uint64(S[r.Uint64n(uint64(len(S)))])) % n
				if !random && p.Sample == SampleEdge {
					u, v = min(u, v), max(u, v)
				}
				c = lesser(u, v)
				if !g.HasEdge(int(u), int(v)) {
					t.Fatalf("circulant: candidates %d, %d are not an edge", u, v)
				}
				cands = []uint64{u, v}
			case graphgen.PermutationRegular, graphgen.Lattice:
				c, cands = refImplicit(t, g, p, r, lesser) // implicitgraph_test.go
			}
		case Hyper:
			// A uniform hyperedge; the least load; among the tied
			// vertices, in increasing order, the x-th for x uniform
			// (random ties, two or more tied) or the first.
			he := p.H.Hyperedge(int(r.Uint64n(uint64(p.H.Size()))))
			var tied []uint64
			for _, v := range he {
				cands = append(cands, uint64(v))
				switch {
				case len(tied) == 0 || L[v] < L[tied[0]]:
					tied = []uint64{uint64(v)}
				case L[v] == L[tied[0]]:
					tied = append(tied, uint64(v))
				}
			}
			c = tied[0]
			if p.Ties != TiesLeft && len(tied) > 1 {
				c = tied[r.Uint64n(uint64(len(tied)))]
			}
		case LocalSearch:
			// The walk is checked step by step in refLocalSearch; the
			// ball must end least loaded in its neighbourhood.
			c, within, _, _ = refLocalSearch(t, p, L, r)
			cands = []uint64{c}
		case MaxOf, OnePlusBeta, FirstDiff, Grouped, Window:
			// These processes' references sit beside
			// their tests (refBall in maxof_test.go).
			c, cands, within, most = refBall(t, p, L, r)
		case MeanThinning, Threshold:
			// The thinning rules take the second sample whatever its
			// load; refThin (thinning_test.go) checks the rule.
			c, cands = refThin(t, p, L, r)
			within = []uint64{c}
		case Quantile:
			// The second sample takes the ball whatever its load;
			// refQuantile (quantile_test.go) checks the rule.
			c, cands = refQuantile(t, p, L, r)
			within = []uint64{c}
		case GBounded, GMyopic, Noisy:
			// The two-sample rules may choose the more loaded
			// candidate; refTwoSample (twosample_test.go) checks
			// each ball against its rule.
			c, cands = refTwoSample(t, p, L, r)
			within = []uint64{c}
		default:
			t.Fatalf("no reference for %T", p)
		}
		if !slices.Contains(cands, c) {
			t.Fatalf("ball %d: bin %d is not a candidate %v", k, c, cands)
		}
		if within == nil {
			within = cands
		} else if len(within) == 0 {
			within = []uint64{c} // a one-choice step: no load compared
		}
		for _, x := range within {
			if !most && L[x] < L[c] {
				t.Fatalf("ball %d: bin %d (load %d) chosen over less loaded candidate %d (load %d)", k, c, L[c], x, L[x])
			}
			if most && L[x] > L[c] {
				t.Fatalf("ball %d: bin %d (load %d) chosen over more loaded candidate %d (load %d)", k, c, L[c], x, L[x])
			}
		}
		return c
	}
}

// refOneChoiceStep reports whether coin x makes a one-choice step of
// graphical (1+β) with 1 − β = lazy: x < ⌊lazy·2^64⌋, computed exactly in
// big.Float.
func refOneChoiceStep(lazy float64, x uint64) bool {
	lim, _ := new(big.Float).SetMantExp(big.NewFloat(lazy), 64).Int(nil)
	return new(big.Int).SetUint64(x).Cmp(lim) < 0
}

// contractCases are the processes every contract test runs on.
func contractCases(t *testing.T) []struct {
	name string
	n    int
	p    Process
} {
	src := rand.NewPCG(1, 2)
	reg, _, err := graphgen.RandomRegular(500, 6, src)
	if err != nil {
		t.Fatal(err)
	}
	// A graph with isolated vertices and a star: exercises degree
	// weighting and the isolated-vertex rule of vertex sampling.
	star, _, err := graphgen.FromEdges(12, []uint32{0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 8, 9})
	if err != nil {
		t.Fatal(err)
	}
	// Circulants: even degree, and odd degree (n/2 in S).
	circ, err := graphgen.RandomCirculant(500, 6, src)
	if err != nil {
		t.Fatal(err)
	}
	circOdd, err := graphgen.RandomCirculant(500, 5, src)
	if err != nil {
		t.Fatal(err)
	}
	// Hypergraphs: 4-uniform with isolated vertices, one of mixed sizes
	// (with a single-vertex hyperedge), 1-uniform (one-choice on the
	// vertices it names), and every 3-subset of [9].
	hyp4, err := graphgen.RandomUniformHypergraph(500, 4, 300, src)
	if err != nil {
		t.Fatal(err)
	}
	mixed, err := graphgen.FromHyperedges(12, []int{0, 5, 6, 8, 12}, []uint32{0, 3, 5, 7, 9, 11, 2, 4, 1, 6, 8, 10})
	if err != nil {
		t.Fatal(err)
	}
	hyp1, err := graphgen.RandomUniformHypergraph(50, 1, 40, src)
	if err != nil {
		t.Fatal(err)
	}
	k3 := completeUniform(t, 9, 3)
	cases := []struct {
		name string
		n    int
		p    Process
	}{
		{"one-choice", 1000, OneChoice{}},
		{"greedy/d=1", 1000, Greedy{D: 1}},
		{"greedy/d=2", 1000, Greedy{D: 2}},
		{"greedy/d=2/left", 1000, Greedy{D: 2, Ties: TiesLeft}},
		{"greedy/d=5", 997, Greedy{D: 5}},
		{"left/d=2", 1000, Left{D: 2}},
		{"left/d=3", 1001, Left{D: 3}},
		{"left/d=3/random", 1001, Left{D: 3, Ties: TiesRandom}},
		{"left/d=n", 7, Left{D: 7}},
		{"graph/regular/edge", 500, Graphical{Graph: reg}},
		{"graph/regular/edge/left", 500, Graphical{Graph: reg, Ties: TiesLeft}},
		{"graph/regular/vertex", 500, Graphical{Graph: reg, Sample: SampleVertex}},
		{"graph/regular/vertex/left", 500, Graphical{Graph: reg, Sample: SampleVertex, Ties: TiesLeft}},
		{"graph/star/edge", 12, Graphical{Graph: star}},
		{"graph/star/vertex", 12, Graphical{Graph: star, Sample: SampleVertex}},
		{"graph/complete", 300, Graphical{Graph: graphgen.Complete(300)}},
		{"graph/complete/left", 300, Graphical{Graph: graphgen.Complete(300), Ties: TiesLeft}},
		{"graph/complete/vertex/left", 300, Graphical{Graph: graphgen.Complete(300), Sample: SampleVertex, Ties: TiesLeft}},
		{"graph/K2", 2, Graphical{Graph: graphgen.Complete(2)}},
		// FirstDiff, MaxOf, (1+β), grouped, windows (references in maxof_test.go).
		{"firstdiff/d=2", 1000, FirstDiff{D: 2}},
		{"firstdiff/d=3/left", 997, FirstDiff{D: 3, Ties: TiesLeft}},
		{"firstdiff/cap=1", 1000, FirstDiff{D: 2, Cap: 1}},
		{"firstdiff/cap=64", 50, FirstDiff{D: 2, Cap: 64}},
		{"unbalanced/d=1", 1000, MaxOf{D: 1}},
		{"unbalanced/d=2", 1000, MaxOf{D: 2}},
		{"unbalanced/d=3", 997, MaxOf{D: 3}},
		{"one-plus-beta/beta=0.5", 1000, OnePlusBeta{Beta: 0.5}},
		{"one-plus-beta/beta=0.3", 1000, OnePlusBeta{Beta: 0.3}},
		{"one-plus-beta/beta=0", 1000, OnePlusBeta{Beta: 0}},
		{"one-plus-beta/beta=1", 1000, OnePlusBeta{Beta: 1}},
		{"grouped/d=2", 1000, Grouped{D: 2}},
		{"grouped/d=4", 1000, Grouped{D: 4}},
		{"grouped/d=6/random", 999, Grouped{D: 6, Ties: TiesRandom}},
		{"grouped/one-group", 5, Grouped{D: 10}},
		{"window/d=4", 1000, Window{D: 4}},
		{"window/d=6/random", 1001, Window{D: 6, Ties: TiesRandom}},
		{"window/d=2n", 5, Window{D: 10}},
		{"window/wrap/random", 7, Window{D: 8, Ties: TiesRandom}},
		{"graph/circulant/edge", 500, Graphical{Graph: circ}},
		{"graph/circulant/edge/left", 500, Graphical{Graph: circ, Ties: TiesLeft}},
		{"graph/circulant/vertex/left", 500, Graphical{Graph: circ, Sample: SampleVertex, Ties: TiesLeft}},
		{"graph/circulant/odd", 500, Graphical{Graph: circOdd}},
		{"hyper/4-uniform", 500, Hyper{H: hyp4}},
		{"hyper/4-uniform/left", 500, Hyper{H: hyp4, Ties: TiesLeft}},
		{"hyper/mixed", 12, Hyper{H: mixed}},
		{"hyper/mixed/left", 12, Hyper{H: mixed, Ties: TiesLeft}},
		{"hyper/1-uniform", 50, Hyper{H: hyp1}},
		{"hyper/complete-3-uniform", 9, Hyper{H: k3}},
		// Graphical (1+β) on every graph type and sampling rule.
		{"graph-beta/regular/edge", 500, Graphical{Graph: reg, OneMinusBeta: 0.5}},
		{"graph-beta/regular/edge/left", 500, Graphical{Graph: reg, Ties: TiesLeft, OneMinusBeta: 0.3}},
		{"graph-beta/regular/vertex", 500, Graphical{Graph: reg, Sample: SampleVertex, OneMinusBeta: 0.5}},
		{"graph-beta/star/vertex/left", 12, Graphical{Graph: star, Sample: SampleVertex, Ties: TiesLeft, OneMinusBeta: 0.7}},
		{"graph-beta/complete", 300, Graphical{Graph: graphgen.Complete(300), OneMinusBeta: 0.5}},
		{"graph-beta/complete/left", 300, Graphical{Graph: graphgen.Complete(300), Ties: TiesLeft, OneMinusBeta: 0.9}},
		{"graph-beta/circulant/odd", 500, Graphical{Graph: circOdd, OneMinusBeta: 0.25}},
		{"graph-beta/tiny", 500, Graphical{Graph: reg, OneMinusBeta: 1e-30}},
		// The two-sample rules (references in twosample_test.go), on
		// every source: two uniform bins, K_n, an edge, a vertex and
		// a neighbour, a circulant, with isolated vertices.
		{"g-bounded/g=0", 1000, GBounded{}},
		{"g-bounded/g=2", 1000, GBounded{Tolerance: 2}},
		{"g-bounded/g=2/left", 1000, GBounded{Tolerance: 2, Ties: TiesLeft}},
		{"g-bounded/g=1/complete", 300, GBounded{Tolerance: 1, Graph: graphgen.Complete(300)}},
		{"g-bounded/g=1/regular/edge", 500, GBounded{Tolerance: 1, Graph: reg}},
		{"g-bounded/g=1/regular/edge/left", 500, GBounded{Tolerance: 1, Graph: reg, Ties: TiesLeft}},
		{"g-bounded/g=1/regular/vertex/left", 500, GBounded{Tolerance: 1, Graph: reg, Sample: SampleVertex, Ties: TiesLeft}},
		{"g-bounded/g=1/star/vertex", 12, GBounded{Tolerance: 1, Graph: star, Sample: SampleVertex}},
		{"g-bounded/g=1/circulant/edge/left", 500, GBounded{Tolerance: 1, Graph: circ, Ties: TiesLeft}},
		{"g-bounded/g=1/circulant/vertex/left", 500, GBounded{Tolerance: 1, Graph: circOdd, Sample: SampleVertex, Ties: TiesLeft}},
		{"g-myopic/g=0", 1000, GMyopic{}},
		{"g-myopic/g=3", 1000, GMyopic{Tolerance: 3}},
		{"g-myopic/g=1/regular/edge", 500, GMyopic{Tolerance: 1, Graph: reg}},
		{"g-myopic/g=1/star/vertex", 12, GMyopic{Tolerance: 1, Graph: star, Sample: SampleVertex}},
		{"g-myopic/g=1/circulant", 500, GMyopic{Tolerance: 1, Graph: circ}},
		{"noisy/sigma=0", 1000, Noisy{}},
		{"noisy/sigma=0.7", 1000, Noisy{Sigma: 0.7}},
		{"noisy/sigma=3/K_n", 300, Noisy{Sigma: 3, Graph: graphgen.Complete(300)}},
		{"noisy/sigma=1/regular/edge", 500, Noisy{Sigma: 1, Graph: reg}},
		{"noisy/sigma=1/regular/vertex", 500, Noisy{Sigma: 1, Graph: reg, Sample: SampleVertex}},
		{"noisy/sigma=1/circulant/odd", 500, Noisy{Sigma: 1, Graph: circOdd}},
		{"noisy/n=1", 1, Noisy{Sigma: 1}},
		// The thinning family (references in thinning_test.go).
		{"mean-thinning", 1000, MeanThinning{}},
		{"mean-thinning/n=1", 1, MeanThinning{}},
		{"mean-thinning/n=7", 7, MeanThinning{}},
		{"threshold/L=0", 1000, Threshold{}},
		{"threshold/L=1", 1000, Threshold{L: 1}},
		{"threshold/L=3", 997, Threshold{L: 3}},
		{"twinning", 1000, Twinning{}},
		{"twinning/n=1", 1, Twinning{}},
		{"twinning/n=7", 7, Twinning{}},
		{"packing", 1000, Packing{}},
		{"packing/n=1", 1, Packing{}},
		{"packing/n=7", 7, Packing{}},
		// Quantile(δ) (reference in quantile_test.go): δn whole, not
		// whole, below 1 (one-choice at two probes), and n = 1.
		{"quantile/delta=0.5", 200, Quantile{Delta: 0.5}},
		{"quantile/delta=0.3/n=101", 101, Quantile{Delta: 0.3}},
		{"quantile/delta=0.9", 60, Quantile{Delta: 0.9}},
		{"quantile/delta=0.1/n=7", 7, Quantile{Delta: 0.1}},
		{"quantile/n=1", 1, Quantile{Delta: 0.5}},
	}
	// Local search on a cycle, a torus, a random regular graph, the star,
	// a circulant and the complete graph (localsearch_test.go).
	for _, ls := range localSearchCases(t) {
		cases = append(cases, struct {
			name string
			n    int
			p    Process
		}{"local-search/" + ls.name, ls.n, ls.p})
	}
	return cases
}

// TestContract checks, for every process, that the fast loop and the
// reference place the same balls in the same bins, that every ball obeys
// the process's rule, that balls are conserved, and that the same seed
// gives the same loads.
func TestContract(t *testing.T) {
	for _, tc := range contractCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.p.Check(tc.n); err != nil {
				t.Fatal(err)
			}
			for _, m := range []int64{0, 1, 3 * int64(tc.n)} {
				b := NewBins(tc.n)
				// Two batches: the process must resume exactly.
				tc.p.Place(b, m/3, NewRand(42))
				r := NewRand(42)
				b.Reset()
				st := tc.p.Place(b, m/3, r)
				st.Add(tc.p.Place(b, m-m/3, r))
				ref := make([]uint32, tc.n)
				refPlace(t, tc.p, ref, m, NewRand(42))
				if !slices.Equal(b.Loads(), ref) {
					t.Fatalf("m=%d: fast loop and reference differ", m)
				}
				counts, err := b.Counts()
				if err != nil {
					t.Fatal(err)
				}
				var sum, bins int64
				for i, c := range counts {
					sum += int64(i) * c
					bins += c
				}
				if sum != m || bins != int64(tc.n) || b.Balls() != m {
					t.Fatalf("m=%d: counts hold %d balls in %d bins, Balls()=%d", m, sum, bins, b.Balls())
				}
				if m > 0 && ((st.Probes < m && !severalPerStep(tc.p)) || st.MaxProbes < 1) {
					t.Fatalf("m=%d: implausible stats %+v", m, st)
				}
				b2 := NewBins(tc.n)
				tc.p.Place(b2, m, NewRand(42))
				if !slices.Equal(b.Loads(), b2.Loads()) {
					t.Fatalf("m=%d: same seed, different loads", m)
				}
			}
		})
	}
}

// TestGreedyTieRulesAgree documents the exchangeability argument: for
// Greedy[d] both tie rules run the same loop.
func TestGreedyTieRulesAgree(t *testing.T) {
	a, b := NewBins(100), NewBins(100)
	Greedy{D: 3, Ties: TiesRandom}.Place(a, 1000, NewRand(7))
	Greedy{D: 3, Ties: TiesLeft}.Place(b, 1000, NewRand(7))
	if !slices.Equal(a.Loads(), b.Loads()) {
		t.Fatal("tie rules differ for greedy")
	}
}

func TestCheckRejects(t *testing.T) {
	empty, _, _ := graphgen.FromEdges(3, nil)
	noHyperedges, _ := graphgen.FromHyperedges(3, []int{0}, nil)
	cases := []struct {
		name string
		n    int
		p    Process
		want string // a substring of the error that names the problem
	}{
		{"one-choice/n=0", 0, OneChoice{}, "one-choice needs at least one bin, got n=0"},
		{"greedy/d=0", 10, Greedy{D: 0}, "greedy needs 1 <= d <= 1048576, got d=0"},
		{"greedy/n=0", 0, Greedy{D: 2}, "greedy needs at least one bin, got n=0"},
		{"left/d>n", 3, Left{D: 4}, "every group has a bin, got d=4 n=3"},
		{"left/d=0", 3, Left{D: 0}, "left needs 1 <= d <= min(n, 1048576)"},
		{"graph/nil", 3, Graphical{}, "graph process needs a graph"},
		{"graph/order", 4, Graphical{Graph: graphgen.Complete(3)}, "graph has 3 vertices but the run has n=4 bins"},
		{"graph/K1", 1, Graphical{Graph: graphgen.Complete(1)}, "complete graph has n=1"},
		{"graph/no-edges", 3, Graphical{Graph: empty}, "needs a graph with at least one edge"},
		{"graph/hypergraph", 3, Graphical{Graph: noHyperedges}, "use the hyper process"},
		{"hyper/nil", 3, Hyper{}, "hyper process needs a hypergraph"},
		{"hyper/order", 4, Hyper{H: noHyperedges}, "hypergraph has 3 vertices but the run has n=4"},
		{"hyper/empty", 3, Hyper{H: noHyperedges}, "at least one hyperedge"},
		{"g-bounded/g<0", 3, GBounded{Tolerance: -1}, "g-bounded needs a threshold 0 <= g <= 16383, got g=-1"},
		{"g-myopic/order", 4, GMyopic{Graph: graphgen.Complete(3)}, "graph has 3 vertices but the run has n=4 bins"},
		{"g-myopic/no-edges", 3, GMyopic{Graph: empty}, "g-myopic needs a graph with at least one edge"},
		{"noisy/sigma<0", 3, Noisy{Sigma: -1}, "noisy needs a noise level 0 <= sigma <= 1024, got sigma=-1"},
		{"noisy/n=0", 0, Noisy{}, "noisy needs at least one bin, got n=0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.p.Check(tc.n)
			if err == nil {
				t.Fatalf("no error, want one saying %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
}
