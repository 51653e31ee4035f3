package alloc

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/graphgen"
)

// TestEdgeArraySameDraws: the processes that draw only uniform edges place
// every ball on the same bin whether the graph is a CSR or the EdgeArray
// of the same file, on both load widths, pipelined or not, one ball at a
// time or in batches; a graph of one edge more is told apart (the
// control). Vertex sampling is refused on an EdgeArray.
func TestEdgeArraySameDraws(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	const n = 3000
	var b bytes.Buffer
	for v := range n - 1 {
		fmt.Fprintf(&b, "%d %d\n", v, v+1) // every id appears
	}
	for range 3 * n {
		fmt.Fprintf(&b, "%d %d\n", rng.IntN(n), rng.IntN(n))
	}
	csr, _, err := graphgen.ReadGraph(bytes.NewReader(b.Bytes()), "g")
	if err != nil {
		t.Fatal(err)
	}
	lean, _, err := graphgen.ReadEdges(bytes.NewReader(b.Bytes()), "g")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := lean.(*graphgen.EdgeArray); !ok || csr.Order() != n || lean.Order() != n {
		t.Fatalf("read as %T on %d vertices, want an EdgeArray on %d", lean, lean.Order(), csr.Order())
	}
	fmt.Fprintf(&b, "%d %d\n", 0, n-1) // the control: one edge more
	more, _, err := graphgen.ReadEdges(bytes.NewReader(b.Bytes()), "g")
	if err != nil {
		t.Fatal(err)
	}
	procs := map[string]func(g graphgen.Graph) Process{
		"graph":           func(g graphgen.Graph) Process { return Graphical{Graph: g} },
		"graph/left":      func(g graphgen.Graph) Process { return Graphical{Graph: g, Ties: TiesLeft} },
		"graph/(1+β)":     func(g graphgen.Graph) Process { return Graphical{Graph: g, OneMinusBeta: 0.4} },
		"g-bounded":       func(g graphgen.Graph) Process { return GBounded{Tolerance: 1, Graph: g} },
		"g-myopic":        func(g graphgen.Graph) Process { return GMyopic{Tolerance: 1, Graph: g} },
		"noisy/σ=1":       func(g graphgen.Graph) Process { return Noisy{Sigma: 1, Graph: g} },
		"graph/batch":     func(g graphgen.Graph) Process { return Graphical{Graph: g} },
		"g-bounded/batch": func(g graphgen.Graph) Process { return GBounded{Tolerance: 1, Graph: g} },
	}
	savedPipe, savedCompact := pipelineMin, compactMin
	defer func() { pipelineMin, compactMin = savedPipe, savedCompact }()
	compactMin = 0
	loads := func(p Process, batch int64) []uint32 {
		var out []uint32
		c := Config{Process: p, N: n, M: 300 * n, Seed: 4, Batch: batch,
			Loads: func(_ int, L []uint32) { out = slices.Clone(L) }}
		res, err := c.Trial(context.Background(), 0, NewBins(n))
		if err != nil || res.MaxLoad == 0 {
			t.Fatalf("%v: max load %g, error %v", p, res.MaxLoad, err)
		}
		return out
	}
	for name, mk := range procs {
		for _, pipe := range []int{0, 1 << 62} {
			pipelineMin = uintptr(pipe)
			batch := int64(1)
			if strings.HasSuffix(name, "batch") {
				batch = 50
			}
			want := loads(mk(csr), batch)
			if got := loads(mk(lean), batch); !slices.Equal(got, want) {
				t.Errorf("%s (pipelineMin %d): the EdgeArray placed the balls elsewhere", name, pipe)
			}
			if got := loads(mk(more), batch); slices.Equal(got, want) {
				t.Errorf("%s (pipelineMin %d): a graph of one edge more placed the same balls", name, pipe)
			}
		}
	}
	for _, p := range []Process{Graphical{Graph: lean, Sample: SampleVertex}, GBounded{Tolerance: 1, Graph: lean, Sample: SampleVertex}, Graphical{Graph: lean, Sample: SampleWalk(2)}} {
		if err := p.Check(n); err == nil {
			t.Errorf("%v on an EdgeArray: no error", p)
		}
	}
}
