package study

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/graphalloc/graphalloc/graphgen"
)

// scanned hides a graph's RegularDegree, so that degreeStats scans it.
type scanned struct{ graphgen.Graph }

// TestDegreeStatsRegular checks the shortcut for graphs regular by
// construction against a scan of every degree written here, and that a
// graph which is not regular is still scanned (the control: a
// Barabási–Albert graph, whose degrees spread from 2 up).
func TestDegreeStatsRegular(t *testing.T) {
	must := func(g graphgen.Graph, err error) graphgen.Graph {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	circ := must(graphgen.NewCirculant(101, []int{1, 5, 50}))
	perm := must(graphgen.NewPermutationRegular(1000, 16, rand.NewPCG(1, 2)))
	torus := must(graphgen.NewTorusLattice(3, 5))
	cube := must(graphgen.NewHypercubeLattice(6))
	rr, _, err := graphgen.RandomRegular(500, 6, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	ba := must(graphgen.BarabasiAlbert(200, 2, rand.NewPCG(5, 6)))
	for _, g := range []graphgen.Graph{circ, perm, torus, cube, rr, ba} {
		want := Degrees{Min: math.MaxInt}
		for v := range g.Order() {
			want.Min = min(want.Min, g.Degree(v))
			want.Max = max(want.Max, g.Degree(v))
		}
		want.Mean = 2 * float64(g.Size()) / float64(g.Order())
		if got := degreeStats(g); got != want {
			t.Errorf("%T: degreeStats %+v, scan %+v", g, got, want)
		}
		if got := degreeStats(scanned{g}); got != want {
			t.Errorf("%T hidden: degreeStats %+v, scan %+v", g, got, want)
		}
	}
	if d := degreeStats(ba); d.Min >= d.Max {
		t.Errorf("Barabási–Albert: %+v, want spread degrees", d)
	}
}
