//go:build ignore

// gen_loops writes the specialised hot loops of package alloc from one
// template per loop shape, one file a shape:
//   - zloops_place.go: the Place loops of two candidates (draw a ball's two
//     bins, decide, stop before a byte load would overflow);
//   - zloops_ring.go: those loops pipelined by a ring;
//   - zloops_pipe2.go: those pipelined twice, through a table of edges;
//   - zloops_rule.go: the graph process's rules, which draw a block of
//     balls ahead and place it;
//   - zloops_levels.go: the level engine's loops of one raise a ball;
//   - zloops_regs.go: the level engine's Greedy[d] loop with its histogram
//     in registers;
//   - zloops_choice.go: the loops of one ball's code, which draws its
//     bins and chooses one, each as a Place loop and as its rule's run;
//   - zloops_search.go: local search's loops, one a graph kind, and its
//     scans of a vertex's neighbours;
//   - zloops_rules.go: the rules whose one loop is generic in the load
//     width, run and run8 on it.
//
// Run it with go generate in alloc.
//
// Why generated and not generic: a loop made generic over its sampler calls
// the sampler through the GC-shape dictionary, an indirect call a ball, and
// was 22–33% slower a ball; a type switch in the loop was slower still. So
// each sampler × decision gets its own concrete loop, written out here from
// the loop's shape and the sampler's draw, as Go's sort package writes
// zsortfunc.go and zsortinterface.go from one template
// (sort/gen_sort_variants.go). The loops only abstract over the load width
// (T uint8 | uint32), which instantiates one copy per width, without a
// dictionary call.
//
// Each entry's Draw is the sampler's code for one ball, spliced in verbatim:
// the generated loop is the code a hand-written loop would be, with the
// generator state in locals, Lemire's bounded draw (below), the
// conditional-move selection and the same prefetches (BENCHMARKS.md, "What each technique brought").
package main

import (
	"bytes"
	"strings"
	"text/template"

	"github.com/graphalloc/graphalloc/internal/codegen"
)

// placeLoop is one Place loop of two candidates u and v on loads L of
// width T: it returns the balls placed, stopping before a ball that would
// raise a one-byte load to 255 with r as before that ball (see full).
type placeLoop struct {
	Name, Doc string
	Params    string // after L []T, m int64; before r *Rand
	Prelude   string // dispatch to the piped and phased forms, constants
	Coins     bool   // the loop draws fair coins: the coin buffer is state too
	Pick      bool   // decide by pickIn(thr, lu, lv) against the word w (a two-sample rule); else the lesser load, u winning ties
	Most      bool   // decide by the greater load, u winning ties
	Vertex    bool   // u a uniform vertex of the rows off, adj: an isolated u takes the ball (Count counts them)
	Count     string // a count the loop returns after the balls placed, if any
	// Increment raises an isolated u's load by L[u]++ rather than
	// L[u] = T(lu + 1): the same loads, but the compiler allocates registers
	// differently for each, and each loop keeps the form measured for it.
	Increment bool
	Draw      string // the draws of one ball: u and v (and w with Pick)
	Tie       string // after the overflow check: a tie's coin, drawn only on a tie, or the count
}

const placeTmpl = `
{{define "restore"}}{{if .Coins}}r.state, r.coins, r.ncoins = s0, coins0, nc0{{else}}r.state = s0{{end}}{{end}}
{{define "ret"}}{{with .Count}}, {{.}}{{end}}{{end}}
{{range .}}
{{.Doc}}
func {{.Name}}[T uint8 | uint32](L []T, m int64, {{with .Params}}{{.}}, {{end}}r *Rand) {{with .Count}}(placed, {{.}} int64){{else}}int64{{end}} {
{{.Prelude}}
{{- template "load" .}}
{{- if .Pick}}
	thr := ru.thr
{{- end}}
	for k := int64(0); k < m; k++ {
{{- if .Coins}}
		s0, coins0, nc0 := s, coins, nc
{{- else}}
		s0 := s
{{- end}}
{{- if .Vertex}}
		var u uint64
		s, u = below(s, n)
		deg := uint64(off[u+1] - off[u])
		if deg == 0 {
{{- if .Increment}}
			if l := uint64(L[u]); full(L, l) {
				{{template "restore" .}}
				return k, isolated
			}
			L[u]++
{{- else}}
			lu := uint64(L[u])
			if full(L, lu) {
				{{template "restore" .}}
				return k, isolated
			}
			L[u] = T(lu + 1)
{{- end}}
			isolated++
			continue
		}
{{- end}}
{{.Draw}}
{{- template "decide" .}}
		if full(L, l) {
			{{template "restore" .}}
			return k{{template "ret" .}}
		}
{{.Tie}}
		L[c] = T(l + 1)
	}
{{- template "store" .}}
	return m{{template "ret" .}}
}
{{end}}`

