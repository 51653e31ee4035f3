package graphgen

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// RegularStats says how a random regular graph was made.
type RegularStats struct {
	PairingAttempts int   // configuration-model pairings drawn
	Switches        int64 // accepted edge switches (defect repairs + mixing)
	Complement      bool  // built as the complement of a random (n-1-Delta)-regular graph
}

// RandomRegular returns a random simple Delta-regular graph on the vertices
// 0..n-1, drawing its randomness from src, together with statistics on how it
// was made. Any 0 <= Delta <= n-1 with n*Delta even is allowed, n up to
// MaxOrder as memory permits (n = 0 with Delta = 0 gives the empty graph);
// other parameters, or a nil src, give an error. The call always finishes:
// each of its loops ends with probability one after a bounded expected number
// of rounds. It panics only if an internal invariant is broken.
//
// # Algorithm
//
// For Delta > n/2 the graph is the complement of a random (n-1-Delta)-regular
// graph, made as below; complementation is a bijection between the two
// families, so it preserves uniformity, and costs O(n²) = O(n·Delta). For
// Delta <= n/2 it uses the pairing (configuration) model of Bollobás [B80]:
// n·Delta points, Delta per vertex, are joined by a uniformly random perfect
// matching, drawn one pair at a time (the next unmatched point is matched to
// a uniformly random unmatched point), and the pairs become edges. Every
// simple Delta-regular graph arises from exactly (Delta!)^n matchings, so
// conditioned on being simple the result is exactly uniform over the labelled
// Delta-regular graphs. Then:
//
//   - If Delta <= 4, or n·Delta <= 64, the pairing is redrawn until it is
//     simple, each pair being checked as it is drawn so that a pairing is
//     abandoned at its first loop or repeated edge. A pairing is simple with
//     probability about exp(-(Delta²-1)/4) [B80, MW91], e^{-2} for Delta = 3
//     and e^{-15/4} for Delta = 4, so this takes O(n·Delta) expected time,
//     and the result is exactly uniform.
//
//   - Otherwise one pairing is drawn in full and kept as a multigraph in a
//     fixed-width row layout, the neighbours of v in the slots
//     v·Delta..v·Delta+Delta-1. Its defects, the loops and the extra copies
//     of repeated edges, number (Delta²-1)/4 on average when Delta = o(n)
//     [B80]. Each defect edge {a, b}, in random order, is removed by a
//     double-edge switch with a uniformly random edge {c, d} in random
//     orientation, giving {a, c} and {b, d}: a switching in the sense of
//     McKay and Wormald [MW90]. A switch is accepted only if it creates no
//     loop and no repeated edge, so each accepted switch lowers the number
//     of defects by at least one; if a defect finds no acceptable partner in
//     1000 draws the pairing is discarded and a fresh one drawn. Finally 8
//     steps per expected defect of the switch Markov chain are run: pick two
//     uniformly random edges {a, b}, {c, d} in random orientations and
//     replace them by {a, c}, {b, d} if the graph stays simple.
//
// The repaired graph is close to, not exactly, uniform. The pairing is
// uniform, and so is the graph when the pairing has no defect; the bias lies
// in the edges the repairs create, because the rejection steps with which
// McKay and Wormald make switchings exactly uniform [MW90] are left out (they
// restart often, and their expected O(n·Delta³) time holds only for Delta =
// O(n^{1/3})). The repairs touch about Delta/(2n) of the edges: 0.16% for
// n = 10^5, Delta = 317, though a fifth for Delta = n/2. The mixing steps
// are a number of steps of the switch chain fixed in advance; the chain is
// symmetric, so the uniform law is stationary for it, and they can only
// bring the law of the output closer to uniform in total variation. In a
// large sparse graph they are too few to reach most repaired edges, so the
// bias stays there, on a small fraction of the edges; in small graphs they
// amount to a full mixing. On all 2-regular graphs on 6 and 7 vertices and
// all 3-regular graphs on 6 and 8, where the repairs touch an eighth to a
// quarter of the edges, the repair alone is visibly biased (χ² ≈ 300 on 69
// degrees of freedom at 200 samples per graph for n = 6, Delta = 2) and
// repair plus mixing is indistinguishable from uniform at that sample size.
// Every step treats all vertices alike, so the law of the output is
// invariant under relabelling and each pair of vertices is an edge with
// probability exactly Delta/(n-1). For context, Steger and Wormald [SW99]
// draw the pairing while avoiding defects, which is asymptotically uniform
// for Delta = o(n^{1/28}).
//
// # Cost
//
// A pairing takes O(n·Delta) time, about two cache misses per pair once the
// rows outgrow the cache; the pairs are drawn into the rows themselves, by
// rejection, until an eighth of the points is left (see drawPairing). The
// redrawn pairings take exp((Delta²-1)/4) attempts on average (7.4 for
// Delta = 3, 42 for Delta = 4), most of them abandoned early. The repair path adds O(Delta²) switches of O(Delta) time
// each. Sorting the rows and building the CSR take O(n·Delta) time. The memory
// is at most 4.5·n·Delta + 12n bytes at the peak: the rows, uint32 each, and
// for the last eighth of the pairing (or the sorting of rows wider than 16)
// an eighth more, the degrees and the offsets; the graph keeps the rows and
// the offsets, 4·n·Delta + 8n (a regular CSR has no edge array), so the
// peak is under 1.2 times the graph for Delta >= 16. Measured on one core:
// n = 10^6 takes about 0.3 s for Delta = 3 and 1.2 s for Delta = 4, and
// n = 10^5, Delta = 317 about 2 s.
//
// References:
//
//	[B80]  B. Bollobás, A probabilistic proof of an asymptotic formula for the
//	       number of labelled regular graphs, European J. Combin. 1 (1980) 311–316.
//	[MW90] B. D. McKay and N. C. Wormald, Uniform generation of random regular
//	       graphs of moderate degree, J. Algorithms 11 (1990) 52–67.
//	[MW91] B. D. McKay and N. C. Wormald, Asymptotic enumeration by degree
//	       sequence of graphs with degrees o(n^{1/2}), Combinatorica 11 (1991)
//	       369–382.
//	[SW99] A. Steger and N. C. Wormald, Generating random regular graphs
//	       quickly, Combin. Probab. Comput. 8 (1999) 377–396.
func RandomRegular(n, Delta int, src rand.Source) (*CSR, RegularStats, error) {
	return randomRegular(nil, n, Delta, src)
}

