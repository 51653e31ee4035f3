package alloc

import (
	"cmp"
	"context"
	"math"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// refRank is the plain reference of Rank[d]: per ball it draws R as the
// fast loop does (the largest of d uniform ranks for a whole d, else
// ⌈n·U^{1/d}⌉ by math.Pow), checks that position R−1 of order holds a bin of
// rank R (as many bins heavier as positions before it allow), applies the
// same swap rule with the block start counted by a scan, and adds the ball.
// With rebuild set, order is rebuilt before every ball by sorting the bins
// by load, heaviest first, ties by index: the rule of Rank.Place.
func refRank(t *testing.T, d float64, whole bool, L []uint32, order []uint32, m int64, rebuild bool, r *Rand) {
	t.Helper()
	n := uint64(len(L))
	for k := int64(0); k < m; k++ {
		if rebuild {
			for i := range order {
				order[i] = uint32(i)
			}
			slices.SortStableFunc(order, func(a, b uint32) int { return cmp.Compare(L[b], L[a]) })
		}
		var p uint64
		if whole {
			p = r.Uint64n(n)
			for j := 1; j < int(d); j++ {
				p = max(p, r.Uint64n(n))
			}
		} else {
			u := float64(r.Uint64()>>11+1) * 0x1p-53
			R := math.Ceil(float64(n) * math.Pow(u, 1/d))
			p = uint64(min(max(R, 1), float64(n))) - 1
		}
		c := order[p]
		l := L[c]
		heavier, atLeast := uint64(0), uint64(0)
		for _, x := range L {
			if x > l {
				heavier++
			}
			if x >= l {
				atLeast++
			}
		}
		if p < heavier || p >= atLeast {
			t.Fatalf("ball %d: position %d holds a bin of load %d, which has rank in (%d, %d]", k, p, l, heavier, atLeast)
		}
		order[p], order[heavier] = order[heavier], c
		L[c]++
	}
}

func TestRankCheck(t *testing.T) {
	for _, d := range []float64{0, 0.5, math.NaN(), math.Inf(1), maxChoices + 1} {
		if (Rank{D: d}).Check(10) == nil {
			t.Errorf("d=%g accepted", d)
		}
	}
	if err := (Rank{D: 1.5}).Check(10); err != nil {
		t.Error(err)
	}
}

// TestRankContract: the structure kept across batches of any size places
// every ball where the reference does (the contract: the ball lands in a bin
// of rank R, by a second implementation of the rule), the whole and real
// draws alike; Place, which rebuilds the structure, matches the reference
// that rebuilds before every ball; balls are conserved.
func TestRankContract(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		d     float64
		whole bool
	}{
		{"d=1", 500, 1, true},
		{"d=2", 500, 2, true},
		{"d=3", 97, 3, true},
		{"d=2/real-path", 500, 2, false},
		{"d=1.5", 500, 1.5, false},
		{"d=2.7", 501, 2.7, false},
		{"n=1", 1, 1.5, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := int64(5 * tc.n)
			ref := make([]uint32, tc.n)
			refRank(t, tc.d, tc.whole, ref, identity(tc.n), m, false, NewRand(9))
			L := make([]uint32, tc.n)
			st := &rankState{order: identity(tc.n), hi: []int{0}}
			r := NewRand(9)
			for placed, k := int64(0), int64(1); placed < m; k = k*2 + 1 {
				k = min(k, m-placed)
				st.place(L, k, tc.d, tc.whole, r)
				placed += k
			}
			if !slices.Equal(L, ref) {
				t.Fatal("batched structure and reference differ")
			}
			checkRankState(t, st, L)

			// Place: one ball a call, the structure rebuilt each time.
			b := NewBins(tc.n)
			r = NewRand(10)
			p := Rank{D: tc.d}
			if tc.whole != (tc.d == math.Trunc(tc.d)) {
				return // Place picks the path from d
			}
			for range 2 * tc.n {
				p.Place(b, 1, r)
			}
			ref = make([]uint32, tc.n)
			refRank(t, tc.d, tc.whole, ref, identity(tc.n), int64(2*tc.n), true, NewRand(10))
			if !slices.Equal(b.Loads(), ref) {
				t.Fatal("Place and the rebuilding reference differ")
			}
			if _, err := b.Counts(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// checkRankState checks the invariants of the sorted structure.
func checkRankState(t *testing.T, st *rankState, L []uint32) {
	t.Helper()
	seen := make([]bool, len(L))
	for p, c := range st.order {
		if seen[c] {
			t.Fatalf("bin %d twice in order", c)
		}
		seen[c] = true
		if p > 0 && L[st.order[p-1]] < L[c] {
			t.Fatalf("order not sorted at %d", p)
		}
	}
	if mn := slices.Min(L); st.lo != int(mn) {
		t.Fatalf("lo = %d, least load %d", st.lo, mn)
	}
	for l, h := range st.hi {
		var heavier int
		for _, x := range L {
			if x > uint32(l) {
				heavier++
			}
		}
		if h != heavier {
			t.Fatalf("hi[%d] = %d, but %d bins are heavier", l, h, heavier)
		}
	}
}

// TestRankRunTrial: RunTrial keeps the structure through the trial, so the
// --every interval (which splits the trial into batches) changes nothing but
// the series, and the result equals the structure's own run.
func TestRankRunTrial(t *testing.T) {
	const n, m = 300, 3000
	for _, d := range []float64{2, 1.7} {
		c := Config{Process: Rank{D: d}, N: n, M: m, Seed: 4}
		a, err := Rank{D: d}.RunTrial(context.Background(), c, 3)
		if err != nil {
			t.Fatal(err)
		}
		c.Every = 7
		b, err := Rank{D: d}.RunTrial(context.Background(), c, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Series) != (m+6)/7 {
			t.Errorf("series of %d points", len(b.Series))
		}
		b.Series = nil
		if !reflect.DeepEqual(a, b) {
			t.Errorf("d=%g: --every changed the result", d)
		}
		L := make([]uint32, n)
		st := &rankState{order: identity(n), hi: []int{0}}
		st.place(L, m, d, d == 2, TrialRand(4, 3))
		var want []int64
		for _, l := range L {
			for int(l) >= len(want) {
				want = append(want, 0)
			}
			want[l]++
		}
		if !slices.Equal(a.LoadCounts, want) || a.Probes != m {
			t.Errorf("d=%g: RunTrial gives %v, the structure %v", d, a.LoadCounts, want)
		}
	}
}

// TestRankLaw measures the law of the rank directly: balls are placed one
// at a time and the position the chosen bin held in the sorted order (its
// rank R, heaviest first; the order is checked sorted) is recorded. Over B
// buckets of n/B ranks, bucket j has probability ((j+1)/B)^d − (j/B)^d
// exactly; Pearson's chi-squared with B − 1 degrees of freedom must stay
// below its 1 − 1e-6 quantile. The negative controls (the same ranks against
// the law of d ± 0.1) must exceed it.
func TestRankLaw(t *testing.T) {
	const n, B = 1000, 20
	N := 200000 // balls; the smallest expected bucket count is N·(1/B)^2.7 = 60
	if testing.Short() {
		N = 50000
	}
	crit := distuv.ChiSquared{K: B - 1}.Quantile(1 - 1e-6)
	for _, d := range []float64{1.5, 2.7, 3} {
		whole := d == math.Trunc(d)
		L := make([]uint32, n)
		st := &rankState{order: identity(n), hi: []int{0}}
		r := NewRand(uint64(1000 * d))
		counts := make([]float64, B)
		before := make([]uint32, n)
		hiBefore := make([]int, 0, 64)
		for k := range N {
			copy(before, st.order)
			hiBefore = append(hiBefore[:0], st.hi...)
			st.place(L, 1, d, whole, r)
			// The block that grew is the level l of the bin hit; that
			// bin now sits at the old start of its block.
			l := -1
			for i := range hiBefore {
				if st.hi[i] != hiBefore[i] {
					l = i
				}
			}
			if l < 0 {
				t.Fatal("no block start moved")
			}
			c := st.order[hiBefore[l]]
			p := slices.Index(before, c)
			if L[c] != uint32(l+1) || p < hiBefore[l] || (l > 0 && p >= hiBefore[l-1]) || (l == 0 && p >= n) {
				t.Fatalf("ball %d: bin %d at position %d is not of load %d", k, c, p, l)
			}
			counts[p*B/n]++
			if k%10007 == 0 {
				checkRankState(t, st, L)
			}
		}
		chi := func(dd float64) (x float64) {
			for j := range B {
				e := float64(N) * (math.Pow(float64(j+1)/B, dd) - math.Pow(float64(j)/B, dd))
				x += (counts[j] - e) * (counts[j] - e) / e
			}
			return x
		}
		got := chi(d)
		t.Logf("d=%g: chi2 = %.1f (critical %.1f); vs d-0.1: %.0f, vs d+0.1: %.0f", d, got, crit, chi(d-0.1), chi(d+0.1))
		if got > crit {
			t.Errorf("d=%g: rank law rejected, chi2 = %.1f > %.1f", d, got, crit)
		}
		if chi(d-0.1) <= crit || chi(d+0.1) <= crit {
			t.Errorf("d=%g: the law of d ± 0.1 was not rejected", d)
		}
	}
}

// TestRank2VsGreedy: Rank[2] is Greedy[2] with fixed-order ties, so at
// n = m = 2^16 its tails must match Greedy[2]'s fluid limit (tolerance as in
// maxof_test.go), by both ways of drawing the rank; Rank[2.3] must not
// (negative control).
func TestRank2VsGreedy(t *testing.T) {
	const n = 1 << 16
	T := fluidTrials2p16()
	want := fluidTails(t, MeanField{Family: FamilyGreedy, D: 2}, 1)
	lv := levelsUpTo(3) // s_3 = 0.0089; s_4 = 6e-6 is below what 2^16 bins resolve
	for _, tc := range []struct {
		name   string
		d      float64
		whole  bool
		reject bool
	}{
		{"whole", 2, true, false},
		{"real-path", 2, false, false},
		{"d=2.3", 2.3, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f [][]float64
			for i := range T {
				L := make([]uint32, n)
				st := &rankState{order: identity(n), hi: []int{0}}
				st.place(L, n, tc.d, tc.whole, TrialRand(53, i))
				counts := make([]int64, 8)
				for _, l := range L {
					counts[l]++
				}
				f = append(f, tailsFromCounts(counts, n, 4))
			}
			dev, at := deviation(f, want, lv, n)
			switch {
			case !tc.reject && dev > 1:
				t.Errorf("level %d off Greedy[2]'s fluid limit by %.2f tolerances", at, dev)
			case tc.reject && dev <= 1:
				t.Errorf("a wrong prediction passed (worst %.2f tolerances)", dev)
			}
			t.Logf("worst level %d at %.2f tolerances", at, dev)
		})
	}
}
