package alloc

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/graphalloc/graphalloc/graphgen"
)

// Benchmarks report balls/s at m = n, n = 2^12 (loads in L1/L2), 2^20 (L2/L3)
// and 2^26 (DRAM). Besides wall-clock balls/s each reports cpu-balls/s, the
// balls per second of CPU time of the benchmark's thread: on a machine
// shared with other jobs it is the steadier figure (it still feels their
// cache traffic). Each iteration resets the loads, O(n) beside the O(m)
// balls. BENCHMARKS.md has the table and the commands; compare runs with
// benchstat.

// benchBalls runs place (which throws balls balls) under b.Loop and reports
// balls/s and cpu-balls/s.
func benchBalls(b *testing.B, balls int64, place func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var total int64
	c0 := threadCPU()
	for b.Loop() {
		place()
		total += balls
	}
	cpu := threadCPU() - c0
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "balls/s")
	if cpu > 0 {
		b.ReportMetric(float64(total)/cpu.Seconds(), "cpu-balls/s")
	}
}

func BenchmarkPlace(b *testing.B) {
	reg16 := map[int]*graphgen.CSR{}
	regular16 := func(lg int) *graphgen.CSR {
		if reg16[lg] == nil {
			g, _, err := graphgen.RandomRegular(1<<lg, 16, rand.NewPCG(1, 1))
			if err != nil {
				b.Fatal(err)
			}
			reg16[lg] = g
		}
		return reg16[lg]
	}
	all := []int{12, 20, 26}
	cases := []struct {
		name string
		p    func(n, lg int) Process
		lgs  []int
	}{
		{"one-choice", func(int, int) Process { return OneChoice{} }, all},
		{"greedy/d=2", func(int, int) Process { return Greedy{D: 2} }, all},
		{"greedy/d=3", func(int, int) Process { return Greedy{D: 3} }, all},
		{"left/d=2", func(int, int) Process { return Left{D: 2} }, all},
		{"left/d=3", func(int, int) Process { return Left{D: 3} }, all},
		{"graph/complete", func(n, _ int) Process { return Graphical{Graph: graphgen.Complete(n)} }, all},
		// A random 16-regular graph on 2^26 vertices holds 2^30 edges (8
		// GiB in CSR and edge list): left out.
		{"graph/regular16/edge", func(_, lg int) Process { return Graphical{Graph: regular16(lg)} }, []int{12, 20}},
		{"graph/regular16/vertex", func(_, lg int) Process { return Graphical{Graph: regular16(lg), Sample: SampleVertex} }, []int{12, 20}},
		// The two-sample rules: two uniform bins (against greedy/d=2,
		// the loop of the same memory footprint) and a 16-regular graph's
		// edges (against graph/regular16/edge).
		{"g-bounded/g=2", func(int, int) Process { return GBounded{Tolerance: 2} }, all},
		{"g-myopic/g=2", func(int, int) Process { return GMyopic{Tolerance: 2} }, all},
		{"noisy/sigma=1", func(int, int) Process { return Noisy{Sigma: 1} }, all},
		{"g-bounded/g=2/regular16/edge", func(_, lg int) Process { return GBounded{Tolerance: 2, Graph: regular16(lg)} }, []int{12, 20}},
		{"g-myopic/g=2/regular16/edge", func(_, lg int) Process { return GMyopic{Tolerance: 2, Graph: regular16(lg)} }, []int{12, 20}},
		{"noisy/sigma=1/regular16/edge", func(_, lg int) Process { return Noisy{Sigma: 1, Graph: regular16(lg)} }, []int{12, 20}},
		// Memory and (k, d)-choice, against greedy/d=2 (their loops read
		// four-byte loads through the public Rand methods).
		{"memory/d=1/K=1", func(int, int) Process { return Memory{D: 1, K: 1} }, all},
		{"memory/d=2/K=1", func(int, int) Process { return Memory{D: 2, K: 1} }, all},
		{"kd-choice/k=1/d=2", func(int, int) Process { return KD{D: 2, K: 1} }, all},
		{"kd-choice/k=2/d=4", func(int, int) Process { return KD{D: 4, K: 2} }, all},
		// Walk sampling (Pourmiri's process; a two-sample rule on the
		// walk's ends): against graph/regular16/vertex (len=1 has the
		// same candidates).
		{"graph/regular16/walk:len=1", func(_, lg int) Process { return Graphical{Graph: regular16(lg), Sample: SampleWalk(1)} }, []int{12, 20}},
		{"graph/regular16/walk:len=4", func(_, lg int) Process { return Graphical{Graph: regular16(lg), Sample: SampleWalk(4)} }, []int{12, 20}},
		{"graph/regular16/walk:len=16", func(_, lg int) Process { return Graphical{Graph: regular16(lg), Sample: SampleWalk(16)} }, []int{12, 20}},
		{"g-bounded/g=2/regular16/walk:len=16", func(_, lg int) Process { return GBounded{Tolerance: 2, Graph: regular16(lg), Sample: SampleWalk(16)} }, []int{12, 20}},
		// The thinning family: one probe a ball, a second on rejection
		// (against one-choice and greedy/d=2), or one probe a step.
		{"mean-thinning", func(int, int) Process { return MeanThinning{} }, all},
		{"threshold/L=2", func(int, int) Process { return Threshold{L: 2} }, all},
		{"twinning", func(int, int) Process { return Twinning{} }, all},
		{"packing", func(int, int) Process { return Packing{} }, all},
		// Quantile(δ): three draws a ball and the level counts above
		// the δ-quantile kept per ball.
		{"quantile/delta=0.5", func(int, int) Process { return Quantile{Delta: 0.5} }, all},
	}
	for _, c := range cases {
		for _, lg := range c.lgs {
			n := 1 << lg
			b.Run(fmt.Sprintf("%s/n=2^%d", c.name, lg), func(b *testing.B) {
				if lg >= 26 && testing.Short() {
					b.Skip("n=2^26 skipped in short mode")
				}
				p := c.p(n, lg)
				bins := NewBins(n)
				r := NewRand(1)
				benchBalls(b, int64(n), func() {
					bins.Reset()
					p.Place(bins, int64(n), r)
				})
			})
		}
	}
}

