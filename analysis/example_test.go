package analysis_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/graphalloc/graphalloc/alloc"

	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
)

// Greedy[2] fluid limit after n balls: the fraction of bins with at least
// i balls. s_1 = tanh 1.
func ExampleTails() {
	s, err := analysis.Tails(analysis.FluidProcess{Family: alloc.FamilyGreedy, D: 2}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, v := range s[:6] {
		fmt.Printf("s_%d = %.6f\n", i, v)
	}
	// Output:
	// s_0 = 1.000000
	// s_1 = 0.761594
	// s_2 = 0.229505
	// s_3 = 0.008895
	// s_4 = 0.000006
	// s_5 = 0.000000
}

// The finite-n prediction from the fluid limit: P(max load ≥ i) for
// Greedy[2] with n = m = 2^20, and its most likely value.
// The fluid limit of the graph process as it runs on K_n: under
// walk:len=3 a ball sees the walk's 4 vertices, Greedy[4]; on a cycle no
// limit is known.
func ExampleFluidOf() {
	graph, _ := alloc.Lookup("graph")
	n := 1 << 16
	cycle, _ := graphgen.Cycle(n)
	for _, g := range []graphgen.Graph{graphgen.Complete(n), cycle} {
		p := alloc.Params{Graph: g, Sample: alloc.SampleWalk(3)}
		f, err := analysis.FluidOf(analysis.FluidRun{Process: graph, Params: p, N: float64(n), Load: 1})
		if why, none := analysis.WhyNoFluid(err); none {
			fmt.Println("none:", why)
			continue
		}
		fmt.Printf("%v: s_2 = %.4f, predicted max load %d\n", f.Rule, f.Tails[2], f.PredictedMaxLoad)
	}
	// Output:
	// Greedy[4]: s_2 = 0.1408, predicted max load 3
	// none: a walk's vertices lie close together on this graph, their loads correlated; the mean-field limits are known on the complete graph only
}

func ExampleMaxLoadDist() {
	s, _ := analysis.Tails(analysis.FluidProcess{Family: alloc.FamilyGreedy, D: 2}, 1)
	n := float64(1 << 20)
	for i, p := range analysis.MaxLoadDist(s, n)[:6] {
		fmt.Printf("P(max >= %d) = %.3g\n", i, p)
	}
	fmt.Println("predicted max load:", analysis.PredictedMaxLoad(s, n))
	// Output:
	// P(max >= 0) = 1
	// P(max >= 1) = 1
	// P(max >= 2) = 1
	// P(max >= 3) = 1
	// P(max >= 4) = 0.998
	// P(max >= 5) = 1.4e-06
	// predicted max load: 4
}

func ExamplePhi() {
	for d := 1; d <= 4; d++ {
		fmt.Printf("φ_%d = %.4f\n", d, analysis.Phi(d))
	}
	// Output:
	// φ_1 = 1.0000
	// φ_2 = 1.6180
	// φ_3 = 1.8393
	// φ_4 = 1.9276
}

func ExampleBounds() {
	q := analysis.Query{N: 1 << 16, M: 1 << 16, Process: "greedy", Params: alloc.Params{D: 2}}
	for _, b := range analysis.Bounds(q) {
		fmt.Printf("%-26s %-28s = %.4f (%s, applies: %v)\n", b.Name, b.Formula, b.Value, b.Kind, b.Applies)
	}
	// Output:
	// max load, m = n [ABKU99]   ln ln n / ln d ± O(1)        = 3.4712 (leading, applies: true)
	// max load, any m [BCSV06]   m/n + ln ln n / ln d ± O(1)  = 4.4712 (leading, applies: true)
	// gap, any m [BCSV06]        ln ln n / ln d ± O(1)        = 3.4712 (leading, applies: true)
}

// Ten max loads, a whole number at least 0 each: an exact interval for
// their mean, each value's share with its own interval, and what agreeing
// trials do and do not show.
func ExampleSummarizeAtLeast() {
	maxLoads := []float64{4, 4, 5, 4, 4, 4, 4, 5, 4, 4}
	s := analysis.SummarizeAtLeast(maxLoads, 0)
	fmt.Printf("mean %.2f, std %.3f, 95%% CI [%.3f, %.3f] (%s)\n", s.Mean, s.Std, s.CI95[0], s.CI95[1], s.IntervalMethod)
	for _, v := range s.Values {
		fmt.Printf("max load %g in %d of %d trials, 95%% CI for P(max = %g): [%.2f, %.2f]\n", v.Value, v.Count, s.N, v.Value, v.P95[0], v.P95[1])
	}

	s = analysis.SummarizeAtLeast([]float64{4, 4, 4, 4, 4, 4, 4, 4, 4, 4}, 0)
	fmt.Printf("%s; mean in [%.3f, %.3f]\n", s.Agreement(), s.CI95[0], s.CI95[1])

	s = analysis.SummarizeAtLeast([]float64{3}, 0)
	fmt.Println("one trial:", s.IntervalMethod)
	// Output:
	// mean 4.20, std 0.422, 95% CI [3.663, 4.954] (binomial-tails)
	// max load 4 in 8 of 10 trials, 95% CI for P(max = 4): [0.44, 0.97]
	// max load 5 in 2 of 10 trials, 95% CI for P(max = 5): [0.03, 0.56]
	// all 10 trials gave 4 (P(other) ≤ 0.31); mean in [3.692, 4.308]
	// one trial: none
}

// The whole workflow: simulate Greedy[2] (trial i seeded by (1, i) alone),
// summarise the maximum loads over the trials and set them against the
// fluid-limit prediction and the [ABKU99] leading term.
func Example() {
	const n, trials = 1 << 12, 10
	maxLoads := make([]float64, trials)
	for i := range trials {
		r := rand.New(rand.NewPCG(1, uint64(i)))
		bin := func() int { hi, _ := bits.Mul64(r.Uint64(), n); return int(hi) } // uniform in [0, n)
		load := make([]int, n)
		for range n { // m = n balls
			a, b := bin(), bin()
			if load[b] < load[a] {
				a = b
			}
			load[a]++
		}
		maxLoads[i] = float64(slices.Max(load))
	}
	s := analysis.SummarizeAtLeast(maxLoads, 0)
	fmt.Printf("simulated max load: mean %.1f, counts %v\n", s.Mean, s.Counts)

	tails, _ := analysis.Tails(analysis.FluidProcess{Family: alloc.FamilyGreedy, D: 2}, 1)
	fmt.Println("fluid-limit prediction:", analysis.PredictedMaxLoad(tails, n))

	b := analysis.Bounds(analysis.Query{N: n, M: n, Process: "greedy"})[0]
	fmt.Printf("%s: %s = %.2f\n", b.Name, b.Formula, b.Value)
	// Output:
	// simulated max load: mean 3.1, counts map[3:9 4:1]
	// fluid-limit prediction: 3
	// max load, m = n [ABKU99]: ln ln n / ln d ± O(1) = 3.06
}