// The loops of the graph process (graphical.go, implicitgraph.go) and of
// the two-sample rules (twosample.go).
var placeLoops = []placeLoop{{
	Name: "graphEdge",
	Doc: `// graphEdge places m balls at the lesser loaded end of uniform edges of the
// flat edge array e. With random ties each edge is oriented by a fair coin
// (from r's coin buffer) and the first end wins ties.`,
	Params: "e []uint32, random bool",
	Prelude: `
	if uintptr(len(e))*4 >= edgePhasedMin {
		return graphEdgePhased(L, m, e, random, r) // the same balls, beyond the TLB's reach
	}
	if pipelined(len(e), 4) || pipelined(len(L), unsafe.Sizeof(L[0])) {
		return graphEdgePiped(L, m, e, random, r) // the same balls, cache misses overlapped
	}
	ne := uint64(len(e) / 2)`,
	Coins: true,
	Draw: `
		var x uint64
		s, x = below(s, ne)
		u, v := e[2*x], e[2*x+1]
		if random {
			if nc == 0 {
				s, coins = next(s)
				nc = 64
			}
			if coins&1 != 0 {
				u, v = v, u
			}
			coins >>= 1
			nc--
		}`,
}, {
	Name: "regularEdge",
	Doc: `// regularEdge places m balls at the lesser loaded end of uniform edges of
// a D-regular graph with fixed-width rows adj (the neighbours of u in
// adj[u·D : u·D+D]): u uniform in [n] and j uniform in [D] name the
// half-edge u·D + j, each of the 2|E| = nD half-edges with probability
// 1/(nD), so {u, adj[u·D+j]} is a uniform edge in a uniform orientation
// (each edge {a, b} is the half-edges (a, b) and (b, a)). The first end wins
// ties, a fair coin, so no coin is drawn; with leftEdge the smaller id comes
// first. It needs no edge array, and draws differently from graphEdge: the
// law of the loads is the same, the loads for a seed are not.`,
	Params: "adj []uint32, D uint64, leftEdge bool",
	Prelude: `
	if pipelined(len(adj), 4) || pipelined(len(L), unsafe.Sizeof(L[0])) {
		return regularEdgePiped(L, m, adj, D, leftEdge, r)
	}
	n := uint64(len(L))`,
	Draw: `
		var u, j uint64
		s, u = below(s, n)
		s, j = below(s, D)
		v := uint64(adj[u*D+j])
		if leftEdge && v < u {
			u, v = v, u
		}`,
}, {
	Name: "graphVertex",
	Doc: `// graphVertex places m balls by a uniform vertex and a uniform neighbour of
// it, and returns the balls placed and how many of them found an isolated
// vertex (one probe).`,
	Params:    "off []int, adj []uint32, random bool",
	Prelude:   `n := uint64(len(L))`,
	Coins:     true,
	Vertex:    true,
	Count:     "isolated",
	Increment: true,
	Draw: `
		var j uint64
		s, j = below(s, deg)
		v := uint64(adj[uint64(off[u])+j])`,
	Tie: `
		// The tie's coin after the check: the four-byte loop draws it
		// again.
		if random && lv == lu {
			if nc == 0 {
				s, coins = next(s)
				nc = 64
			}
			if coins&1 != 0 {
				c = v
			}
			coins >>= 1
			nc--
		}`,
}, {
	Name: "completeGraph",
	Doc: `// completeGraph places m balls on K_n: u uniform, v uniform among the other
// n-1 vertices. With left ties the smaller id wins (edge sampling) or u does
// (vertex sampling). With random ties the pair (u, v) is already a uniformly
// random ordering of the edge, so the first end winning ties is a fair
// coin.`,
	Params:  "random, vertexFirst bool",
	Prelude: `n := uint64(len(L))`,
	Draw:    completeDraw + swapIf("!random && !vertexFirst"),
}, {
	Name: "circulantGraph",
	Doc: `// circulantGraph places m balls on the circulant graph with connection set
// S on len(L) vertices: u uniform, s uniform in S, v = u + s mod n. Each
// edge {a, b} arises from (a, b−a) and (b, a−b) (or (a, n/2) and (b, n/2)),
// so the edge is uniform and its orientation a fair coin; ties are handled
// as in completeGraph.`,
	Params: "S []uint32, random, vertexFirst bool",
	Prelude: `
	n := uint64(len(L))
	d := uint64(len(S))`,
	Draw: circulantDraw("j", "") + swapIf("!random && !vertexFirst"),
}, {
	Name: "permRegular",
	Doc: `// permRegular places m balls on the permutation-model regular multigraph
// g: u uniform in [n], t uniform in [2d], v = π_{t/2}(u) (a Feistel network
// with cycle walking, inlined), the pair oriented (v, u) when t is odd, or
// with the smaller id first when leftEdge (permDraw).`,
	Params: "g graphgen.PermutationRegular, leftEdge bool",
	Prelude: `
	if uintptr(len(L))*unsafe.Sizeof(L[0]) >= permPhasedMin {
		return permRegularPhased(L, m, g, leftEdge, r)
	}
	if pipelined(len(L), unsafe.Sizeof(L[0])) {
		return permRegularPiped(L, m, g, leftEdge, r)
	}
	n, d2, w, keys := uint64(len(L)), uint64(2*g.Permutations()), g.Half(), g.Keys()`,
	Draw: `
		var u, v uint64
		s, u, v = permDraw(s, n, d2, w, keys, leftEdge)`,
}, {
	Name: "twoUniform",
	Doc: `// twoUniform places m balls, each with candidates u, v two independent
// uniform bins and a decision word w, drawn in that order. See oneChoice
// for the compact loads and the return value.`,
	Params: "ru *twoRule",
	Prelude: `
	if pipelined(len(L), unsafe.Sizeof(L[0])) {
		return twoUniformPiped(L, m, ru, r)
	}
	n := uint64(len(L))`,
	Pick: true,
	Draw: `
		var u, v, w uint64
		s, u = below(s, n)
		s, v = below(s, n)
		s, w = next(s)`,
}, {
	Name: "twoEdge",
	Doc: `// twoEdge places m balls on the ends u = e[2x], v = e[2x+1] (u < v) of a
// uniform edge x of the flat edge array e, then draws w. It returns the
// balls placed, as twoUniform.`,
	Params: "e []uint32, ru *twoRule",
	Prelude: `
	if pipelined(len(e), 4) || pipelined(len(L), unsafe.Sizeof(L[0])) {
		return twoEdgePiped(L, m, e, ru, r) // the same balls, cache misses overlapped
	}
	ne := uint64(len(e) / 2)`,
	Pick: true,
	Draw: `
		var x, w uint64
		s, x = below(s, ne)
		s, w = next(s)
		u, v := e[2*x], e[2*x+1]`,
}, {
	Name: "twoVertex",
	Doc: `// twoVertex places m balls on u, a uniform vertex, and v, a uniform
// neighbour of u, then draws w; an isolated u takes the ball itself (no
// further draw). It returns the balls placed, as twoUniform, and how many
// of them found an isolated u.`,
	Params:  "off []int, adj []uint32, ru *twoRule",
	Prelude: `n := uint64(len(L))`,
	Pick:    true,
	Vertex:  true,
	Count:   "isolated",
	Draw: `
		var j, w uint64
		s, j = below(s, deg)
		s, w = next(s)
		v := uint64(adj[uint64(off[u])+j])`,
}, {
	Name: "twoCirculant",
	Doc: `// twoCirculant places m balls on u, uniform, and v = u + S[j] mod n, j
// uniform (a uniform edge, uniformly oriented, as in circulantGraph), then
// draws w. With smallerFirst (left ties under edge sampling) u is the end
// with the smaller id. It returns the balls placed, as twoUniform.`,
	Params: "S []uint32, ru *twoRule, smallerFirst bool",
	Prelude: `
	n := uint64(len(L))
	d := uint64(len(S))`,
	Pick: true,
	Draw: circulantDraw("j", "w") + swapIf("smallerFirst"),
}, {
	Name: "maxOf2",
	Doc: `// maxOf2 and maxOfD place m balls and return how many they placed: on
// one-byte loads they stop before a ball that would raise a load to 255
// (see full), with r as before that ball.`,
	Prelude: "n := uint64(len(L))",
	Most:    true,
	Draw: `
		var u, v uint64
		s, u = below(s, n)
		s, v = below(s, n)`,
}, {
	Name: "onePlusBeta",
	Doc: `// onePlusBeta places m balls and returns how many it placed and how many
// of those took a Greedy[2] step. On one-byte loads it stops before a ball
// that would raise a load to 255 (see full), with r as before that ball.`,
	Params:  "thr uint64, all bool",
	Prelude: "n := uint64(len(L))",
	Count:   "compared",
	Draw: betaDraw + `
		// A OneChoice step compares u with itself. Both selections are
		// written for conditional moves.
		var g int64
		if x < thr || all {
			g = 1
		}
		if g == 0 {
			v = u
		}`,
	Tie: "compared += g",
}}

// ruleLoop is the run method of one rule of the graph process on type
// Type (graphical.go): each block of graphBlockLen balls is drawn first,
// its loads prefetched, then placed in order by graphBlock.place.
type ruleLoop struct {
	Type    string
	Prelude string // the rule's constants
	Slots   string // per-ball values kept between the two stages, if any
	// Draw draws one ball after its step coin f: its ends u and v, or with
	// Ends its edge slot, and then its second coin and prefetch.
	Draw string
	// Ends, if set, is a second stage over the block: it reads each
	// ball's ends u, v from the slot the first prefetched (pipelined twice).
	Ends string
}

const ruleTmpl = `
{{define "ends"}}
			blk.u[j], blk.v[j] = uint32(u), uint32(v)
			if pipe {
				prefetch2(unsafe.Pointer(&L[u]), unsafe.Pointer(&L[v]))
			}
{{- end}}
{{range .}}
func (g {{.Type}}) run(L []uint32, m int64, out []uint32, r *Rand) Stats {
{{.Prelude}}
	s, coins, nc := r.state, r.coins, r.ncoins
	var blk graphBlock
{{- if .Slots}}
	var {{.Slots}} [graphBlockLen]uint64
{{- end}}
	var probes int64
	for k0 := int64(0); k0 < m; k0 += graphBlockLen {
		nb := int(min(graphBlockLen, m-k0))
		for j := range nb {
			var f uint8
			s, f = g.first(s)
{{.Draw}}
{{- if .Ends}}
		}
		for j := range nb {
{{.Ends}}
{{- template "ends"}}
		}
{{- else}}
			s, coins, nc, blk.flags[j] = g.second(s, coins, nc, f)
{{- template "ends"}}
		}
{{- end}}
		probes += blk.place(L, out, k0, nb)
	}
	r.state, r.coins, r.ncoins = s, coins, nc
	return g.stats(m, probes)
}
{{end}}`

var ruleLoops = []ruleLoop{{
	Type: "edgeRule",
	Prelude: `
	e := g.e
	ne := uint64(len(e) / 2)
	random, pipe := g.random, pipelined(len(e), 4) || pipelined(len(L), 4)`,
	Slots: "x",
	Draw: `
			s, x[j] = below(s, ne)
			if random {
				s, coins, nc, f = flagCoin(s, coins, nc, f, 2)
			}
			s, coins, nc, blk.flags[j] = g.second(s, coins, nc, f)
			if pipe {
				prefetch(unsafe.Pointer(&e[2*x[j]]))
			}`,
	Ends: `
			u, v := e[2*x[j]], e[2*x[j]+1]
			if blk.flags[j]&4 != 0 { // a conditional move
				u, v = v, u
			}`,
}, {
	Type: "regularEdgeRule",
	Prelude: `
	adj, D := g.adj, g.D
	n := uint64(len(L))
	leftEdge, pipe := !g.random, pipelined(len(adj), 4) || pipelined(len(L), 4)`,
	Slots: "h",
	Draw: `
			var u, i uint64
			s, u = below(s, n)
			s, i = below(s, D)
			blk.u[j], h[j] = uint32(u), u*D+i
			s, coins, nc, blk.flags[j] = g.second(s, coins, nc, f)
			if pipe {
				prefetch(unsafe.Pointer(&adj[h[j]]))
			}`,
	Ends: `
			u, v := halfEdgeEnds(adj, uint64(blk.u[j]), h[j], leftEdge)`,
}, {
	Type: "completeRule",
	Prelude: `
	n := uint64(len(L))
	swap, pipe := !g.random && !g.vertexFirst, pipelined(len(L), 4)`,
	Draw: completeDraw + swapIf("swap"),
}, {
	Type: "circulantRule",
	Prelude: `
	n := uint64(len(L))
	S := g.S
	d := uint64(len(S))
	swap, pipe := !g.random && !g.vertexFirst, pipelined(len(L), 4)`,
	Draw: circulantDraw("i", "") + swapIf("swap"),
}, {
	Type: "implicitRule",
	Prelude: `
	n := uint64(len(L))
	leftEdge, pipe := !g.random && !g.vertexFirst, pipelined(len(L), 4)
	d2, w, keys := uint64(2*g.perm.Permutations()), g.perm.Half(), g.perm.Keys()
	if g.kind == implicitCube || g.kind == implicitLines {
		d2 = g.d2
	}
	lt := &g.lt`,
	Draw: `
			var u, v uint64
			switch g.kind { // the same branch every ball: predicted
			case implicitPerm:
				s, u, v = permDraw(s, n, d2, w, keys, leftEdge)
			case implicitCube:
				s, u, v = hypercubeDraw(s, n, d2, leftEdge)
			case implicitLines:
				s, u, v = linesDraw(s, n, d2, g.lines, leftEdge)
			default:
				s, u, v = torusDraw(s, lt, leftEdge)
			}`,
}}

