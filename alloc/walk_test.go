package alloc

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/graphalloc/graphalloc/graphgen"
)

// refWalkEnd is the end of one walk of l steps from a uniform vertex of g,
// drawn by the plain definition: a uniform neighbour each step (through
// Neighbors, or on K_n a uniform vertex other than the current one), an
// isolated vertex staying. It checks that each step follows an edge.
func refWalkEnd(t *testing.T, g graphgen.Graph, n, l int, r *Rand) uint64 {
	t.Helper()
	v := r.Uint64n(uint64(n))
	for range l {
		switch g := g.(type) {
		case *graphgen.CSR:
			nb := g.Neighbors(int(v))
			if len(nb) == 0 {
				continue
			}
			w := uint64(nb[r.Uint64n(uint64(len(nb)))])
			if !g.HasEdge(int(v), int(w)) {
				t.Fatalf("walk step %d-%d is not an edge", v, w)
			}
			v = w
		default: // nil or K_n
			if n == 1 {
				continue
			}
			others := make([]uint64, 0, n-1)
			for x := range uint64(n) {
				if x != v {
					others = append(others, x)
				}
			}
			v = others[r.Uint64n(uint64(n-1))]
		}
	}
	return v
}

// refWalkPlace places m balls of p, a graph process or a two-sample rule
// with walk sampling, by the plain definition.
func refWalkPlace(t *testing.T, p Process, L []uint32, m int64, r *Rand) {
	t.Helper()
	n := len(L)
	for range m {
		switch p := p.(type) {
		case Graphical:
			l, _ := p.Sample.Walk()
			lazy := p.OneMinusBeta > 0
			one := lazy && r.Uint64() < uint64(p.OneMinusBeta*(1<<63))*2
			a := refWalkEnd(t, p.G, n, l, r)
			b := refWalkEnd(t, p.G, n, l, r)
			c := a
			switch {
			case one:
				if r.Coin() {
					c = b
				}
			case L[b] < L[a]:
				c = b
			}
			L[c]++
		case GBounded:
			l, _ := p.Sample.Walk()
			a := refWalkEnd(t, p.Graph, n, l, r)
			b := refWalkEnd(t, p.Graph, n, l, r)
			w := r.Uint64()
			// g-bounded: outside g the lesser; inside, the heavier; at 0 a
			// fair choice by the word's top bit (P(b) = 1/2).
			d := int64(L[a]) - int64(L[b])
			toB := d > int64(p.G) || (d < 0 && d >= -int64(p.G)) || (d == 0 && w>>63 == 0)
			if toB {
				a = b
			}
			L[a]++
		}
	}
}

func TestWalkReference(t *testing.T) {
	reg, _, err := graphgen.RandomRegular(500, 6, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	// A path with isolated vertices: walks that stop.
	sparse, _, err := graphgen.FromEdges(12, []uint32{0, 1, 1, 2, 2, 3, 3, 4, 4, 5})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		n    int
		p    Process
	}{
		{"graph/regular/len=0", 500, Graphical{G: reg, Sample: SampleWalk(0)}},
		{"graph/regular/len=3", 500, Graphical{G: reg, Sample: SampleWalk(3)}},
		{"graph/regular/len=3/beta", 500, Graphical{G: reg, Sample: SampleWalk(3), OneMinusBeta: 0.5}},
		{"graph/sparse/len=4", 12, Graphical{G: sparse, Sample: SampleWalk(4)}},
		{"graph/complete/len=2", 50, Graphical{G: graphgen.Complete(50), Sample: SampleWalk(2)}},
		{"g-bounded/regular/len=2", 500, GBounded{G: 1, Graph: reg, Sample: SampleWalk(2)}},
		{"g-bounded/uniform/len=1", 60, GBounded{G: 2, Sample: SampleWalk(1)}},
	}
	for _, tc := range cases {
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
				refWalkPlace(t, tc.p, ref, m, NewRand(42))
				if !slices.Equal(bins.Loads(), ref) {
					t.Fatalf("m=%d: fast loop and reference differ", m)
				}
			}
		})
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
