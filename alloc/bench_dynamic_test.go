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
	p := Graphical{Graph: g}
	const steps = 16 * n
	// per runs one sub-benchmark on its locked thread and reports the
	// wall-clock and CPU nanoseconds a unit (the CPU time, of the thread,
	// is what a machine shared with other work inflates less).
	per := func(b *testing.B, units int64, unit string, run func()) {
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
	b.Run("n=2^20/abku", func(b *testing.B) {
		c := Dynamic{Process: p, N: n, M: n, Steps: steps, Del: Deletions{Model: DeleteABKU}, Seed: 1}
		// The initial n balls, placed by the static process, count as steps.
		per(b, steps+n, "step", func() {
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
