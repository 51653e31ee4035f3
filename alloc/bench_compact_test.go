package alloc

import (
	"math/rand/v2"
	"testing"

	"github.com/graphalloc/graphalloc/graphgen"
)

// BenchmarkCompactLoads reports balls/s at m = n = 2^24 for the processes
// whose loops run on one-byte loads besides OneChoice, Greedy[d], Left[d],
// LocalSearch and Graphical (BenchmarkGraphLoads): the default, one byte a
// bin (a 16 MiB array, which fits in L3), against four-byte loads
// (loads=uint32, 64 MiB, which does not). The graphs are a random
// circulant of degree 6, a CSR of n uniform random edges and, for walk
// sampling, K_n too; -short skips the benchmark.
func BenchmarkCompactLoads(b *testing.B) {
	if testing.Short() {
		b.Skip("n = 2^24 skipped in short mode")
	}
	const lg = 24
	n := 1 << lg
	var sparse *graphgen.CSR
	random := func() *graphgen.CSR {
		// n uniform random edges (mean degree 2, some vertices
		// isolated): a CSR with a flat edge array, built in seconds.
		if sparse == nil {
			src := rand.New(rand.NewPCG(1, 1))
			e := make([]uint32, 2*n)
			for i := range e {
				e[i] = uint32(src.IntN(n))
			}
			g, _, err := graphgen.FromEdges(n, e)
			if err != nil {
				b.Fatal(err)
			}
			sparse = g
		}
		return sparse
	}
	circ, err := graphgen.RandomCirculant(n, 6, rand.NewPCG(2, 2))
	if err != nil {
		b.Fatal(err)
	}
	var hyp *graphgen.Hypergraph
	hyper3 := func() *graphgen.Hypergraph {
		if hyp == nil {
			h, err := graphgen.RandomUniformHypergraph(n, 3, n, rand.NewPCG(3, 3))
			if err != nil {
				b.Fatal(err)
			}
			hyp = h
		}
		return hyp
	}
	for _, c := range []struct {
		name string
		p    func() Process
	}{
		{"one-plus-beta/beta=0.5", func() Process { return OnePlusBeta{Beta: 0.5} }},
		{"unbalanced/d=2", func() Process { return MaxOf{D: 2} }},
		{"unbalanced/d=3", func() Process { return MaxOf{D: 3} }},
		{"firstdiff/d=2", func() Process { return FirstDiff{D: 2} }},
		{"grouped/d=4", func() Process { return Grouped{D: 4} }},
		{"window/d=4", func() Process { return Window{D: 4} }},
		{"hyper/3-uniform", func() Process { return Hyper{H: hyper3()} }},
		{"g-bounded/g=1", func() Process { return GBounded{Tolerance: 1} }},
		{"g-bounded/g=1/random/edge", func() Process { return GBounded{Tolerance: 1, Graph: random()} }},
		{"g-myopic/g=1/random/vertex", func() Process { return GMyopic{Tolerance: 1, Graph: random(), Sample: SampleVertex} }},
		{"noisy/sigma=1/circulant6", func() Process { return Noisy{Sigma: 1, Graph: circ} }},
		{"mean-thinning", func() Process { return MeanThinning{} }},
		{"threshold/L=1", func() Process { return Threshold{L: 1} }},
		{"twinning", func() Process { return Twinning{} }},
		{"packing", func() Process { return Packing{} }},
		{"memory/d=1/K=1", func() Process { return Memory{D: 1, K: 1} }},
		{"kd-choice/k=2/d=4", func() Process { return KD{D: 4, K: 2} }},
		{"quantile/delta=0.5", func() Process { return Quantile{Delta: 0.5} }},
		{"graph/walk:len=3/random", func() Process { return Graphical{Graph: random(), Sample: SampleWalk(3)} }},
		{"graph/walk:len=3/complete", func() Process { return Graphical{Graph: graphgen.Complete(n), Sample: SampleWalk(3)} }},
		{"g-bounded/g=1/walk:len=2/random", func() Process { return GBounded{Tolerance: 1, Graph: random(), Sample: SampleWalk(2)} }},
	} {
		benchLoads(b, c.name, lg, func(*testing.B) Process { return c.p() })
	}
}
