//go:build ignore

// gen_dynamic writes zdyn_loops.go: the step loops of the dynamic engine
// (dynamic.go) for the deletion models whose number of balls is fixed
// (abku: a uniform ball leaves; fifo: the oldest leaves), each followed by
// an insertion by one of the samplers below. One template, one loop a
// model × sampler, generic only in the width of the loads (T uint8 |
// uint32, one copy each): the loop stays concrete code (no interface call,
// no allocation, no division a step), as gen_loops.go does for the static
// loops and for the same reason: a loop generic over its sampler calls it
// through the GC-shape dictionary, 22–33% slower a ball.
//
// Each loop is pipelined through a ring of 2·ahead steps, as the static
// graph process's loops are (regularEdgePiped): step j+2·ahead draws its
// deletion's slot and its candidates (in the order the generic driver
// draws them: the slot, then the insertion's draws) and prefetches the
// ball's slot and the graph's row or edge; step j+ahead reads them and
// prefetches the loads of the ball's bin and of the candidates; step j is
// made. While both stages run, their prefetches go in one call (prefetch5,
// prefetch4): a call to assembly spills the loop's registers, and a second
// call a step cost about 10%. The draws do not depend on the loads, so the steps are exactly
// those of drawing and making each step in turn; the deletion reads its
// ball's bin when its step comes, after the earlier steps wrote theirs
// (the bin read ahead is only a prefetch hint). On one-byte loads a loop
// stops after a step that raises a load to limit8, with r as before the
// next step's draws, and returns the steps made: a load never exceeds 254
// there.
//
// Run it with go generate in alloc.
package main

import (
	"strings"
	"text/template"

	"github.com/graphalloc/graphalloc/internal/codegen"
)

// model is a deletion model: how a step finds the slot of the ball that
// leaves (the insertion takes the same slot).
type model struct {
	Name string
	FIFO bool // the oldest ball: the slots in turn, as a ring; else a uniform slot, drawn first
}

// sampler is how an insertion draws its candidates and picks its bin; the
// snippets are those of the sampler's rule for one ball (greedyRule,
// regularEdgeRule, edgeRule), on the ring slot sl of the step drawn and nx
// of the step read ahead.
type sampler struct {
	Name    string
	Doc     string
	Params  string // after st *dynState, L []T, k int64; before r *Rand
	Prelude string
	Coins   bool   // the draws take fair coins: the coin buffer is state too
	Draw    string // the candidates' draws, into sl
	Row     string // the address the draws name in sl (a row's slot, an edge), prefetched with the ball's slot
	// Ends, for a sampler of two candidates: x, y from what nx's draws
	// named, read ahead; the loop keeps them in nx.c[0], nx.c[1] and
	// prefetches their loads. The lesser loaded wins, the first on a tie.
	Ends   string
	Decide string // without Ends: c, l = the chosen bin of sl and its load
}

var models = []model{{Name: "ABKU"}, {Name: "FIFO", FIFO: true}}

var samplers = []sampler{{
	Name:    "Uniform",
	Doc:     "d uniform bins with replacement, the first of the least loaded wins (Greedy[d]; one-choice for d = 1)",
	Params:  "d int",
	Prelude: "n := uint64(len(L))",
	Draw: `
		for t := range d {
			var x uint64
			s, x = below(s, n)
			sl.c[t] = uint32(x)
			if pipe {
				prefetch(unsafe.Pointer(&L[x]))
			}
		}`,
	Decide: `
		c := uint64(sl.c[0])
		l := L[c]
		for t := 1; t < d; t++ {
			x := uint64(sl.c[t])
			if lx := L[x]; lx < l {
				c, l = x, lx
			}
		}`,
}, {
	Name:    "Regular",
	Doc:     "the lesser loaded end of a uniform half-edge of a regular graph's rows (a uniform vertex, a uniform slot of its row; with left ties the smaller id first)",
	Params:  "g regularEdgeRule",
	Prelude: "n := uint64(len(L))\n\tadj, D, leftEdge := g.adj, g.D, !g.random\n\tpipe = pipe || pipelined(len(adj), 4)",
	Draw: `
		var w, t uint64
		s, w = below(s, n)
		s, t = below(s, D)
		sl.c[0], sl.h = uint32(w), w*D+t`,
	Row:  "&adj[sl.h]",
	Ends: "x, y := halfEdgeEnds(adj, uint64(nx.c[0]), nx.h, leftEdge)",
}, {
	Name:    "Edge",
	Doc:     "the lesser loaded end of a uniform edge of a flat edge array, oriented by a fair coin with random ties (the first end wins ties)",
	Params:  "g edgeRule",
	Prelude: "e, random := g.e, g.random\n\tne := uint64(len(e) / 2)\n\tpipe = pipe || pipelined(len(e), 4)",
	Coins:   true,
	Draw: `
		var f uint8
		s, sl.h = below(s, ne)
		if random {
			s, coins, nc, f = flagCoin(s, coins, nc, f, 2)
		}
		sl.f = f`,
	Row: "&e[2*sl.h]",
	Ends: `x, y := e[2*nx.h], e[2*nx.h+1]
		if nx.f&4 != 0 { // a conditional move
			x, y = y, x
		}`,
}}

