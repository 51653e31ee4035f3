package alloc

import (
	"context"
	"maps"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/graphgen"
)

// refWalk returns the vertices v_0..v_l of one non-backtracking walk of l
// steps from a uniform vertex of g (nil or K_n: the complete graph on n
// vertices), drawn by the plain definition: the neighbours of the current
// vertex listed in id order (Neighbors, or every other vertex of K_n); a
// first step to a uniform one; a later step to the j-th, j uniform below
// the degree − 1, or to the last if the j-th is the vertex just left; the
// only neighbour of a degree-1 vertex without a draw; an isolated vertex
// staying. It checks that every step follows an edge and, from a vertex of
// degree ≥ 2, does not go back.
func refWalk(t *testing.T, g graphgen.Graph, n, l int, r *Rand) []uint64 {
	t.Helper()
	v := r.Uint64n(uint64(n))
	vis := []uint64{v}
	prev := -1
	for range l {
		var nb []uint64
		if c, ok := g.(*graphgen.CSR); ok {
			for _, w := range c.Neighbors(int(v)) {
				nb = append(nb, uint64(w))
			}
		} else {
			for w := range uint64(n) {
				if w != v {
					nb = append(nb, w)
				}
			}
		}
		d := uint64(len(nb))
		w := v
		switch {
		case d == 0:
		case d == 1:
			w = nb[0]
		case prev < 0:
			w = nb[r.Uint64n(d)]
		default:
			w = nb[r.Uint64n(d-1)]
			if w == uint64(prev) {
				w = nb[d-1]
			}
			if w == uint64(prev) {
				t.Fatalf("walk went back from %d to %d", v, w)
			}
		}
		if c, ok := g.(*graphgen.CSR); ok && d > 0 && !c.HasEdge(int(v), int(w)) {
			t.Fatalf("walk step %d-%d is not an edge", v, w)
		}
		if d > 0 {
			prev = int(v)
		}
		v = w
		vis = append(vis, v)
	}
	return vis
}

// refLeast returns a least loaded vertex of vis: the first visited if
// !random, else the ⌊w·t/2^64⌋-th in id order of the t distinct tied
// vertices (computed with big integers).
func refLeast(L []uint32, vis []uint64, random bool, w uint64) uint64 {
	mn := L[vis[0]]
	for _, v := range vis {
		mn = min(mn, L[v])
	}
	set := map[uint64]bool{}
	for _, v := range vis {
		if L[v] == mn {
			if !random {
				return v
			}
			set[v] = true
		}
	}
	ties := slices.Sorted(maps.Keys(set))
	k := new(big.Int).Mul(new(big.Int).SetUint64(w), big.NewInt(int64(len(ties))))
	return ties[k.Rsh(k, 64).Uint64()]
}

// refWalkChoose returns the bin ball of p, a graph process or a
// two-sample rule with walk sampling, goes to by the plain definition,
// reading the loads L.
func refWalkChoose(t *testing.T, p Process, L []uint32, r *Rand) uint64 {
	t.Helper()
	n := len(L)
	switch p := p.(type) {
	case Graphical:
		l, _ := p.Sample.Walk()
		if p.OneMinusBeta > 0 && r.Uint64() < uint64(math.Ldexp(p.OneMinusBeta, 64)) {
			return r.Uint64n(uint64(n)) // one-choice: the walk's start, no walk
		}
		vis := refWalk(t, p.Graph, n, l, r)
		random := p.Ties != TiesLeft
		var w uint64
		if random {
			w = r.Uint64()
		}
		return refLeast(L, vis, random, w)
	case GBounded:
		l, _ := p.Sample.Walk()
		vis := refWalk(t, p.Graph, n, l, r)
		a, b := vis[0], vis[l]
		w := r.Uint64()
		// g-bounded: outside g the lesser; inside, the heavier; at 0 a
		// fair choice by the word's top bit (P(b) = 1/2).
		d := int64(L[a]) - int64(L[b])
		if d > int64(p.Tolerance) || (d < 0 && d >= -int64(p.Tolerance)) || (d == 0 && w>>63 == 0) {
			return b
		}
		return a
	}
	t.Fatalf("no walk reference for %T", p)
	return 0
}

