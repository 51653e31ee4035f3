package graphgen

import (
	"flag"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"
)

// edgeKeys returns m keys min(u, v)<<32 | max(u, v) of edges {u, v} drawn
// uniformly from the pairs of distinct vertices of [n], n ≥ 2: the keys a
// reader holds for a random multigraph.
func edgeKeys(r *rand.Rand, m, n int) []uint64 {
	k := make([]uint64, m)
	for i := range k {
		u := r.Uint32N(uint32(n))
		v := r.Uint32N(uint32(n - 1))
		if v >= u {
			v++
		}
		k[i] = uint64(min(u, v))<<32 | uint64(max(u, v))
	}
	return k
}

// checkSortDedup sorts a copy of in with sortKeysWorkers and deduplicates
// it with dedupSorted, and returns an error if either differs from
// slices.Sort and slices.Compact on another copy.
func checkSortDedup(in []uint64, workers int, sort func([]uint64, int)) error {
	want := slices.Clone(in)
	slices.Sort(want)
	got := slices.Clone(in)
	sort(got, workers)
	if i := firstDiff(got, want); i >= 0 {
		return fmt.Errorf("sorted keys differ at %d of %d: got %#x, want %#x", i, len(in), got[i], want[i])
	}
	kept := dedupSorted(got)
	want = slices.Compact(want)
	if kept != len(want) {
		return fmt.Errorf("dedupSorted kept %d keys, slices.Compact %d", kept, len(want))
	}
	if i := firstDiff(got[:kept], want); i >= 0 {
		return fmt.Errorf("deduplicated keys differ at %d of %d: got %#x, want %#x", i, kept, got[i], want[i])
	}
	return nil
}

// firstDiff returns the first index where a and b (of equal length)
// differ, or -1.
func firstDiff(a, b []uint64) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

func TestSortKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	random := func(m int) []uint64 {
		k := make([]uint64, m)
		for i := range k {
			k[i] = r.Uint64()
		}
		return k
	}
	ascending := func(m int) []uint64 {
		k := edgeKeys(r, m, 1000)
		slices.Sort(k)
		return k
	}
	descending := func(m int) []uint64 {
		k := ascending(m)
		slices.Reverse(k)
		return k
	}
	same := func(m int) []uint64 {
		k := make([]uint64, m)
		for i := range k {
			k[i] = 0x1234_0000_5678
		}
		return k
	}
	cases := []struct {
		name string
		keys func(m int) []uint64
		// sizes: 0, 1 and around insertionMax, the smallest bucket a pass
		// distributes, and above parallelMin, where the goroutines start.
		sizes []int
	}{
		{"random64", random, []int{0, 1, 2, 3, insertionMax, insertionMax + 1, 1000, parallelMin + 1, 200_000}},
		{"edges/n=5", func(m int) []uint64 { return edgeKeys(r, m, 5) }, []int{2, insertionMax + 1, 1000, 100_000}},
		{"edges/n=300", func(m int) []uint64 { return edgeKeys(r, m, 300) }, []int{insertionMax, insertionMax + 1, 2*insertionMax + 1, 100_000}},
		{"edges/n=2^20", func(m int) []uint64 { return edgeKeys(r, m, 1<<20) }, []int{insertionMax + 1, 5000, 100_000}},
		{"edges/n=2^32-1", func(m int) []uint64 { return edgeKeys(r, m, MaxOrder) }, []int{insertionMax + 1, 100_000}},
		// Keys below 2^8 use one digit, at shift 0; below 2^12 the second
		// digit is at shift 0 and its top 4 bits are already sorted.
		{"below 2^8", func(m int) []uint64 { k := random(m); mask(k, 1<<8-1); return k }, []int{1000, 100_000}},
		{"below 2^12", func(m int) []uint64 { k := random(m); mask(k, 1<<12-1); return k }, []int{1000, 100_000}},
		// One large key: the first digit puts all others in bucket 0.
		{"one large", func(m int) []uint64 { k := edgeKeys(r, m, 1000); k[m/2] = 1 << 63; return k }, []int{1000, 100_000}},
		// Two values 2^8 and 2^9 in random order: the first digit is at
		// shift 2, and each half is one large bucket of equal keys at
		// shift 0, which sortParallel finds sorted.
		{"two values", func(m int) []uint64 {
			k := make([]uint64, m)
			for i := range k {
				k[i] = 1 << (8 + r.IntN(2))
			}
			return k
		}, []int{1000, 100_000}},
		{"ascending", ascending, []int{insertionMax + 1, 100_000}},
		{"descending", descending, []int{insertionMax + 1, 100_000}},
		{"all equal", same, []int{insertionMax + 1, 100_000}},
		{"all zero", func(m int) []uint64 { return make([]uint64, m) }, []int{0, 1, 100_000}},
	}
	for _, c := range cases {
		for _, m := range c.sizes {
			in := c.keys(m)
			for _, workers := range []int{1, 2, 3} {
				t.Run(fmt.Sprintf("%s/m=%d/workers=%d", c.name, m, workers), func(t *testing.T) {
					if err := checkSortDedup(in, workers, sortKeysWorkers); err != nil {
						t.Error(err)
					}
				})
			}
		}
	}
}

