package alloc

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/graphalloc/graphalloc/graphgen"
)

// Two-sample rules with imperfect information (GBounded, GMyopic, Noisy):
// each ball draws two candidate bins a and b and a rule decides which of
// them takes it. The rule and the source of the candidates are separate
// parts that meet in one loop per source.
//
// The rule. Every such rule decides from d = load(a) − load(b) alone, plus
// fresh randomness, and is written as a table: the ball goes to b iff
// w>>1 < thr(d), with w a uniform 64-bit word drawn after the candidates
// and thr(d) = 2^63·P(the ball goes to b | d). The probabilities of these
// rules are 0, 1/2 and 1 (g-bounded, g-myopic) or Φ(d/(σ√2)) (noisy), so
// the table is exact for the first two and exact to 2^-63 (plus the
// float64 rounding of Φ, about 1e-16) for the third. The table holds
// |d| ≤ ruleK and a loop clamps d into that range: exact, because MaxG and
// MaxSigma keep every rule constant beyond it (g < ruleK; at σ ≤ MaxSigma,
// 2^63·Φ(−ruleK/(σ√2)) rounds to 0). A ball costs a subtraction, a clamp
// and a load from a table of which a run reads a few lines: no call,
// interface or data-dependent branch, and the choice is a conditional move
// (docs/theory.md, note 3). (A call for larger |d| in the loop, even one
// never taken, cost 25% at n = 2^20: measured.)
//
// The source. Two independent uniform bins on the complete graph (as the
// two-sample processes of [LS22] draw them: with replacement), the ends of
// a uniform edge of a CSR graph or a circulant, or a uniform vertex and a
// uniform neighbour: the samplers of Graphical (graphEdge, graphVertex,
// circulantGraph), with the same draws but no orientation coin, which the
// rules do not need (below). Each source has one loop, taking the rule as
// data, which runs on one-byte loads as well as four-byte ones (see Bins;
// the walk samplers, walk.go, too); on the complete
// graph it pipelines for large n like Greedy[2], and the edge loop
// pipelines twice like graphEdgePiped.
//
// Draw order per ball: the candidates as the source draws them (a first),
// then w. Symmetry: for g-myopic, noisy and g-bounded with random ties,
// thr(d) + thr(−d) = 2^63, so which candidate is called a does not change
// the law, and no coin orients an edge; g-bounded with left ties gives a
// tie to a, the first drawn (the smaller id of an edge, the sampled vertex
// under vertex sampling), as Graphical does.

// ruleK is the largest |d| the rule tables hold: 2·2^14+1 entries of 8
// bytes, 256 KiB a table (one per parameters, shared), of which a run
// reads the few lines around d = 0.
const ruleK = MaxG + 1

// MaxG and MaxSigma are the largest threshold g and noise level σ the
// two-sample rules accept, so that their decision tables (a probability
// per load difference d, |d| ≤ 2^14, clamped beyond) cover every
// difference at which a rule is not yet constant: g < 2^14,
// and at σ = MaxSigma a difference of 2^14 is 2^14/(σ√2) ≈ 11.3 standard
// deviations of the difference of the two noises, Φ(−11.3) ≈ 6e-30, which
// the tables' resolution 2^-63 rounds to 0. (At σ = 1024 the comparison of
// loads that differ by a few dozen is all but a coin already.)
const (
	MaxG     = 1<<14 - 1
	MaxSigma = 1024
)

// thrAlways and thrHalf are thr for P = 1 and P = 1/2.
const (
	thrAlways = 1 << 63
	thrHalf   = 1 << 62
)

type ruleKind uint8

const (
	ruleBounded ruleKind = iota
	ruleMyopic
	ruleNoisy
)

// twoRule is a two-sample rule: its kind and parameters, and its table
// thr(d) for |d| ≤ ruleK.
type twoRule struct {
	kind  ruleKind
	g     int64
	sigma float64
	left  bool // g-bounded: a tie goes to a instead of a fair coin
	thr   *[2*ruleK + 1]uint64
}

// at returns thr(d) = 2^63·P(the ball goes to b | load(a) − load(b) = d).
func (r *twoRule) at(d int64) uint64 {
	switch r.kind {
	case ruleBounded:
		switch {
		case d > r.g: // b lesser by more than g: the comparison is right
			return thrAlways
		case d > 0: // a heavier, within g: the adversary picks a
			return 0
		case d == 0: // both "more loaded": the tie rule
			if r.left {
				return 0
			}
			return thrHalf
		case d >= -r.g: // b heavier, within g
			return thrAlways
		}
		return 0
	case ruleMyopic:
		switch {
		case d > r.g:
			return thrAlways
		case d >= -r.g:
			return thrHalf
		}
		return 0
	}
	return noisyThr(d, r.sigma)
}

