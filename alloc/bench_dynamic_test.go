package alloc

import (
	"context"
	"math/rand/v2"
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
	b.Run("n=2^20/abku", func(b *testing.B) {
		c := Dynamic{Process: p, N: n, M: n, Steps: steps, Del: Deletions{Model: DeleteABKU}, Seed: 1}
		for b.Loop() {
			if _, err := c.Trial(context.Background(), 0); err != nil {
				b.Fatal(err)
			}
		}
		// The initial n balls are placed one call a ball: counted in.
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(steps+n), "ns/step")
	})
	b.Run("n=2^20/static", func(b *testing.B) {
		bins := NewBins(n)
		for b.Loop() {
			bins.Reset()
			p.Place(bins, steps, NewRand(1))
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(steps), "ns/ball")
	})
}