// walkSampled reports whether p is a process of refWalkChoose under walk
// sampling.
func walkSampled(p Process) bool {
	var s Sampling
	switch p := p.(type) {
	case Graphical:
		s = p.Sample
	case GBounded:
		s = p.Sample
	}
	_, ok := s.Walk()
	return ok
}

// walkCases are the reference cases of walk sampling.
func walkCases(t *testing.T) []struct {
	name string
	n    int
	p    Process
} {
	reg, _, err := graphgen.RandomRegular(500, 6, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	// A path with isolated vertices: walks that stop.
	sparse, _, err := graphgen.FromEdges(12, []uint32{0, 1, 1, 2, 2, 3, 3, 4, 4, 5})
	if err != nil {
		t.Fatal(err)
	}
	return []struct {
		name string
		n    int
		p    Process
	}{
		{"graph/regular/len=0", 500, Graphical{Graph: reg, Sample: SampleWalk(0)}},
		{"graph/regular/len=1", 500, Graphical{Graph: reg, Sample: SampleWalk(1)}},
		{"graph/regular/len=3", 500, Graphical{Graph: reg, Sample: SampleWalk(3)}},
		// Walks longer than the girth: vertices repeat, ties count them once.
		{"graph/regular/len=40", 500, Graphical{Graph: reg, Sample: SampleWalk(40)}},
		{"graph/regular/len=3/left", 500, Graphical{Graph: reg, Sample: SampleWalk(3), Ties: TiesLeft}},
		{"graph/regular/len=3/beta", 500, Graphical{Graph: reg, Sample: SampleWalk(3), OneMinusBeta: 0.5}},
		// Degree 1 (the path's ends, forced back) and isolated starts.
		{"graph/sparse/len=4", 12, Graphical{Graph: sparse, Sample: SampleWalk(4)}},
		{"graph/sparse/len=9/left", 12, Graphical{Graph: sparse, Sample: SampleWalk(9), Ties: TiesLeft}},
		{"graph/complete/len=2", 50, Graphical{Graph: graphgen.Complete(50), Sample: SampleWalk(2)}},
		{"graph/complete/len=7", 5, Graphical{Graph: graphgen.Complete(5), Sample: SampleWalk(7)}},
		{"graph/complete/n=3/len=5", 3, Graphical{Graph: graphgen.Complete(3), Sample: SampleWalk(5)}},
		{"graph/complete/n=2/len=3", 2, Graphical{Graph: graphgen.Complete(2), Sample: SampleWalk(3)}},
		{"graph/complete/n=1/len=3", 1, Graphical{Graph: graphgen.Complete(1), Sample: SampleWalk(3)}},
		{"g-bounded/regular/len=2", 500, GBounded{Tolerance: 1, Graph: reg, Sample: SampleWalk(2)}},
		{"g-bounded/sparse/len=3", 12, GBounded{Tolerance: 0, Graph: sparse, Sample: SampleWalk(3)}},
		{"g-bounded/uniform/len=1", 60, GBounded{Tolerance: 2, Sample: SampleWalk(1)}},
		{"g-bounded/uniform/len=6", 60, GBounded{Tolerance: 1, Sample: SampleWalk(6)}},
	}
}

func TestWalkReference(t *testing.T) {
	for _, tc := range walkCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.p.Check(tc.n); err != nil {
				t.Fatal(err)
			}
			for _, m := range []int64{0, 1, 7, 3 * int64(tc.n)} {
				bins := NewBins(tc.n)
				r := NewRand(42)
				tc.p.Place(bins, m/3, r)
				tc.p.Place(bins, m-m/3, r)
				ref := make([]uint32, tc.n)
				rr := NewRand(42)
				for range m {
					ref[refWalkChoose(t, tc.p, ref, rr)]++
				}
				if !slices.Equal(bins.Loads(), ref) {
					t.Fatalf("m=%d: fast loop and reference differ", m)
				}
			}
		})
	}
}

