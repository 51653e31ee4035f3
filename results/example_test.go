package results_test

import (
	"context"
	"fmt"
	"os"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/results"
)

// Where the load goes on a real network: Zachary's karate club under
// graphical two-choice (a uniform edge, the lesser loaded end), m = 100n,
// 200 trials. The average load is 100: the member with a single tie holds
// 44 balls on average, members of degree 2 about 86, and those of degree 5
// and more about 117.
func ExamplePerVertex() {
	g, _, err := graphgen.LoadGraph("../testdata/graphs/karate.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	pv := results.NewPerVertex(g, nil)
	c := alloc.Config{Process: alloc.Graphical{Graph: g}, N: g.Order(), M: int64(100 * g.Order()), Seed: 1,
		Loads: func(_ int, loads []uint32) { pv.Add(loads) }}
	trials := make([]int, 200)
	for i := range trials {
		trials[i] = i
	}
	if err := alloc.Run(context.Background(), c, trials, 0, func(alloc.Result) error { return nil }); err != nil {
		fmt.Println(err)
		return
	}
	results.WriteDegreeTable(os.Stdout, pv.Classes())
	// Output:
	// load against degree (mean over the trials):
	//   degree  vertices  mean load  mean max load
	//        1         1      43.52          43.52
	//        2        11      85.59          99.64
	//        3         6        102          115.7
	//        4         6      105.8          117.7
	//        5         3      115.9          117.9
	//        6         2      116.5          117.8
	//        9         1      117.8          117.8
	//       10         1      117.9          117.9
	//       12         1      116.9          116.9
	//       16         1      117.8          117.8
	//       17         1      117.1          117.1
}
