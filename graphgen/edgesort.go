package graphgen

import (
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Sorting edge keys in place.
//
// A graph file of 10^9 edges is read into one array of uint64 keys,
// min(u, v)<<32 | max(u, v) for each edge {u, v} (self-loops are never
// stored), 8 GB of the 12 GiB budget: there is no room for a second array
// of that size, so the keys are sorted and deduplicated where they lie.
// slices.Sort is in place too, but pdqsort compares its way through
// log2(10^9) ≈ 30 levels; a radix sort over the bits the keys actually use
// needs 3 or 4 passes before its buckets are small.

// insertionMax is the bucket size up to which radixSort finishes a bucket
// with insertion sort instead of one more distribution pass. Medians of 3
// runs at 10^7 random edge keys, one core, on a busy 2-core machine: 32 keys
// 27.3 ns a key, 64 keys 27.0, 128 keys 26.4, 256 keys 29.5.
const insertionMax = 128

// parallelMin is the number of keys below which sortKeys uses one
// goroutine: below it starting goroutines costs more than it saves.
const parallelMin = 1 << 16

// sortKeys sorts k ascending, in place.
//
// It is an in-place most-significant-digit radix sort with 8-bit digits
// (American flag sort: McIlroy, Bostic and McIlroy, "Engineering radix
// sort", Computing Systems 6, 1993). One pass checks whether k is already
// sorted, and returns if so, and finds the highest bit set in any key; the
// first digit ends at that bit, so a graph on n < 2^32 vertices skips the
// empty high bits of its keys. Each pass counts the digits of a bucket and
// then swaps every key into its sub-bucket (see permute); buckets of at
// most insertionMax keys are finished by insertion sort, and a digit that
// all keys of a bucket share costs only its count. The time is O(|k|) a
// pass: random edge keys of a graph on n vertices need about
// log_256(|k|) + 1 passes, 3 at |k| = n = 10^7 where it is 3.4 times
// faster than slices.Sort on one core (BenchmarkSortKeys). Besides k it
// uses three 256-entry tables for each of at most 8 levels of recursion, on
// each goroutine's stack: this is what lets a 10^9-edge file be read into
// one array of 8 GB and sorted where it lies.
//
// After the first distribution pass the buckets are independent: they are
// sorted by up to runtime.GOMAXPROCS(0) goroutines, largest first, and a
// bucket holding more than half a goroutine's share of the keys is split
// once more before that. The sorted check and the first digit count run on
// all goroutines too; the first swap pass runs on one. The result does not
// depend on the number of goroutines: it is the sorted k.
func sortKeys(k []uint64) {
	sortKeysWorkers(k, runtime.GOMAXPROCS(0))
}

// sortKeysWorkers is sortKeys with at most workers goroutines.
func sortKeysWorkers(k []uint64, workers int) {
	if len(k) < parallelMin {
		workers = 1
	}
	workers = max(workers, 1)
	sorted, or := scanKeys(k, workers)
	if sorted {
		return
	}
	top := bits.Len64(or) // or != 0: a key above 0 is out of order
	shift := uint(max(top-8, 0))
	if workers == 1 {
		radixSort(k, shift)
		return
	}
	sortParallel(k, shift, workers)
}

// scanKeys reports whether k is sorted ascending, and a value whose highest
// set bit is the highest set in any key of k (their OR, or the largest key
// of a sorted k), in one pass split over workers goroutines.
func scanKeys(k []uint64, workers int) (sorted bool, or uint64) {
	if workers == 1 {
		return scanRange(k)
	}
	type part struct {
		sorted bool
		or     uint64
	}
	parts := make([]part, workers)
	chunks(len(k), workers, func(w, lo, hi int) {
		s, o := scanRange(k[lo:hi])
		if lo > 0 && k[lo-1] > k[lo] {
			s = false
		}
		parts[w] = part{s, o}
	})
	sorted = true
	for _, p := range parts {
		sorted = sorted && p.sorted
		or |= p.or
	}
	return sorted, or
}

// scanRange is scanKeys on one goroutine. After the first key out of order
// it only takes the OR.
func scanRange(k []uint64) (sorted bool, or uint64) {
	i := 1
	for ; i < len(k) && k[i-1] <= k[i]; i++ {
	}
	if i >= len(k) {
		if len(k) == 0 {
			return true, 0
		}
		return true, k[len(k)-1] // the largest key, and no bit above its own
	}
	for _, x := range k {
		or |= x
	}
	return false, or
}

// chunks calls f(w, lo, hi) on workers goroutines at once, for the w-th of
// workers nearly equal parts [lo, hi) of [0, n), and waits for them.
func chunks(n, workers int, f func(w, lo, hi int)) {
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Go(func() { f(w, lo, hi) })
	}
	wg.Wait()
}