// TestWalkOneStepIsVertexSampling: a two-sample rule's candidates under
// walk:len=1 are a uniform vertex and a uniform neighbour, drawn as vertex
// sampling draws them on a graph of minimum degree 2, so the loads are
// those of vertex sampling, ball for ball; with len=2 they are not
// (negative control).
// TestWalkBatches: in batches (each ball reading the loads at the start of
// its batch) every walk case matches the reference choosing from a
// snapshot of the loads, and a batch of one ball is the sequential process.
func TestWalkBatches(t *testing.T) {
	for _, tc := range walkCases(t) {
		n := int64(tc.n)
		m := 3*n + 5
		for _, batch := range []int64{1, 7, n + 3} {
			var got []uint32
			c := Config{Process: tc.p, N: tc.n, M: m, Seed: 9, Batch: batch,
				Loads: func(_ int, L []uint32) { got = slices.Clone(L) }}
			if _, err := c.Trial(context.Background(), 1, NewBins(tc.n)); err != nil {
				t.Fatal(err)
			}
			r := TrialRand(9, 1)
			L := make([]uint32, tc.n)
			var snap []uint32
			for k := range m {
				if k%batch == 0 {
					snap = slices.Clone(L)
				}
				L[refWalkChoose(t, tc.p, snap, r)]++
			}
			if !slices.Equal(got, L) {
				t.Errorf("%s, batch %d: loads differ from the snapshot reference", tc.name, batch)
			}
		}
	}
}

func TestWalkOneStepIsVertexSampling(t *testing.T) {
	g, _, err := graphgen.RandomRegular(400, 5, rand.NewPCG(8, 9))
	if err != nil {
		t.Fatal(err)
	}
	loads := func(p Process) []uint32 {
		b := NewBins(400)
		p.Place(b, 2000, NewRand(5))
		return b.Loads()
	}
	for _, p := range []func(Sampling) Process{
		func(s Sampling) Process { return GBounded{Tolerance: 1, Graph: g, Sample: s} },
		func(s Sampling) Process { return GMyopic{Tolerance: 2, Graph: g, Sample: s} },
		func(s Sampling) Process { return Noisy{Sigma: 1.5, Graph: g, Sample: s} },
	} {
		vertex := loads(p(SampleVertex))
		if got := loads(p(SampleWalk(1))); !slices.Equal(got, vertex) {
			t.Errorf("%s: walk:len=1 differs from vertex sampling", p(SampleVertex).Name())
		}
		if got := loads(p(SampleWalk(2))); slices.Equal(got, vertex) {
			t.Errorf("%s: walk:len=2 equals vertex sampling (negative control)", p(SampleVertex).Name())
		}
	}
}

func TestWalkCheck(t *testing.T) {
	big := graphgen.Complete(1<<32 + 1)
	if err := (Graphical{Graph: big, Sample: SampleWalk(2)}).Check(1<<32 + 1); err == nil {
		t.Error("walk sampling on K_n with n > 2^32 accepted")
	}
	circ, err := graphgen.NewCirculant(10, []int{1, 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := (GBounded{Graph: circ, Sample: SampleWalk(2)}).Check(10); err == nil || !strings.Contains(err.Error(), "CSR") {
		t.Errorf("walk sampling on a circulant: %v", err)
	}
}

func TestParseSamplingWalk(t *testing.T) {
	for _, s := range []string{"edge", "vertex", "walk:len=0", "walk:len=17", "walk:len=65536"} {
		got, err := ParseSampling(s)
		if err != nil || got.String() != s {
			t.Errorf("%q: got %v, %v", s, got, err)
		}
	}
	for _, s := range []string{"walk", "walk:len=-1", "walk:len=65537", "walk:len=x"} {
		if _, err := ParseSampling(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}