// ringLoop is a Place loop of two candidates pipelined by a ring (software
// pipelining): each ball's draws are made ahead balls early, into a ring slot
// with the generator as it was before them, and its two loads prefetched;
// the balls are placed in order, so the loads are those of the loop
// without the ring.
type ringLoop struct {
	Name, Doc string
	Params    string // after L []T, m int64, with r *Rand
	Prelude   string // constants
	Pick      bool   // decide by pickIn against the word w, as placeLoop
	Most      bool   // decide by the greater load, as placeLoop
	// Draw draws one ball into the slot e: e.u, e.v (and e.w with Pick).
	Draw string
	// Both: one function that pipelines only when piped is true (set by
	// Prelude) and otherwise draws each ball as it places it; Draw is then
	// a call returning s, u, v.
	Both bool
}

const ringTmpl = `
{{define "draw"}}{{if .Both}}s, e.u, e.v = {{.Draw}}{{else}}{{.Draw}}{{end}}
			prefetch2(unsafe.Pointer(&L[e.u]), unsafe.Pointer(&L[e.v])){{end}}
{{range .}}
{{.Doc}}
func {{.Name}}[T uint8 | uint32](L []T, m int64, {{.Params}}) int64 {
{{- if not .Both}}
	var ring [ahead]struct{ s, u, v{{if .Pick}}, w{{end}} uint64 }
{{- end}}
{{.Prelude}}
	s := r.state
{{- if .Pick}}
	thr := ru.thr
{{- end}}
{{- if .Both}}
	lookahead := int64(0)
	if piped {
		lookahead = ahead
	}
{{- end}}
	for k := range min(m, {{if .Both}}lookahead{{else}}ahead{{end}}) {
		e := &ring[k]
		e.s = s
		{{template "draw" .}}
	}
	for k := int64(0); k < m; k++ {
{{- if .Both}}
		var s0, u, v uint64
		if piped {
			e := &ring[k&(ahead-1)]
			s0, u, v = e.s, e.u, e.v
			if k+ahead < m {
				e.s = s
				{{template "draw" .}}
			}
		} else {
			s0 = s
			s, u, v = {{.Draw}}
		}
{{- else}}
		e := &ring[k&(ahead-1)]
		s0, u, v{{if .Pick}}, w{{end}} := e.s, e.u, e.v{{if .Pick}}, e.w{{end}}
		if k+ahead < m {
			e.s = s
			{{template "draw" .}}
		}
{{- end}}
{{- template "decide" .}}
		if full(L, l) {
			r.state = s0
			return k
		}
		L[c] = T(l + 1)
	}
	r.state = s
	return m
}
{{end}}`

var ringLoops = []ringLoop{{
	Name: "twoPiped",
	Doc: `// twoPiped is two with each ball's draws made ahead balls early and its
// two bins prefetched (docs/theory.md, note 4): the same balls in the same
// order.`,
	Params: "r *Rand, a, na, b, nb uint64",
	Draw: `
			s, e.u = below(s, na)
			s, e.v = below(s, nb)
			e.u += a
			e.v += b`,
}, {
	Name: "permRegularPiped",
	Doc: `// permRegularPiped is permRegular with the draws ahead balls ahead of the
// placements and the two loads prefetched (docs/theory.md, note 4): the
// same balls in the same order.`,
	Params:  "g graphgen.PermutationRegular, leftEdge bool, r *Rand",
	Prelude: `n, d2, w, keys := uint64(len(L)), uint64(2*g.Permutations()), g.Half(), g.Keys()`,
	Draw:    `s, e.u, e.v = permDraw(s, n, d2, w, keys, leftEdge)`,
}, {
	Name: "twoUniformPiped",
	Doc: `// twoUniformPiped is twoUniform with each ball's draws made ahead balls
// early and its two bins prefetched (docs/theory.md, note 4); the draws and
// the placements are in ball order, so the loads are twoUniform's.`,
	Params:  "ru *twoRule, r *Rand",
	Prelude: `n := uint64(len(L))`,
	Pick:    true,
	Draw: `
			s, e.u = below(s, n)
			s, e.v = below(s, n)
			s, e.w = next(s)`,
}, {
	Name: "hypercubeGraph",
	Doc: `// hypercubeGraph places m balls on Q_dim: u uniform in [2^dim], t uniform
// in [2·dim], v = u XOR 2^(t/2), oriented (v, u) when t is odd (or smaller
// id first when leftEdge; hypercubeDraw). Drawing t in [2·dim] rather than
// [dim] keeps the orientation bit in the same draw.`,
	Params: "dim int, leftEdge bool, r *Rand",
	Prelude: `
	n, d2 := uint64(len(L)), uint64(2*dim)
	piped := pipelined(len(L), unsafe.Sizeof(L[0]))
	var ring [ahead]struct{ s, u, v uint64 }`,
	Both: true,
	Draw: `hypercubeDraw(s, n, d2, leftEdge)`,
}, {
	Name:   "torusGraph",
	Doc:    `// torusGraph places m balls on a torus of side >= 3 (see torusDraw).`,
	Params: "lt *latticeTables, leftEdge bool, r *Rand",
	Prelude: `
	piped := pipelined(len(L), unsafe.Sizeof(L[0]))
	var ring [ahead]struct{ s, u, v uint64 }`,
	Both: true,
	Draw: `torusDraw(s, lt, leftEdge)`,
}}

// pipe2Loop is a Place loop of two candidates pipelined twice (the
// adjacency read, then the load), for samplers that read a table to find
// a ball's ends: ball k + 2·ahead draws and prefetches its slot of the table, ball k + ahead
// reads its ends a, b there and prefetches their loads, ball k is placed;
// in ball order, so the loads are those of the loop without the ring.
type pipe2Loop struct {
	Name, Doc string
	Params    string // after L []T, m int64; before r *Rand
	Prelude   string // the ring (a, b the ends, s the generator before the draws), constants, the generator
	Fill      string // draws the ball of slot and prefetches its table entry
	Ends      string // reads the ends SLOT.a, SLOT.b of the ball in SLOT
	Locals    string // before the main loop: the generator into locals
	Pick      bool   // decide by pickIn against the word slot.w, as placeLoop
	Most      bool   // decide by the greater load, as placeLoop
	Restore   string // leaves r before the ball in slot
	Refill    string // draws ball k + R into slot
	Entry     string // the address of its table entry, to prefetch
	Coins     bool   // the coin buffer is generator state too
}

const pipe2Tmpl = `
{{range .}}
{{.Doc}}
func {{.Name}}[T uint8 | uint32](L []T, m int64, {{.Params}}, r *Rand) int64 {
	const R = 2 * ahead // a power of two: slot k and slot k+R coincide
{{.Prelude}}
	for j := range min(m, R) {
		slot := &ring[j&(R-1)]
{{.Fill}}
	}
	for j := range min(m, ahead) {
		slot := &ring[j&(R-1)]
{{at .Ends "slot"}}
		prefetch2(unsafe.Pointer(&L[slot.a]), unsafe.Pointer(&L[slot.b]))
	}
{{.Locals}}
	for k := int64(0); k < m; k++ {
		slot := &ring[k&(R-1)]
		u, v{{if .Pick}}, w{{end}} := slot.a, slot.b{{if .Pick}}, slot.w{{end}}
{{- template "decide" .}}
		if full(L, l) {
			{{.Restore}}
			return k
		}
		L[c] = T(l + 1)
		if k+R < m {
			// The slot of ball k is free: draw ball k+R into it.
{{.Refill}}
			// Ball k+ahead's ends too, in the same call.
			nx := &ring[(k+ahead)&(R-1)]
{{at .Ends "nx"}}
			prefetch3(unsafe.Pointer({{.Entry}}), unsafe.Pointer(&L[nx.a]), unsafe.Pointer(&L[nx.b]))
		} else if k+ahead < m {
			nx := &ring[(k+ahead)&(R-1)]
{{at .Ends "nx"}}
			prefetch2(unsafe.Pointer(&L[nx.a]), unsafe.Pointer(&L[nx.b]))
		}
	}
{{- template "store" .}}
	return m
}
{{end}}`