// nextShift is the shift of the digit after the one at shift: 8 bits lower,
// or the lowest 8 bits if fewer remain (its high bits are then the same in
// every key of a bucket, so they do no harm).
func nextShift(shift uint) uint {
	if shift < 8 {
		return 0
	}
	return shift - 8
}

// radixSort sorts k, whose keys agree above bit shift+8, by the digit at
// shift and then recursively by the lower ones.
func radixSort(k []uint64, shift uint) {
	for {
		if len(k) <= insertionMax {
			insertionSort(k)
			return
		}
		var count [256]int
		for _, x := range k {
			count[byte(x>>shift)]++
		}
		if count[byte(k[0]>>shift)] != len(k) {
			permute(k, shift, &count)
			if shift == 0 {
				return
			}
			next := nextShift(shift)
			lo := 0
			for _, c := range count {
				if c > 1 {
					radixSort(k[lo:lo+c], next)
				}
				lo += c
			}
			return
		}
		// One bucket holds every key: this digit sorts nothing.
		if shift == 0 {
			return
		}
		shift = nextShift(shift)
	}
}

// sweepMin is the bucket size from which permute sweeps rather than follows
// cycles. At 10^7 random edge keys on one core, 256 gave 29.8 ns a key,
// 1024 26.9, 4096 27.4 and 16384 27.1 (means of 2 runs); sweeping every
// bucket took 43, following cycles in every bucket 35.
const sweepMin = 1024

// permute moves every key of k into the bucket of its digit at shift, the
// buckets in ascending order with the sizes in count, in place. A bucket
// of sweepMin keys or more is permuted by permuteSweep, a smaller one by
// permuteCycles: on 10^7 random edge keys the first pass took 55–70 ms
// sweeping and 112–117 ms following cycles, while on buckets of a few
// hundred keys, which fit in the first-level cache, the cycles win.
func permute(k []uint64, shift uint, count *[256]int) {
	if len(k) >= sweepMin {
		permuteSweep(k, shift, count)
		return
	}
	permuteCycles(k, shift, count)
}

// permuteSweep is permute by sweeps: it goes through the unfilled part of
// each bucket and swaps each key there to the next free slot of its own
// bucket, over and over until every bucket is full, as ska_sort does
// (Skarupke, "I wrote a faster sorting algorithm", 2016). Unlike following
// one cycle at a time, the swaps of successive keys of a sweep are
// independent, so the processor overlaps their cache misses. Each swap
// puts one key in its bucket for good, so there are at most |k| swaps.
func permuteSweep(k []uint64, shift uint, count *[256]int) {
	var head, tail [256]int
	var open [256]byte // the buckets still to fill
	nOpen := 0
	s := 0
	for b, c := range count {
		head[b] = s
		s += c
		tail[b] = s
		if c > 0 {
			open[nOpen] = byte(b)
			nOpen++
		}
	}
	for nOpen > 1 { // the last bucket to fill is full once the others are
		j := 0
		for _, b := range open[:nOpen] {
			t := tail[b]
			for p := head[b]; p < t; p++ {
				v := k[p]
				d := byte(v >> shift)
				i := head[d]
				head[d] = i + 1
				k[p], k[i] = k[i], v
			}
			if head[b] < t {
				open[j] = b
				j++
			}
		}
		nOpen = j
	}
}

