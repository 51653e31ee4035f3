package study

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strings"

	ybgraph "github.com/yourbasic/graph"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/figure"
)

// 8. reachability

// reachabilityStudy reads Params: Samples (Monte Carlo samples at p = 1/2).
var reachabilityStudy = &Study{
	Name:   "reachability",
	Number: 8,
	Title:  "the reachability polynomial EV(G; p) of small rooted graphs and the derivative characterisation",
	Question: "EV(G; p) is the expected number of vertices joined to the root when every edge works with " +
		"probability p. What are its coefficients for a path, a cycle, complete graphs and 2- and 3-edge-connected " +
		"examples, and does G being k-edge-connected match EV′(G; 1) = … = EV^(k−1)(G; 1) = 0 with EV^(k)(G; 1) ≠ 0?",
	Sources: []string{"[GJ10] Gordon, Jager 2010 and the references there"},
	Default: Params{Samples: 100000},
	Full:    Params{Samples: 10000000},
	Tiny:    Params{Samples: 1000},
	uses:    []string{"Samples"},
	run:     runReachability,
}

// reachGraph is a small rooted example.
type reachGraph struct {
	name  string
	n     int
	edges [][2]int
	root  int
}

func reachExamples() []reachGraph {
	complete := func(n int) [][2]int {
		var e [][2]int
		for v := range n {
			for w := v + 1; w < n; w++ {
				e = append(e, [2]int{v, w})
			}
		}
		return e
	}
	cycle := func(n int) [][2]int {
		var e [][2]int
		for v := range n {
			e = append(e, [2]int{v, (v + 1) % n})
		}
		return e
	}
	// Petersen: outer 5-cycle 0..4, inner pentagram 5..9, spokes v–v+5.
	var petersen [][2]int
	for v := range 5 {
		petersen = append(petersen, [2]int{v, (v + 1) % 5}, [2]int{5 + v, 5 + (v+2)%5}, [2]int{v, v + 5})
	}
	return []reachGraph{
		{"path P5 (end)", 5, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}}, 0},
		{"cycle C6", 6, cycle(6), 0},
		{"bowtie (two triangles)", 5, [][2]int{{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 2}}, 0},
		{"complete K4", 4, complete(4), 0},
		{"complete K5", 5, complete(5), 0},
		{"Petersen", 10, petersen, 0},
	}
}

func (g reachGraph) build() *ybgraph.Mutable {
	m := ybgraph.New(g.n)
	for _, e := range g.edges {
		m.AddBoth(e[0], e[1])
	}
	return m
}

// minCut returns the edge connectivity of a connected graph by brute force:
// the fewest edges leaving a set S that holds vertex 0 and not every
// vertex, over all 2^(n−1) − 1 such S. Independent of the polynomial.
func (g reachGraph) minCut() int {
	best := math.MaxInt
	for mask := uint64(0); mask < 1<<(g.n-1)-1; mask++ {
		s := mask<<1 | 1 // vertex 0 always in S; mask = all ones would be S = V
		cut := 0
		for _, e := range g.edges {
			if (s>>e[0])&1 != (s>>e[1])&1 {
				cut++
			}
		}
		best = min(best, cut)
	}
	return best
}

// polyString writes Σ c_j p^j as "1 + 4p − 6p^2 …".
func polyString(coef []*big.Int) string {
	var b strings.Builder
	for j, c := range coef {
		if c.Sign() == 0 {
			continue
		}
		abs := new(big.Int).Abs(c)
		switch {
		case b.Len() == 0 && c.Sign() < 0:
			b.WriteString("−")
		case b.Len() > 0 && c.Sign() < 0:
			b.WriteString(" − ")
		case b.Len() > 0:
			b.WriteString(" + ")
		}
		if abs.Cmp(big.NewInt(1)) != 0 || j == 0 {
			b.WriteString(abs.String())
		}
		switch j {
		case 0:
		case 1:
			b.WriteString("p")
		default:
			fmt.Fprintf(&b, "p^%d", j)
		}
	}
	return b.String()
}

// bigCell returns x as an int64 when it fits, else its decimal string.
func bigCell(x *big.Int) any {
	if x.IsInt64() {
		return x.Int64()
	}
	return x.String()
}

