package alloc_test

import (
	"context"
	"fmt"

	"github.com/graphalloc/graphalloc/alloc"
)

// Neighbours is a user's own rule: a uniform bin i and its successor
// i+1 (mod n); the ball goes to the lesser loaded of the two.
type Neighbours struct{}

func (Neighbours) Name() string      { return "neighbours" }
func (Neighbours) String() string    { return "neighbours" }
func (Neighbours) Check(n int) error { return nil }

func (Neighbours) Place(b *alloc.Bins, m int64, r *alloc.Rand) alloc.Stats {
	b.Update(func(L []uint32) int64 {
		n := uint64(len(L))
		for range m {
			i := r.Uint64n(n)
			j := i + 1
			if j == n {
				j = 0
			}
			if L[j] < L[i] {
				i = j
			}
			L[i]++
		}
		return m
	})
	return alloc.Stats{Probes: 2 * m, MaxProbes: 2}
}

// A rule written outside the package runs on the same engine, with the same
// results, trial seeds and workers, as the built-in processes.
func Example_customProcess() {
	c := alloc.Config{Process: Neighbours{}, N: 1 << 16, M: 1 << 16, Seed: 1}
	err := alloc.Run(context.Background(), c, []int{0, 1, 2}, 0, func(r alloc.Result) error {
		fmt.Print(r.MaxLoad, " ")
		return nil
	})
	fmt.Println(err)
	// Output: 5 5 5 <nil>
}