// mask sets every key of k to its bits in m.
func mask(k []uint64, m uint64) {
	for i := range k {
		k[i] &= m
	}
}

// TestSortKeysGOMAXPROCS sorts 2^20 edge keys through sortKeys itself
// with GOMAXPROCS 1 and 2: both must give slices.Sort's result.
func TestSortKeysGOMAXPROCS(t *testing.T) {
	in := edgeKeys(rand.New(rand.NewPCG(3, 4)), 1<<20, 1<<20)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		if err := checkSortDedup(in, 0, func(k []uint64, _ int) { sortKeys(k) }); err != nil {
			t.Errorf("GOMAXPROCS %d: %v", procs, err)
		}
	}
}

// TestSortKeysControl is the negative control: a sort that leaves its last
// top-level bucket unsorted must be rejected by checkSortDedup.
func TestSortKeysControl(t *testing.T) {
	// Uniform 64-bit keys put about 39 keys in the last of 256 buckets, in
	// random order.
	r := rand.New(rand.NewPCG(5, 6))
	in := make([]uint64, 10_000)
	for i := range in {
		in[i] = r.Uint64()
	}
	skipLast := func(k []uint64, _ int) {
		sorted, or := scanRange(k)
		if sorted {
			return
		}
		shift := uint(max(0, bits.Len64(or)-8))
		var count [256]int
		for _, x := range k {
			count[byte(x>>shift)]++
		}
		permute(k, shift, &count)
		lo, last := 0, 0
		for b, c := range count {
			if c > 0 {
				last = b
			}
		}
		for b, c := range count {
			if b != last {
				radixSort(k[lo:lo+c], nextShift(shift))
			}
			lo += c
		}
	}
	if err := checkSortDedup(in, 1, skipLast); err == nil {
		t.Error("checkSortDedup accepted a sort that skips the last bucket")
	}
	// The same control with its last bucket sorted is accepted, so the
	// rejection above is the skipped bucket's.
	if err := checkSortDedup(in, 1, func(k []uint64, w int) { skipLast(k, w); slices.Sort(k) }); err != nil {
		t.Errorf("checkSortDedup rejected a correct sort: %v", err)
	}
}

func TestDedupSorted(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []uint64
		want []uint64
	}{
		{"empty", nil, nil},
		{"one", []uint64{7}, []uint64{7}},
		{"all equal", []uint64{3, 3, 3}, []uint64{3}},
		{"runs", []uint64{0, 0, 1, 2, 2, 2, 9}, []uint64{0, 1, 2, 9}},
		{"distinct", []uint64{1, 2, 3}, []uint64{1, 2, 3}},
	} {
		k := slices.Clone(c.in)
		if kept := dedupSorted(k); !slices.Equal(k[:kept], c.want) {
			t.Errorf("%s: dedupSorted(%v) = %v, want %v", c.name, c.in, k[:kept], c.want)
		}
	}
}

// sortKeysM is the number of keys BenchmarkSortKeys sorts; 10^8 keys take
// 0.8 GB twice over (the input and the copy sorted).
var sortKeysM = flag.Int("sortkeys.m", 1e7, "keys sorted by BenchmarkSortKeys")

// BenchmarkSortKeys sorts the keys of m = 10^7 random edges on n = m
// vertices (-sortkeys.m sets m) with sortKeys and with slices.Sort, and
// reports nanoseconds a key.
func BenchmarkSortKeys(b *testing.B) {
	m := *sortKeysM
	in := edgeKeys(rand.New(rand.NewPCG(7, 8)), m, m)
	k := make([]uint64, m)
	for _, s := range []struct {
		name string
		sort func([]uint64)
	}{
		{"sortKeys", sortKeys},
		{"slices.Sort", slices.Sort[[]uint64]},
	} {
		b.Run(fmt.Sprintf("m=%d/%s", m, s.name), func(b *testing.B) {
			var spent time.Duration
			for b.Loop() {
				copy(k, in)
				start := time.Now()
				s.sort(k)
				spent += time.Since(start)
			}
			b.ReportMetric(float64(spent.Nanoseconds())/float64(b.N)/float64(m), "ns/key")
		})
	}
}