var pipe2Loops = []pipe2Loop{{
	Name: "graphEdgePiped",
	Doc: `// graphEdgePiped is graphEdge pipelined twice (docs/theory.md, note 8): ball
// k + 2·ahead draws its edge (and its orientation coin) and prefetches the
// edge's slot in e; ball k + ahead reads the slot, now cached, and
// prefetches both ends' loads; ball k is placed. The draws happen in ball
// order, one ball at a time, exactly as in graphEdge, and placement too, so
// the loads and the generator's state afterwards are those of graphEdge.
// On one-byte loads each slot also keeps the generator as it was before its
// ball's draw, to leave r there if that ball would overflow a byte.`,
	Params: "e []uint32, random bool",
	Prelude: `
	compact := unsafe.Sizeof(L[0]) == 1
	var ring [R]struct {
		x        uint64 // the edge, until stage two
		s, coins uint64 // compact: the generator before the draw
		nc       int
		a, b     uint32 // its ends, oriented
		flip     bool
	}
	ne := uint64(len(e) / 2)
	g := edgeGen{s: r.state, coins: r.coins, nc: r.ncoins}`,
	Fill: `
		if compact {
			slot.s, slot.coins, slot.nc = g.s, g.coins, g.nc
		}
		slot.x, slot.flip = g.draw(ne, random)
		prefetch(unsafe.Pointer(&e[2*slot.x]))`,
	Ends: `SLOT.a, SLOT.b = edgeEnds(e, SLOT.x, SLOT.flip)`,
	Locals: `
	// The hot loop keeps the generator in locals, with edgeGen.draw
	// written out.
	s, coins, nc := g.s, g.coins, g.nc`,
	Restore: `r.state, r.coins, r.ncoins = slot.s, slot.coins, slot.nc`,
	Refill: `
			if compact {
				slot.s, slot.coins, slot.nc = s, coins, nc
			}
			var x uint64
			s, x = below(s, ne)
			flip := false
			if random {
				if nc == 0 {
					s, coins = next(s)
					nc = 64
				}
				flip = coins&1 != 0
				coins >>= 1
				nc--
			}
			slot.x, slot.flip = x, flip`,
	Entry: "&e[2*x]",
	Coins: true,
}, {
	Name: "regularEdgePiped",
	Doc: `// regularEdgePiped is regularEdge pipelined twice, as graphEdgePiped: ball
// k + 2·ahead draws its half-edge and prefetches its slot of adj; ball
// k + ahead reads the slot and prefetches both ends' loads; ball k is
// placed. The same balls in the same order as regularEdge.`,
	Params: "adj []uint32, D uint64, leftEdge bool",
	Prelude: `
	var ring [R]struct {
		s    uint64 // the generator before the ball's draw
		u, h uint64 // the half-edge h = u·D + j
		a, b uint64 // its ends, in the order of the tie rule
	}
	n := uint64(len(L))
	s := r.state`,
	Fill: `
		slot.s = s
		var i uint64
		s, slot.u = below(s, n)
		s, i = below(s, D)
		slot.h = slot.u*D + i
		prefetch(unsafe.Pointer(&adj[slot.h]))`,
	Ends:    `SLOT.a, SLOT.b = halfEdgeEnds(adj, SLOT.u, SLOT.h, leftEdge)`,
	Restore: `r.state = slot.s`,
	Refill: `
			slot.s = s
			var u, i uint64
			s, u = below(s, n)
			s, i = below(s, D)
			slot.u, slot.h = u, u*D+i`,
	Entry: "&adj[slot.h]",
}, {
	Name: "twoEdgePiped",
	Doc: `// twoEdgePiped is twoEdge pipelined twice, as graphEdgePiped: ball k + 2·ahead
// draws its edge and its word and prefetches the edge's slot; ball k + ahead
// reads the slot and prefetches both ends' loads; ball k is placed. On
// one-byte loads each slot also keeps the generator as it was before its
// ball's draws, to leave r there if that ball would overflow a byte.`,
	Params: "e []uint32, ru *twoRule",
	Prelude: `
	compact := unsafe.Sizeof(L[0]) == 1
	var ring [R]struct {
		x, w uint64
		s    uint64 // compact: the generator before the draws
		a, b uint32
	}
	ne := uint64(len(e) / 2)
	s := r.state
	thr := ru.thr`,
	Fill: `
		if compact {
			slot.s = s
		}
		s, slot.x = below(s, ne)
		s, slot.w = next(s)
		prefetch(unsafe.Pointer(&e[2*slot.x]))`,
	Ends:    `SLOT.a, SLOT.b = e[2*SLOT.x], e[2*SLOT.x+1]`,
	Pick:    true,
	Restore: `r.state = slot.s`,
	Refill: `
			if compact {
				slot.s = s
			}
			var x uint64
			s, x = below(s, ne)
			s, slot.w = next(s)
			slot.x = x`,
	Entry: "&e[2*x]",
}}

// levelsLoop is a loop of the level engine (levels.go): each ball draws
// ranks in the histogram h and raises the level of the one it chooses.
type levelsLoop struct {
	Name, Doc string
	Params    string // after h *tails, m int64; before r *Rand
	Count     string // a count the loop returns, if any
	Prelude   string // before n := h.n
	Consts    string // after it
	Coins     bool   // the coin buffer is generator state too
	Locals    string // after the generator
	Draw      string // one ball's draws and choice
	Level     string // the level raised; h.level(u) if empty
}

const levelsTmpl = `
{{range .}}
{{.Doc}}
func {{.Name}}(h *tails, m int64, {{with .Params}}{{.}}, {{end}}r *Rand){{with .Count}} ({{.}} int64){{end}} {
{{.Prelude}}
	n := h.n
{{.Consts}}
{{- template "load" .}}
{{.Locals}}
	for i := int64(0); i < m; i++ {
{{.Draw}}
		h.raise({{or .Level "h.level(u)"}})
	}
{{- template "store" .}}
{{- with .Count}}
	return {{.}}
{{- end}}
}
{{end}}`

// dOf draws d uniform ranks and keeps the one PICK (max or min) keeps.
const dOf = `
		var u uint64
		s, u = below(s, n)
		for j := 1; j < d; j++ {
			var x uint64
			s, x = below(s, n)
			u = PICK(u, x)
		}`

var levelsLoops = []levelsLoop{{
	Name:   "greedySlice",
	Doc:    "// greedySlice is levelsGreedy on h's slice.",
	Params: "d int",
	Draw:   strings.ReplaceAll(dOf, "PICK", "max"),
}, {
	Name: "levelsMaxOf",
	Doc: `// levelsMaxOf is MaxOf[d]: the most loaded of d uniform bins is the one of
// smallest rank.`,
	Params: "d int",
	Draw:   strings.ReplaceAll(dOf, "PICK", "min"),
}, {
	Name: "levelsComplete",
	Doc: `// levelsComplete is two-choice on K_n: two distinct uniform bins, drawn as
// completeGraph draws them; the lesser loaded is the one of larger rank
// (which of two tied bins takes the ball does not change the counts, so
// every tie and sampling rule gives this chain).`,
	Draw:  completeDraw,
	Level: "h.level(max(u, v))",
}, {
	Name: "levelsCompleteBeta",
	Doc: `// levelsCompleteBeta is graphical (1+β) on K_n: a coin, two distinct
// ranks and a fair coin from the coin buffer, as completeRule draws them; a
// one-choice step (coin below thr) takes the rank the fair coin names, a
// uniform bin either way. It returns the number of steps that compared two
// loads.`,
	Params: "thr uint64",
	Count:  "compared",
	Coins:  true,
	Draw: `
		var x, u, v uint64
		s, x = next(s)
		s, u = below(s, n)
		s, v = below(s, n-1)
		if v >= u {
			v++
		}
		var heads bool
		s, coins, nc, heads = coin(s, coins, nc)
		if x < thr {
			if heads {
				u = v
			}
		} else {
			compared++
			u = max(u, v)
		}`,
}, {
	Name: "levelsOnePlusBeta",
	Doc: `// levelsOnePlusBeta is (1+β): a coin, then two ranks, as onePlusBeta
// draws them; the second counts only in a Greedy[2] step. It returns the
// number of Greedy[2] steps.`,
	Params: "thr uint64, all bool",
	Count:  "compared",
	Draw: betaDraw + `
		if x < thr || all {
			compared++
			u = max(u, v)
		}`,
}, {
	Name: "levelsRank",
	Doc: `// levelsRank is Rank[d]: the bin of rank R = ⌈n·U^{1/d}⌉ from the heaviest,
// drawn as rankState.place draws it (the largest of d uniform ranks for a
// whole d, rankPos otherwise).`,
	Params: "d float64",
	Prelude: `
	if d == math.Trunc(d) {
		levelsGreedy(h, m, int(d), r)
		return
	}`,
	Consts: `fn, invD := float64(n), 1/d`,
	Draw: `
		var x uint64
		s, x = next(s)
		u := float64(x>>11+1) * 0x1p-53`,
	Level: "h.level(rankPos(u, invD, fn, n))",
}, {
	Name: "levelsQuantile",
	Doc: `// levelsQuantile is Quantile(δ) on the level engine: the first rank u is
// heavy iff u < k (ranks count from the heaviest bin), and a heavy first
// rank gives way to the second, v. No tie draw: a rank is not a bin (the
// per-bin loop's third draw has no counterpart). It returns the number of
// balls whose first rank was heavy.`,
	Params: "k uint64",
	Count:  "second",
	Draw: `
		var u, v uint64
		s, u = below(s, n)
		s, v = below(s, n)
		var rej int64
		if u < k {
			rej = 1
		}
		if rej != 0 {
			u = v
		}
		second += rej`,
}, {
	Name: "levelsTwo",
	Doc: `// levelsTwo is a two-sample rule on K_n in the level engine: two
// independent uniform ranks and a word, drawn as twoUniform draws its bins
// and word; the candidates' loads are their levels.`,
	Params: "ru *twoRule",
	Locals: "thr := ru.thr",
	Draw: `
		var u, v, w uint64
		s, u = below(s, n)
		s, v = below(s, n)
		s, w = next(s)
		lu, lv := h.level(u), h.level(v)
		l := lu
		if w>>1 < pickIn(thr, uint64(lu), uint64(lv)) {
			l = lv
		}`,
	Level: "l",
}}