// noisyThr is thr(d) of noisy: the readings are load + σZ_a and load + σZ_b,
// and b's is the lesser iff σ(Z_b − Z_a) < d, with Z_b − Z_a ~ N(0, 2): so
// P = Φ(d/(σ√2)) = erfc(−d/(2σ))/2. The table stores the smaller of P and
// 1 − P, erfc(|d|/(2σ))/2, rounded to 2^-63, and the larger as its
// complement, so that thr(d) + thr(−d) = 2^63 exactly. σ = 0 is the exact
// comparison with fair ties.
func noisyThr(d int64, sigma float64) uint64 {
	if d == 0 {
		return thrHalf
	}
	var t uint64 // 2^63·P for |d|, the lesser side
	if sigma > 0 {
		ad := math.Abs(float64(d))
		t = uint64(math.Round(math.Ldexp(math.Erfc(ad/(2*sigma))/2, 63)))
	}
	if d > 0 {
		return thrAlways - t
	}
	return t
}

// Rule tables are built once per parameters and shared, read-only, by
// every trial: a batch of balls (Place) may be a single ball.
var ruleTables struct {
	sync.Mutex
	m map[twoRuleKey]*[2*ruleK + 1]uint64
}

type twoRuleKey struct {
	kind  ruleKind
	g     int64
	sigma uint64 // math.Float64bits
	left  bool
}

// newTwoRule returns the rule with its table.
func newTwoRule(kind ruleKind, g int, sigma float64, left bool) *twoRule {
	r := &twoRule{kind: kind, g: int64(g), sigma: sigma, left: left}
	key := twoRuleKey{kind, r.g, math.Float64bits(sigma), left}
	ruleTables.Lock()
	defer ruleTables.Unlock()
	if t := ruleTables.m[key]; t != nil {
		r.thr = t
		return r
	}
	t := new([2*ruleK + 1]uint64)
	for i := range t {
		t[i] = r.at(int64(i) - ruleK)
	}
	if ruleTables.m == nil || len(ruleTables.m) >= 16 {
		// A run uses one or a few; at most 16 tables (4 MiB) are kept.
		ruleTables.m = map[twoRuleKey]*[2*ruleK + 1]uint64{}
	}
	ruleTables.m[key] = t
	r.thr = t
	return r
}

// twoSample returns d, the descriptor of a two-sample rule, its name,
// synopsis, parameter (Uses), family and build given, with what every
// such rule shares: two candidates (D) from a graph (ParamGraph) as its
// sampling rule draws them (ParamSample, pairCandidates) or two uniform
// bins, on compact loads (BinBytes), the level engine on K_n unwalked, and
// the mean-field rule pairField.
func twoSample(d Descriptor) Descriptor {
	d.Uses |= ParamGraph | ParamSample
	d.D = 2
	d.BinBytes = 1
	d.levels = unwalkedComplete
	d.meanField = pairField
	d.candidates = pairCandidates
	return d
}

// twoSampler is a two-sample rule: where it takes its candidates from,
// and its decision table.
type twoSampler interface {
	Rule
	source() pairSource
	table() *twoRule
}

// placePair is the Place of the two-sample rule p; no ball if p.Check
// fails (see Process).
func placePair[P twoSampler](p P, b *Bins, m int64, r *Rand) Stats {
	if p.Check(b.N()) != nil {
		return Stats{} // see Process: no ball is placed
	}
	return p.source().place(b, m, p.table(), r)
}

// pairCandidates is the candidates of the two-sample rules' descriptors:
// on the complete graph two uniform bins, not an edge (under walk sampling
// the walk's ends: the sampling rule names them).
func pairCandidates(p Params) string {
	if _, walk := p.Sample.Walk(); onComplete(p) && !walk {
		return "two uniform bins"
	}
	return ""
}