func runReachability(_ context.Context, r *runner, p Params) (*Report, error) {
	gs := reachExamples()
	const maxK = 4
	cols := []string{"graph", "", "V", "", "E", "", "λ (min cut)", "", "EV(1/2)", "%.6f"}
	for k := 1; k <= maxK; k++ {
		cols = append(cols, "EV"+strings.Repeat("′", k)+"(1)", "")
	}
	cols = append(cols, "λ from EV", "", "agree", "")
	ta := newTable("derivatives", "(a) the derivatives of EV(G; p) at p = 1 against the edge connectivity λ found by brute force over all cuts",
		cols...)
	tb := newTable("coefficients", "(b) EV(G; p) in powers of p (root: vertex 0)", "graph", "", "EV(G; p)", "")
	tc := newTable("monte_carlo", fmt.Sprintf("(c) Monte Carlo estimate of EV(G; 1/2) from %d percolations (analysis.ReachMonteCarlo) against the exact value", p.Samples),
		"graph", "", "exact", "%.5f", "estimate", "%.5f", "95% CI", "%.5f", "inside", "")
	tc.Notes = append(tc.Notes, "95% CI: of the mean over the percolations, Student t, within [1, |V|].")
	fig := &figure.Figure{SharedLegend: true}
	pa := fig.Add(&figure.Panel{Title: "EV(G; p) / |V|: the expected fraction of vertices reached", XLabel: "p", YLabel: "EV(G; p) / |V|"})
	pb := fig.Add(&figure.Panel{Title: "|V| − EV(G; 1 − q) ~ c q^λ: the slope near q = 0 is λ", XLabel: "q = 1 − p", YLabel: "|V| − EV(G; 1 − q)",
		XScale: figure.ScaleLog10, YScale: figure.ScaleLog10})
	agreeAll := true
	var lams []string
	r.plan(len(gs))
	for i, g := range gs {
		if r.o.Progress != nil {
			r.o.Progress(i, len(gs), g.name)
		}
		yb := g.build()
		poly, err := analysis.ReachPolynomial(yb, g.root)
		if err != nil {
			return nil, err
		}
		lam := g.minCut()
		fromEV := poly.EdgeConnectivity()
		half, _ := poly.EvalRat(big.NewRat(1, 2)).Float64()
		vals := []any{g.name, poly.Vertices, poly.Edges, lam, half}
		for k := 1; k <= maxK; k++ {
			vals = append(vals, bigCell(poly.DerivAt1(k)))
		}
		agree := lam == fromEV && poly.KEdgeConnected(lam) && !poly.KEdgeConnected(lam+1)
		agreeAll = agreeAll && agree
		vals = append(vals, fromEV, map[bool]string{true: "yes", false: "NO"}[agree])
		ta.add(vals...)
		tb.add(g.name, polyString(poly.Coef))
		lams = append(lams, fmt.Sprintf("%s %d", g.name, lam))

		est, err := analysis.ReachMonteCarlo(yb, g.root, 0.5, p.Samples, alloc.NewRand(alloc.DeriveSeed(r.o.Seed, streamReach, uint64(i))))
		if err != nil {
			return nil, err
		}
		inside := est.CI95[0] <= half && half <= est.CI95[1]
		tc.add(g.name, half, est.Mean, Interval(est.CI95), map[bool]string{true: "yes", false: "no"}[inside])

		name := fmt.Sprintf("%s (λ = %d)", g.name, lam)
		s := pa.Add(&figure.Series{Name: name, Color: i, Shape: i, Style: figure.StyleLine})
		for k := 0; k <= 50; k++ {
			x := float64(k) / 50
			s.Points = append(s.Points, figure.Pt{X: x, Y: poly.Eval(x) / float64(poly.Vertices)})
		}
		sb := pb.Add(&figure.Series{Name: name, Color: i, Shape: i, Style: figure.StyleLine})
		for k := 0; k <= 40; k++ {
			q := math.Pow(10, -3+3*float64(k)/40) // 1e-3 .. 1
			qr := new(big.Rat).SetFloat64(q)
			ev := poly.EvalRat(new(big.Rat).Sub(big.NewRat(1, 1), qr))
			d, _ := new(big.Rat).Sub(big.NewRat(int64(poly.Vertices), 1), ev).Float64()
			sb.Points = append(sb.Points, figure.Pt{X: q, Y: d})
		}
	}
	ta.Notes = []string{
		"EV^(k)(1) exactly (big integers); λ from EV: the smallest k with EV^(k)(G; 1) ≠ 0 (analysis.ReachPoly.EdgeConnectivity);",
		"agree: λ(min cut) = λ from EV, KEdgeConnected(λ) holds and KEdgeConnected(λ + 1) fails. Sign of EV^(λ)(1): (−1)^(λ+1).",
		"The bowtie is 2-edge-connected but has a cut vertex: the characterisation is about edges, not vertices.",
	}
	verdict := "in every example"
	if !agreeAll {
		verdict = "NOT in every example"
	}
	findings := []string{
		fmt.Sprintf("the derivative characterisation holds %s: the first non-zero EV^(k)(G; 1) is at k = λ (%s)", verdict, strings.Join(lams, ", ")),
	}
	return &Report{Tables: []*Table{ta, tb, tc}, Findings: findings, Figure: fig}, nil
}

// streamReach is the DeriveSeed stream of the reachability study's Monte
// Carlo samples ("reach" in ASCII), apart from the trial and graph streams.
const streamReach uint64 = 0x7265616368