// randomRegular is RandomRegular, returning stop's error once it stops.
func randomRegular(stop *stopper, n, Delta int, src rand.Source) (*CSR, RegularStats, error) {
	var st RegularStats
	switch {
	case n < 0 || n > MaxOrder:
		return nil, st, fmt.Errorf("graphgen: regular graph needs 0 <= n <= %d, got n=%d", MaxOrder, n)
	case n == 0 && Delta == 0:
		return fromRows([]int{0}, nil), st, nil
	case Delta < 0 || Delta > n-1:
		return nil, st, fmt.Errorf("graphgen: regular graph needs 0 <= Delta <= n-1, got n=%d Delta=%d", n, Delta)
	case n%2 == 1 && Delta%2 == 1:
		return nil, st, fmt.Errorf("graphgen: regular graph needs n*Delta even, got n=%d Delta=%d", n, Delta)
	case uint64(n)*uint64(Delta) > math.MaxInt/4:
		// Both factors are below 2^32, so the product does not overflow.
		return nil, st, fmt.Errorf("graphgen: regular graph with n=%d Delta=%d has too many edges", n, Delta)
	case src == nil:
		return nil, st, errors.New("graphgen: regular graph needs a random source, got nil")
	}
	if Delta > n/2 {
		st.Complement = true
		k := n - 1 - Delta
		h := randomRegularRows(n, k, src, &st, useRepair(n, k), stop)
		if err := stop.err(); err != nil {
			return nil, st, err
		}
		h = complementRows(h, n, k, stop)
		if err := stop.err(); err != nil {
			return nil, st, err
		}
		return fromRows(regularOffsets(n, Delta), h), st, nil
	}
	adj := randomRegularRows(n, Delta, src, &st, useRepair(n, Delta), stop)
	if err := stop.err(); err != nil {
		return nil, st, err
	}
	return fromRows(regularOffsets(n, Delta), adj), st, nil
}

