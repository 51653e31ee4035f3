package alloc

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/graphalloc/graphalloc/graphgen"
)

// TestCirculantCheck: Check accepts a circulant with edges and rejects one
// of degree 0 or of the wrong order.
func TestCirculantCheck(t *testing.T) {
	g, err := graphgen.RandomCirculant(100, 4, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	if err := (Graphical{Graph: g}).Check(100); err != nil {
		t.Errorf("circulant rejected: %v", err)
	}
	if err := (Graphical{Graph: g}).Check(99); err == nil {
		t.Error("order mismatch accepted")
	}
	empty, _ := graphgen.RandomCirculant(100, 0, nil)
	if err := (Graphical{Graph: empty}).Check(100); err == nil {
		t.Error("circulant without edges accepted")
	}
}

// exactEdgeLaw returns the exact law of the load vector after m balls of
// the graphical process with edge sampling on the graph with edge list e
// (pairs) on n vertices: each ball takes a uniform edge, the lesser loaded
// end wins, ties go to either end with probability 1/2 (or to the smaller
// id if left). It enumerates the load vectors, so n and m must be tiny.
func exactEdgeLaw(n, m int, e [][2]int, left bool) map[string]float64 {
	law := map[string]float64{fmt.Sprint(make([]uint32, n)): 1}
	vec := map[string][]uint32{fmt.Sprint(make([]uint32, n)): make([]uint32, n)}
	pe := 1 / float64(len(e))
	for range m {
		next := map[string]float64{}
		nvec := map[string][]uint32{}
		add := func(L []uint32, c int, p float64) {
			L2 := append([]uint32(nil), L...)
			L2[c]++
			k := fmt.Sprint(L2)
			next[k] += p
			nvec[k] = L2
		}
		for k, p := range law {
			L := vec[k]
			for _, uv := range e {
				u, v := uv[0], uv[1]
				switch {
				case L[u] < L[v]:
					add(L, u, p*pe)
				case L[v] < L[u]:
					add(L, v, p*pe)
				case left:
					add(L, min(u, v), p*pe)
				default:
					add(L, u, p*pe/2)
					add(L, v, p*pe/2)
				}
			}
		}
		law, vec = next, nvec
	}
	return law
}

// TestCirculantLaw compares the load vector after a few balls on a small
// circulant with its exact law (uniform edge, fair or left ties), by χ²
// with cells of expected count below 5 pooled. The circulant on Z_8 with
// S = {±1, ±3, 4} has the self-inverse offset 4, the case where an edge
// arises from both of its ends with the same offset.
func TestCirculantLaw(t *testing.T) {
	const n, m = 8, 3
	trials := 40000
	if testing.Short() {
		trials = 10000
	}
	g, err := graphgen.NewCirculant(n, []int{1, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	var e [][2]int
	for u := range n {
		g.Visit(u, func(w int, _ int64) bool {
			if u < w {
				e = append(e, [2]int{u, w})
			}
			return false
		})
	}
	for _, tc := range []struct {
		name string
		p    Graphical
		left bool
	}{
		{"random", Graphical{Graph: g}, false},
		{"left", Graphical{Graph: g, Ties: TiesLeft}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			law := exactEdgeLaw(n, m, e, tc.left)
			seen := map[string]float64{}
			for i := range trials {
				b := NewBins(n)
				tc.p.Place(b, m, NewRand(DeriveSeed(7, StreamTrial, uint64(i))))
				k := fmt.Sprint(b.Loads())
				if law[k] == 0 {
					t.Fatalf("load vector %s is impossible", k)
				}
				seen[k]++
			}
			chi2, cells := 0.0, 0
			var pooledE, pooledO float64
			for k, p := range law {
				exp := p * float64(trials)
				if exp < 5 {
					pooledE += exp
					pooledO += seen[k]
					continue
				}
				chi2 += (seen[k] - exp) * (seen[k] - exp) / exp
				cells++
			}
			if pooledE > 0 {
				chi2 += (pooledO - pooledE) * (pooledO - pooledE) / pooledE
				cells++
			}
			// Significance 1e-4, as in graphgen's statistical tests.
			crit := distuv.ChiSquared{K: float64(cells - 1)}.Quantile(1 - 1e-4)
			if chi2 > crit {
				t.Errorf("χ² = %.1f on %d cells over %d trials, above %.1f", chi2, cells, trials, crit)
			}
		})
	}
}

// BenchmarkCirculant: the implicit circulant beside the explicit random
// regular graph of the same degree (BenchmarkPlace), m = n.
func BenchmarkCirculant(b *testing.B) {
	for _, lg := range []int{12, 20} {
		n := 1 << lg
		g, err := graphgen.RandomCirculant(n, 16, rand.NewPCG(1, 1))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("graph/circulant16/n=2^%d", lg), func(b *testing.B) {
			bins := NewBins(n)
			r := NewRand(1)
			var balls int64
			p := Graphical{Graph: g}
			for b.Loop() {
				bins.Reset()
				p.Place(bins, int64(n), r)
				balls += int64(n)
			}
			b.ReportMetric(float64(balls)/b.Elapsed().Seconds(), "balls/s")
		})
	}
}
