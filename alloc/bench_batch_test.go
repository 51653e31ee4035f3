package alloc

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/graphalloc/graphalloc/graphgen"
)

// BenchmarkBatch reports balls/s of the batched driver at m = n = 2^20 for
// batch sizes 16, 1024 and n, beside the sequential loop (B = 1, Place:
// the code of BenchmarkPlace), for Greedy[2], for the graph process on a
// random 16-regular graph and on K_n, and for the processes with a state
// beyond the loads (twinning, packing, memory, kd-choice). Each iteration
// resets the loads.
func BenchmarkBatch(b *testing.B) {
	const lg = 20
	n := 1 << lg
	reg, _, err := graphgen.RandomRegular(n, 16, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		p    Process
	}{
		{"greedy/d=2", Greedy{D: 2}},
		{"graph/complete", Graphical{Graph: graphgen.Complete(n)}},
		{"graph/regular16/edge", Graphical{Graph: reg}},
		{"twinning", Twinning{}},
		{"packing", Packing{}},
		{"memory/d=1/K=1", Memory{D: 1, K: 1}},
		{"kd-choice/k=2/d=4", KD{D: 4, K: 2}},
	} {
		for _, B := range []int64{1, 16, 1024, int64(n)} {
			b.Run(fmt.Sprintf("%s/n=2^%d/B=%d", c.name, lg, B), func(b *testing.B) {
				bins := NewBins(n)
				r := NewRand(1)
				if B == 1 {
					benchBalls(b, int64(n), func() {
						bins.Reset()
						c.p.Place(bins, int64(n), r)
					})
					return
				}
				bt := newBatcher(B, n, int64(n))
				benchBalls(b, int64(n), func() {
					bins.Reset()
					bt.reset()
					// A rule a trial: memory, kd-choice, twinning
					// and packing keep the trial's state in it.
					bt.place(bins, c.p.(batchable).rule(n), int64(n), r)
					bt.flush(bins, bins.wide(), nil)
				})
			})
		}
	}
}

// BenchmarkGraphBeta reports balls/s of graphical (1+β) (the graph rule on
// the generic sequential path) at m = n = 2^20 on K_n and on a random
// 16-regular graph, beside two-choice (β = 1, the specialised loops).
func BenchmarkGraphBeta(b *testing.B) {
	const lg = 20
	n := 1 << lg
	reg, _, err := graphgen.RandomRegular(n, 16, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	for _, g := range []struct {
		name string
		g    graphgen.Graph
	}{{"complete", graphgen.Complete(n)}, {"regular16/edge", reg}} {
		for _, beta := range []float64{1, 0.5} {
			b.Run(fmt.Sprintf("graph/%s/n=2^%d/beta=%g", g.name, lg, beta), func(b *testing.B) {
				p := Graphical{Graph: g.g, OneMinusBeta: 1 - beta}
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
