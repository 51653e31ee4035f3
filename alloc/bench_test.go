package alloc

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/graphalloc/graphalloc/graphgen"
)

// Benchmarks report balls/s for each process at m = n (the loads are reset
// between iterations outside the timer's concern: Reset is O(n), the balls
// O(m)). Compare runs with benchstat; BENCHMARKS.md has the table.
func BenchmarkPlace(b *testing.B) {
	reg16 := map[int]*graphgen.CSR{}
	for _, lg := range []int{12, 20} {
		g, _, err := graphgen.RandomRegular(1<<lg, 16, rand.NewPCG(1, 1))
		if err != nil {
			b.Fatal(err)
		}
		reg16[lg] = g
	}
	type bc struct {
		name string
		p    Process
		lgs  []int
	}
	cases := []bc{
		{"one-choice", OneChoice{}, []int{12, 20, 26}},
		{"greedy/d=2", Greedy{D: 2}, []int{12, 20, 26}},
		{"greedy/d=3", Greedy{D: 3}, []int{12, 20}},
		{"left/d=2", Left{D: 2}, []int{12, 20}},
		{"left/d=3", Left{D: 3}, []int{12, 20}},
		{"graph/complete", nil, []int{12, 20}},
		{"graph/regular16/edge", nil, []int{12, 20}},
		{"graph/regular16/vertex", nil, []int{12, 20}},
	}
	for _, c := range cases {
		for _, lg := range c.lgs {
			n := 1 << lg
			p := c.p
			switch c.name {
			case "graph/complete":
				p = Graphical{G: graphgen.Complete(n)}
			case "graph/regular16/edge":
				p = Graphical{G: reg16[lg]}
			case "graph/regular16/vertex":
				p = Graphical{G: reg16[lg], Sample: SampleVertex}
			}
			b.Run(fmt.Sprintf("%s/n=2^%d", c.name, lg), func(b *testing.B) {
				if lg >= 26 && testing.Short() {
					b.Skip("n=2^26 skipped in short mode")
				}
				bins := NewBins(n)
				r := NewRand(1)
				var balls int64
				for b.Loop() {
					bins.Reset()
					p.Place(bins, int64(n), r)
					balls += int64(n)
				}
				b.ReportMetric(float64(balls)/b.Elapsed().Seconds(), "balls/s")
			})
		}
	}
}
