package alloc_test

import (
	"context"
	"fmt"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
)

// ring is a graph type of the caller's own: the cycle on n vertices,
// implementing graphgen.Graph with nothing stored.
type ring int

func (r ring) Order() int     { return int(r) }
func (r ring) Size() int64    { return int64(r) }
func (r ring) Degree(int) int { return 2 }
func (r ring) Visit(v int, do func(w int, c int64) bool) bool {
	n := int(r)
	return do((v+n-1)%n, 0) || do((v+1)%n, 0)
}

// A graph of the caller's own type runs as graphgen's do: NewProcess lists
// it once into a CSR, and the trials are those of the same graph built by
// graphgen (here the cycle).
func Example_userGraph() {
	cycle, err := graphgen.Cycle(1 << 12)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, g := range []graphgen.Graph{ring(1 << 12), cycle} {
		p, err := alloc.NewProcess("graph", alloc.Params{Graph: g})
		if err != nil {
			fmt.Println(err)
			return
		}
		c := alloc.Config{Process: p, N: g.Order(), M: int64(g.Order()), Seed: 1}
		if err := c.Check(); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%T:", g)
		err = alloc.Run(context.Background(), c, []int{0, 1, 2}, 0, func(r alloc.Result) error {
			fmt.Print(" ", r.LoadCounts)
			return nil
		})
		if err != nil {
			fmt.Println(err)
		}
		fmt.Println()
	}
	// Output:
	// alloc_test.ring: [1015 2149 852 77 3] [1054 2075 881 85 1] [1035 2111 869 77 4]
	// *graphgen.CSR: [1015 2149 852 77 3] [1054 2075 881 85 1] [1035 2111 869 77 4]
}
