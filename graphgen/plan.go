package graphgen

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"strconv"
)

// Plan is what Spec.Build will make on a requested n, worked out from the
// spec alone before anything is built: the order, the degrees, the edges,
// the spectrum where it has a closed form, and the memory. Spec.Plan
// returns it; Build makes exactly what the Plan says (it takes its
// parameters from the Plan), so a program may ask, say, whether a graph on
// 2^32 − 1 vertices fits in memory, or what its degree is, for nothing.
//
// Per kind, on n vertices (k = dim, s = side, Δ = degree):
//
//	kind        N        δ, Δ                 |E|                       bytes
//	complete    n        n−1                  n(n−1)/2                  0 (implicit)
//	cycle       n        2 (1 for n=2)        n (1 for n=2)             CSR
//	torus       s^k      2k (k for s=2)       nΔ/2                      CSR
//	hypercube   2^k      k                    k·2^(k−1)                 CSR
//	regular     n        Δ or ⌈n^ε⌉*          nΔ/2                      CSR
//	circulant   n        Δ                    nΔ/2                      4Δ (implicit)
//	regular:…,implicit   n   Δ (even)         nΔ/2 (a multigraph)       96·Δ/2 (implicit)
//	torus:…,implicit, hypercube:implicit      as above                  24 (implicit, n ≤ 2^40)
//	gnp         n        drawn                p·n(n−1)/2 expected       CSR
//	nonregular  n        δ; Δ drawn           c(c−1)/2 + (n−c)δ/2 + J   CSR
//	ba          n        m; Δ drawn†          m·n − m(m+1)/2            CSR
//	hypergraph  n        drawn (k if s = n)   k hyperedges of s         4ks + 4n
//	file        unknown  unknown              unknown                   from the file size
//	hyper       unknown  unknown              unknown                   from the file size
//
// (*) ⌈n^ε⌉ capped at n−1 and moved by one when nΔ would be odd; a Note
// says so. For nonregular, c is the core and J the join edges, min(c,
// n−c−1) when the random remainder is connected. (†) ba on n = m+1
// vertices is K_{m+1}, regular of degree m, and on n = m+2 has Δ = m+1.
// A CSR on n vertices with
// |E| edges holds 8(n+1) + 16|E| bytes: the row offsets, both directions
// of every edge, and the flat edge array; 8(n+1) + 8|E| if it is regular,
// which needs no edge array (see CSR).
type Plan struct {
	// N is the number of vertices: the requested n, or the spec's n=,
	// or side^dim for a torus and 2^dim for a hypercube. It is -1 for a
	// file, whose order is unknown until it is read.
	N int
	// MinDegree and MaxDegree are the least and the greatest degree, δ
	// and Δ, where the spec fixes them: every graph Build can make has
	// exactly these. Each is -1 where the random draw decides it (both
	// for gnp with 0 < p < 1 and n > 1; Δ of nonregular, which is core
	// when the random remainder is connected; Δ of ba on n > m+2
	// vertices) or the file does. Build takes ba's m from MinDegree.
	// MeanDegree is 2|E|/n from ExpectedEdges (0 for n = 0, -1 for a
	// file).
	MinDegree, MaxDegree int
	MeanDegree           float64
	// Regular reports that every graph Build can make is regular of
	// degree MaxDegree. It is false where that degree is drawn, even
	// though a draw may happen to be regular (gnp on two vertices).
	Regular bool
	// Edges is the number of undirected edges where the spec fixes it,
	// -1 otherwise. ExpectedEdges is Edges where that is fixed, else its
	// expectation: p·n(n−1)/2 for gnp; for nonregular the count
	// c(c−1)/2 + (n−c)·mindeg/2 + min(c, n−c−1) of a connected random
	// remainder (w.h.p. for mindeg >= 3), to which each further
	// component of the remainder adds one join edge (many for mindeg =
	// 1, whose remainder is a matching). It is -1 for a file.
	Edges         int64
	ExpectedEdges float64
	// Implicit reports a graph that stores no edges (complete,
	// circulant): its memory does not grow with n.
	Implicit bool
	// Bytes is the memory of the built graph (for gnp and nonregular at
	// ExpectedEdges); BuildBytes is what Build allocates in all, the
	// graph included, so at least its peak memory (the generators'
	// scratch: the degrees and the pairing's tail for regular, the edge list that
	// FromEdges sorts for cycle and nonregular, the degree counts for
	// gnp). Both count the arrays that grow with n, |E| or Δ and leave
	// out O(1) bookkeeping, a few KiB; the tests hold them to within 25%
	// of what the graph holds and what Build allocates (they come within
	// 10%, the rest being the allocator's rounding to pages).
	//
	// For a file both are estimates from its size S: an edge line takes
	// at least 4 bytes ("1 2\n") and becomes 16 bytes of CSR, so
	// Bytes = 4·S bounds the edge arrays, and BuildBytes = 5·S plus the
	// 64 KiB read buffer (within 10% of what LoadGraph allocated for an
	// edge list of 11 bytes a line; 8·S for a hypergraph file). For a
	// gzip file, detected from its bytes, S is the text it holds: exactly
	// for a file of at most 1 MiB, else estimated from the compression of
	// its first MiB, with half again, and at most 10 times its size. A file that declares isolated
	// vertices (a size line, a graphalloc header) may take more: about
	// 40 bytes for each vertex, and the reader accepts up to 65536 + 2
	// per byte of text (ReadOptions).
	Bytes, BuildBytes int64
	// LeanBytes is BuildBytes for BuildEdges: for a graph file whose text
	// starts with the graphalloc header (n=N edges=M), 8·M + N bytes (the
	// edges and the degree table of an EdgeArray) and the read buffers;
	// for any other spec, or a file without the header, BuildBytes.
	LeanBytes int64
	// Spectrum is the spectrum of the random-walk matrix in closed form
	// for the complete graph, the cycle, the torus and the hypercube on
	// at least 2 vertices; nil for the others. A circulant's spectrum is
	// in closed form too, but only once its connection set S is drawn:
	// Circulant.Eigenvalue(j)/Δ after Build.
	Spectrum *Spectrum
	// The parameters Build uses, as BuildInfo reports them: Eps is the ε
	// of regular:eps; Dim and Side those of a torus (Side = 2 for a
	// hypercube); P the edge probability of gnp; Core the core size c of
	// nonregular and CoreEdges its c(c−1)/2 edges. Zero where they do
	// not apply.
	Eps       float64
	Dim, Side int
	P         float64
	Core      int
	CoreEdges int64
	// Notes are the adjustments Build will make, in words (BuildInfo.Notes).
	Notes []string
	// Hyper reports a hypergraph (hyper:PATH, hypergraph:rank=s,edges=k):
	// Build makes a *Hypergraph, Edges and ExpectedEdges count its
	// hyperedges, and the degrees are the numbers of hyperedges at a
	// vertex, Binomial(k, s/n) for hypergraph, so MeanDegree is k·s/n.
	// MinRank and MaxRank are the least and the greatest hyperedge size
	// (s for hypergraph; -1 for a file, unknown until read; 0 for a
	// graph). The memory is that of the flat vertex array and the
	// degrees; BuildBytes adds the generator's permutation of [n].
	Hyper            bool
	MinRank, MaxRank int
}