// BenchmarkPlaceVariants measures what compact loads and huge pages bring:
// the default (one byte a bin, huge pages), four-byte loads
// (loads=uint32), and either without huge pages (hugepages=off).
func BenchmarkPlaceVariants(b *testing.B) {
	for _, c := range []struct {
		name string
		p    Process
	}{
		{"one-choice", OneChoice{}},
		{"greedy/d=2", Greedy{D: 2}},
	} {
		for _, lg := range []int{20, 24, 26} {
			for _, v := range []struct {
				name        string
				wide, pages bool
			}{
				{"loads=uint8", false, true},
				{"loads=uint8/hugepages=off", false, false},
				{"loads=uint32", true, true},
				{"loads=uint32/hugepages=off", true, false},
			} {
				n := 1 << lg
				b.Run(fmt.Sprintf("%s/n=2^%d/%s", c.name, lg, v.name), func(b *testing.B) {
					if lg >= 26 && testing.Short() {
						b.Skip("n=2^26 skipped in short mode")
					}
					saved := useHugePages
					useHugePages = v.pages
					bins := NewBins(n)
					if v.wide {
						bins.wide()
					}
					useHugePages = saved
					r := NewRand(1)
					benchBalls(b, int64(n), func() {
						bins.Reset()
						c.p.Place(bins, int64(n), r)
					})
				})
			}
		}
	}
}

// The plain reference loops the tuned ones are compared against: uint32 loads,
// math/rand/v2's PCG through *rand.Rand, `%` for a bounded draw (slightly
// biased: speed only) and a branch per ball.

func refLoopOneChoice(L []uint32, m int, rng *rand.Rand) {
	n := uint64(len(L))
	for range m {
		L[rng.Uint64()%n]++
	}
}

func refLoopGreedy2(L []uint32, m int, rng *rand.Rand) {
	n := uint64(len(L))
	for range m {
		i := rng.Uint64() % n
		j := rng.Uint64() % n
		if L[j] < L[i] {
			L[j]++
		} else {
			L[i]++
		}
	}
}

func refLoopGreedy3(L []uint32, m int, rng *rand.Rand) {
	n := uint64(len(L))
	for range m {
		c := rng.Uint64() % n
		for range 2 {
			if x := rng.Uint64() % n; L[x] < L[c] {
				c = x
			}
		}
		L[c]++
	}
}