// regsCase is a loop of greedyRegs: the d it serves (none: every other d)
// and one ball's draws, u the largest of its d ranks.
type regsCase struct{ D, Draw string }

// regsTmpl is greedyRegs, whose loop for each regsCase raises the level of
// rank u in the histogram t1…t5 held in registers.
const regsTmpl = `
// greedyRegs is levelsGreedy with the histogram in registers, t1…t5 for
// t[1…5], as long as t5 = 0 (at most 5 levels in use); it returns the
// balls placed. On h's slice each ball's count waits for the previous
// ball's increment to pass through memory (about 7 ns a ball measured);
// here a ball costs its draws and a few independent register operations
// (about 3 ns: BENCHMARKS.md). With a_j = [t_j > u] (a_0 = 1) the ball's
// level is l = a_1 + … + a_5, and raising a bin from l to l+1 adds 1 to
// t_{l+1} alone, which is t_j += a_{j−1} − a_j for every j at once, since a
// is 1 up to l and 0 after. The least level is dropped between blocks of
// balls, not as soon as it empties (an empty level 0 changes no count: its
// a_1 is then always 1), which keeps the hot loop free of the test.
// The update of t1…t5 is written out in the loop of each d (d = 1, 2 and
// any other): as a function of six values it costs the inliner 102 (its
// budget is 80), and a call a ball would take the histogram out of the
// registers.
func greedyRegs(h *tails, m int64, d int, r *Rand) int64 {
	if len(h.t) > 5 {
		return 0
	}
	var t [6]uint64
	copy(t[:], h.t)
	t1, t2, t3, t4, t5 := t[1], t[2], t[3], t[4], t[5]
	n, base := h.n, h.base
	s := r.state
	done := int64(0)
	for done < m && t5 == 0 {
		// A block of balls, cut short when level 5 fills.
		k := done
		end := min(m, done+1024)
		switch d {
{{- range .}}
		{{with .D}}case {{.}}{{else}}default{{end}}:
			for ; k < end && t5 == 0; k++ {
{{.Draw}}
				a1, a2, a3, a4, a5 := above(t1, u), above(t2, u), above(t3, u), above(t4, u), above(t5, u)
				t1 += uint64(1 - a1)
				t2 += uint64(a1 - a2)
				t3 += uint64(a2 - a3)
				t4 += uint64(a3 - a4)
				t5 += uint64(a4 - a5)
			}
{{- end}}
		}
		done = k
		for t1 == n {
			// No bin is left at the least load (see raise).
			t1, t2, t3, t4, t5 = t2, t3, t4, t5, 0
			base++
		}
	}
	r.state = s
	t = [6]uint64{n, t1, t2, t3, t4, t5}
	top := 0
	for j := range t {
		if t[j] > 0 {
			top = j
		}
	}
	h.t = append(h.t[:0], t[:top+1]...)
	h.base = base
	return done
}`

var regsCases = []regsCase{{
	D: "1",
	Draw: `
		var u uint64
		s, u = below(s, n)`,
}, {
	D: "2",
	Draw: `
		var u, v uint64
		s, u = below(s, n)
		s, v = below(s, n)
		u = max(u, v)`,
}, {
	Draw: strings.ReplaceAll(dOf, "PICK", "max"),
}}

// choiceLoop is one process's ball as two loops: the Place loop on loads
// L of width T, which raises the chosen bin at once and stops before a
// ball that would raise a one-byte load to 255 (see full), with r as
// before that ball; and the rule's run on four-byte loads for the batched
// driver (batch.go), which puts each ball with put. Both draw the ball
// with the same code, so a batch of one ball is the Place loop's ball.
type choiceLoop struct {
	Name, Doc string // the Place loop, if any
	Params    string // its parameters after L []T, m int64; before r *Rand
	Counts    string // counts both loops keep (int64), returned by Place after the balls placed
	Rule      string // the rule's receiver and method name, as "(g maxOfRule) run", if any
	Bind      string // the rule's parameters from its receiver g
	Stats     string // the rule's Stats
	Prelude   string // constants of both loops, after the parameters
	Ball      string // one ball: draws from s and sets c, the chosen bin, and l, its load (uint64)
	After     string // after the ball is placed: its counts
	// Rewind, if set, is the draws below(·, n) of a ball: the Place loop
	// then counts the balls left down and, if it stops early, rewinds
	// the generator by that many draws (see rewind) instead of keeping
	// the state before every ball. Not with Counts.
	Rewind string
	// Ring, if set, names a third loop, the Place loop pipelined: each
	// ball's draws are made ahead balls early into a ring slot, with the
	// generator before them, and its bins prefetched (Fetch); the balls
	// are placed in order, so the loads are the Place loop's. Ball is
	// then the Slot variables declared, Draw and Decide. Draw and Fetch
	// name each Slot variable v as SLOTv: v itself in the Place loop, the
	// slot's field e.v in the ring.
	Ring, Slot, Draw, Fetch, Decide string
	// Load, if set, reads l, the chosen bin's load, once Ball (or Decide)
	// has chosen c.
	Load string
	// BatchOnly marks a rule that only the batched driver runs (out !=
	// nil; the process's sequential path is its Place loop): it records
	// each choice and reads no load but those its choice compares.
	BatchOnly bool
}

const choiceTmpl = `
{{define "ret"}}{{with .Counts}}, {{.}}{{end}}{{end}}
{{define "place"}}
		if full(L, l) {
			r.state = s0
			return k{{template "ret" .}}
		}
		L[c] = T(l + 1)
{{.After}}
	}
	r.state = s
	return m{{template "ret" .}}
{{- end}}
{{range .}}
{{- if .Name}}
{{.Doc}}
func {{.Name}}[T uint8 | uint32](L []T, m int64, {{with .Params}}{{.}}, {{end}}r *Rand) {{with .Counts}}(placed, {{.}} int64){{else}}int64{{end}} {
{{.Prelude}}
	s := r.state
{{- if .Rewind}}
	left := m // counting down frees a register: 10% at n = 2^12
	for ; left > 0; left-- {
{{.Ball}}
{{.Load}}
		if full(L, l) {
			break
		}
		L[c] = T(l + 1)
	}
	if left > 0 {
		// Rewinding once beats keeping the state before every ball
		// (10% at n = 2^12), and a call outside the loop keeps its
		// variables in registers.
		s = rewind(s, r.state, n, {{.Rewind}})
	}
	r.state = s
	return m - left
{{- else}}
	for k := int64(0); k < m; k++ {
		s0 := s
{{.Ball}}
{{.Load}}
{{- template "place" .}}
{{- end}}
}
{{end}}
{{- if .Ring}}
// {{.Ring}} is {{.Name}} for large n: each ball's draws are made ahead
// balls early into a ring, with the generator before them, and its bins
// prefetched; the balls are placed in order, so the loads are {{.Name}}'s.
func {{.Ring}}[T uint8 | uint32](L []T, m int64, {{with .Params}}{{.}}, {{end}}r *Rand) {{with .Counts}}(placed, {{.}} int64){{else}}int64{{end}} {
{{.Prelude}}
	var ring [ahead]struct{ s, {{.Slot}} uint64 }
	s := r.state
	for k := range min(m, ahead) {
		e := &ring[k]
		e.s = s
{{at .Draw "e."}}
		{{at .Fetch "e."}}
	}
	for k := int64(0); k < m; k++ {
		e := &ring[k&(ahead-1)]
		s0, {{.Slot}} := e.s, {{each .Slot}}
		if k+ahead < m {
			e.s = s
{{at .Draw "e."}}
			{{at .Fetch "e."}}
		}
{{.Decide}}
{{.Load}}
{{- template "place" .}}
}
{{end}}
{{- if .Rule}}
{{- if not .Name}}
{{.Doc}}
{{- end}}
func {{.Rule}}(L []uint32, m int64, out []uint32, r *Rand) Stats {
{{.Bind}}
{{.Prelude}}
	s := r.state
{{- with .Counts}}
	var {{.}} int64
{{- end}}
	for k := int64(0); k < m; k++ {
{{.Ball}}
{{- if .BatchOnly}}
		out[k] = uint32(c)
{{- else}}
{{.Load}}
		put(L, out, k, c, uint32(l))
{{- end}}
{{.After}}
	}
	r.state = s
	return {{.Stats}}
}
{{end}}
{{end}}`

