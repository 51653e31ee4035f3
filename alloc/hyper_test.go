package alloc

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/graphalloc/graphalloc/graphgen"
)

// completeUniform returns the complete s-uniform hypergraph on n
// vertices: every s-subset of [n] once, C(n, s) hyperedges.
func completeUniform(t testing.TB, n, s int) *graphgen.Hypergraph {
	t.Helper()
	var verts []uint32
	var rec func(start int, cur []uint32)
	rec = func(start int, cur []uint32) {
		if len(cur) == s {
			verts = append(verts, cur...)
			return
		}
		for v := start; v < n; v++ {
			rec(v+1, append(cur, uint32(v)))
		}
	}
	rec(0, nil)
	off := make([]int, len(verts)/s+1)
	for e := range off {
		off[e] = e * s
	}
	h, err := graphgen.FromHyperedges(n, off, verts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// greedyDistinct is an independent simulator of Greedy[s] without
// replacement on n bins: s distinct uniform bins by rejection, the least
// loaded with uniform ties. It returns the maximum load after m balls.
func greedyDistinct(n, s int, m int64, r *Rand) uint32 {
	L := make([]uint32, n)
	cand := make([]int, 0, s)
	for range m {
		cand = cand[:0]
		for len(cand) < s {
			x := int(r.Uint64n(uint64(n)))
			dup := false
			for _, y := range cand {
				dup = dup || y == x
			}
			if !dup {
				cand = append(cand, x)
			}
		}
		best, tied := cand[0], 1
		for _, x := range cand[1:] {
			switch {
			case L[x] < L[best]:
				best, tied = x, 1
			case L[x] == L[best]:
				tied++
				if r.Uint64n(uint64(tied)) == 0 {
					best = x
				}
			}
		}
		L[best]++
	}
	return slices.Max(L)
}

// TestHyperIsGreedyWithoutReplacement: on the complete s-uniform
// hypergraph a uniform hyperedge is s distinct uniform bins, so Hyper
// is Greedy[s] without replacement and the law of its maximum load is
// that of the independent simulator above. With n = 12, s = 3, m = 24
// the maximum load is 2, 3 or 4 (almost never more); the two samples of
// T trials each are compared by the chi-squared statistic of the 2×K
// table, which with K−1 = 2 degrees of freedom exceeds 13.8 with
// probability 0.001 under the null (a fixed seed makes the test
// deterministic). The negative control, Greedy[2] without replacement
// (the graph process on K_n) against the same Hyper sample, must be
// rejected: its maximum load is about one more.
func TestHyperIsGreedyWithoutReplacement(t *testing.T) {
	const n, s, m = 12, 3, 24
	T := 20000
	if testing.Short() {
		T = 5000
	}
	h := completeUniform(t, n, s)
	hist := func(sample func(i int) uint32) []float64 {
		c := make([]float64, 8)
		for i := range T {
			c[min(int(sample(i)), 7)]++
		}
		return c
	}
	hyper := hist(func(i int) uint32 {
		b := NewBins(n)
		Hyper{H: h}.Place(b, m, TrialRand(1, i))
		mx, _ := b.MaxMin()
		return mx
	})
	same := hist(func(i int) uint32 { return greedyDistinct(n, s, m, TrialRand(2, i)) })
	other := hist(func(i int) uint32 { return greedyDistinct(n, 2, m, TrialRand(3, i)) })
	chi2 := func(a, b []float64) (float64, int) {
		var x float64
		df := -1
		for j := range a {
			tot := a[j] + b[j]
			if tot < 10 { // too few to count: pooled into no cell
				continue
			}
			df++
			ea, eb := tot/2, tot/2 // equal sample sizes
			x += (a[j]-ea)*(a[j]-ea)/ea + (b[j]-eb)*(b[j]-eb)/eb
		}
		return x, df
	}
	// The 0.001 points of chi-squared with 1..4 degrees of freedom.
	crit := []float64{0, 10.83, 13.82, 16.27, 18.47}
	x, df := chi2(hyper, same)
	if df < 1 || df > 4 || x > crit[df] {
		t.Fatalf("hyper on the complete 3-uniform hypergraph vs Greedy[3] without replacement: chi2 = %.1f with %d df (hist %v vs %v)", x, df, hyper, same)
	}
	x, df = chi2(hyper, other)
	if df >= 1 && df <= 4 && x <= crit[df] {
		t.Fatalf("negative control: Greedy[2] not told apart from hyper[3]: chi2 = %.1f with %d df", x, df)
	}
	// Probes: s per ball.
	b := NewBins(n)
	if st := (Hyper{H: h}).Place(b, m, NewRand(1)); st.Probes != s*m || st.MaxProbes != s {
		t.Fatalf("stats %+v", st)
	}
}

// TestHyperGodfreyRegime: with hyperedges of size ln n or more on a
// balanced random hypergraph, the maximum load at m = n stays a small
// constant [God08]: at n = 2^14, s = 16 > ln n = 9.7, k = n hyperedges
// (degrees Binomial(n, 16/n), mean 16), it is at most 2 in every trial.
// The control, s = 1 (one-choice on the k singletons, which name only
// about 1 − 1/e of the vertices), reaches 5 or more: one-choice alone
// has max load about ln n / ln ln n ≈ 4.3 plus lower-order terms.
func TestHyperGodfreyRegime(t *testing.T) {
	const n = 1 << 14
	for _, tc := range []struct {
		s      int
		lo, hi uint32
	}{{16, 1, 2}, {1, 5, math.MaxUint32}} {
		h, err := graphgen.RandomUniformHypergraph(n, tc.s, n, NewRand(9))
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			b := NewBins(n)
			Hyper{H: h}.Place(b, n, TrialRand(4, i))
			if mx, _ := b.MaxMin(); mx < tc.lo || mx > tc.hi {
				t.Fatalf("s=%d trial %d: max load %d outside [%d, %d]", tc.s, i, mx, tc.lo, tc.hi)
			}
		}
	}
}

// BenchmarkHyper: the hypergraph process at m = n = 2^20 on a random
// s-uniform hypergraph with n hyperedges (4·n·s bytes of vertices: 128 KiB
// of them per 2^15 hyperedges of rank 2, 64 MiB at rank 16), beside the
// graph process on a 2-uniform one's worth of edges. BENCHMARKS.md has the
// figures.
func BenchmarkHyper(b *testing.B) {
	const lg = 20
	n := 1 << lg
	for _, s := range []int{2, 4, 16} {
		b.Run(fmt.Sprintf("n=2^%d/rank=%d", lg, s), func(b *testing.B) {
			h, err := graphgen.RandomUniformHypergraph(n, s, n, NewRand(1))
			if err != nil {
				b.Fatal(err)
			}
			p := Hyper{H: h}
			bins := NewBins(n)
			r := NewRand(1)
			benchBalls(b, int64(n), func() {
				bins.Reset()
				p.Place(bins, int64(n), r)
			})
		})
	}
}
