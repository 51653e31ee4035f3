package alloc

import (
	"math"
	"math/big"
	"slices"
	"testing"
)

// refTies holds the tie draws' generator of each trial generator the
// reference has seen: seeded, as the process seeds its own, with
// splitmix64 of the trial generator's state at the trial's first ball. The
// map keeps every key alive, so no address is reused by a later Rand.
var refTies = map[*Rand]*Rand{}

// refQuantile is the plain rule of Quantile(δ) for one ball with loads L,
// written from the definition: sort a copy of the loads, heaviest first;
// the k = ⌊δn⌋ heaviest positions are heavy, and the boundary load q is
// the load at position k−1. (For n > 256, where a sort per ball would cost
// the engine tests seconds, q is the largest load l with at least k bins
// at l or above, counted; for n ≤ 256 both are computed and must agree.) A uniform bin i and a uniform bin j are drawn
// from r, and the tie draw w < c_q (c_q the bins at load q, 1 when k = 0)
// from the trial's tie generator; i is heavy if its load is above q, or at
// q with w < k − a (a the bins above q: the k − a heavy places of the
// boundary load go to the bins at q uniformly at random). A heavy i gives
// the ball to j. It returns the bin and the candidates.
func refQuantile(t *testing.T, p Quantile, L []uint32, r *Rand) (uint64, []uint64) {
	t.Helper()
	n := uint64(len(L))
	kr := new(big.Rat).SetFloat64(p.Delta)
	kr.Mul(kr, new(big.Rat).SetInt64(int64(n)))
	k := new(big.Int).Quo(kr.Num(), kr.Denom()).Uint64() // ⌊δn⌋, exact
	var q uint32
	var a, cq uint64 = 0, 1
	if k > 0 {
		q = refKthHeaviest(L, k)
		if n <= 256 {
			sorted := slices.Clone(L)
			slices.Sort(sorted)
			slices.Reverse(sorted)
			if sorted[k-1] != q {
				t.Fatalf("refQuantile: sorted k-th heaviest %d, counted %d", sorted[k-1], q)
			}
		}
		cq = 0
		for _, l := range L {
			if l > q {
				a++
			}
			if l == q {
				cq++
			}
		}
		if a >= k || a+cq < k {
			t.Fatalf("refQuantile: k=%d a=%d c_q=%d", k, a, cq)
		}
	}
	ties := refTies[r]
	if ties == nil {
		ties = NewRand(splitmix64(r.state))
		refTies[r] = ties
	}
	i := r.Uint64n(n)
	j := r.Uint64n(n)
	w := ties.Uint64n(cq)
	heavy := k > 0 && (L[i] > q || (L[i] == q && w < k-a))
	if heavy {
		return j, []uint64{i, j}
	}
	return i, []uint64{i}
}

// refKthHeaviest returns the load of the k-th heaviest bin of L, k ≥ 1:
// the largest l such that at least k bins hold l balls or more.
func refKthHeaviest(L []uint32, k uint64) uint32 {
	mx := slices.Max(L)
	hist := make([]uint64, mx+1)
	for _, l := range L {
		hist[l]++
	}
	var atLeast uint64
	for l := mx; ; l-- {
		atLeast += hist[l]
		if atLeast >= k {
			return l
		}
	}
}

// TestQuantileHeavy: k = ⌊δn⌋ exactly for the float64 δ, against big.Rat,
// where δn is whole, just below a whole number, and large.
func TestQuantileHeavy(t *testing.T) {
	for _, tc := range []struct {
		delta float64
		n     int
	}{{0.5, 1 << 16}, {0.3, 10}, {0.29, 100}, {0.7, 10}, {1e-9, 1000}, {0.999999, 1 << 40}, {0.1, 7}, {0.5, 1}} {
		kr := new(big.Rat).SetFloat64(tc.delta)
		kr.Mul(kr, new(big.Rat).SetInt64(int64(tc.n)))
		want := new(big.Int).Quo(kr.Num(), kr.Denom()).Uint64()
		if got := (Quantile{Delta: tc.delta}).Heavy(tc.n); got != want {
			t.Errorf("δ=%g n=%d: k=%d, want %d", tc.delta, tc.n, got, want)
		}
	}
}

// TestQuantileProbes: a ball's first bin is heavy with probability exactly
// k/n whatever the loads (exactly k bins are heavy), so Probes − m is
// Binomial(m, k/n): the probes per ball must lie within 6 standard
// deviations, 6·√(p(1−p)/m), of 1 + k/n. The negative control is the
// rule with the boundary level wholly heavy (a first bin at or above the
// δ-quantile load rejects: the plain reading that forgets the split),
// run by a loop in the test at the same n and m: its probes exceed the
// prediction far beyond the tolerance, since at m = 2n about 0.68n bins
// hold the median load or more.
func TestQuantileProbes(t *testing.T) {
	const n, m = 1000, 2000
	for _, delta := range []float64{0.5, 0.25, 0.9} {
		p := Quantile{Delta: delta}
		st := p.Place(NewBins(n), m, NewRand(11))
		pk := float64(p.Heavy(n)) / n
		want, tol := 1+pk, 6*math.Sqrt(pk*(1-pk)/m)
		if per := float64(st.Probes) / m; math.Abs(per-want) > tol {
			t.Errorf("δ=%g: %.4f probes a ball, want %.4f ± %.4f", delta, per, want, tol)
		}
	}
	// The control: reject iff load ≥ q, with the reference's draws.
	p := Quantile{Delta: 0.5}
	L := make([]uint32, n)
	r := NewRand(11)
	var second int64
	for range m {
		sorted := slices.Clone(L)
		slices.Sort(sorted)
		q := sorted[n-n/2] // the load of the (n/2)-th heaviest
		i, j := r.Uint64n(n), r.Uint64n(n)
		if L[i] >= q {
			i = j
			second++
		}
		L[i]++
	}
	want, tol := 1.5, 6*math.Sqrt(0.25/m)
	if per := 1 + float64(second)/m; math.Abs(per-want) <= tol {
		t.Errorf("control (%v with the boundary level all heavy): %.4f probes a ball passed %.4f ± %.4f", p, per, want, tol)
	}
}

// TestQuantileSummary: the summary Place keeps (q, a, the counts of every
// load) equals the one built from the loads after every call, over calls of
// many sizes; and Place rebuilds it after another process changed the
// bins.
func TestQuantileSummary(t *testing.T) {
	for _, delta := range []float64{0.5, 0.01, 0.99} {
		p := Quantile{Delta: delta}
		b := NewBins(300)
		r := NewRand(2)
		for _, m := range []int64{1, 2, 3, 50, 299, 1000, 7} {
			p.Place(b, m, r)
			got, want := b.quant, newQuantState(b.Loads(), p.Heavy(300), 0)
			if got.q != want.q || got.a != want.a || got.base != want.base || got.cut != want.cut || !slices.Equal(got.c, want.c) {
				t.Fatalf("δ=%g: kept summary q=%d a=%d base=%d c=%v, rebuilt q=%d a=%d base=%d c=%v", delta, got.q, got.a, got.base, got.c, want.q, want.a, want.base, want.c)
			}
		}
		OneChoice{}.Place(b, 500, r)
		before := b.quant
		p.Place(b, 10, r)
		if b.quant == before {
			t.Fatalf("δ=%g: summary not rebuilt after one-choice placed balls", delta)
		}
	}
}