// Plan returns what Build(n, src) will make, without building it, in
// O(1) time (O(Δ) at most for regular and nonregular, to count the
// defects a pairing is expected to repair; a stat and a 2-byte read for a
// file). It checks the
// parameters as Build does and returns the error Build would, naming the
// key at fault and what is allowed, for example
//
//	graphgen: regular:degree=70000 needs degree < n = 65536
//
// so Plan fails exactly when Build does, except for a file, whose
// contents only Build reads, and for memory, which Plan only estimates.
func (s Spec) Plan(n int) (Plan, error) {
	p := Plan{N: n, MinDegree: -1, MaxDegree: -1, Edges: -1}
	if s.FromFile() {
		return s.planFile(p)
	}
	if _, ok := kinds[s.Kind]; !ok {
		return Plan{}, fmt.Errorf("graphgen: unknown graph kind %q", s.Kind)
	}
	_, nSet := s.Params["n"]
	if err := s.optionalInt("n", &n); err != nil {
		return Plan{}, err
	}
	p.N = n
	if s.Kind == "torus" || s.Kind == "hypercube" {
		// These fix their own n from dim and side.
		if err := s.planLattice(&p, n, nSet); err != nil {
			return Plan{}, err
		}
		return p.finish(), nil
	}
	if limit := s.OrderLimit(); n < 0 || n > limit {
		return Plan{}, fmt.Errorf("graphgen: %s needs 0 <= n <= %d, got n=%d", s.Kind, limit, n)
	}
	var err error
	switch s.Kind {
	case "complete":
		p.setRegular(max(n-1, 0))
		p.Edges = Complete(n).Size() // n(n−1)/2, saturated beyond MaxOrder
		p.Implicit = true
		if n >= 2 {
			p.Spectrum = newCompleteSpectrum(n)
		}
	case "cycle":
		// C_1 is a single vertex and C_2 a single edge: the simple graph
		// keeps one copy of {0, 1}.
		p.setRegular(min(max(n-1, 0), 2))
		p.setCSR(cycleScratch(n))
		if n >= 2 {
			p.Spectrum = newTorusSpectrum(1, n)
		}
	case "regular":
		err = s.planRegular(&p, n)
	case "gnp":
		err = s.planGnp(&p, n)
	case "circulant":
		err = s.planCirculant(&p, n)
	case "nonregular":
		err = s.planNonregular(&p, n)
	case "ba":
		err = s.planBA(&p, n)
	case "hypergraph":
		err = s.planHypergraph(&p, n)
	}
	if err != nil {
		return Plan{}, err
	}
	return p.finish(), nil
}