// The template's pieces: "draw" draws a step into sl; "resolve" reads
// ahead for the step in nx (x, y its ends); "step" makes the step in sl and
// stops the loop after it on one-byte loads if a load reached limit8; the
// "prefetch…" pieces prefetch what a draw names, what a read ahead names,
// or both in one call, as the loop's stages need.
const tmpl = `// Code generated by go run gen_dynamic.go; DO NOT EDIT.

package alloc

import "unsafe"

{{define "draw"}}
		sl.s = s
{{- if .S.Coins}}
		sl.coins, sl.nc = coins, nc
{{- end}}
{{- if .M.FIFO}}
		sl.i = next
		if next++; next == nb {
			next = 0
		}
{{- else}}
		s, sl.i = below(s, nb)
{{- end}}
{{- .S.Draw}}
{{- end}}

{{define "resolve"}}
{{- if .S.Ends}}
		{{.S.Ends}}
		nx.c[0], nx.c[1] = uint32(x), uint32(y)
{{- end}}
{{- end}}

{{define "prefetchDraw"}}
{{- if or .S.Row (not .M.FIFO)}}
		if pipe {
{{- if and .S.Row .M.FIFO}}
			prefetch(unsafe.Pointer({{.S.Row}}))
{{- else if .S.Row}}
			prefetch2(unsafe.Pointer(&balls[sl.i]), unsafe.Pointer({{.S.Row}}))
{{- else}}
			prefetch(unsafe.Pointer(&balls[sl.i]))
{{- end}}
		}
{{- end}}
{{- end}}

{{define "prefetchAhead"}}
		if pipe { // the ball's bin a hint: an earlier step may move the ball in its slot
{{- if .S.Ends}}
			prefetch3(unsafe.Pointer(&L[balls[nx.i]]), unsafe.Pointer(&L[x]), unsafe.Pointer(&L[y]))
{{- else}}
			prefetch(unsafe.Pointer(&L[balls[nx.i]]))
{{- end}}
		}
{{- end}}

{{define "prefetchBoth"}}
		if pipe { // one call: each call to assembly spills and reloads the loop's registers
{{- if and .S.Ends .M.FIFO}}
			prefetch4(unsafe.Pointer({{.S.Row}}), unsafe.Pointer(&L[balls[nx.i]]), unsafe.Pointer(&L[x]), unsafe.Pointer(&L[y]))
{{- else if .S.Ends}}
			prefetch5(unsafe.Pointer(&balls[sl.i]), unsafe.Pointer({{.S.Row}}), unsafe.Pointer(&L[balls[nx.i]]), unsafe.Pointer(&L[x]), unsafe.Pointer(&L[y]))
{{- else if .M.FIFO}}
			prefetch(unsafe.Pointer(&L[balls[nx.i]]))
{{- else}}
			prefetch2(unsafe.Pointer(&balls[sl.i]), unsafe.Pointer(&L[balls[nx.i]]))
{{- end}}
		}
{{- end}}

{{define "step"}}
		sl := &ring[j&(R-1)]
		i := sl.i
		b := balls[i]
		lb := L[b]
		L[b] = lb - 1
		tail[lb]--
		if uint32(lb) == mx && tail[lb] == 0 {
			mx--
		}
{{- if .S.Ends}}
		u, v := uint64(sl.c[0]), uint64(sl.c[1])
		lu, lv := L[u], L[v]
		c, l := u, lu
		if lv < lu {
			c, l = v, lv
		}
{{- else}}
{{- .S.Decide}}
{{- end}}
		L[c] = l + 1
		tail[l+1]++
		mx = max(mx, uint32(l)+1)
		win = max(win, mx)
		balls[i] = uint32(c)
		if full(L, uint64(l)+1) {
			// Stop after this step, with r before the next step's draws.
			if j+1 < k {
				sl = &ring[(j+1)&(R-1)]
				s{{if .S.Coins}}, coins, nc{{end}} = sl.s{{if .S.Coins}}, sl.coins, sl.nc{{end}}
			}
			r.state, r.coins, r.ncoins = s, coins, nc
{{- if .M.FIFO}}
			if i++; i == nb {
				i = 0
			}
			st.head = i
{{- end}}
{{- template "store" "j + 1"}}
			return j + 1
		}
{{- end}}

{{define "store"}}
	st.mx, st.win = mx, win
	st.ins += {{.}}
	st.del += {{.}}
{{- end}}

{{range $m := .Models}}{{range $s := $.Samplers}}{{$d := loop $m $s}}
// dyn{{$m.Name}}{{$s.Name}} makes k steps of {{if $m.FIFO}}fifo (the oldest ball leaves){{else}}abku (a uniform ball leaves){{end}} on the loads L, each
// inserting by {{$s.Doc}}. It returns the steps made: k, or on one-byte
// loads fewer if a step raised a load to limit8.
func dyn{{$m.Name}}{{$s.Name}}[T uint8 | uint32](st *dynState, L []T, k int64, {{$s.Params}}, r *Rand) int64 {
	const R = 2 * ahead // a power of two: step j and step j+R share a slot
	balls, tail := st.balls, st.tail
	mx, win := st.mx, st.win
	nb := uint64(len(balls))
	pipe := pipelined(len(L), unsafe.Sizeof(L[0])) || pipelined(len(balls), 4)
{{- if $m.FIFO}}
	next := st.head // the slot of the next step drawn
{{- end}}
	{{$s.Prelude}}
	s, coins, nc := r.state, r.coins, r.ncoins
	var ring [R]dynSlot
	for j := range min(k, R) {
		sl := &ring[j]
{{- template "draw" $d}}
{{- template "prefetchDraw" $d}}
	}
	for j := range min(k, ahead) {
		nx := &ring[j]
{{- template "resolve" $d}}
{{- template "prefetchAhead" $d}}
	}
	j := int64(0)
	for ; j < k-R; j++ { // make step j, draw step j+R, read ahead for step j+ahead
{{- template "step" $d}}
{{- template "draw" $d}}
		nx := &ring[(j+ahead)&(R-1)]
{{- template "resolve" $d}}
{{- template "prefetchBoth" $d}}
	}
	for ; j < k; j++ { // the last R steps, drawn already
{{- template "step" $d}}
		if j+ahead < k {
			nx := &ring[(j+ahead)&(R-1)]
{{- template "resolve" $d}}
{{- template "prefetchAhead" $d}}
		}
	}
	r.state, r.coins, r.ncoins = s, coins, nc
{{- if $m.FIFO}}
	st.head = next
{{- end}}
{{- template "store" "k"}}
	return k
}
{{end}}{{end}}
// The generated loops of each sampler, for dynBind.
var (
{{- range $s := .Samplers}}
	dyn{{$s.Name}}Loops = dynLoops[{{paramType $s.Params}}]{
		narrow: [2]func(*dynState, []uint8, int64, {{paramType $s.Params}}, *Rand) int64{ {{- range $i, $m := $.Models}}{{if $i}}, {{end}}dyn{{$m.Name}}{{$s.Name}}[uint8]{{end -}} },
		wide:   [2]func(*dynState, []uint32, int64, {{paramType $s.Params}}, *Rand) int64{ {{- range $i, $m := $.Models}}{{if $i}}, {{end}}dyn{{$m.Name}}{{$s.Name}}[uint32]{{end -}} },
	}
{{- end}}
)
`

// loop is one generated loop: a model and a sampler.
type loop struct {
	M model
	S sampler
}

func main() {
	funcs := template.FuncMap{
		"loop":      func(m model, s sampler) loop { return loop{m, s} },
		"paramType": func(p string) string { return p[strings.Index(p, " ")+1:] }, // "g edgeRule": edgeRule
	}
	t := template.Must(template.New("dyn").Funcs(funcs).Parse(tmpl))
	codegen.Write("zdyn_loops.go", codegen.Execute(t, struct {
		Models   []model
		Samplers []sampler
	}{models, samplers}))
}
