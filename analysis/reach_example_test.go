package analysis_test

import (
	"fmt"
	"math/rand/v2"

	ybgraph "github.com/yourbasic/graph"

	"github.com/graphalloc/graphalloc/analysis"
)

// The reachability polynomial of a 4-cycle rooted at a vertex, its edge
// connectivity read from the derivatives at p = 1, and a Monte Carlo
// estimate beside the exact value. By hand: the neighbours 1 and 3 are
// reached directly or the long way round, p + (1 − p)p³ each; the opposite
// vertex 2 through either two-edge path, 1 − (1 − p²)² = 2p² − p⁴; so
// EV = 1 + 2p + 2p² + 2p³ − 3p⁴, EV′(1) = 2 + 4 + 6 − 12 = 0 and
// EV″(1) = 4 + 12 − 36 = −20.
func ExampleReachPolynomial() {
	g := ybgraph.New(4)
	for v := range 4 {
		g.AddBoth(v, (v+1)%4)
	}
	r, err := analysis.ReachPolynomial(g, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("coefficients of 1, p, p², …:", r.Coef)
	fmt.Println("EV′(1), EV″(1):", r.DerivAt1(1), r.DerivAt1(2))
	fmt.Println("edge connectivity:", r.EdgeConnectivity())
	fmt.Printf("EV(½) = %.4f\n", r.Eval(0.5))
	est, _ := analysis.ReachMonteCarlo(g, 0, 0.5, 100000, rand.NewPCG(1, 2))
	fmt.Printf("Monte Carlo: %.2f, 95%% CI contains EV(½): %v\n", est.Mean, est.CI95[0] <= r.Eval(0.5) && r.Eval(0.5) <= est.CI95[1])
	// Output:
	// coefficients of 1, p, p², …: [1 2 2 2 -3]
	// EV′(1), EV″(1): 0 -20
	// edge connectivity: 2
	// EV(½) = 2.5625
	// Monte Carlo: 2.57, 95% CI contains EV(½): true
}
