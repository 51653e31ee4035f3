package alloc_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
)

// Greedy[2] against one choice: n = m = 2^16, three trials each.
func Example() {
	for _, p := range []alloc.Process{alloc.OneChoice{}, alloc.Greedy{D: 2}} {
		c := alloc.Config{Process: p, N: 1 << 16, M: 1 << 16, Seed: 1}
		fmt.Print(p.Name(), ":")
		err := alloc.Run(context.Background(), c, []int{0, 1, 2}, 0, func(r alloc.Result) error {
			fmt.Print(" ", r.MaxLoad)
			return nil
		})
		if err != nil {
			fmt.Println(err)
		}
		fmt.Println()
	}
	// Output:
	// one-choice: 10 7 7
	// greedy: 3 3 4
}

// Two-choice on a random 8-regular graph: each ball takes a uniform edge
// and goes to the lesser loaded end.
func ExampleGraphical() {
	g, _, err := graphgen.RandomRegular(1<<12, 8, rand.NewPCG(1, 2))
	if err != nil {
		fmt.Println(err)
		return
	}
	b := alloc.NewBins(g.Order())
	p := alloc.Graphical{Graph: g}
	p.Place(b, int64(g.Order()), alloc.TrialRand(1, 0))
	counts, _ := b.Counts()
	fmt.Println("bins at load 0, 1, 2, ...:", counts)
	// Output:
	// bins at load 0, 1, 2, ...: [950 2243 856 47]
}