const (
	// maxRepairTries is how many random partner edges a defect may try
	// before the pairing is abandoned. With Delta <= n/2 a try succeeds with
	// probability about (1-Delta/n)² >= 1/4, so only a pairing in which the
	// defect cannot be repaired at all reaches it.
	maxRepairTries = 1000
	// mixPerDefect is how many steps of the switch chain are run, per
	// expected defect of the pairing, after the repairs.
	mixPerDefect = 8
	// tinyPoints is the n·Delta up to which the pairing is redrawn until
	// simple whatever Delta: such pairings are cheap to redraw and the
	// repair would bias a large share of their few edges.
	tinyPoints = 64
)

// useRepair reports whether a random Delta-regular graph on n vertices is
// made by repairing one pairing rather than by redrawing pairings until one
// is simple.
func useRepair(n, Delta int) bool { return Delta > 4 && n*Delta > tinyPoints }

// regularOffsets returns the CSR offsets of an n-vertex Delta-regular graph.
func regularOffsets(n, Delta int) []int {
	off := make([]int, n+1)
	for v := range off {
		off[v] = v * Delta
	}
	return off
}

// randomRegularRows returns a random simple Delta-regular graph, Delta <=
// n/2, as sorted fixed-width rows: the neighbours of v are
// adj[v*Delta : v*Delta+Delta]. If repair is false the pairing is redrawn
// until simple, otherwise defects are repaired (see RandomRegular). Besides
// the rows it holds 4n bytes of degrees and, for the last eighth of each
// pairing, the unmatched points (n·Delta/2 bytes at most). Once stop
// stops it returns nil.
func randomRegularRows(n, Delta int, src rand.Source, st *RegularStats, repair bool, stop *stopper) []uint32 {
	if Delta == 0 {
		return nil
	}
	adj := make([]uint32, n*Delta)
	deg := make([]uint32, n)
	scratch := make([]uint32, regularScratchLen(n, Delta))
	for {
		if stop.err() != nil {
			return nil
		}
		st.PairingAttempts++
		if simple, _ := drawPairing(adj, deg, scratch, Delta, src, !repair, stop); !simple {
			continue
		}
		if !repair || repairPairing(adj, deg, n, Delta, src, st, stop) {
			break
		}
	}
	if Delta <= smallDelta {
		for i := 0; i < len(adj); i += Delta {
			if stop.stop() {
				return nil
			}
			sortShortRow(adj[i : i+Delta])
		}
		return adj
	}
	if !transposeRows(adj, deg, scratch, Delta, stop) {
		return nil
	}
	return adj
}

// regularScratchLen is the length of the scratch array of
// randomRegularRows: the unmatched points of a pairing's tail, at most
// n·Delta/pairingTail, and the rows of a block of transposeRows.
func regularScratchLen(n, Delta int) int {
	return max(n*Delta/pairingTail, Delta)
}

// smallDelta is the row width up to which rows are sorted in place by
// insertion sort; wider rows are sorted by transposition.
const smallDelta = 16

// sortShortRow sorts a short row by insertion.
func sortShortRow(row []uint32) {
	for i := 1; i < len(row); i++ {
		for j := i; j > 0 && row[j] < row[j-1]; j-- {
			row[j], row[j-1] = row[j-1], row[j]
		}
	}
}