// setRegular records a Delta-regular graph on p.N vertices. n·Delta is
// even, so halving the even factor first keeps n·Delta/2 exact up to
// K_n with n = MaxOrder, whose n(n−1) overflows an int64.
func (p *Plan) setRegular(Delta int) {
	p.MinDegree, p.MaxDegree, p.Regular = Delta, Delta, true
	if p.N%2 == 0 {
		p.Edges = int64(p.N/2) * int64(Delta)
	} else {
		p.Edges = int64(p.N) * int64(Delta/2)
	}
}

// setCSR sets the memory of a CSR with p.ExpectedEdges edges (p.Edges if
// that is fixed), built with scratch further bytes.
func (p *Plan) setCSR(scratch int64) {
	e := p.ExpectedEdges
	if p.Edges >= 0 {
		e = float64(p.Edges)
	}
	p.Bytes = csrBytes(p.N, e)
	if p.Regular && p.MaxDegree > 0 {
		p.Bytes -= int64(8 * e) // no edge array
	}
	p.BuildBytes = p.Bytes + scratch
}

// finish fills ExpectedEdges and MeanDegree from Edges where it is fixed.
func (p Plan) finish() Plan {
	p.LeanBytes = p.BuildBytes
	if p.Edges >= 0 {
		p.ExpectedEdges = float64(p.Edges)
	}
	if p.N > 0 {
		p.MeanDegree = 2 * p.ExpectedEdges / float64(p.N)
		if p.Hyper {
			p.MeanDegree = float64(p.MinRank) * p.ExpectedEdges / float64(p.N)
		}
	}
	return p
}

// csrBytes is the memory of a CSR on n vertices with e edges (fromRows):
// 8(n+1) bytes of offsets, 4 bytes per row entry (2 per edge) and 8 per
// edge in the flat array.
func csrBytes(n int, e float64) int64 {
	return int64(8*float64(n+1) + 16*e)
}

// fromEdgesScratch is what FromEdges allocates besides the graph: the
// degree counts, 8(n+1) bytes.
func fromEdgesScratch(n int) int64 { return 8 * int64(n+1) }

// cycleScratch is what Cycle allocates besides the graph: its edge list
// (2n uint32) and FromEdges' counts.
func cycleScratch(n int) int64 { return 8*int64(n) + fromEdgesScratch(n) }

