package alloc

import (
	"fmt"

	"github.com/graphalloc/graphalloc/graphgen"
)

// Noisy is the σ-Noisy-Load process of Los and Sauerwald [LS22]: each ball
// draws two candidate bins and reads each one's load with independent
// Gaussian noise, load + N(0, σ²); the ball goes to the candidate with the
// lesser reading. σ = 0 is Two-Choice (Greedy[2]) with random ties; as σ
// grows the comparison tends to a coin and the process to one-choice.
//
// Simulation. Only the difference of the readings matters: b's reading is
// the lesser iff σ(Z_b − Z_a) < load(a) − load(b) = d, and Z_b − Z_a is
// N(0, 2σ²), so the ball goes to b with probability Φ(d/(σ√2)). Since
// loads are whole numbers, one uniform 64-bit word w per ball decides it
// exactly: b iff w>>1 < ⌊2^63·Φ(d/(σ√2))⌉, from a table of d (see
// twoRule). That is the law of drawing the two noises, to 2^-63 per ball
// plus the float64 rounding of Φ (math.Erfc, about 1e-16), at the cost of
// one draw and no Gaussian sampler (no rejection loop, no branch). Equal
// loads give Φ(0) = 1/2: the definition's own fair tie, so the tie rule
// is not used.
//
// Candidates as for GBounded: two independent uniform bins with Graph nil
// or graphgen.Complete, or an edge or a vertex and a neighbour of a
// *graphgen.CSR or a graphgen.Circulant (an edge of a *graphgen.EdgeArray),
// drawn as Graphical draws them.
//
// Bounds: [LS22] analyse σ-Noisy-Load in the body of the paper; those
// statements could not be checked for this package, so analysis.Bounds
// lists only what follows from the definition (σ = 0 is Greedy[2]), and
// docs/theory.md says so. Fluid limit on the complete graph
// (FamilyNoisy): with p_b = s_b − s_{b+1},
//
//	ds_i/dt = 2(s_{i−1} − s_i)·Σ_b p_b·Φ((b − (i−1))/(σ√2)),
//
// the other candidate holding b balls and our reading the lesser.
//
// [LS22] D. Los, T. Sauerwald. Balanced allocations with the choice of
// noise. PODC 2022; J. ACM 70(6), 2023.
type Noisy struct {
	Sigma  float64
	Graph  graphgen.Graph
	Sample Sampling
}

var noisyDescriptor = twoSample(Descriptor{
	Name:     "noisy",
	Synopsis: "σ-Noisy-Load: two candidates (-g: an edge), each load read with N(0, σ²) noise (--sigma); the lesser reading wins",
	Uses:     ParamSigma,
	Family:   FamilyNoisy,
	build:    func(p Params) Rule { return Noisy{Sigma: p.Sigma, Graph: p.Graph, Sample: p.Sample} },
})

// Name returns the command-line name, "noisy".
func (Noisy) Name() string { return noisyDescriptor.Name }

// String returns "σ-Noisy-Load, σ = S".
func (p Noisy) String() string { return fmt.Sprintf("σ-Noisy-Load, σ = %g", p.Sigma) }

// Check requires 0 ≤ Sigma ≤ MaxSigma and a supported graph with n
// vertices (see GBounded.Check).
func (p Noisy) Check(n int) error {
	return noisyDescriptor.checkRun(n, 0, Params{Sigma: p.Sigma, Graph: p.Graph, Sample: p.Sample})
}

func (p Noisy) table() *twoRule { return newTwoRule(ruleNoisy, 0, p.Sigma, false) }

// Place throws m balls, two probes each (one when vertex sampling finds an
// isolated vertex).
func (p Noisy) Place(b *Bins, m int64, r *Rand) Stats { return placePair(p, b, m, r) }

// rule returns the rule on n bins for the batched driver (see rule): the
// candidates and the word w drawn as Place draws them, the same decision.
func (p Noisy) rule(n int) rule { return p.source().rule(p.table(), n) }

// source is where p takes its candidates from.
func (p Noisy) source() pairSource { return pairSource{p.Graph, p.Sample} }