// transposeRows sorts the symmetric fixed-width rows adj by transposing
// them, a block of rows at a time, using deg (len n) and buf (len
// regularScratchLen(n, Delta)) as scratch: for the rows of a block, u is
// appended to the copy of row w for each neighbour w of u in the block,
// taking u in increasing order, so the copy is row w sorted, and then
// written over row w. Row w holds the same neighbours
// before and after, so the rows still to be read are the graph's whatever
// blocks are done. A block has max(n/pairingTail, 1) rows, so the copies
// hold at most an eighth of the rows more; each block reads all the
// rows once, O(pairingTail·n·Delta) time against O(n·Delta log Delta) for
// sorting each row, and its writes stay within the block.
// It reports false, the rows left half done, once stop stops.
func transposeRows(adj, deg, buf []uint32, Delta int, stop *stopper) bool {
	n := len(deg)
	rows := max(n/pairingTail, 1)
	for a := 0; a < n; a += rows {
		b := min(a+rows, n)
		fill := deg[a:b]
		clear(fill)
		for u := range n {
			if stop.steps(uint32(Delta)) {
				return false
			}
			for _, w := range adj[u*Delta : u*Delta+Delta] {
				if i := int(w) - a; uint(i) < uint(len(fill)) {
					buf[i*Delta+int(fill[i])] = uint32(u)
					fill[i]++
				}
			}
		}
		copy(adj[a*Delta:b*Delta], buf[:(b-a)*Delta])
	}
	return true
}

// A pairing is drawn into the rows themselves: the slots v·Delta ..
// v·Delta+Delta-1 of adj are the Delta points of v, and a slot holding
// noVertex is a point not yet matched. Matching the lowest unmatched point
// to a uniformly random other unmatched point, until none is left, draws a
// uniform perfect matching whatever rule picks the first point of each
// pair; a matched pair of points (p, q) of the vertices u and v writes v in
// slot p and u in slot q.
//
// The partner is drawn by rejection while at least an eighth of the points
// are unmatched (pairingTail): a uniform slot of [0, n·Delta) is accepted if
// it is unmatched and not the first point, so every accepted slot is a
// uniform other unmatched point, and no array of points is needed. With a
// fraction f of the points unmatched a partner takes 1/f draws, n·Delta·ln 8
// / 2 draws in all for the first seven eighths. Then the rows are compacted
// (the vertices' matched points first, deg counting them) and the unmatched
// points, at most n·Delta/8, are listed once in pts, vertex by vertex, and
// the rest is drawn as a uniform matching of pts: pts[i] with a uniformly
// random point of pts[i+1:], for i = 0, 2, 4, …. The points of a vertex are
// exchangeable, so the multigraph has the law of the configuration model.
// The pairing for a seed is not the one that a points array of all n·Delta
// points, the method used before, drew; its law is the same.
//
// The loops are written for memory latency, which dominates them once the
// rows outgrow the cache. The candidate slots (or partner indices) of a
// block of pairingBlock draws are drawn first, in a tight loop: calling the
// source inside the pairing loop, with its state in memory and stored on
// every call, made that loop twice as slow. Then the loop loads the slot
// pairingAhead candidates ahead (in the tail, the partner point 2·pairingAhead
// pairs ahead and the row of the partner pairingAhead pairs ahead), so that
// those cache misses overlap the work in between.

const (
	pairingBlock = 1024 // draws made at a time
	pairingAhead = 16   // how far ahead the loops load
	pairingTail  = 8    // rejection stops at 1/pairingTail of the points unmatched
)

// drawSlots sets each s[t] to a uniform index in [0, m) (see uint64n).
func drawSlots(s []uint64, m uint64, src rand.Source) {
	for t := range s {
		hi, lo := bits.Mul64(src.Uint64(), m)
		if lo < m {
			hi = lemireRetry(src, hi, lo, m)
		}
		s[t] = hi
	}
}

