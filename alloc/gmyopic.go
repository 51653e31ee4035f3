package alloc

import (
	"fmt"

	"github.com/graphalloc/graphalloc/graphgen"
)

// GMyopic is the g-Myopic process of Los and Sauerwald [LS22] (g-Myopic-Comp
// in the paper): each ball draws two candidate bins; if their loads differ
// by at most Tolerance (g) it goes to one of the two chosen uniformly at
// random, otherwise to the lesser loaded. Equal loads are within g, so
// the definition itself breaks ties by a fair coin and the tie rule is
// not used. Tolerance 0 is Two-Choice (Greedy[2]) with random ties.
//
// Candidates as for GBounded: two independent uniform bins with Graph nil or
// graphgen.Complete, or an edge or a vertex and a neighbour of a
// *graphgen.CSR or a graphgen.Circulant (an edge of a *graphgen.EdgeArray),
// drawn as Graphical draws them.
//
// Known bounds, on the complete graph [LS22]: g-Myopic is one of the
// adversaries of the g-Bounded setting, so its gap is O(g + log n) w.h.p.
// for every m ≥ n, and O(g/log g · log log n) for g ≤ log n; [LS22] show
// it is Θ(g/log g · log log n) in that range, as for g-Bounded. Fluid
// limit on the complete graph (docs/theory.md; analysis.Tails with
// FamilyGMyopic): a ball raises a bin from load j = i−1 iff the candidate
// that takes it holds j balls; summed over the other candidate's load b,
//
//	ds_i/dt = 2(s_{i−1} − s_i)·(s_{j+g+1} + ½·(s_{j−g} − s_{j+g+1})),  j = i−1,
//
// (s_k = 1 for k ≤ 0): the other candidate is more than g above (the ball
// is ours), or within g (a coin).
//
// [LS22] D. Los, T. Sauerwald. Balanced allocations with the choice of
// noise. PODC 2022; J. ACM 70(6), 2023.
type GMyopic struct {
	// Tolerance is g: loads within g of each other count as close.
	Tolerance int
	Graph     graphgen.Graph
	Sample    Sampling
}

var gMyopicDescriptor = twoSample(Descriptor{
	Name:     "g-myopic",
	Synopsis: "g-Myopic: two candidates (-g: an edge); loads within --g: a uniform one of the two, else the lesser",
	Uses:     ParamG,
	Family:   FamilyGMyopic,
	build:    func(p Params) Rule { return GMyopic{Tolerance: p.Tolerance, Graph: p.Graph, Sample: p.Sample} },
})

// Name returns the command-line name, "g-myopic".
func (GMyopic) Name() string { return gMyopicDescriptor.Name }

// String returns "g-Myopic, g = G".
func (p GMyopic) String() string { return fmt.Sprintf("g-Myopic, g = %d", p.Tolerance) }

// Check requires 0 ≤ Tolerance ≤ MaxG and a supported graph with n vertices (see
// GBounded.Check).
func (p GMyopic) Check(n int) error {
	return gMyopicDescriptor.checkRun(n, 0, Params{Tolerance: p.Tolerance, Graph: p.Graph, Sample: p.Sample})
}

func (p GMyopic) table() *twoRule { return newTwoRule(ruleMyopic, p.Tolerance, 0, false) }

// Place throws m balls, two probes each (one when vertex sampling finds an
// isolated vertex).
func (p GMyopic) Place(b *Bins, m int64, r *Rand) Stats { return placePair(p, b, m, r) }

// rule returns the rule on n bins for the batched driver (see rule): the
// candidates and the word w drawn as Place draws them, the same decision.
func (p GMyopic) rule(n int) rule { return p.source().rule(p.table(), n) }

// source is where p takes its candidates from.
func (p GMyopic) source() pairSource { return pairSource{p.Graph, p.Sample} }
