// Package queue simulates the supermarket model: n FIFO servers, each
// serving at rate 1 with exponential service times, jobs arriving as a
// Poisson process of rate λn (λ < 1), each joining the shortest of its
// candidate queues, ties broken uniformly at random [Mit96, VDK96]. The
// candidates come from a Sampler: d uniform queues (the classic model;
// d = 1 is n independent M/M/1 queues), both ends of a uniform edge of a
// graph [Gast15], or the vertex where the job appears and d − 1 uniform
// neighbours of it [BMW19].
//
//	c := queue.Config{N: 1 << 14, D: 2, Lambda: 0.9, Time: 200, Warmup: -1, Seed: 1}
//	tr, err := c.Trial(ctx, 0)
//	// tr.Tails[i-1].Mean ≈ s_i = λ^(2^i − 1); tr.MeanSojourn ≈ Σ s_i / λ
//
// # Simulation
//
// Both engines run the uniformised chain, exactly: events at the constant
// rate (1 + λ)n, each an arrival with probability λ/(1 + λ) and otherwise
// a completion at a uniform server, which does nothing at an idle one, so
// busy servers complete at rate 1 each (servers.go). The per-server engine
// keeps a queue length per server (4 bytes) and, from n = 2^17, draws
// events 32 ahead with their memory prefetched (pipe.go): the same events.
// The level engine keeps only the number of queues at each length, for
// exchangeable servers (uniform sampling, or K_n), so n may reach 2^62 in
// a few kilobytes (levels.go). Randomness is alloc's generator: trial i of
// seed s depends on (s, i) alone, whatever the number of workers.
//
// # Measurements
//
// Over the window [warm-up, Time]: s_i, the time-averaged fraction of
// queues holding at least i jobs (integrated lazily, O(1) an event); the
// mean queue Σ s_i; the mean sojourn time by Little's law, mean queue / λ;
// the longest queue. The horizon is cut into batches (200 by default). The
// warm-up is given, or chosen by MSER on the batches' mean queue
// (analysis.MSER), and a cut at the edge of its search is reported as no
// steady state found. Intervals are batch means within a trial
// (analysis.BatchMeans, groups of five correlation times or more) and
// Student t across trials (Summarize).
//
// # Predictions
//
// FixedPoint is the stationary limit of uniform d-sampling as n → ∞,
// s_i = λ^((d^i − 1)/(d − 1)) (d = 1: λ^i, exact for every n); ODE and
// ODEAverage integrate its mean-field equations
// ds_i/dt = λ(s_{i−1}^d − s_i^d) − (s_i − s_{i+1}) from empty queues.
// BMW19 prove the same limit on graphs whose minimum degree tends to
// infinity with max/min degree → 1 in each component (and on G(n, p) with
// mean degree c, c/ln n → ∞); Predictions shows it only for graph
// families whose spec grows the degree with n. PairApproximation is
// Gast's pair approximation for edge sampling on a k-regular graph,
// derived for any k and shown for k = 2 to 4 (an approximation with no
// error bound). Each Prediction says its kind, source and regime, or why
// it does not apply.
//
// References: [Mit96] M. Mitzenmacher, The power of two choices in
// randomized load balancing, 1996; [VDK96] N. D. Vvedenskaya, R. L.
// Dobrushin, F. I. Karpelevich, Queueing system with selection of the
// shortest of two queues: an asymptotic approach, 1996; [Gast15] N. Gast,
// The power of two choices on graphs: the pair-approximation is accurate?,
// SIGMETRICS PER 2015; [BMW19] A. Budhiraja, D. Mukherjee, R. Wu,
// Supermarket model on graphs, Ann. Appl. Probab. 2019.
//
// Of the rest of the module, queue imports alloc (the generator),
// analysis (MSER, batch means, Student t) and graphgen (the graphs).
package queue