// drawPartners sets js[t], for each t, to a uniform index in [i+1, m) for
// i = i0 + 2t, by Lemire's method (see uint64n).
func drawPartners(js []uint64, i0, m uint64, src rand.Source) {
	for t := range js {
		i := i0 + 2*uint64(t)
		r := m - i - 1
		hi, lo := bits.Mul64(src.Uint64(), r)
		if lo < r {
			hi = lemireRetry(src, hi, lo, r)
		}
		js[t] = i + 1 + hi
	}
}

// drawPairing draws a uniformly random pairing of the n·Delta points and
// writes the multigraph it induces into the fixed-width rows adj (len
// n·Delta), using deg (len n) and pts (len at least n·Delta/pairingTail)
// as scratch. A loop {v, v} puts v twice in row v. If simple, it stops at
// the first loop or repeated edge and reports false (the rows are then
// partly written); otherwise it reports true. The second result sums the
// values loaded ahead, so that the compiler keeps those loads; it means
// nothing.
//
// Once stop stops it returns false, the pairing left half drawn.
func drawPairing(adj, deg, pts []uint32, Delta int, src rand.Source, simple bool, stop *stopper) (ok bool, sum uint32) {
	for i := range adj {
		adj[i] = noVertex
	}
	D := uint64(Delta)
	m := uint64(len(adj))
	left := m               // unmatched points
	tail := m / pairingTail // the rejection phase ends at left <= tail
	c := uint64(0)          // the lowest unmatched slot
	var ps [pairingBlock]uint64
draw:
	for left > tail {
		if stop.steps(pairingBlock) {
			return false, sum
		}
		drawSlots(ps[:], m, src)
		for t, p := range ps {
			if t+pairingAhead < len(ps) {
				sum += adj[ps[t+pairingAhead]]
			}
			if adj[p] != noVertex || p == c {
				continue
			}
			u, v := uint32(c/D), uint32(p/D)
			if simple && (u == v || slices.Contains(adj[uint64(u)*D:uint64(u)*D+D], v)) {
				return false, sum
			}
			adj[c], adj[p] = v, u
			if left -= 2; left <= tail {
				break draw
			}
			for adj[c] != noVertex {
				c++
			}
		}
	}
	if left == 0 {
		return true, sum
	}
	// The tail: compact each row and list its unmatched points.
	pts = pts[:0]
	for v := range deg {
		row := adj[v*Delta : v*Delta+Delta]
		k := 0
		for _, w := range row {
			if w != noVertex {
				row[k] = w
				k++
			}
		}
		deg[v] = uint32(k)
		for j := k; j < Delta; j++ {
			row[j] = noVertex
			pts = append(pts, uint32(v))
		}
	}
	var js [pairingBlock]uint64
	for i0 := uint64(0); i0 < left; i0 += 2 * pairingBlock {
		if stop.steps(pairingBlock) {
			return false, sum
		}
		block := js[:min(pairingBlock, (left-i0)/2)]
		drawPartners(block, i0, left, src)
		for t, j := range block {
			if t+2*pairingAhead < len(block) {
				sum += pts[block[t+2*pairingAhead]]
			}
			if t+pairingAhead < len(block) {
				w := pts[block[t+pairingAhead]]
				sum += adj[int(w)*Delta+int(deg[w])]
			}
			i := i0 + 2*uint64(t)
			pts[i+1], pts[j] = pts[j], pts[i+1]
			u, v := pts[i], pts[i+1]
			ru := int(u) * Delta
			if simple && (u == v || slices.Contains(adj[ru:ru+int(deg[u])], v)) {
				return false, sum
			}
			adj[ru+int(deg[u])] = v
			deg[u]++
			adj[int(v)*Delta+int(deg[v])] = u
			deg[v]++
		}
	}
	return true, sum
}

// noVertex marks a free slot. It is not a vertex, as n <= MaxOrder.
const noVertex = math.MaxUint32

