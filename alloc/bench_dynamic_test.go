package alloc

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/graphalloc/graphalloc/graphgen"
)

// BenchmarkDynamicRegular16 is ABKU's infinite process on a random
// 16-regular graph at n = 2^20 (edge sampling, m = n balls present),
// against the static graph process's cost a ball on the same graph: a step
// is a deletion and an insertion, reported as ns/step.
func BenchmarkDynamicRegular16(b *testing.B) {
	const n = 1 << 20
	g, _, err := graphgen.RandomRegular(n, 16, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	benchDynamicPair(b, Graphical{Graph: g}, n)
}

// BenchmarkDynamicUniform is BenchmarkDynamicRegular16 for Greedy[2] on
// uniform bins (the generated uniform abku loop), n = 2^20.
func BenchmarkDynamicUniform(b *testing.B) {
	benchDynamicPair(b, Greedy{D: 2}, 1<<20)
}

// perUnit runs one sub-benchmark on its locked thread and reports the
// wall-clock and CPU nanoseconds a unit (the CPU time, of the thread, is
// what a machine shared with other work inflates less).
func perUnit(b *testing.B, units int64, unit string, run func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0 := threadCPU()
	for b.Loop() {
		run()
	}
	cpu := threadCPU() - c0
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(units), "ns/"+unit)
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(units), "cpu-ns/"+unit)
	}
}

// benchDynamicPair runs ABKU's infinite process of p on n bins (m = n
// balls present, 16n steps, the initial balls counted in) and the static
// process's 16n balls, as two sub-benchmarks of one process, ns a step
// and ns a ball.
func benchDynamicPair(b *testing.B, p Process, n int) {
	steps := int64(16 * n)
	per := perUnit
	b.Run("n=2^20/abku", func(b *testing.B) {
		c := Dynamic{Process: p, N: n, M: int64(n), Steps: steps, Del: Deletions{Model: DeleteABKU}, Seed: 1}
		// The initial n balls, placed by the static process, count as steps.
		per(b, steps+int64(n), "step", func() {
			if _, err := c.Trial(context.Background(), 0); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("n=2^20/static", func(b *testing.B) {
		bins := NewBins(n)
		per(b, steps, "ball", func() {
			bins.Reset()
			p.Place(bins, steps, NewRand(1))
		})
	})
}