// planLattice plans a torus or a hypercube, whose vertex count follows
// from dim and side: n is only used to choose them when they are not
// given, and must agree with them when the spec sets it (nSet).
func (s Spec) planLattice(p *Plan, n int, nSet bool) error {
	dim, side := 0, 0
	if err := s.optionalInt("dim", &dim); err != nil {
		return err
	}
	if err := s.optionalInt("side", &side); err != nil {
		return err
	}
	_, dimSet := s.Params["dim"]
	_, sideSet := s.Params["side"]
	var (
		order int
		err   error
	)
	implicit := s.Params["implicit"] == "true"
	limit := MaxOrder
	if implicit {
		limit = MaxLatticeOrder
	}
	if s.Kind == "hypercube" {
		if !dimSet {
			if dim, err = HypercubeDim(n); err != nil {
				return err
			}
		}
		if maxDim := bits.Len(uint(limit)) - 1; dim < 0 || dim > maxDim {
			return fmt.Errorf("graphgen: %s needs 0 <= dim <= %d, got dim=%d", s.Kind, maxDim, dim)
		}
		side, order = 2, 1<<dim
	} else {
		if !dimSet {
			dim = 2
		}
		if dim < 1 || dim > 64 {
			return fmt.Errorf("graphgen: torus needs 1 <= dim <= 64, got dim=%d", dim)
		}
		if !sideSet {
			if n < 0 || n > limit {
				return fmt.Errorf("graphgen: torus needs 0 <= n <= %d, got n=%d", limit, n)
			}
			side = TorusSide(n, dim)
			// Rounding n up to side^dim may not more than double it:
			// for dim > log2 n the side is 2 and 2^dim could be
			// anything.
			if N, err := latticeOrder(dim, side, limit); err != nil || N > 2*max(n, 1) {
				alt := ""
				if lo, _ := latticeOrder(dim, side-1, limit); side > 2 {
					alt = fmt.Sprintf(" (side=%d gives %d)", side-1, lo)
				}
				return fmt.Errorf("graphgen: torus:dim=%d on n=%d: side ⌈n^(1/%d)⌉ = %d gives more than 2n vertices; set side= explicitly%s or use a smaller dim", dim, n, dim, side, alt)
			}
		}
		if order, err = latticeOrder(dim, side, limit); err != nil {
			return err
		}
	}
	if order != n {
		if nSet {
			return fmt.Errorf("graphgen: %s has %d vertices, but the spec sets n=%d", s, order, n)
		}
		if s.Kind == "torus" && !sideSet {
			p.Notes = append(p.Notes, fmt.Sprintf("torus side ⌈n^(1/%d)⌉ = %d for n=%d: %d^%d = %d vertices", dim, side, n, side, dim, order))
		} else {
			p.Notes = append(p.Notes, fmt.Sprintf("%s has %d vertices", s, order))
		}
	}
	p.N, p.Dim, p.Side = order, dim, side
	switch {
	case side == 1:
		p.setRegular(0)
	case side == 2:
		p.setRegular(dim) // the steps +1 and −1 reach the same vertex
	default:
		p.setRegular(2 * dim)
	}
	if implicit {
		// Lattice: n, dim and side.
		p.Implicit, p.Bytes, p.BuildBytes = true, 24, 24
	} else {
		p.setCSR(0) // Torus and Hypercube write the rows in place
	}
	if order >= 2 {
		p.Spectrum = newTorusSpectrum(dim, side)
	}
	return nil
}

// planRegular plans regular:degree=D or regular:eps=E.
func (s Spec) planRegular(p *Plan, n int) error {
	key, v, err := s.either("degree", "eps", "graphgen: regular needs degree=D or eps=E")
	if err != nil {
		return err
	}
	var Delta int
	switch key {
	case "degree":
		if Delta, err = s.intParam("degree", v); err != nil {
			return err
		}
		switch {
		case Delta > max(n-1, 0):
			return fmt.Errorf("graphgen: regular:degree=%d needs degree < n = %d", Delta, n)
		case n%2 == 1 && Delta%2 == 1:
			return fmt.Errorf("graphgen: regular:degree=%d needs n*degree even, got n=%d", Delta, n)
		}
	case "eps":
		eps, err := strconv.ParseFloat(v, 64)
		if err != nil || !(eps > 0 && eps <= 1) {
			return fmt.Errorf("graphgen: regular:eps needs 0 < eps <= 1, got %q", v)
		}
		if n < 1 {
			return fmt.Errorf("graphgen: regular:eps=%s needs n >= 1, got n=%d", v, n)
		}
		Delta = min(int(math.Ceil(math.Pow(float64(n), eps))), n-1)
		if n%2 == 1 && Delta%2 == 1 {
			if Delta+1 <= n-1 {
				Delta++
			} else {
				Delta--
			}
			p.Notes = append(p.Notes, fmt.Sprintf("degree ⌈n^%g⌉ adjusted to %d so that n*Delta is even", eps, Delta))
		}
		p.Eps = eps
	}
	if s.Params["implicit"] == "true" {
		return s.planPermutationRegular(p, n, Delta)
	}
	if uint64(n)*uint64(Delta) > math.MaxInt/4 {
		// Both factors are below 2^32, so the product does not overflow.
		return fmt.Errorf("graphgen: %s on n=%d has n*degree = %d edge ends, more than %d", s, n, uint64(n)*uint64(Delta), math.MaxInt/4)
	}
	p.setRegular(Delta)
	p.setCSR(regularScratch(n, Delta))
	return nil
}

// planPermutationRegular plans regular:degree=D,implicit, the permutation
// model (PermutationRegular).
func (s Spec) planPermutationRegular(p *Plan, n, Delta int) error {
	if Delta < 2 || Delta%2 == 1 {
		return fmt.Errorf("graphgen: %s needs an even degree >= 2 (Delta/2 permutations and their inverses), got degree=%d", s, Delta)
	}
	d := Delta / 2
	p.setRegular(Delta)
	p.Implicit = true
	p.Bytes = 8 * 2 * FeistelRounds * int64(d) // the keys
	p.BuildBytes = p.Bytes
	p.Notes = append(p.Notes, fmt.Sprintf("a random %d-regular multigraph (permutation model): "+
		"about %.3g loops and %.3g pairs of parallel edges expected among its %d edges", Delta,
		PermutationCycleMean(d, 1), PermutationCycleMean(d, 2), p.Edges))
	return nil
}