// repairPairing turns the multigraph in the fixed-width rows adj into a simple
// graph by double-edge switches, then mixes it with the switch chain (see
// RandomRegular). It uses mark (len n) as scratch and reports false if some
// defect could not be repaired, or once stop stops.
func repairPairing(adj, mark []uint32, n, Delta int, src rand.Source, st *RegularStats, stop *stopper) bool {
	// Find the defects: a loop at v shows as v twice in row v; an edge {v, w}
	// of multiplicity k > 1 as w k times in row v. Record each loop once and
	// each extra copy of a repeated edge once, from its smaller endpoint.
	// mark[w] == v+1 says w was already seen in row v.
	clear(mark)
	var defects []uint32 // pairs a, b
	for v := range n {
		loops := 0
		for _, w := range adj[v*Delta : v*Delta+Delta] {
			switch {
			case int(w) == v:
				loops++
				if loops%2 == 0 {
					defects = append(defects, uint32(v), uint32(v))
				}
			case int(w) > v:
				if mark[w] == uint32(v)+1 {
					defects = append(defects, uint32(v), w)
				}
				mark[w] = uint32(v) + 1
			}
		}
	}
	// Repair in random order, so that nothing depends on the labels.
	for i := len(defects)/2 - 1; i > 0; i-- {
		j := int(uint64n(src, uint64(i+1)))
		defects[2*i], defects[2*j] = defects[2*j], defects[2*i]
		defects[2*i+1], defects[2*j+1] = defects[2*j+1], defects[2*i+1]
	}
	m := uint64(len(adj))
	row := func(v uint32) []uint32 { return adj[int(v)*Delta : int(v)*Delta+Delta] }
	for k := 0; k < len(defects); k += 2 {
		if stop.stop() {
			return false
		}
		a, b := defects[k], defects[k+1]
		// An earlier switch may have used this defect as its partner edge.
		if occurrences(row(a), b) < 2 {
			continue
		}
		for tries := 0; ; tries++ {
			if tries == maxRepairTries {
				return false
			}
			// A uniformly random slot is a uniformly random edge in a random
			// orientation.
			p := uint64n(src, m)
			c, d := uint32(p/uint64(Delta)), adj[p]
			// Accept {a, b}, {c, d} -> {a, c}, {b, d} only if the new edges
			// are not loops, not already present and not equal to each other.
			// Since {a, b} is a defect, this also rules out {c, d} = {a, b}
			// and every other case in which the endpoints meet, except a
			// loop at a or at c.
			if a == c || b == d || (a == b && c == d) ||
				slices.Contains(row(a), c) || slices.Contains(row(b), d) {
				continue
			}
			switchEdges(adj, Delta, a, b, c, d)
			st.Switches++
			break
		}
	}
	// Mix with the switch chain.
	steps := int64(math.Ceil(mixPerDefect * expectedDefects(n, Delta)))
	for range steps {
		if stop.stop() {
			return false
		}
		p, q := uint64n(src, m), uint64n(src, m)
		a, b := uint32(p/uint64(Delta)), adj[p]
		c, d := uint32(q/uint64(Delta)), adj[q]
		if a == c || b == d || a == d || b == c ||
			slices.Contains(row(a), c) || slices.Contains(row(b), d) {
			continue
		}
		switchEdges(adj, Delta, a, b, c, d)
		st.Switches++
	}
	return true
}

// switchEdges replaces the edges {a, b} and {c, d} by {a, c} and {b, d} in
// the fixed-width rows. Loops {a, a} or {c, c} occupy two slots of their row,
// and the replacements below then rewrite both.
func switchEdges(adj []uint32, Delta int, a, b, c, d uint32) {
	replaceFirst(adj[int(a)*Delta:int(a)*Delta+Delta], b, c)
	replaceFirst(adj[int(b)*Delta:int(b)*Delta+Delta], a, d)
	replaceFirst(adj[int(c)*Delta:int(c)*Delta+Delta], d, a)
	replaceFirst(adj[int(d)*Delta:int(d)*Delta+Delta], c, b)
}