// pairField is the mean-field rule, on the complete graph with p, of a
// two-sample rule of d, whose rule on two independent uniform bins is its
// family's (ownField): that rule under edge and vertex sampling (two
// uniform bins, see pairCandidates), and under walk sampling of L ≥ 1
// steps too, whose ends on K_n are two
// distinct uniform bins but with probability O(1/n) (v_L = v_0), their
// loads independent as n → ∞ [Mitzenmacher 1996, propagation of chaos];
// a walk of no step has one vertex, its start and its end one bin, and
// the rule places the ball there: one-choice.
func pairField(d *Descriptor, p Params) (MeanField, bool) {
	if l, walk := p.Sample.Walk(); walk && l == 0 {
		return MeanField{Family: FamilyOneChoice, D: 1}, true
	}
	return ownField(d, p)
}

// pairSource is where a two-sample rule takes its candidates from.
type pairSource struct {
	g      graphgen.Graph // nil: the complete graph, two independent uniform bins
	sample Sampling
}

// check requires a graph the loops support, with n vertices and an edge
// to sample; nil and K_n take any n ≥ 1 (two uniform bins, with
// replacement).
func (s pairSource) check(name string, n int) error {
	if err := checkBins(name, n); err != nil {
		return err
	}
	if _, ok := s.sample.Walk(); ok {
		if s.g == nil {
			return nil
		}
		if s.g.Order() != n {
			return fmt.Errorf("alloc: graph has %d vertices but the run has n=%d bins", s.g.Order(), n)
		}
		return checkWalk(name, s.g)
	}
	if s.g == nil {
		return nil
	}
	if s.g.Order() != n {
		return fmt.Errorf("alloc: graph has %d vertices but the run has n=%d bins", s.g.Order(), n)
	}
	switch g := s.g.(type) {
	case graphgen.Complete:
	case *graphgen.CSR:
		if g.Size() == 0 {
			return fmt.Errorf("alloc: %s needs a graph with at least one edge", name)
		}
	case graphgen.Circulant:
		if g.Size() == 0 {
			return fmt.Errorf("alloc: %s needs a graph with at least one edge, circulant has degree 0", name)
		}
	case *graphgen.EdgeArray:
		return checkEdgeArray(name, g, s.sample)
	default:
		return fmt.Errorf("alloc: %s does not support graphs of type %T", name, s.g)
	}
	return nil
}

// twoEdges places m balls on b by twoEdge, on the flat edge array e of a
// CSR or an EdgeArray.
func twoEdges(b *Bins, m int64, e []uint32, ru *twoRule, r *Rand) {
	b.place(m,
		func(L []uint8, m int64) int64 { return twoEdge(L, m, e, ru, r) },
		func(L []uint32, m int64) int64 { return twoEdge(L, m, e, ru, r) })
}

// errBadSource is what place returns for a source check rejects.
var errBadSource = errors.New("alloc: unsupported source")

// place throws m balls with rule ru, candidates from s: two probes a ball
// (one when vertex sampling finds an isolated vertex).
func (s pairSource) place(b *Bins, m int64, ru *twoRule, r *Rand) Stats {
	if _, ok := s.sample.Walk(); ok {
		return placeRule(b, s.rule(ru, b.N()), m, r)
	}
	probes := 2 * m
	switch g := s.g.(type) {
	case nil, graphgen.Complete:
		b.place(m,
			func(L []uint8, m int64) int64 { return twoUniform(L, m, ru, r) },
			func(L []uint32, m int64) int64 { return twoUniform(L, m, ru, r) })
		return Stats{Probes: probes, MaxProbes: min(m, 1) * 2}
	case *graphgen.CSR:
		if s.sample == SampleVertex {
			off, adj := g.Offsets(), g.Adjacency()
			add := func(k, isolated int64) int64 { // the balls placed, after counting the isolated
				probes -= isolated
				return k
			}
			b.place(m,
				func(L []uint8, m int64) int64 { return add(twoVertex(L, m, off, adj, ru, r)) },
				func(L []uint32, m int64) int64 { return add(twoVertex(L, m, off, adj, ru, r)) })
		} else {
			twoEdges(b, m, g.EdgeList(), ru, r)
		}
	case *graphgen.EdgeArray:
		twoEdges(b, m, g.EdgeList(), ru, r)
		runtime.KeepAlive(g) // its array may be a mapping that g's cleanup releases
	case graphgen.Circulant:
		S, smallerFirst := g.ConnectionSet(), ru.left && s.sample == SampleEdge
		b.place(m,
			func(L []uint8, m int64) int64 { return twoCirculant(L, m, S, ru, smallerFirst, r) },
			func(L []uint32, m int64) int64 { return twoCirculant(L, m, S, ru, smallerFirst, r) })
	default:
		panic(errBadSource) // check rejects it: a caller that skipped Check
	}
	return Stats{Probes: probes, MaxProbes: min(m, 1) * 2}
}

