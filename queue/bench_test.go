package queue

import (
	"context"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
)

// benchTrial runs trial 0 of c once per iteration and reports ns/event,
// by the wall clock and by the process's CPU time (which a machine shared
// with other work inflates less).
func benchTrial(b *testing.B, c Config) {
	var events int64
	cpu0 := cpuTime()
	for b.Loop() {
		tr, err := c.Trial(context.Background(), 0)
		if err != nil {
			b.Fatal(err)
		}
		events += tr.Events
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(events), "cpu-ns/event")
	b.ReportMetric(float64(events)/float64(b.N), "events/op")
}

// BenchmarkServers is the per-server engine on a random 4-regular graph
// at n = 2^20, λ = 0.9, edge sampling: 10 time units, about 2·10^7
// events (BENCHMARKS.md extrapolates to 10^9); and with two uniform
// choices at n = 2^20 (pipelined, pipe.go) and at n = 2^16 (below pipeMin:
// the plain loop, servers), 10 time units each.
func BenchmarkServers(b *testing.B) {
	s, _ := graphgen.ParseSpec("regular:degree=4")
	g, _, err := s.Build(1<<20, alloc.NewRand(1))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("regular4/n=2^20/lambda=0.9/edge", func(b *testing.B) {
		benchTrial(b, Config{N: 1 << 20, D: 2, Lambda: 0.9, Time: 10, Warmup: 0, Sample: Edge, Graph: g, Seed: 1})
	})
	b.Run("uniform/n=2^20/lambda=0.9/d=2", func(b *testing.B) {
		benchTrial(b, Config{N: 1 << 20, D: 2, Lambda: 0.9, Time: 10, Warmup: 0, Engine: EngineServers, Seed: 1})
	})
	b.Run("uniform/n=2^16/lambda=0.9/d=2", func(b *testing.B) {
		benchTrial(b, Config{N: 1 << 16, D: 2, Lambda: 0.9, Time: 10, Warmup: 0, Engine: EngineServers, Seed: 1})
	})
}

// BenchmarkLevels is the level engine at n = 10^9, λ = 0.9, d = 2, from
// empty: 0.01 time units, about 1.9·10^7 events.
func BenchmarkLevels(b *testing.B) {
	b.Run("n=1e9/lambda=0.9/d=2", func(b *testing.B) {
		benchTrial(b, Config{N: 1e9, D: 2, Lambda: 0.9, Time: 0.01, Warmup: 0, Seed: 1})
	})
	b.Run("n=1e9/lambda=0.9/d=2/stationary", func(b *testing.B) {
		benchTrial(b, Config{N: 1e9, D: 2, Lambda: 0.9, Time: 0.01, Warmup: 0, Start: StartFixed, Seed: 1})
	})
}