// replaceFirst overwrites the first x in row with y. It panics if row holds
// no x, which would be a broken invariant of the repair.
func replaceFirst(row []uint32, x, y uint32) {
	i := slices.Index(row, x)
	row[i] = y
}

// occurrences returns how many times x occurs in row.
func occurrences(row []uint32, x uint32) int {
	k := 0
	for _, y := range row {
		if y == x {
			k++
		}
	}
	return k
}

// expectedDefects returns the expected number of defects (loops plus extra
// copies of repeated edges) of a random pairing with Delta points on each of
// n vertices, N = n·Delta points in all. Each of the n·C(Delta, 2) pairs of
// points on one vertex is matched with probability 1/(N-1). For two vertices
// u, v let X be the number of edges between them; j given points of u are
// matched to j given points of v with probability 1/((N-1)(N-3)…(N-2j+1)),
// so E[C(X, j)] = C(Delta, j)²·j!/((N-1)(N-3)…(N-2j+1)), and the extra
// copies E[X] - P(X >= 1) = Σ_{j>=2} (-1)^j E[C(X, j)] by inclusion and
// exclusion; the terms fall at least as fast as (Delta/n)^j/j!. For Delta =
// o(n) the total is (Delta²-1)/4 + o(1) [B80]. It depends on n and Delta
// only, so the number of mixing steps is fixed in advance.
func expectedDefects(n, Delta int) float64 {
	N, D := float64(n)*float64(Delta), float64(Delta)
	loops := float64(n) * D * (D - 1) / 2 / (N - 1)
	extra := 0.0
	t := D * D / (N - 1) // E[C(X, 1)]
	for j := 1.0; j < D; j++ {
		t *= (D - j) * (D - j) / ((j + 1) * (N - 1 - 2*j)) // E[C(X, j+1)]
		if int(j)%2 == 1 {
			extra += t
		} else {
			extra -= t
		}
		if t < 1e-16*extra {
			break
		}
	}
	return loops + float64(n)*float64(n-1)/2*extra
}

// complementRows returns the fixed-width sorted rows of the complement of the
// graph with sorted fixed-width rows h of width k on n vertices; the
// complement is (n-1-k)-regular. It takes O(n²) time.
// It returns nil once stop stops.
func complementRows(h []uint32, n, k int, stop *stopper) []uint32 {
	Delta := n - 1 - k
	adj := make([]uint32, 0, n*Delta)
	for v := range n {
		if stop.steps(uint32(min(n, stopEvery))) {
			return nil
		}
		row := h[v*k : v*k+k]
		j := 0
		for w := range uint32(n) {
			if j < len(row) && row[j] == w {
				j++
				continue
			}
			if w != uint32(v) {
				adj = append(adj, w)
			}
		}
	}
	return adj
}

// uint64n returns a uniform integer in [0, n), n > 0, by Lemire's
// multiply-shift method: the high word of x·n for a uniform 64-bit x is
// uniform on [0, n) once the products whose low word falls below 2^64 mod n
// are rejected (D. Lemire, Fast random integer generation in an interval,
// ACM TOMACS 29 (2019)). Rejection happens with probability n/2^64, so
// almost every call costs one draw and one multiplication.
func uint64n(src rand.Source, n uint64) uint64 {
	hi, lo := bits.Mul64(src.Uint64(), n)
	if lo < n {
		hi = lemireRetry(src, hi, lo, n)
	}
	return hi
}

// lemireRetry finishes uint64n when the first product's low word lo is
// below n: it redraws while lo < 2^64 mod n. It is kept out of line, as it
// almost never runs.
//
//go:noinline
func lemireRetry(src rand.Source, hi, lo, n uint64) uint64 {
	thresh := -n % n
	for lo < thresh {
		hi, lo = bits.Mul64(src.Uint64(), n)
	}
	return hi
}