// regularScratch is what RandomRegular allocates besides the graph, for
// the degree k it pairs (Delta, or n−1−Delta when it takes the
// complement): the degrees (n uint32) and the scratch of the pairing's
// tail and the sorting (regularScratchLen uint32); the defect list when it
// repairs; for the complement, the rows of the k-regular graph, n·k
// uint32 (the complement's rows are the graph's own).
func regularScratch(n, Delta int) int64 {
	k := Delta
	if Delta > n/2 {
		k = n - 1 - Delta
	}
	if k == 0 {
		return 0
	}
	b := 4*int64(n) + 4*int64(regularScratchLen(n, k))
	if Delta > n/2 {
		b += 4 * int64(n) * int64(k)
	}
	if useRepair(n, k) {
		// The defects, two uint32 each, in a slice grown by append: Go
		// grows a large slice by about 1.25×, so the copies come to
		// about 5 times its final size.
		b += int64(40 * expectedDefects(n, k))
	}
	return b
}

// planGnp plans gnp:p=P or gnp:degree=D.
func (s Spec) planGnp(p *Plan, n int) error {
	key, v, err := s.either("p", "degree", "graphgen: gnp needs p=P or degree=D")
	if err != nil {
		return err
	}
	var prob float64
	switch key {
	case "p":
		prob, err = strconv.ParseFloat(v, 64)
		if err != nil || !(prob >= 0 && prob <= 1) {
			return fmt.Errorf("graphgen: gnp:p needs 0 <= p <= 1, got %q", v)
		}
	case "degree":
		d, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("graphgen: gnp:degree needs a number, got %q", v)
		}
		if prob, err = GnpDegreeP(n, d); err != nil {
			return err
		}
	}
	pairs := float64(n) * float64(n-1) / 2
	if pairs*prob > MaxGnpEdges {
		return fmt.Errorf("graphgen: %s on n=%d expects %.3g edges, more than %d", s, n, pairs*prob, int64(MaxGnpEdges))
	}
	p.P = prob
	switch {
	case n < 2 || prob == 0:
		p.setRegular(0)
		p.setCSR(0)
		return nil
	case prob == 1:
		p.setRegular(n - 1)
	default:
		p.ExpectedEdges = pairs * prob
	}
	// The drawn pairs become the edge array, with the room Gnp reserves;
	// the degree counts (4n bytes) are scratch.
	e := p.ExpectedEdges
	if p.Edges >= 0 {
		e = float64(p.Edges)
	}
	p.Bytes = 8*int64(n+1) + int64(8*e) + 4*int64(gnpEdgeCap(pairs, prob))
	p.BuildBytes = p.Bytes + 4*int64(n)
	return nil
}

// planCirculant plans circulant:degree=D.
func (s Spec) planCirculant(p *Plan, n int) error {
	Delta, err := s.requiredInt("degree", "graphgen: circulant needs degree=D")
	if err != nil {
		return err
	}
	switch {
	case n < 1:
		return fmt.Errorf("graphgen: circulant needs 1 <= n <= %d, got n=%d", MaxOrder, n)
	case Delta > n-1:
		return fmt.Errorf("graphgen: circulant:degree=%d needs degree < n = %d", Delta, n)
	case Delta%2 == 1 && n%2 == 1:
		return fmt.Errorf("graphgen: circulant:degree=%d needs n even for an odd degree (the element n/2), got n=%d", Delta, n)
	}
	p.setRegular(Delta)
	p.Implicit = true
	// S, and while drawing it the Δ/2 picks (8 bytes each) and, for
	// Floyd's algorithm, the set of those seen (a map, about 32 bytes
	// an entry).
	p.Bytes = 4 * int64(Delta)
	p.BuildBytes = p.Bytes + 8*int64(Delta/2)
	if pairs := (n - 1) / 2; Delta/2 <= pairs/8 {
		p.BuildBytes += 32 * int64(Delta/2)
	}
	return nil
}

// either returns whichever of the parameters a and b s sets, and its
// value; it is an error to set both, and need when s sets neither.
func (s Spec) either(a, b, need string) (key, v string, err error) {
	va, hasA := s.Params[a]
	vb, hasB := s.Params[b]
	switch {
	case hasA && hasB:
		return "", "", fmt.Errorf("graphgen: %s takes %s= or %s=, not both", s.Kind, a, b)
	case hasA:
		return a, va, nil
	case hasB:
		return b, vb, nil
	}
	return "", "", errors.New(need)
}

