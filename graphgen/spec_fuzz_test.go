package graphgen

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// FuzzParseSpec: no spec string makes the parser, the planner (or, on a
// small n, the builder) panic or hang, a parsed spec survives a round trip
// through its canonical form, and Plan agrees with Build.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"complete", "cycle:n=5", "regular:degree=3", "regular:eps=0.5,n=20",
		"file:x.txt", "a/b.mtx", "regular:degree=3,degree=3", "regular:", ":", "regular:degree=", "torus:dim=2",
		"hyper:x.txt", "hypergraph:rank=3,edges=20", "hypergraph:rank=13,edges=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseSpec(in)
		if err != nil {
			return
		}
		again, err := ParseSpec(s.String())
		if err != nil || again.String() != s.String() {
			t.Fatalf("%q: canonical form %q does not parse back (%v)", in, s.String(), err)
		}
		if s.FromFile() {
			return
		}
		// Plan builds nothing, whatever the numbers.
		p, perr := s.Plan(12)
		// Build only what is small: the fuzzer must not allocate without
		// bound through n= or degree= keys.
		for k, v := range s.Params {
			if x, err := strconv.ParseFloat(v, 64); err == nil && (x > 64 || k == "dim" && x > 6) {
				return // dim=31 alone makes a hypercube or torus of 2^31 vertices
			}
		}
		g, _, err := s.Build(12, rand.NewPCG(1, 2))
		if err == nil && g.Order() > 64 {
			t.Fatalf("%q built %d vertices", in, g.Order())
		}
		switch {
		case (perr == nil) != (err == nil):
			t.Fatalf("%q: Plan error %v, Build error %v", in, perr, err)
		case err == nil && (p.N != g.Order() || p.Edges >= 0 && p.Edges != g.Size()):
			t.Fatalf("%q: Plan says %d vertices and %d edges, Build made %d and %d", in, p.N, p.Edges, g.Order(), g.Size())
		}
	})
}
