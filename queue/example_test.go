package queue_test

import (
	"context"
	"fmt"

	"github.com/graphalloc/graphalloc/queue"
)

// The supermarket model with two uniform choices at λ = 0.9: the measured
// tails beside the fixed point λ^(2^i − 1).
func Example() {
	c := queue.Config{N: 1 << 12, D: 2, Lambda: 0.9, Time: 400, Warmup: -1, Seed: 1}
	tr, err := c.Trial(context.Background(), 0)
	if err != nil {
		panic(err)
	}
	fp := queue.FixedPoint(c.Lambda, c.D, 1e-9)
	for i := 1; i <= 4; i++ {
		fmt.Printf("s_%d %.2f (fixed point %.2f)\n", i, tr.Tails[i-1].Mean, fp[i])
	}
	fmt.Printf("mean sojourn %.1f (fixed point %.1f)\n", tr.MeanSojourn.Mean, queue.MeanOf(fp)/c.Lambda)
	// Output:
	// s_1 0.90 (fixed point 0.90)
	// s_2 0.73 (fixed point 0.73)
	// s_3 0.47 (fixed point 0.48)
	// s_4 0.20 (fixed point 0.21)
	// mean sojourn 2.6 (fixed point 2.6)
}