// permuteCycles is permute by cycles, as American flag sort does: the first
// unfilled slot of a bucket gives up its key, which is swapped along the
// cycle it starts until the slot reached belongs to the bucket being
// filled. Each key is read and written once.
func permuteCycles(k []uint64, shift uint, count *[256]int) {
	var head, tail [256]int
	s := 0
	for b, c := range count {
		head[b] = s
		s += c
		tail[b] = s
	}
	for b := range 255 { // bucket 255 is in place once the others are
		for head[b] < tail[b] {
			v := k[head[b]]
			d := byte(v >> shift)
			for d != byte(b) {
				i := head[d]
				head[d]++
				v, k[i] = k[i], v
				d = byte(v >> shift)
			}
			k[head[b]] = v
			head[b]++
		}
	}
}

// insertionSort sorts a short k in place.
func insertionSort(k []uint64) {
	for i := 1; i < len(k); i++ {
		v := k[i]
		j := i
		for ; j > 0 && k[j-1] > v; j-- {
			k[j] = k[j-1]
		}
		k[j] = v
	}
}

// bucket is a part of the keys, k[lo:hi], still to be sorted from the digit
// at shift down.
type bucket struct {
	lo, hi int
	shift  uint
}

// sortParallel is radixSort on workers goroutines. One goroutine
// distributes k by its first digit (the count is parallel), and splits again
// any bucket with more than 1/(2·workers) of the keys, so that no bucket
// holds more than a worker's share; the workers then take the buckets,
// largest first, from a shared counter. At most 2·workers buckets are
// split at each of at most 8 digits, so the list holds at most
// 4096·workers buckets.
func sortParallel(k []uint64, shift uint, workers int) {
	var count [256]int
	parts := make([][256]int, workers)
	chunks(len(k), workers, func(w, lo, hi int) {
		c := &parts[w]
		for _, x := range k[lo:hi] {
			c[byte(x>>shift)]++
		}
	})
	for w := range parts {
		for b, c := range parts[w] {
			count[b] += c
		}
	}
	var todo []bucket
	split := func(lo int, shift uint, count *[256]int) {
		permute(k[lo:lo+sum(count)], shift, count)
		if shift == 0 {
			return
		}
		next := nextShift(shift)
		for _, c := range count {
			if c > 1 {
				todo = append(todo, bucket{lo, lo + c, next})
			}
			lo += c
		}
	}
	split(0, shift, &count)
	share := len(k) / (2 * workers)
	for i := 0; i < len(todo); i++ {
		t := todo[i]
		if t.hi-t.lo <= max(share, insertionMax) {
			continue
		}
		var c [256]int
		for _, x := range k[t.lo:t.hi] {
			c[byte(x>>t.shift)]++
		}
		if c[byte(k[t.lo]>>t.shift)] == t.hi-t.lo {
			// One digit for all: skip it, and look at the bucket again.
			if t.shift == 0 {
				todo[i].hi = t.lo // sorted: all keys equal
			} else {
				todo[i].shift = nextShift(t.shift)
			}
			i--
			continue
		}
		todo[i].hi = t.lo // done once its sub-buckets are sorted
		split(t.lo, t.shift, &c)
	}
	slices.SortFunc(todo, func(a, b bucket) int { return (b.hi - b.lo) - (a.hi - a.lo) })
	var next atomic.Int64
	chunks(len(todo), workers, func(int, int, int) {
		for {
			i := int(next.Add(1) - 1)
			if i >= len(todo) || todo[i].hi-todo[i].lo < 2 {
				return
			}
			radixSort(k[todo[i].lo:todo[i].hi], todo[i].shift)
		}
	})
}

// sum returns the total of count.
func sum(count *[256]int) int {
	s := 0
	for _, c := range count {
		s += c
	}
	return s
}

// dedupSorted removes adjacent repeats from k in place and returns the
// number of keys kept: k[:kept] holds each distinct key of k once, in the
// order of k, so on a sorted k it is the set of keys, ascending. Time
// O(|k|), no extra memory; after sortKeys it turns the edge keys of a file
// into the simple graph's edges without a second array.
func dedupSorted(k []uint64) (kept int) {
	if len(k) == 0 {
		return 0
	}
	kept = 1
	for _, x := range k[1:] {
		if x != k[kept-1] {
			k[kept] = x
			kept++
		}
	}
	return kept
}
