package study_test

import (
	"context"
	"fmt"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/study"
)

// A small comparison: two-choice on the cycle and on a random 8-regular
// graph at two sizes, ten trials per point, with the bounds that apply
// (none here) and the reference they are set against: the worst case over
// Δ-regular graphs [KP06], which some graph of their degree attains.
func ExampleRun() {
	g := study.Grid{
		Processes: []string{"graph"},
		Graphs:    []graphgen.Spec{graphgen.MustParseSpec("cycle"), graphgen.MustParseSpec("regular:degree=8")},
		Ns:        []int{1 << 10, 1 << 12},
		Params:    alloc.Params{D: 2},
		Trials:    10,
		Seed:      1,
	}
	_, err := study.Run(context.Background(), g, func(r study.Row) error {
		bounds, worst := 0, "-"
		for _, b := range r.Bounds {
			if b.Kind == analysis.KindReference {
				worst = fmt.Sprintf("%.2f", b.Value)
			} else {
				bounds++
			}
		}
		fmt.Printf("%-16s n=%-5d max load %.1f (distribution %v), %d bounds apply, worst case %s\n",
			r.Topology, r.N, r.MaxLoad.Mean, r.MaxLoad.Counts, bounds, worst)
		return nil
	}, nil)
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// cycle            n=1024  max load 3.4 (distribution map[3:6 4:4]), 1 bounds apply, worst case 5.64
	// cycle            n=4096  max load 3.9 (distribution map[3:1 4:9]), 1 bounds apply, worst case 6.20
	// regular:degree=8 n=1024  max load 3.0 (distribution map[3:10]), 0 bounds apply, worst case 4.90
	// regular:degree=8 n=4096  max load 3.2 (distribution map[3:8 4:2]), 0 bounds apply, worst case 5.41
}
