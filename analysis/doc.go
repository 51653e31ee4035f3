// Package analysis holds the predictions that graphalloc's simulations are
// compared against: the fluid limits of the allocation processes, the
// theoretical bounds on their maximum load and gap, and the statistics that
// summarise trials, and describes graphs (Describe: degrees, components,
// a certified spectral gap and expansion bounds). Of the rest of the
// module it imports alloc (the process descriptors the bounds are listed
// by), graphgen (for Describe) and internal/jsonnull (Summary's JSON).
//
// # Fluid limits
//
// Throw m = t·n balls into n bins and let s_i(t) be the fraction of bins
// holding at least i balls (s_0 = 1). As n → ∞ the s_i follow
// deterministic differential equations, one per level [Mitzenmacher 1996].
// For greedy with d choices a ball raises a bin from load i−1 to i exactly
// when the least loaded of its d candidates holds i−1 balls, so
//
//	ds_i/dt = s_{i−1}^d − s_i^d,
//
// and for d = 2, s_1(t) = tanh t. Tails solves these equations (and those
// of one-choice, left, unbalanced and one-plus-beta; see FluidProcess) to
// about 1e-12 absolute accuracy:
//
//	s, err := analysis.Tails(analysis.FluidProcess{Name: "greedy", D: 2}, 1)
//	// s = [1 0.761594 0.229505 0.008895 0.000006 …]
//
// FluidOf gives the limit of a process as it runs: its descriptor picks the
// rule from its parameters, its sampler and its graph (the graph process
// under walk:len=L on K_n is Greedy[L+1]), or says why there is none (off
// the complete graph, in batches, no equation); every command prints the
// prediction beside a measurement from there.
//
// The tails decay doubly exponentially: ln s_{i+1} / ln s_i → d for greedy
// and → φ_d^d for left [Vöcking 2003], which is why the maximum load grows
// like ln ln n. For a finite n, the number of bins at level i is close to
// Poisson with mean n·s_i when that is small, so P(max load ≥ i) ≈
// 1 − exp(−n·s_i): MaxLoadDist gives that distribution and
// PredictedMaxLoad its mode — 4 for greedy with d = 2 and n = m = 2^20.
//
// # Bounds
//
// Bounds lists the theorems of docs/theory.md that speak to a Query (process, n,
// m, d, and what is known of the graph), each evaluated:
//
//	for _, b := range analysis.Bounds(analysis.Query{N: 1 << 16, M: 1 << 16, Process: "greedy"}) {
//		fmt.Println(b.Name, b.Value, b.Applies)
//	}
//	// max load, m = n [ABKU99] 3.4712 true   (ln ln n / ln 2)
//	// …
//
// Most of these results hold up to an unknown constant or an additive
// O(1): Value keeps only the explicit terms (every O(f) read as f), Formula
// shows what was dropped, Base says which logarithm the source uses (ln for
// [ABKU99] and its descendants, log₂ for the graph papers). Each bound
// says what it is about and how to read it: Quantity (the max load, the gap
// max − m/n, or the spread max − min; MaxLoadAt converts a gap bound to a
// max load at a given m/n for plotting), Kind ("upper" or "lower" for
// one-sided bounds with an explicit leading term, "leading" for a leading
// term with its constant, up to ± O(1) or a 1 + o(1) factor as Precision
// says, "order" for O, Ω and Θ statements with unknown constants, and
// "reference" for the worst case over Δ-regular graphs, which some graph
// attains but which bounds no given graph), and Regime (m = n, any m, or
// heavily loaded from m/n >= HeavyFrom). A bound whose assumptions fail
// for the query (m/n outside its regime, Δ ≤ log⁴ n, an odd d for
// grouped, …) is still returned, with Applies false and the reason; one
// with no number to give (weighted balls [TW07]) has NoValue set and
// encodes its value as JSON null.
//
// # Spectral gaps, certified
//
// DescribeWith reports the spectral gap 1 − μ₂ of the random walk D⁻¹A as
// an interval [GapLower, GapUpper] that contains it, and derives every
// lower bound (Cheeger's σ ≥ gap/2, the Expansion handed to the bounds)
// from the lower end:
//
//	st := analysis.DescribeWith(g, analysis.DescribeOptions{Tol: 1e-4})
//	sp := st.Spectral // sp.GapLower ≤ gap ≤ sp.GapUpper when sp.Certified
//	sigma, ok := analysis.ExpansionLowerBound(g, analysis.DescribeOptions{})
//
// The gap is exact for K_n, circulants, cycles and (given their Plan) tori
// and hypercubes. Otherwise Lanczos finds μ₂; the Rayleigh quotient of its
// vector proves the upper end of the gap, and the lower end is proved by a
// Cholesky factorisation up to 2048 vertices or, above, by a randomised
// Chebyshev test that a false bound passes with probability at most 1e-6.
// When no certificate can be given the lower end is 0 and Certified false.
// docs/theory.md ("Certified spectral gaps") has the argument.
//
// # Statistics
//
// SummarizeAtLeast reduces per-trial values (max load, gap) to mean, sample
// standard deviation, range, a 95% confidence interval for the mean that
// never reaches below the quantity's floor (0 for both), and, for
// integers, the count of each value with a Clopper–Pearson interval for
// its probability. Max loads are a few consecutive integers, for which
// the usual mean ± t·s/√N is wrong both ways: from trials 3 and 4 it reads
// [−2.85, 9.85], and from agreeing trials [4, 4]. The interval there is
// exact instead: on the values one step either side of those seen, the
// mean is a sum of tail probabilities P(X ≥ j), each bounded by
// Clopper–Pearson with a Bonferroni share of the 5%, so that ten trials
// that all gave 4 read [3.69, 4.31] and "all 10 trials gave 4 (P(other) ≤
// 0.31)". One trial gives no interval (IntervalNone). FitLogLog regresses
// max load on ln ln n across sizes: for greedy the slope estimates 1/ln d.
//
// For one long run of a system that settles (the supermarket model, in
// package queue), MSER chooses from a series of batch averages how many
// leading batches to discard as warm-up, and BatchMeans gives the mean of
// the rest with a Student-t interval over groups long against the series'
// correlation (IntegratedTime, Geyer's initial positive sequence).
//
// # The reachability polynomial
//
// For a rooted graph whose edges work independently with probability p,
// EV(G; p) is the expected number of vertices joined to the root [Gordon,
// Jager, Networks 2010]. ReachPolynomial computes it exactly (big-integer
// coefficients, up to MaxReachExactEdges edges), and its derivatives at
// p = 1 give the edge connectivity: a connected G is k-edge-connected iff
// EV′(G; 1) = … = EV^(k−1)(G; 1) = 0 (ReachPoly.KEdgeConnected,
// EdgeConnectivity). ReachMonteCarlo estimates EV(G; p) with a confidence
// interval on graphs of any size.
package analysis