// dBall draws d uniform bins in order, or with ranged one uniform bin of
// each group [start[j], start[j]+size[j]), and keeps the first drawn of
// those whose load is least (cmp "<") or greatest (cmp ">"). The
// comparison is an if, not leftBall's switch: the switch made choose 2.4
// times slower (Left[3], n = 2^12 and 2^20).
func dBall(cmp string, ranged bool) string {
	d, draw := "d", func(v, j string) string { return "s, " + v + " = below(s, n)" }
	if ranged {
		d, draw = "len(size)", func(v, j string) string {
			return "s, " + v + " = below(s, size[" + j + "])\n" + v + " += start[" + j + "]"
		}
	}
	return `
		var c uint64
		` + draw("c", "0") + `
		l := uint64(L[c])
		for j := 1; j < ` + d + `; j++ {
			var x uint64
			` + draw("x", "j") + `
			if lx := uint64(L[x]); lx ` + cmp + ` l {
				c, l = x, lx
			}
		}`
}

// leftBall draws one uniform bin of each group [start[j],
// start[j]+size[j]) in group order and keeps the least loaded, ties to the
// leftmost group or, with random, uniformly by reservoir sampling: the
// t-th candidate tied with the minimum so far replaces it with probability
// 1/t.
const leftBall = `
		var c uint64
		s, c = below(s, size[0])
		c += start[0]
		l := uint64(L[c])
		tied := uint64(1)
		for j := 1; j < len(size); j++ {
			var x uint64
			s, x = below(s, size[j])
			x += start[j]
			lx := uint64(L[x])
			switch {
			case lx < l:
				c, l, tied = x, lx, 1
			case lx == l && random:
				tied++
				var u uint64
				if s, u = below(s, tied); u == 0 {
					c = x
				}
			}
		}`

// lesserIJ chooses the lesser loaded of bins i and j, i winning ties,
// written so that the compiler emits conditional moves: the comparison is
// unpredictable (docs/theory.md, note 3).
const lesserIJ = `
		li, lj := uint64(L[i]), uint64(L[j])
		c, l := i, li
		if lj < li {
			c, l = j, lj
		}`

// dStats are the stats of m balls of d probes each.
const dStats = "Stats{Probes: m * int64(d), MaxProbes: min(m, 1) * int64(d)}"

var choiceLoops = []choiceLoop{{
	Name: "greedyD",
	Doc: `// greedyD is Greedy[d] when it does not pipeline: d uniform bins drawn in
// order, the first drawn of the least loaded winning, as every Greedy loop
// draws them (greedy2, choose with one range); greedyRule is its rule.
// See oneChoice for the return value.`,
	Params:  "d int",
	Rule:    "(g greedyRule) run",
	Bind:    "d := g.d",
	Prelude: "n := uint64(len(L))",
	Ball:    dBall("<", false),
	Stats:   dStats,
	Rewind:  "d",
}, {
	Name:    "greedy2Plain",
	Doc:     "// greedy2Plain is greedy2 unpipelined (see oneChoicePlain).",
	Prelude: "n := uint64(len(L))",
	Ball: `
		var i, j uint64
		s, i = below(s, n)
		s, j = below(s, n)` + lesserIJ,
	Rewind: "2",
}, {
	Name: "oneChoicePlain",
	Doc: `// oneChoicePlain is oneChoice unpipelined: its own function, since the
// call to oneChoicePiped costs the loop registers (10% at n = 2^12).
// oneChoiceRule's run draws its ball.`,
	Rule:    "(oneChoiceRule) run",
	Prelude: "n := uint64(len(L))",
	Ring:    "oneChoicePiped",
	Slot:    "c",
	Draw:    "\n\t\ts, SLOTc = below(s, n)",
	Fetch:   "prefetch(unsafe.Pointer(&L[SLOTc]))",
	Decide:  "\n\t\tl := uint64(L[c])",
	Stats:   "Stats{Probes: m, MaxProbes: min(m, 1)}",
	Rewind:  "1",
}, {
	Name: "two",
	Doc: `// two places m balls, each on the lesser loaded of a uniform bin of
// [a, a+na) and a uniform bin of [b, b+nb), drawn in that order, the first
// winning ties: Left[2] (and, pipelined, Greedy[2]). See oneChoice for the
// return value.`,
	Params: "a, na, b, nb uint64",
	Prelude: `
	if pipelined(len(L), unsafe.Sizeof(L[0])) {
		return twoPiped(L, m, r, a, na, b, nb)
	}`,
	Ball: `
		var i, j uint64
		s, i = below(s, na)
		s, j = below(s, nb)
		i, j = i+a, j+b` + lesserIJ,
}, {
	Name: "choose",
	Doc: `// choose places m balls, each on the least loaded of d = len(size) bins,
// bin j uniform in [start[j], start[j]+size[j]), drawn in order j = 0, 1, …;
// the first drawn of the least loaded wins: Greedy[d] (start[j] = 0,
// size[j] = n) and Left[d] with left ties.`,
	Params: "start, size []uint64",
	Prelude: `
	if len(size) <= maxPipeD && choosePipelined(len(L)) {
		return choosePiped(L, m, r, start, size)
	}`,
	Ball: dBall("<", true),
}, {
	Name: "maxOfD",
	Doc: `// maxOfD places m balls on the most loaded of d uniform bins, the first
// drawn winning ties, and returns how many it placed, stopping as maxOf2
// does.`,
	Params:  "d int",
	Rule:    "(g maxOfRule) run",
	Bind:    "d := g.d",
	Prelude: "n := uint64(len(L))",
	Ball:    dBall(">", false),
	Stats:   dStats,
}, {
	Name: "firstDiff",
	Doc: `// firstDiff places m balls and returns how many it placed, their probes
// and the most probes one of them made. On one-byte loads it stops before
// a ball that would raise a load to 255 (see full), with r as before that
// ball.`,
	Params:  "cap int64",
	Counts:  "probes, most",
	Rule:    "(g firstDiffRule) run",
	Bind:    "cap := g.cap",
	Prelude: "n := uint64(len(L))",
	Ball: `
		var c uint64
		s, c = below(s, n)
		l := uint64(L[c])
		t := int64(1)
		for t < cap {
			var x uint64
			s, x = below(s, n)
			t++
			if lx := uint64(L[x]); lx != l {
				if lx < l {
					c, l = x, lx
				}
				break
			}
		}`,
	After: `
		probes += t
		most = max(most, t)`,
	Stats: "Stats{Probes: probes, MaxProbes: most}",
}, {
	Name: "leftRandom",
	Doc: `// leftRandom places m balls of Left[d] with random ties (leftBall; leftRule
// is its rule, either ties). Its tie draws depend on the loads, so it
// cannot draw ahead, and it has no pipelined version. See oneChoice for
// the return value.`,
	Params: "start, size []uint64, random bool",
	Rule:   "(g leftRule) run",
	Bind:   "start, size, random := g.start, g.size, g.random",
	Ball:   leftBall,
	Stats:  "Stats{Probes: m * int64(len(size)), MaxProbes: min(m, 1) * int64(len(size))}",
}, {
	Doc: `// onePlusBetaRule's run draws a coin, then two uniform bins, as
// onePlusBeta draws them; a OneChoice step compares the first with
// itself.`,
	Rule:    "(g onePlusBetaRule) run",
	Bind:    "thr, all := g.thr, g.all",
	Prelude: "n := uint64(len(L))",
	Counts:  "compared",
	Ball: `
		var u, i, j uint64
		s, u = next(s)
		s, i = below(s, n)
		s, j = below(s, n)
		var two int64
		if u < thr || all {
			two = 1
		} else {
			j = i // a OneChoice step
		}` + lesserIJ,
	After: "compared += two",
	Stats: "thinStats(m, compared)",
}, {
	Name: "thinSeq",
	Doc: `// thinSeq is thinPlace's loop for small n: t is the bar of the first ball,
// raised by step after each; it returns the balls placed and how many of
// them their first bin rejected.`,
	Params:  "t, step uint64",
	Counts:  "second",
	Rule:    "(g *thinRule) batch",
	Bind:    "t, step := g.bar(uint64(len(L))), uint64(0) // a batch: every ball reads the loads at its start",
	Prelude: "n := uint64(len(L))",
	Ring:    "thinPiped",
	Slot:    "i, j",
	Draw: `
		s, SLOTi = below(s, n)
		s, SLOTj = below(s, n)`,
	Fetch: "prefetch2(unsafe.Pointer(&L[SLOTi]), unsafe.Pointer(&L[SLOTj]))",
	Decide: `
		c, rej := thinPick(uint64(L[i]), n, t, i, j)`,
	Load:      "\n\t\tl := uint64(L[c])",
	BatchOnly: true,
	After: `
		second += rej
		t += step`,
	Stats: "thinStats(m, second)",
}, {
	Name: "twoRanges",
	Doc: `// twoRanges is the loop of Grouped and Window with random ties. Each ball
// draws two starts a = stride·u and b = stride·v with u, v uniform in
// [0, starts), and compares the ranges of w consecutive bins (mod n) beginning
// there: Grouped has stride = w and starts = n/w (aligned groups, never
// wrapping), Window has stride 1 and starts = n. It returns the balls
// placed: on one-byte loads it stops before a ball that would raise a load
// to 255 (see full), with r as before that ball.`,
	Params:  "starts, stride, w uint64",
	Rule:    "(g rangesRule) runRandom",
	Bind:    "starts, stride, w := g.k, g.stride, g.w",
	Prelude: "n := uint64(len(L))",
	Ball: rangeStarts + `
		ta, tb := rangeTotal(L, a, w, n), rangeTotal(L, b, w, n)
		// The smaller total wins; a tie goes to a fair coin.
		st := a
		switch {
		case tb < ta:
			st = b
		case tb == ta:
			var z uint64
			if s, z = below(s, 2); z == 1 {
				st = b
			}
		}
		// The least loaded bin of the range, ties uniform by reservoir
		// sampling (the j-th bin tied with the minimum replaces it with
		// probability 1/j).
		c, l := st, uint64(L[st])
		tied := uint64(1)
		x := st
		for j := uint64(1); j < w; j++ {
			x++
			if x == n {
				x = 0
			}
			lx := uint64(L[x])
			switch {
			case lx < l:
				c, l, tied = x, lx, 1
			case lx == l:
				tied++
				var z uint64
				if s, z = below(s, tied); z == 0 {
					c = x
				}
			}
		}`,
	Stats: rangeStats,
}, {
	Name: "twoRangesLeft",
	Doc: `// twoRangesLeft is twoRanges with the definition's left ties (the range
// further left wins a tie of totals, the first least loaded bin of the
// range takes the ball), written for speed: each range is read once, its
// total and its first least loaded bin found together, and every selection
// is a conditional move (docs/theory.md, note 3), so a ball costs about what
// Greedy[2]'s does when w is small.`,
	Params:  "starts, stride, w uint64",
	Rule:    "(g rangesRule) runLeft",
	Bind:    "starts, stride, w := g.k, g.stride, g.w",
	Prelude: "n := uint64(len(L))",
	Ball: rangeStarts + `
		ta, ca, ma := rangeScan(L, a, w, n)
		tb, cb, mb := rangeScan(L, b, w, n)
		// (tb, b) < (ta, a) lexicographically, without a branch: the
		// borrow out of the 128-bit subtraction (tb:b) − (ta:a).
		_, lo := bits.Sub64(b, a, 0)
		_, second := bits.Sub64(tb, ta, lo)
		c, l := ca, uint64(ma)
		if second != 0 {
			c, l = cb, uint64(mb)
		}`,
	Stats: rangeStats,
}}

