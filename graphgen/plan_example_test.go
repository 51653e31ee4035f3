package graphgen_test

import (
	"fmt"

	"github.com/graphalloc/graphalloc/graphgen"
)

// What a spec will make on n = 10^6 vertices, before building it: a torus
// rounds n up to a square, a random regular graph of degree ⌈n^0.5⌉, and a
// degree the vertices cannot carry.
func ExampleSpec_Plan() {
	for _, arg := range []string{"torus:dim=2", "regular:eps=0.5", "complete", "regular:degree=2000000"} {
		s, err := graphgen.ParseSpec(arg)
		if err != nil {
			fmt.Println(err)
			return
		}
		p, err := s.Plan(1e6)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s: n=%d Δ=%d |E|=%d, %.1f MiB to build\n", s, p.N, p.MaxDegree, p.Edges, float64(p.BuildBytes)/(1<<20))
		if sp := p.Spectrum; sp != nil {
			fmt.Printf("  spectral gap %.4g (μ₂ = %.6f)\n", sp.Gap, sp.Second)
		}
		for _, note := range p.Notes {
			fmt.Println("  note:", note)
		}
	}
	// Output:
	// torus:dim=2: n=1000000 Δ=4 |E|=2000000, 22.9 MiB to build
	//   spectral gap 9.87e-06 (μ₂ = 0.999990)
	// regular:eps=0.5: n=1000000 Δ=1000 |E|=500000000, 4312.5 MiB to build
	// complete: n=1000000 Δ=999999 |E|=499999500000, 0.0 MiB to build
	//   spectral gap 1 (μ₂ = -0.000001)
	// graphgen: regular:degree=2000000 needs degree < n = 1000000
}