// pick returns thr(d) for the loads la of a and lb of b.
func (ru *twoRule) pick(la, lb uint64) uint64 { return pickIn(ru.thr, la, lb) }

// pickIn is pick from the table thr, which a loop keeps in a register.
func pickIn(thr *[2*ruleK + 1]uint64, la, lb uint64) uint64 {
	d := int64(la) - int64(lb)
	d = min(max(d, -ruleK), ruleK) // exact: the rule is constant beyond
	return thr[d+ruleK]
}

// The Place loops of the two-sample rules (twoUniform, twoEdge, twoVertex,
// twoCirculant) are generated from one template, with the graph process's,
// by gen_loops.go into zloops_place.go, and their pipelined forms too:
// twoUniformPiped into zloops_ring.go, twoEdgePiped into zloops_pipe2.go.

// pairRule is a two-sample rule with its source, as a rule (see rule): the
// draws of each ball are those of the source's loop (twoUniform, twoEdge,
// twoVertex, twoCirculant), the candidates then w, and the decision is
// that loop's, so a rule one ball at a time, or in batches of one, places
// the balls Place places.
type pairRule struct {
	ru           *twoRule
	kind         pairKind
	e            []uint32 // edge: the flat edge array
	off          []int    // vertex: the CSR rows
	adj          []uint32
	S            []uint32 // circulant: the connection set
	smallerFirst bool     // circulant: a is the end with the smaller id
}

type pairKind uint8

const (
	pairUniform pairKind = iota
	pairEdge
	pairVertex
	pairCirculant
)

// rule returns the rule of decision table ru with candidates from s (a
// source check accepted).
func (s pairSource) rule(ru *twoRule, n int) rule {
	if l, ok := s.sample.Walk(); ok {
		g := s.g
		if g == nil {
			g = graphgen.Complete(n)
		}
		return walkRule{w: newWalker(g, l), pair: ru.thr}
	}
	switch g := s.g.(type) {
	case *graphgen.CSR:
		if s.sample == SampleVertex {
			return pairRule{ru: ru, kind: pairVertex, off: g.Offsets(), adj: g.Adjacency()}
		}
		return pairRule{ru: ru, kind: pairEdge, e: g.EdgeList()}
	case *graphgen.EdgeArray:
		return pairRule{ru: ru, kind: pairEdge, e: g.EdgeList()}
	case graphgen.Circulant:
		return pairRule{ru: ru, kind: pairCirculant, S: g.ConnectionSet(), smallerFirst: ru.left && s.sample == SampleEdge}
	}
	return pairRule{ru: ru, kind: pairUniform}
}

// run is written by hand as one loop with a switch on the source (the
// same case every ball, so predicted): it serves the batched driver, not
// the Place loops, and repeats their draws case by case.
func (g pairRule) run(L []uint32, m int64, out []uint32, r *Rand) Stats {
	n := uint64(len(L))
	s := r.state
	thr := g.ru.thr
	var isolated int64
	for k := int64(0); k < m; k++ {
		var a, b, w uint64
		switch g.kind {
		case pairUniform:
			s, a = below(s, n)
			s, b = below(s, n)
			s, w = next(s)
		case pairEdge:
			var x uint64
			s, x = below(s, uint64(len(g.e)/2))
			s, w = next(s)
			a, b = uint64(g.e[2*x]), uint64(g.e[2*x+1])
		case pairVertex:
			s, a = below(s, n)
			deg := uint64(g.off[a+1] - g.off[a])
			if deg == 0 {
				put(L, out, k, a, L[a]) // an isolated vertex takes the ball
				isolated++
				continue
			}
			var j uint64
			s, j = below(s, deg)
			s, w = next(s)
			b = uint64(g.adj[uint64(g.off[a])+j])
		case pairCirculant:
			var j uint64
			s, a = below(s, n)
			s, j = below(s, uint64(len(g.S)))
			s, w = next(s)
			b = a + uint64(g.S[j])
			if b >= n {
				b -= n
			}
			if g.smallerFirst && b < a {
				a, b = b, a
			}
		}
		la, lb := L[a], L[b]
		c, l := a, la
		if w>>1 < pickIn(thr, uint64(la), uint64(lb)) {
			c, l = b, lb
		}
		put(L, out, k, c, l)
	}
	r.state = s
	return Stats{Probes: 2*m - isolated, MaxProbes: min(m, 1) * 2}
}