// rangeStarts draws the starts a and b of a ball's two ranges (twoRanges).
const rangeStarts = `
		var u, v uint64
		s, u = below(s, starts)
		s, v = below(s, starts)
		a, b := u*stride, v*stride`

// rangeStats are the stats of m balls of Grouped or Window: 2w probes a
// ball.
const rangeStats = "Stats{Probes: m * int64(2*w), MaxProbes: min(m, 1) * int64(2*w)}"

// searchLoop is a loop of local search (localsearch.go): each ball draws
// its start u and its seed t, walks from u to a local minimum c of load lc
// (read loads, steps moves), and is placed there; mu is the least load and
// f the bins holding it, recounted when the last of them is raised.
type searchLoop struct {
	Name, Doc string
	Params    string // after L []T, m int64; before left bool
	Prelude   string // dispatch to a pipelined form, constants
	Walk      string // the walk from u with seed t, returning c, lc, read, steps
	// Ring: the loop pipelined twice on a CSR graph (lsSlot, stage1,
	// stage2): ball k + 2·ahead draws u and t into its slot and stage1
	// prefetches the start's offsets, ball k + ahead's stage2 reads them
	// and prefetches the start's row, ball k walks. The draws stay in ball
	// order, so the balls are those of the loop without the ring.
	Ring bool
}

const searchTmpl = `
{{define "slot"}}
			e.s0 = s
			s, e.u = below(s, n)
			s, e.t = next(s)
			stage1(e, L, off, delta)
{{- end}}
{{range .Loops}}
{{.Doc}}
func {{.Name}}[T uint8 | uint32](L []T, m int64, {{.Params}}, left bool, r *Rand, st *Stats) int64 {
{{.Prelude}}
	n := uint64(len(L))
	mu, f := leastCount(L)
	s := r.state
{{- if .Ring}}
	const R = 2 * ahead // a power of two: slot k and slot k+R coincide
	var ring [R]lsSlot
	last := len(adj) - 1 // a row of an isolated last vertex starts at len(adj)
	for j := range min(m, R) {
		e := &ring[j]
{{- template "slot"}}
	}
	for j := range min(m, ahead) {
		stage2(&ring[j], L, off, adj, delta, last, mu)
	}
{{- end}}
	var probes, most, moves, mostMoves int64
	k := int64(0)
	for ; k < m; k++ {
{{- if .Ring}}
		e := &ring[k&(R-1)]
		s0 := e.s0
{{- else}}
		s0 := s
		var u, t uint64
		s, u = below(s, n)
		s, t = next(s)
{{- end}}
		c, lc, read, steps := {{.Walk}}
		if full(L, lc) {
			s = s0
			break
		}
		L[c] = T(lc + 1)
		if lc == mu {
			if f--; f == 0 {
				mu, f = leastCount(L)
			}
		}
		probes += read
		most = max(most, read)
		moves += steps
		mostMoves = max(mostMoves, steps)
{{- if .Ring}}
		if k+R < m {
			// The slot of ball k is free: draw ball k+R into it.
{{- template "slot"}}
		}
		if k+ahead < m {
			stage2(&ring[(k+ahead)&(R-1)], L, off, adj, delta, last, mu)
		}
{{- end}}
	}
	r.state = s
	st.Add(Stats{Probes: probes, MaxProbes: most, Moves: moves, MaxMoves: mostMoves})
	return k
}
{{end}}
{{range .Scans}}
{{.LeastDoc}}
func least{{.Of}}[T uint8 | uint32](L []T, {{.Params}}, lu uint64) (best, cnt uint64) {
{{.Prelude}}
	best = lu
{{.Range}}
		lw := uint64(L[w])
		if lw < best {
			best, cnt = lw, 0
		}
		if lw == best {
			cnt++
		}
	}
	return best, cnt
}

{{.JthDoc}}
func jth{{.Of}}[T uint8 | uint32](L []T, {{.Params}}, best, j uint64) uint64 {
{{.Prelude}}
{{.Range}}
		if uint64(L[w]) == best {
			if j == 0 {
				return uint64(w)
			}
			j--
		}
	}
	panic("alloc: local search lost its least loaded neighbour")
}
{{end}}`

