package alloc

import (
	"fmt"

	"github.com/graphalloc/graphalloc/graphgen"
)

// GBounded is the g-Bounded process of Los and Sauerwald [LS22]: Two-Choice
// with a load comparison that an adversary may decide whenever it is close.
// Each ball draws two candidate bins; if their loads differ by more than
// Tolerance (the g of [LS22]) the comparison is right and the ball goes to
// the lesser loaded, otherwise the adversary decides, and this is its worst case, the one [LS22] draw and
// name g-Bounded: it sends the ball to the MORE loaded candidate. Equal
// loads make both "more loaded": by default (TiesRandom) the ball goes to
// either with probability 1/2; TiesLeft sends it to the candidate drawn
// first (the smaller id of an edge, the sampled vertex under vertex
// sampling). Tolerance 0 is Two-Choice (Greedy[2]) itself.
//
// Candidates: with Graph nil or graphgen.Complete, two independent uniform
// bins (with replacement, as in [LS22]); on a *graphgen.CSR or a
// graphgen.Circulant, the two ends of a uniform edge (SampleEdge), or a
// uniform vertex and a uniform neighbour (SampleVertex), exactly as
// Graphical draws them; on a *graphgen.EdgeArray, edges only.
//
// Known bounds, on the complete graph [LS22]: for every m ≥ n the gap
// (max load − m/n) is O(g + log n) w.h.p., in g-Bounded's setting of an
// adaptive adversary that decides every comparison within g (this process
// is one such adversary); for g ≤ log n it is O(g/log g · log log n), and
// [LS22] show matching lower bounds, so that g-Bounded and g-Myopic both
// have gap Θ(g/log g · log log n) in that range. analysis.Bounds evaluates
// them (FamilyGBounded). The fluid limit on the complete graph,
// ds_i/dt = 2(s_{i−1} − s_i)·Σ_b p_b·f(i−1−b) with p_b = s_b − s_{b+1} and
// f(δ) the probability that a candidate δ balls above the other takes the
// ball (1 for δ < −g, 0 for −g ≤ δ < 0, 1/2 at 0, 1 for 0 < δ ≤ g, 0 for
// δ > g), is solved by analysis.Tails (docs/theory.md).
//
// [LS22] D. Los, T. Sauerwald. Balanced allocations with the choice of
// noise. PODC 2022; J. ACM 70(6), 2023.
type GBounded struct {
	// Tolerance is g: loads within g of each other count as close.
	Tolerance int
	Graph     graphgen.Graph
	Sample    Sampling
	Ties      Ties
}

var gBoundedDescriptor = twoSample(Descriptor{
	Name:     "g-bounded",
	Synopsis: "g-Bounded: two candidates (-g: an edge); loads within --g go to the MORE loaded (the adversary), else the lesser",
	Uses:     ParamG,
	Family:   FamilyGBounded,
	build: func(p Params) Rule {
		return GBounded{Tolerance: p.Tolerance, Graph: p.Graph, Sample: p.Sample, Ties: p.Ties}
	},
})

// Name returns the command-line name, "g-bounded".
func (GBounded) Name() string { return gBoundedDescriptor.Name }

// String returns "g-Bounded, g = G".
func (p GBounded) String() string { return fmt.Sprintf("g-Bounded, g = %d", p.Tolerance) }

// Check requires 0 ≤ Tolerance ≤ MaxG and a graph with n vertices that the loops
// support (nil, Complete, CSR or Circulant), with an edge to sample.
func (p GBounded) Check(n int) error {
	return gBoundedDescriptor.checkRun(n, 0, Params{Tolerance: p.Tolerance, Graph: p.Graph, Sample: p.Sample})
}

// table returns the decision table.
func (p GBounded) table() *twoRule {
	return newTwoRule(ruleBounded, p.Tolerance, 0, p.Ties.resolve(TiesRandom) == TiesLeft)
}

// Place throws m balls, two probes each (one when vertex sampling finds an
// isolated vertex).
func (p GBounded) Place(b *Bins, m int64, r *Rand) Stats { return placePair(p, b, m, r) }

// rule returns the rule on n bins for the batched driver (see rule): the
// candidates and the word w drawn as Place draws them, the same decision.
func (p GBounded) rule(n int) rule { return p.source().rule(p.table(), n) }

// source is where p takes its candidates from.
func (p GBounded) source() pairSource { return pairSource{p.Graph, p.Sample} }