// requiredInt is the whole parameter key of s (intParam); missing is the
// error when s does not set it.
func (s Spec) requiredInt(key, missing string) (int, error) {
	v, ok := s.Params[key]
	if !ok {
		return 0, errors.New(missing)
	}
	return s.intParam(key, v)
}

// optionalInt reads the whole parameter key of s (intParam) into dst if s
// sets it, and leaves dst as it is if not.
func (s Spec) optionalInt(key string, dst *int) error {
	v, ok := s.Params[key]
	if !ok {
		return nil
	}
	x, err := s.intParam(key, v)
	if err == nil {
		*dst = x
	}
	return err
}

// twoInts reads the two whole parameters k1 and k2 of s into d1 and d2;
// missing is the error when either is absent.
func (s Spec) twoInts(k1 string, d1 *int, k2 string, d2 *int, missing string) error {
	var err error
	if *d1, err = s.requiredInt(k1, missing); err != nil {
		return err
	}
	*d2, err = s.requiredInt(k2, missing)
	return err
}

// planNonregular plans nonregular:mindeg=δ,core=c.
func (s Spec) planNonregular(p *Plan, n int) error {
	var mindeg, core int
	if err := s.twoInts("mindeg", &mindeg, "core", &core, "graphgen: nonregular needs mindeg=δ and core=c"); err != nil {
		return err
	}
	r := n - core
	switch {
	case mindeg < 1:
		return fmt.Errorf("graphgen: nonregular:mindeg=%d needs mindeg >= 1 (a connected graph)", mindeg)
	case core < mindeg+1:
		return fmt.Errorf("graphgen: nonregular:core=%d needs core >= mindeg+1 = %d (the core clique has degree core-1)", core, mindeg+1)
	case r < mindeg+1:
		return fmt.Errorf("graphgen: nonregular:mindeg=%d,core=%d needs n-core >= mindeg+1 vertices outside the core, got n=%d", mindeg, core, n)
	case r%2 == 1 && mindeg%2 == 1:
		return fmt.Errorf("graphgen: nonregular:mindeg=%d needs (n-core)*mindeg even for the regular remainder, got n-core=%d", mindeg, r)
	case uint64(core)*uint64(core-1)/2 > MaxGnpEdges:
		return fmt.Errorf("graphgen: nonregular:core=%d has %d core edges, more than %d", core, uint64(core)*uint64(core-1)/2, int64(MaxGnpEdges))
	case uint64(r)*uint64(mindeg) > math.MaxInt/4:
		return fmt.Errorf("graphgen: %s on n=%d has (n-core)*mindeg = %d edge ends, more than %d", s, n, uint64(r)*uint64(mindeg), math.MaxInt/4)
	}
	p.MinDegree, p.Core = mindeg, core // x keeps degree mindeg
	p.CoreEdges = int64(core) * int64(core-1) / 2
	coreEdges := float64(core) * float64(core-1) / 2
	joins := min(core, r-1)
	p.ExpectedEdges = coreEdges + float64(r)*float64(mindeg)/2 + float64(joins)
	// The remainder as RandomRegular builds it; the edge list (with the
	// room Nonregular reserves); perm and compOf (4 bytes a remainder
	// vertex each) and yourbasic's Components (about 80, measured: the
	// union-find parents, a closure per vertex, the lists per root and
	// the component lists grown by append); then FromEdges' counts.
	remEdges := int64(r) * int64(mindeg) / 2
	rem := csrBytes(r, float64(remEdges)) + regularScratch(r, mindeg)
	list := 8 * (p.CoreEdges + remEdges + int64(core) + 16)
	p.setCSR(rem + list + 88*int64(r) + fromEdgesScratch(n))
	return nil
}

// planBA plans ba:m=K.
func (s Spec) planBA(p *Plan, n int) error {
	m, err := s.requiredInt("m", "graphgen: ba needs m=K (the edges each new vertex brings)")
	if err != nil {
		return err
	}
	switch {
	case m < 1:
		return fmt.Errorf("graphgen: ba:m=%d needs m >= 1", m)
	case m >= n:
		return fmt.Errorf("graphgen: ba:m=%d needs m < n = %d (the seed is the clique on m+1 vertices)", m, n)
	case uint64(n)*uint64(m) > math.MaxInt/4:
		// Both factors are below 2^32, so the product does not overflow.
		return fmt.Errorf("graphgen: %s on n=%d has n*m = %d edge ends, more than %d", s, n, uint64(n)*uint64(m), math.MaxInt/4)
	}
	switch n {
	case m + 1:
		p.setRegular(m) // K_{m+1}
	case m + 2:
		// The last vertex joins m of the m+1 seed vertices.
		p.MinDegree, p.MaxDegree = m, m+1
	default:
		p.MinDegree = m
	}
	p.Edges = baEdges(n, m)
	// The repeated-nodes array (two uint32 an edge) and the marks.
	p.setCSR(8*p.Edges + 4*int64(n))
	return nil
}