var searchLoops = []searchLoop{{
	Name: "localSearchCSR",
	Doc: `// localSearchCSR places m balls by local search on the CSR graph (off,
// adj) and returns how many it placed (see oneChoice: on one-byte loads it
// stops before a ball that would raise a bin to 255, with r at that
// ball's first draw). With a large graph or large loads it runs the
// pipelined loop, which places the same balls.`,
	Params: "off []int, adj []uint32",
	Prelude: `
	delta := regularDegree(off)
	if len(adj) > 0 && (pipelined(len(adj), 4) || pipelined(len(L), unsafe.Sizeof(L[0]))) {
		return localSearchCSRPiped(L, m, off, adj, delta, left, r, st)
	}`,
	Walk: "walkCSR(L, off, adj, delta, mu, u, t, off[u], off[u+1], left)",
}, {
	Name: "localSearchCSRPiped",
	Doc: `// localSearchCSRPiped is localSearchCSR pipelined twice (docs/theory.md,
// notes 4 and 8): ball k + 2·ahead draws its start and its seed and
// prefetches the start's offsets; ball k + ahead reads them and prefetches
// the start's row of the adjacency and its load; ball k walks. A ball
// draws two values from r whatever its walk (see LocalSearch), so the
// draws stay in ball order, and the loads, the stats and the generator's
// state afterwards are those of the plain loop. Only the start is
// prefetched: the vertices a ball moves to are known only as it walks.`,
	Params: "off []int, adj []uint32, delta int",
	Walk:   "walkCSR(L, off, adj, delta, mu, e.u, e.t, e.lo, e.hi, left)",
	Ring:   true,
}, {
	Name: "localSearchCirculant",
	Doc: `// localSearchCirculant is localSearchCSR on the circulant graph with
// connection set S: the neighbours of v are v + S[j] mod n, in the order
// of S.`,
	Params: "S []uint32",
	Walk:   "walkCirculant(L, S, mu, u, t, left)",
}}

// scan is the scans of local search over the neighbours w of a vertex, on
// one kind of graph: leastOf and jthOf (the suffix Of) on a row, Range
// the loop that names each w, with Prelude's constants.
type scan struct{ Of, LeastDoc, JthDoc, Params, Prelude, Range string }

var scans = []scan{{
	Of: "Of",
	LeastDoc: `// leastOf returns the least load among lu and the loads of the bins in
// row, and how many bins of row hold it (0 if none is below lu): one pass
// written so that the compiler emits conditional moves, not branches
// (docs/theory.md, note 3; at m = n a row's loads are a few small values
// in random order).`,
	JthDoc: "// jthOf returns the j-th bin of row (from 0, in row order) holding best.",
	Params: "row []uint32",
	Range:  "\tfor _, w := range row {",
}, {
	Of:       "Around",
	LeastDoc: "// leastAround is leastOf for the neighbours u + S[i] mod n of a circulant.",
	JthDoc:   "// jthAround is jthOf for the neighbours of u in a circulant.",
	Params:   "S []uint32, u uint64",
	Prelude:  "n := uint64(len(L))",
	Range: `	for _, d := range S {
		w := u + uint64(d)
		if w >= n {
			w -= n
		}`,
}}

// widthRule is a rule (batch.go) whose loop is generic in the load width,
// PLACE(g, L, m, out, r) returning the balls placed and their stats: run
// is the loop on four-byte loads, batched or not, and run8 the loop on
// one-byte loads (compactRule).
type widthRule struct{ Type, Place string }

const widthTmpl = `
{{range .}}
func (g {{.Type}}) run(L []uint32, m int64, out []uint32, r *Rand) Stats {
	_, st := {{.Place}}(g, L, m, out, r)
	return st
}

// run8 is run on one-byte loads, the balls raising their bins at once.
func (g {{.Type}}) run8(L []uint8, m int64, r *Rand) (int64, Stats) {
	return {{.Place}}(g, L, m, nil, r)
}
{{end}}`

var widthRules = []widthRule{
	{"*kdRule", "kdPlace"},
	{"*memRule", "memPlace"},
	{"walkRule", "walkPlace"},
}

// betaDraw draws a ball of (1+β): the coin x of its step, then two
// uniform bins u and v.
const betaDraw = `
	var x, u, v uint64
	s, x = next(s)
	s, u = below(s, n)
	s, v = below(s, n)`

// completeDraw draws an edge of K_n on n bins: u uniform, v uniform among
// the other n − 1.
const completeDraw = `
	var u, v uint64
	s, u = below(s, n)
	s, v = below(s, n-1)
	if v >= u {
		v++
	}`

// circulantDraw draws an edge of the circulant graph with connection set
// S on n bins, d = len(S): u uniform, S's index i uniform, then the word w
// if named, and v = u + S[i] mod n.
func circulantDraw(i, w string) string {
	d := "\n\tvar u, " + i + " uint64\n\ts, u = below(s, n)\n\ts, " + i + " = below(s, d)"
	if w != "" {
		d = strings.Replace(d, " uint64", ", "+w+" uint64", 1) + "\n\ts, " + w + " = next(s)"
	}
	return d + "\n\tv := u + uint64(S[" + i + "])\n\tif v >= n {\n\t\tv -= n\n\t}"
}

// swapIf orders the ends u, v smaller id first when cond holds.
func swapIf(cond string) string {
	return "\n\tif " + cond + " && v < u {\n\t\tu, v = v, u\n\t}"
}

// commonTmpl holds what the templates share. load and store move the
// generator (with Coins, the coin buffer too) into locals and back (state in
// locals: its loads and stores would serialise the cache misses). decide is
// the decision, written for conditional moves:
// c, l are the chosen bin u or v and its load; with Pick the two-sample
// rule's, v iff w>>1 < pickIn(thr, lu, lv); else the lesser load, u winning
// ties; with Most the greater load, u winning ties.
const commonTmpl = `
{{define "load"}}
{{- if .Coins}}
	s, coins, nc := r.state, r.coins, r.ncoins
{{- else}}
	s := r.state
{{- end}}
{{- end}}
{{define "store"}}
{{- if .Coins}}
	r.state, r.coins, r.ncoins = s, coins, nc
{{- else}}
	r.state = s
{{- end}}
{{- end}}
{{define "decide"}}
		lu, lv := uint64(L[u]), uint64(L[v])
{{- if .Pick}}
		t := pickIn(thr, lu, lv)
		c, l := u, lu
		if w>>1 < t {
			c, l = v, lv
		}
{{- else if .Most}}
		c, l := u, lu
		if lv > lu {
			c, l = v, lv
		}
{{- else}}
		c, l := u, lu
		if lv < lu {
			c, l = v, lv
		}
{{- end}}
{{- end}}`

func main() {
	gen("zloops_place.go", []string{"unsafe", "github.com/graphalloc/graphalloc/graphgen"}, placeTmpl, placeLoops)
	gen("zloops_rule.go", []string{"unsafe"}, ruleTmpl, ruleLoops)
	gen("zloops_ring.go", []string{"unsafe", "github.com/graphalloc/graphalloc/graphgen"}, ringTmpl, ringLoops)
	gen("zloops_pipe2.go", []string{"unsafe"}, pipe2Tmpl, pipe2Loops)
	gen("zloops_levels.go", []string{"math"}, levelsTmpl, levelsLoops)
	gen("zloops_regs.go", nil, regsTmpl, regsCases)
	gen("zloops_search.go", []string{"unsafe"}, searchTmpl, struct {
		Loops []searchLoop
		Scans []scan
	}{searchLoops, scans})
	gen("zloops_rules.go", nil, widthTmpl, widthRules)
	for i, c := range choiceLoops {
		if c.Ring != "" {
			choiceLoops[i].Ball = "\n\t\tvar " + c.Slot + " uint64" + strings.ReplaceAll(c.Draw, "SLOT", "") + c.Decide
		}
	}
	gen("zloops_choice.go", []string{"math/bits", "unsafe"}, choiceTmpl, choiceLoops)
}

// dropBlank drops the blank lines that the template's empty fields leave
// in function bodies: those before an indented line or a closing brace.
func dropBlank(src []byte) []byte {
	lines := strings.Split(string(src), "\n")
	var out []string
	for i, l := range lines {
		if strings.TrimSpace(l) == "" && i+1 < len(lines) && (strings.HasPrefix(lines[i+1], "\t") || lines[i+1] == "}") {
			continue
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, "\n"))
}

// gen executes the template tmpl on data and writes it, gofmt'ed, to file
// behind Go's header for generated code.
func gen(file string, imports []string, tmpl string, data any) {
	var b bytes.Buffer
	b.WriteString("// Code generated by go run gen_loops.go; DO NOT EDIT.\n\npackage alloc\n")
	if len(imports) > 0 {
		b.WriteString("\nimport (\n")
	}
	for i, im := range imports { // the standard library's first
		if i > 0 && strings.Contains(im, ".") && !strings.Contains(imports[i-1], ".") {
			b.WriteString("\n")
		}
		b.WriteString("\t\"" + im + "\"\n")
	}
	if len(imports) > 0 {
		b.WriteString(")\n")
	}
	at := func(code, slot string) string { return strings.ReplaceAll(code, "SLOT", slot) }
	// each names the fields of the ring slot e that hold the variables
	// of list: "i, j" gives "e.i, e.j".
	each := func(list string) string { return "e." + strings.ReplaceAll(list, ", ", ", e.") }
	t := template.Must(template.New(file).Funcs(template.FuncMap{"at": at, "each": each}).Parse(strings.TrimPrefix(tmpl, "\n")))
	template.Must(t.Parse(commonTmpl))
	b.Write(dropBlank(codegen.Execute(t, data)))
	codegen.Write(file, b.Bytes())
}