func refLoopEdge(L []uint32, m int, e []uint32, rng *rand.Rand) {
	ne := uint64(len(e) / 2)
	for range m {
		x := rng.Uint64() % ne
		u, v := e[2*x], e[2*x+1]
		if rng.Uint64()%2 == 1 {
			u, v = v, u
		}
		if L[v] < L[u] {
			L[v]++
		} else {
			L[u]++
		}
	}
}

func BenchmarkReference(b *testing.B) {
	for _, c := range []struct {
		name string
		loop func(L []uint32, m int, rng *rand.Rand)
		lgs  []int
	}{
		{"one-choice", refLoopOneChoice, []int{12, 20, 26}},
		{"greedy/d=2", refLoopGreedy2, []int{12, 20, 26}},
		{"greedy/d=3", refLoopGreedy3, []int{12, 20, 26}},
		{"graph/regular16/edge", nil, []int{20}},
	} {
		for _, lg := range c.lgs {
			n := 1 << lg
			b.Run(fmt.Sprintf("%s/n=2^%d", c.name, lg), func(b *testing.B) {
				if lg >= 26 && testing.Short() {
					b.Skip("n=2^26 skipped in short mode")
				}
				loop := c.loop
				if loop == nil {
					g, _, err := graphgen.RandomRegular(n, 16, rand.NewPCG(1, 1))
					if err != nil {
						b.Fatal(err)
					}
					e := g.EdgeList()
					loop = func(L []uint32, m int, rng *rand.Rand) { refLoopEdge(L, m, e, rng) }
				}
				L := make([]uint32, n)
				rng := rand.New(rand.NewPCG(1, 2))
				benchBalls(b, int64(n), func() {
					clear(L)
					loop(L, n, rng)
				})
			})
		}
	}
}

// BenchmarkLevels: the level engine, one trial per iteration (Run's path,
// Config.Trial), m = n. n = 10^10 is the target size (under 2 minutes
// on one core, under 64 MiB); it takes about 40 s an iteration and is
// skipped in short mode.
func BenchmarkLevels(b *testing.B) {
	for _, c := range []struct {
		name string
		p    Process
		ns   []int
	}{
		{"greedy/d=2", Greedy{D: 2}, []int{1 << 20, 1 << 26, 1e10}},
		{"one-choice", OneChoice{}, []int{1 << 20, 1 << 26}},
		{"greedy/d=3", Greedy{D: 3}, []int{1 << 26}},
		{"left/d=2", Left{D: 2}, []int{1 << 26}},
		{"unbalanced/d=2", MaxOf{D: 2}, []int{1 << 26}},
		{"one-plus-beta/beta=0.5", OnePlusBeta{Beta: 0.5}, []int{1 << 26}},
		{"firstdiff/d=2", FirstDiff{D: 2}, []int{1 << 26}},
		{"rank/d=2.5", Rank{D: 2.5}, []int{1 << 26}},
		{"twinning", Twinning{}, []int{1 << 26}},
		{"packing", Packing{}, []int{1 << 26}},
		{"quantile/delta=0.5", Quantile{Delta: 0.5}, []int{1 << 20}},
	} {
		for _, n := range c.ns {
			name := fmt.Sprintf("n=%d", n)
			if n&(n-1) == 0 {
				name = fmt.Sprintf("n=2^%d", 63-leadingZeros(uint64(n)))
			} else if n == 1e10 {
				name = "n=10^10"
			}
			b.Run(c.name+"/"+name, func(b *testing.B) {
				if n > 1<<26 && testing.Short() {
					b.Skip("n=10^10 skipped in short mode")
				}
				cfg := Config{Process: c.p, Engine: EngineLevels, N: n, M: int64(n), Seed: 1}
				b.ReportAllocs() // B/op: the level engine's whole memory a trial
				i := 0
				benchBalls(b, int64(n), func() {
					if _, err := cfg.Trial(context.Background(), i, nil); err != nil {
						b.Fatal(err)
					}
					i++
				})
				b.ReportMetric(b.Elapsed().Seconds()/float64(i), "s/trial")
			})
		}
	}
}

func leadingZeros(x uint64) int {
	k := 0
	for ; x < 1<<63; x <<= 1 {
		k++
	}
	return k
}