// planHypergraph plans hypergraph:rank=s,edges=k.
func (s Spec) planHypergraph(p *Plan, n int) error {
	var rank, k int
	if err := s.twoInts("rank", &rank, "edges", &k, "graphgen: hypergraph needs rank=s and edges=k (k hyperedges of s vertices)"); err != nil {
		return err
	}
	switch {
	case n < 1:
		return fmt.Errorf("graphgen: hypergraph needs 1 <= n <= %d, got n=%d", MaxOrder, n)
	case rank < 1 || rank > n:
		return fmt.Errorf("graphgen: hypergraph:rank=%d needs 1 <= rank <= n = %d", rank, n)
	case k < 1:
		return fmt.Errorf("graphgen: hypergraph:edges=%d needs at least one hyperedge", k)
	case uint64(k)*uint64(rank) > MaxIncidences:
		return fmt.Errorf("graphgen: %s on n=%d has %d vertex slots, more than %d", s, n, uint64(k)*uint64(rank), int64(MaxIncidences))
	}
	p.Hyper, p.MinRank, p.MaxRank = true, rank, rank
	p.Edges = int64(k)
	if rank == n {
		p.MinDegree, p.MaxDegree, p.Regular = k, k, true // every hyperedge is [n]
	}
	p.Bytes = hyperBytes(n, int64(k), int64(k)*int64(rank), true)
	p.BuildBytes = p.Bytes + 4*int64(n)
	return nil
}

// planFile plans a file: nothing is known of the graph until it is read,
// but its size bounds the memory.
//
// Only a regular file is opened and sampled. A pipe, a FIFO or a device
// (/dev/stdin, file:<(cmd)) can be read once, and a FIFO's open waits for
// a writer: what the plan read of it, Build would never see. Its plan
// knows no size, so its memory is that of the read buffers alone, and the
// readers' own limit (ReadOptions.MaxBytes) is what bounds it.
func (s Spec) planFile(p Plan) (Plan, error) {
	st, err := os.Stat(s.Path)
	if err != nil {
		return Plan{}, fmt.Errorf("graphgen: %w", err)
	}
	p.N, p.ExpectedEdges, p.MeanDegree = -1, -1, -1
	if !st.Mode().IsRegular() {
		if s.Hyper() {
			p.Hyper, p.MinRank, p.MaxRank = true, -1, -1
		}
		p.BuildBytes = 2*MaxLineBytes + 40<<10
		p.LeanBytes = p.BuildBytes
		return p, nil
	}
	f, err := os.Open(s.Path)
	if err != nil {
		return Plan{}, fmt.Errorf("graphgen: %w", err)
	}
	defer f.Close()
	text := st.Size()
	if s.Hyper() {
		// A vertex id takes at least 2 bytes ("1 ") and becomes 4 bytes
		// of vertex array and at most 4 of degree; a line 2 ("1\n") and
		// 8 of offsets: 4 bytes of hypergraph per byte of text bound
		// both, as for an edge list.
		p.Hyper, p.MinRank, p.MaxRank = true, -1, -1
	}
	build := int64(5) // bytes allocated per byte of text
	if p.Hyper {
		build = 8
	}
	p.Bytes, p.BuildBytes = 4*text, build*text+MaxLineBytes // and the read buffer
	var head headBuf                                        // the text's first bytes, for its header
	var magic [2]byte
	if k, _ := io.ReadFull(f, magic[:]); k == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		// The text the file holds (gzipText), and the decompressor
		// (about 40 KiB) with its own buffer.
		t := gzipText(f, text, &head)
		p.Bytes, p.BuildBytes = 4*t, build*t+2*MaxLineBytes+40<<10
	} else if _, err := f.Seek(0, io.SeekStart); err == nil {
		io.Copy(&head, io.LimitReader(f, headBytes))
	}
	p.LeanBytes = p.BuildBytes
	sc := NewEdgeScanner(bytes.NewReader(head.b), "")
	sc.Scan()
	if n, m, ok := sc.Declared(); ok && !p.Hyper {
		p.LeanBytes = 8*m + int64(n) + 2*MaxLineBytes + aheadBlocks*aheadSize + 40<<10
	}
	return p, nil
}

// headBytes is how much of a file's text planFile keeps to read its
// graphalloc header from.
const headBytes = 64 << 10

// headBuf keeps the first headBytes bytes written to it and drops the
// rest.
type headBuf struct{ b []byte }

