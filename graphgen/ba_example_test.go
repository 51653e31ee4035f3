package graphgen_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/graphalloc/graphalloc/graphgen"
)

// A Barabási–Albert graph on 10^4 vertices, each new vertex bringing m = 3
// edges: exactly m·n − m(m+1)/2 edges, minimum degree m, and a heavy tail,
// the share of vertices of degree at least k close to m(m+1)/(k(k+1)).
func ExampleBarabasiAlbert() {
	const n, m = 10000, 3
	g, err := graphgen.BarabasiAlbert(n, m, rand.NewPCG(1, 2))
	if err != nil {
		fmt.Println(err)
		return
	}
	minDeg, maxDeg := n, 0
	for v := range n {
		minDeg, maxDeg = min(minDeg, g.Degree(v)), max(maxDeg, g.Degree(v))
	}
	fmt.Printf("n=%d |E|=%d δ=%d Δ=%d\n", g.Order(), g.Size(), minDeg, maxDeg)
	for _, k := range []int{6, 12, 24, 48} {
		at := 0
		for v := range n {
			if g.Degree(v) >= k {
				at++
			}
		}
		fmt.Printf("P(deg >= %2d) = %.4f, limit %.4f\n", k, float64(at)/n, float64(m*(m+1))/float64(k*(k+1)))
	}
	// Output:
	// n=10000 |E|=29994 δ=3 Δ=348
	// P(deg >=  6) = 0.2879, limit 0.2857
	// P(deg >= 12) = 0.0747, limit 0.0769
	// P(deg >= 24) = 0.0212, limit 0.0200
	// P(deg >= 48) = 0.0065, limit 0.0051
}
