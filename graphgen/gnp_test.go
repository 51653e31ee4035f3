package graphgen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestGnpEdgeCount: the number of edges is Binomial(N, p), N = n(n−1)/2;
// each case must land within 5 standard deviations of Np (a miss has
// probability below 6e-7 per case), and the graph must be simple.
func TestGnpEdgeCount(t *testing.T) {
	tests := []struct {
		name string
		n    int
		p    float64
	}{
		{"n=1000/p=0.01", 1000, 0.01},
		{"n=2000/p=0.5", 2000, 0.5},
		{"n=100/p=0.99", 100, 0.99},
		{"n=1e5/degree=16", 100_000, 16.0 / (100_000 - 1)},
		{"n=1e5/degree=0.5", 100_000, 0.5 / (100_000 - 1)}, // many isolated vertices, skips across rows
		{"n=3/p=0.5", 3, 0.5},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.n*int(float64(tc.n)*tc.p+1) > 1e6 {
				t.Skip("large under -short")
			}
			g, err := Gnp(tc.n, tc.p, rand.NewPCG(uint64(i), 7))
			if err != nil {
				t.Fatal(err)
			}
			checkSimpleCSR(t, g)
			N := float64(tc.n) * float64(tc.n-1) / 2
			mean, sd := N*tc.p, math.Sqrt(N*tc.p*(1-tc.p))
			if got := float64(g.Size()); math.Abs(got-mean) > 5*sd+1e-9 {
				t.Errorf("%d edges, want %.1f ± 5·%.1f", g.Size(), mean, sd)
			}
		})
	}
}

// TestGnpExact covers the degenerate cases, which are exact.
func TestGnpExact(t *testing.T) {
	tests := []struct {
		n     int
		p     float64
		edges int64
	}{
		{0, 0.5, 0}, {1, 0.5, 0}, {2, 1, 1}, {10, 0, 0}, {50, 1, 50 * 49 / 2},
	}
	for _, tc := range tests {
		g, err := Gnp(tc.n, tc.p, rand.NewPCG(1, 2))
		if err != nil {
			t.Fatalf("n=%d p=%g: %v", tc.n, tc.p, err)
		}
		checkSimpleCSR(t, g)
		if g.Order() != tc.n || g.Size() != tc.edges {
			t.Errorf("n=%d p=%g: order %d size %d, want %d edges", tc.n, tc.p, g.Order(), g.Size(), tc.edges)
		}
	}
}

// TestGnpPairs: every pair is an edge independently with probability p, so
// over S samples the count of each of the N pairs of K_n is Binomial(S, p),
// independent across pairs; Σ (c − Sp)² / (Sp(1−p)) is then close to χ²
// with N degrees of freedom. A skip that mishandles the end of a row shows
// up as pairs drawn too often or never. n = 9 has rows of every length 1..8.
func TestGnpPairs(t *testing.T) {
	const n = 9
	S := 4000
	if testing.Short() {
		S = 1000
	}
	for _, p := range []float64{0.05, 0.3, 0.8} {
		t.Run(fmt.Sprintf("p=%g", p), func(t *testing.T) {
			src := rand.NewPCG(11, uint64(p*100))
			counts := make([]float64, n*n)
			for range S {
				g, err := Gnp(n, p, src)
				if err != nil {
					t.Fatal(err)
				}
				e := g.EdgeList()
				for k := 0; k < len(e); k += 2 {
					counts[int(e[k])*n+int(e[k+1])]++
				}
			}
			chi2, N := 0.0, 0
			for u := range n {
				for v := u + 1; v < n; v++ {
					d := counts[u*n+v] - float64(S)*p
					chi2 += d * d / (float64(S) * p * (1 - p))
					N++
				}
			}
			crit := distuv.ChiSquared{K: float64(N)}.Quantile(1 - regularAlpha)
			if chi2 > crit {
				t.Errorf("χ² = %.1f on %d pairs over %d samples, above %.1f (level %g)", chi2, N, S, crit, regularAlpha)
			}
		})
	}
}

func TestGnpDeterministic(t *testing.T) {
	a, _ := Gnp(5000, 0.002, rand.NewPCG(3, 4))
	b, _ := Gnp(5000, 0.002, rand.NewPCG(3, 4))
	if !slices.Equal(a.EdgeList(), b.EdgeList()) {
		t.Error("same seed, different graphs")
	}
}

func TestGnpErrors(t *testing.T) {
	src := rand.NewPCG(1, 2)
	tests := []struct {
		name string
		n    int
		p    float64
		src  rand.Source
	}{
		{"n<0", -1, 0.5, src},
		{"p<0", 10, -0.1, src},
		{"p>1", 10, 1.5, src},
		{"p NaN", 10, math.NaN(), src},
		{"nil source", 10, 0.5, nil},
		{"too many edges", MaxOrder, 0.5, src},
	}
	for _, tc := range tests {
		if _, err := Gnp(tc.n, tc.p, tc.src); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
	if p, err := GnpDegreeP(101, 16); err != nil || p != 0.16 {
		t.Errorf("GnpDegreeP(101, 16) = %g, %v", p, err)
	}
	for _, d := range []float64{-1, 101, math.NaN()} {
		if _, err := GnpDegreeP(101, d); err == nil {
			t.Errorf("GnpDegreeP(101, %g) accepted", d)
		}
	}
}

// BenchmarkGnp: n = 10^6, mean degree 16 (8·10^6 edges).
func BenchmarkGnp(b *testing.B) {
	const n = 1_000_000
	p := 16.0 / (n - 1)
	b.Run("n=1e6/degree=16", func(b *testing.B) {
		src := rand.NewPCG(1, 2)
		var edges int64
		for b.Loop() {
			g, err := Gnp(n, p, src)
			if err != nil {
				b.Fatal(err)
			}
			edges += g.Size()
		}
		b.ReportMetric(float64(edges)/b.Elapsed().Seconds(), "edges/s")
	})
}

// TestFillFromWidths checks that fillRows's loop writes the same rows with
// eight-byte cursors (the path for 2^32 row entries or more, too large to
// build here) as with four-byte ones.
func TestFillFromWidths(t *testing.T) {
	g, err := Gnp(500, 0.02, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	off := make([]int, 501)
	for v := range 500 {
		off[v+1] = off[v] + g.Degree(v)
	}
	a, b := make([]uint32, off[500]), make([]uint32, off[500])
	c32 := make([]uint32, 500)
	for v := range c32 {
		c32[v] = uint32(off[v])
	}
	fillFrom(c32, a, g.edges)
	fillFrom(slices.Clone(off[:500]), b, g.edges)
	if !slices.Equal(a, b) || !slices.Equal(a, g.adj) {
		t.Error("the rows differ between the cursor widths, or from Gnp's")
	}
}
