// Package alloc simulates balanced allocation: m balls placed one after
// another into n bins by a placement rule, the "balls into bins" model of
// load balancing, hashing and scheduling.
//
// # Rules, processes and their descriptors
//
// A Rule is a value holding a placement rule's parameters. Most rules are
// Processes, whose balls the per-bin engine places in Bins with Place; a
// rule that needs a state of its own (weighted balls on real loads) is a
// TrialRunner and runs whole trials. Both interfaces can be implemented
// outside this package (see the custom-process example). The rules here:
//
//	OneChoice{}                     a uniform bin; max load ≈ ln n / ln ln n for m = n
//	Greedy{D: 2}                    d uniform bins, least loaded wins;
//	                                ln ln n / ln d + O(1) [ABKU99]
//	Left{D: 2}                      one bin in each of d groups, ties left;
//	                                ln ln n / (d ln φ_d) + O(1) [Vöcking 2003]
//	Graphical{Graph: g}             a uniform edge of g, lesser loaded end;
//	                                log log n + O(log n / log(Δ/log⁴ n)) on
//	                                Δ-regular graphs [Kenthapadi, Panigrahy 2006]
//	Graphical{Graph: g, OneMinusBeta: 0.5}
//	                                graphical (1+β): that end with probability
//	                                β, else a uniform end; O(log n / (βσ)) [PTW15]
//	FirstDiff{D: 2}                 probe until a load differs from the first
//	                                probe's (or a cap) [Augustine et al. 2016]
//	MaxOf{D: 2}                     d uniform bins, the MOST loaded wins [Redlich]
//	OnePlusBeta{Beta: 0.5}          Greedy[2] with probability β, else one
//	                                choice; gap Θ(log n / β) [PTW15]
//	Rank{D: 2.5}                    one of the i heaviest with probability
//	                                exactly (i/n)^d, real d [Talwar, Wieder]
//	Grouped{D: 4}, Window{D: 4}     two groups (windows) of d/2 contiguous bins
//	                                [Kenthapadi, Panigrahy 2006]
//	Weighted{D: 2, Weights: w}      Greedy[d] with random ball weights [TW07]
//	Hyper{H: h}                     a uniform hyperedge of h, its least loaded
//	                                vertex; O(1) for balanced hyperedges of
//	                                Ω(log n) vertices [Godfrey 2008]
//	LocalSearch{Graph: g}           a uniform vertex of g, then steps to a least
//	                                loaded neighbour while one is lighter;
//	                                Θ(log log n) on constant-degree expanders
//	                                [Bogdan, Sauerwald, Stauffer, Sun 2013]
//	GBounded{Tolerance: 2},         two candidates; loads within g go to the
//	GMyopic{Tolerance: 2}           heavier (the adversary) or a coin; gap
//	                                Θ(g/log g · log log n), g ≤ log n [LS22]
//	Noisy{Sigma: 1}                 two candidates, loads read with N(0, σ²)
//	                                noise, the lesser reading wins [LS22]
//
// The definitions, including the tie rules, are those of docs/theory.md
// (section Processes); each type's doc gives its bound and citation.
//
// Each of these rules has a Descriptor, declared beside it: its
// command-line name, parameters and their checks, engines, memory, and the
// keys (Family, MeanField) by which package analysis finds its bounds and
// fluid limit. Lookup finds a descriptor by name, Descriptors lists them,
// and Descriptor.New builds the rule from Params.
//
// # Randomness and reproducibility
//
// Every random choice comes from a *Rand handed to Place: a wyrand
// generator whose state the hot loops keep in registers. Trial i of a run
// with seed s uses TrialRand(s, i), derived from (s, i) alone, so Run gives
// the same results in the same order whatever the number of workers, and
// any subset of trials (a shard) can be run on its own.
//
// # Engines
//
// Bins is the per-bin engine, for any topology: one byte a bin from 2^17
// bins while every load is below 255 for the processes listed at Bins,
// four bytes otherwise (promoted in place, never overflowing). Place
// runs a loop specialised to the process, with no interface call,
// allocation or division per ball; the batch interface lets Config.Trial
// stop between batches for cancellation and for the --every series without
// changing any result.
//
// EngineLevels (Config.Engine) is the level-count engine for the
// exchangeable processes on the complete graph (Descriptor.Levels): a count
// per load level instead of a load per bin, so its memory does not depend
// on n (up to 2^62). Both engines give the same
// distribution of results, not the same numbers for a seed.
//
// # Batches
//
// Config.Batch = B runs the batched setting [Berenbrink et al. 2012; Los,
// Sauerwald 2022]: each ball chooses its bin from the loads at the start of
// its batch of B balls. Every Process of this package has its rule written
// once for it (see batch.go), and the batched driver defers each batch's
// increments to the batch's end, so the draws and decisions are the
// sequential rule's and the loads are exactly those of the setting. B ≤ 1
// runs the sequential loops unchanged.
//
// # Running trials
//
//	c := alloc.Config{Process: alloc.Greedy{D: 2}, N: 1 << 16, M: 1 << 16, Seed: 1}
//	err := alloc.Run(ctx, c, []int{0, 1, 2}, 0, func(r alloc.Result) error {
//		fmt.Println(r.Trial, r.MaxLoad, r.LoadCounts)
//		return nil
//	})
package alloc

// The specialised hot loops, one per sampler × decision × pipeline, are
// written from templates (gen_loops.go): a generic loop would call its
// sampler through the GC-shape dictionary, 22–33% slower a ball.
//go:generate go run gen_loops.go
