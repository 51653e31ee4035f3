package graphgen

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestNonregular(t *testing.T) {
	tests := []struct{ n, mindeg, core int }{
		{200, 3, 20},
		{300, 1, 4},  // the remainder is a matching: 148 components
		{300, 2, 10}, // a union of cycles
		{50, 4, 45},  // the remainder is K_5: more core vertices than join slots
		{1 << 12, 16, 256},
		{1 << 12, 5, 6}, // a small core
	}
	for i, tc := range tests {
		t.Run(fmt.Sprintf("n=%d/mindeg=%d/core=%d", tc.n, tc.mindeg, tc.core), func(t *testing.T) {
			g, st, err := Nonregular(tc.n, tc.mindeg, tc.core, rand.NewPCG(uint64(i), 9))
			if err != nil {
				t.Fatal(err)
			}
			checkSimpleCSR(t, g)
			if g.Order() != tc.n {
				t.Fatalf("order %d", g.Order())
			}
			if !connected(g) {
				t.Fatal("not connected")
			}
			c, r := tc.core, tc.n-tc.core
			minDeg := g.Order()
			for v := range tc.n {
				d := g.Degree(v)
				minDeg = min(minDeg, d)
				if v < c {
					for w := range c {
						if w != v && !g.HasEdge(v, w) {
							t.Fatalf("core vertices %d, %d not adjacent", v, w)
						}
					}
				} else if d != tc.mindeg && d != tc.mindeg+1 {
					t.Fatalf("remainder vertex %d has degree %d, want %d or %d", v, d, tc.mindeg, tc.mindeg+1)
				}
			}
			if minDeg != tc.mindeg {
				t.Errorf("minimum degree %d, want %d", minDeg, tc.mindeg)
			}
			coreEdges := int64(c) * int64(c-1) / 2
			remEdges := int64(r) * int64(tc.mindeg) / 2
			if st.CoreEdges != coreEdges || g.Size() != coreEdges+remEdges+st.JoinEdges {
				t.Errorf("edges %d = core %d + remainder %d + join %d?", g.Size(), st.CoreEdges, remEdges, st.JoinEdges)
			}
			if want := float64(coreEdges) / float64(g.Size()); st.CoreFraction != want {
				t.Errorf("CoreFraction %g, want %g", st.CoreFraction, want)
			}
			if st.JoinEdges < int64(min(c, r-1)) || st.RemainderComponents < 1 {
				t.Errorf("implausible stats %+v", st)
			}
		})
	}
}

func TestNonregularErrors(t *testing.T) {
	src := rand.NewPCG(1, 2)
	for _, bad := range []struct{ n, mindeg, core int }{
		{100, 0, 10},  // mindeg < 1
		{100, 10, 10}, // core < mindeg+1
		{20, 4, 16},   // n-core < mindeg+1
		{101, 3, 10},  // (n-core)·mindeg odd
		{-1, 3, 10},
	} {
		if _, _, err := Nonregular(bad.n, bad.mindeg, bad.core, src); err == nil {
			t.Errorf("Nonregular(%d, %d, %d) accepted", bad.n, bad.mindeg, bad.core)
		}
	}
	if _, _, err := Nonregular(100, 3, 10, nil); err == nil {
		t.Error("nil source accepted")
	}
}

// BenchmarkNonregular: n = 2^16, a 1024-clique core and a 16-regular
// remainder, about 1.04·10^6 edges with core fraction about 1/2.
func BenchmarkNonregular(b *testing.B) {
	b.Run("n=2^16/mindeg=16/core=1024", func(b *testing.B) {
		src := rand.NewPCG(1, 2)
		var edges int64
		for b.Loop() {
			g, _, err := Nonregular(1<<16, 16, 1024, src)
			if err != nil {
				b.Fatal(err)
			}
			edges += g.Size()
		}
		b.ReportMetric(float64(edges)/b.Elapsed().Seconds(), "edges/s")
	})
}

// A clique core of 40 vertices on a random 4-regular remainder: minimum
// degree 4, and the core holds most of the edges.
func ExampleNonregular() {
	g, st, err := Nonregular(1000, 4, 40, rand.NewPCG(1, 2))
	if err != nil {
		panic(err)
	}
	fmt.Printf("n=%d edges=%d core edges=%d join edges=%d\n", g.Order(), g.Size(), st.CoreEdges, st.JoinEdges)
	fmt.Printf("core fraction f=%.3f: the core gets about m·f/c = %.1f balls a vertex at m = n\n", st.CoreFraction, 1000*st.CoreFraction/40)
	// Output:
	// n=1000 edges=2740 core edges=780 join edges=40
	// core fraction f=0.285: the core gets about m·f/c = 7.1 balls a vertex at m = n
}