func (h *headBuf) Write(p []byte) (int, error) {
	h.b = append(h.b, p[:min(len(p), headBytes-len(h.b))]...)
	return len(p), nil
}

// gzipPrefix is how much of a gzip file gzipText decompresses.
const gzipPrefix = 1 << 20

// gzipText estimates the bytes of text the gzip file f of the given size
// holds: all of them if it is at most gzipPrefix bytes long, else its size
// times the compression ratio of its first gzipPrefix bytes and half again
// (the ratio may grow further on), and at most 10 times its size (edge
// lists compress about 3 times) whatever the prefix says. It decompresses
// at most 10·gzipPrefix bytes, and writes them to head.
func gzipText(f io.ReadSeeker, size int64, head io.Writer) int64 {
	most := 10 * size
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return most
	}
	zr, err := gzip.NewReader(io.LimitReader(f, gzipPrefix))
	if err != nil {
		return most
	}
	n, _ := io.Copy(head, io.LimitReader(zr, 10*gzipPrefix))
	if size > gzipPrefix {
		n = int64(1.5 * float64(n) / gzipPrefix * float64(size))
	}
	return min(max(n, size), most)
}

// Spectrum is the spectrum, in closed form, of the random-walk matrix
// P = D⁻¹A of a graph Plan knows: the complete graph, the cycle, the torus
// and the hypercube on n >= 2 vertices. These are regular, so P = A/Δ is
// also the normalised adjacency matrix D^{−1/2}AD^{−1/2}, and its
// eigenvalues 1 = μ₁ >= μ₂ >= … >= μ_n >= −1 are those of the normalised
// Laplacian I − P subtracted from 1. All four are Cayley graphs of abelian
// groups, so the eigenvectors are the characters χ_j, j = 0..n−1:
//
//	K_n                  μ = 1 for j = 0, −1/(n−1) otherwise
//	torus side s, dim k  μ_j = (1/k)·Σ_i cos(2π·j_i/s), j_i the base-s digits of j
//
// (the cycle C_n is the torus with k = 1, s = n; the hypercube Q_k the one
// with s = 2, where μ_j = 1 − 2·popcount(j)/k). So the gap is n/(n−1) for
// K_n and (1 − cos(2π/s))/k = 2·sin²(π/s)/k for the torus: 1 − cos(2π/n)
// for the cycle and 2/k for the hypercube.
type Spectrum struct {
	// Second is μ₂ and Gap = 1 − μ₂ the spectral gap (computed directly,
	// without the cancellation of 1 − μ₂ when μ₂ is close to 1); Smallest
	// is μ_n, −1 exactly when the graph is bipartite (the hypercube; a
	// torus or cycle of even side).
	Second, Gap, Smallest float64

	n         int // vertices; a torus if dim > 0, else K_n
	dim, side int
}

// newTorusSpectrum returns the spectrum of the torus with the given
// dimension and side >= 2.
func newTorusSpectrum(dim, side int) *Spectrum {
	n, _ := latticeOrder(dim, side, MaxLatticeOrder)
	sin := math.Sin(math.Pi / float64(side))
	sp := &Spectrum{n: n, dim: dim, side: side, Gap: 2 * sin * sin / float64(dim)}
	sp.Second = 1 - sp.Gap
	// Every coordinate at the frequency farthest from 0.
	sp.Smallest = math.Cos(2 * math.Pi * float64(side/2) / float64(side))
	if side%2 == 0 {
		sp.Smallest = -1
	}
	return sp
}

// newCompleteSpectrum returns the spectrum of K_n, n >= 2.
func newCompleteSpectrum(n int) *Spectrum {
	mu := -1 / float64(n-1)
	return &Spectrum{n: n, Second: mu, Smallest: mu, Gap: float64(n) / float64(n-1)}
}

// Eigenvalue returns μ(χ_j), the eigenvalue of P for the character j,
// 0 <= j < n: as j runs over 0..n−1 each eigenvalue appears as often as
// its multiplicity, in no particular order (j = 0 gives 1). It takes
// O(dim) time and panics if j is out of range.
func (s *Spectrum) Eigenvalue(j int) float64 {
	if j < 0 || j >= s.n {
		panic(fmt.Sprintf("graphgen: eigenvalue index %d outside [0, %d)", j, s.n))
	}
	switch {
	case j == 0:
		return 1
	case s.dim == 0:
		return -1 / float64(s.n-1)
	case s.side == 2:
		return 1 - 2*float64(bits.OnesCount(uint(j)))/float64(s.dim)
	}
	var sum float64
	for range s.dim {
		sum += math.Cos(2 * math.Pi * float64(j%s.side) / float64(s.side))
		j /= s.side
	}
	return sum / float64(s.dim)
}