// BenchmarkRunWorkers: trials across workers through Run, Greedy[2] at
// m = n, 32 trials (n = 2^20) or 4 (2^26) a Run; the target is 2 workers ≥ 1.8× one worker on two free cores.
// balls/s counts the balls of all trials; cpu-balls/s divides them by the
// CPU time of the whole process, which stays put when the workers do not
// slow each other down, whatever else the machine runs.
func BenchmarkRunWorkers(b *testing.B) {
	for _, lg := range []int{20, 26} {
		for _, w := range []int{1, 2} {
			n := 1 << lg
			// Enough trials a Run that its start (a Bins per worker,
			// garbage after the Run) weighs little, as in a real run.
			trials := make([]int, 32)
			if lg >= 26 {
				trials = trials[:4]
			}
			for i := range trials {
				trials[i] = i
			}
			b.Run(fmt.Sprintf("greedy/d=2/n=2^%d/workers=%d", lg, w), func(b *testing.B) {
				if lg >= 26 && testing.Short() {
					b.Skip("n=2^26 skipped in short mode")
				}
				c := Config{Process: Greedy{D: 2}, N: n, M: int64(n), Seed: 1}
				var balls int64
				t0, c0 := time.Now(), processCPU()
				for b.Loop() {
					if err := Run(context.Background(), c, trials, w, func(Result) error { return nil }); err != nil {
						b.Fatal(err)
					}
					balls += int64(len(trials)) * int64(n)
				}
				b.ReportMetric(float64(balls)/time.Since(t0).Seconds(), "balls/s")
				if cpu := processCPU() - c0; cpu > 0 {
					b.ReportMetric(float64(balls)/cpu.Seconds(), "cpu-balls/s")
				}
			})
		}
	}
}

// BenchmarkGraphLoads measures what one-byte loads bring to the graph
// process: the default (one byte a bin) against four-byte loads
// (loads=uint32, the form every graph loop ran on before), on K_n and on a
// random 16-regular graph (edge and vertex sampling), at n = 2^20 (the
// four-byte loads in L3) and 2^24 (they are not; the one-byte ones fit in
// L3). The regular graph on 2^24 vertices takes about 2.2 GiB and a minute
// to generate; -short skips it.
func BenchmarkGraphLoads(b *testing.B) {
	reg16 := map[int]*graphgen.CSR{}
	regular16 := func(lg int) *graphgen.CSR {
		if reg16[lg] == nil {
			g, _, err := graphgen.RandomRegular(1<<lg, 16, rand.NewPCG(1, 1))
			if err != nil {
				b.Fatal(err)
			}
			reg16[lg] = g
		}
		return reg16[lg]
	}
	for _, c := range []struct {
		name string
		p    func(n, lg int) Process
	}{
		{"graph/complete", func(n, _ int) Process { return Graphical{Graph: graphgen.Complete(n)} }},
		{"graph/regular16/edge", func(_, lg int) Process { return Graphical{Graph: regular16(lg)} }},
		{"graph/regular16/vertex", func(_, lg int) Process { return Graphical{Graph: regular16(lg), Sample: SampleVertex} }},
	} {
		for _, lg := range []int{20, 24} {
			benchLoads(b, c.name, lg, func(b *testing.B) Process {
				if lg >= 24 && testing.Short() {
					b.Skip("n=2^24 skipped in short mode")
				}
				return c.p(1<<lg, lg)
			})
		}
	}
}

// benchLoads runs m = n = 2^lg balls of the process p returns (given the
// sub-benchmark, which it may skip) on one-byte loads
// (name/n=2^lg/loads=uint8, the default) and on four-byte loads from the
// start (loads=uint32).
func benchLoads(b *testing.B, name string, lg int, p func(b *testing.B) Process) {
	n := 1 << lg
	for _, wide := range []bool{false, true} {
		loads := "uint8"
		if wide {
			loads = "uint32"
		}
		b.Run(fmt.Sprintf("%s/n=2^%d/loads=%s", name, lg, loads), func(b *testing.B) {
			p := p(b)
			bins := NewBins(n)
			if wide {
				bins.wide()
			}
			r := NewRand(1)
			benchBalls(b, int64(n), func() {
				bins.Reset()
				p.Place(bins, int64(n), r)
			})
		})
	}
}
