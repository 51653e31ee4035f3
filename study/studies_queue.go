package study

import (
	"context"
	"fmt"
	"math"

	"github.com/graphalloc/graphalloc/figure"
	"github.com/graphalloc/graphalloc/queue"
)

// 15. supermarket

// supermarketStudy reads Params: N (servers), Trials, Horizon (the time,
// in units of 1/(1 − λ)).
var supermarketStudy = &Study{
	Name:   "supermarket",
	Number: 15,
	Title:  "the supermarket model on graphs: queue tails and sojourn times against the degree",
	Question: "Jobs arrive at rate λn at n servers of rate 1 and join the shorter queue at the two ends of a uniform edge. " +
		"On K_n the tails tend to the fixed point s_i = λ^(2^i − 1); on the cycle, the torus and random regular graphs of " +
		"degree 3, 4, 16 and ⌈√n⌉, how far are the tails and the mean sojourn time from it, does the pair approximation " +
		"predict the graphs of degree 2 to 4, and from which degree does a graph behave like K_n?",
	Sources: []string{"[Mit96] Mitzenmacher 1996", "[VDK96] Vvedenskaya, Dobrushin, Karpelevich 1996",
		"[Gast15] Gast 2015", "[BMW19] Budhiraja, Mukherjee, Wu 2019"},
	Default: Params{N: 1 << 14, Trials: 4, Horizon: 20},
	Full:    Params{N: 1 << 16, Trials: 8, Horizon: 40},
	Tiny:    Params{N: 1 << 9, Trials: 2, Horizon: 4},
	uses:    []string{"N", "Trials", "Horizon"},
	run:     runSupermarket,
}

// supermarketGraphs are the topologies, densest first.
var supermarketGraphs = []struct{ name, spec string }{
	{"K_n", "complete"},
	{"regular ⌈√n⌉", "regular:eps=0.5"},
	{"regular 16", "regular:degree=16"},
	{"regular 4", "regular:degree=4"},
	{"regular 3", "regular:degree=3"},
	{"torus", "torus:dim=2"},
	{"cycle", "cycle"},
}

// supermarketLambdas are the loads.
var supermarketLambdas = []float64{0.5, 0.7, 0.9, 0.95}

// smPoint is one graph at one λ: the summary, the predictions and the
// graph's degree.
type smPoint struct {
	sum    queue.Summary
	preds  []queue.Prediction
	degree int
}

// prediction is the first stationary prediction that applies (the fixed
// point, its graph form, the pair approximation), or the mean-field ODE
// over the window; nil if none.
func (p smPoint) prediction() *queue.Prediction {
	for _, name := range []string{"fixed point", "fixed point on graphs", "pair approximation", "ODE over the window"} {
		for i := range p.preds {
			if p.preds[i].Name == name && p.preds[i].Applies {
				return &p.preds[i]
			}
		}
	}
	return nil
}

// runSupermarketPoint runs one graph at one λ, edge sampling from empty
// queues, the warm-up MSER's.
func runSupermarketPoint(r *runner, spec string, n int, lambda float64, p Params) (smPoint, error) {
	g, err := r.buildGraph(spec, n)
	if err != nil {
		return smPoint{}, err
	}
	c := queue.Config{N: int64(g.Order()), D: 2, Lambda: lambda, Time: p.Horizon / (1 - lambda), Warmup: -1,
		Sample: queue.Edge, Graph: g, Seed: r.o.Seed}
	if r.o.MaxMemory > 0 && c.Memory(p.Trials) > r.o.MaxMemory {
		return smPoint{}, fmt.Errorf("%s at n=%d: %w", spec, n, ErrMemory)
	}
	all, err := runTrials(r, queue.Run, c, p.Trials)
	if err != nil {
		return smPoint{}, err
	}
	sum := queue.Summarize(all)
	desc := queue.Describe(r.sp, g)
	return smPoint{sum: sum, preds: queue.Predictions(&c, desc, all), degree: desc.MinDeg}, nil
}

func runSupermarket(_ context.Context, r *runner, p Params) (*Report, error) {
	ta := newTable("tails", fmt.Sprintf("(a) mean sojourn time and tails s_i (time averages over the window after MSER's warm-up) against the prediction that applies, n = %s, edge sampling", pow2(int64(p.N))),
		"topology", "", "Δ", "", "λ", "%.2f", "sojourn", "%.4f", "95% CI", "%.4f", "s_2", "%.4f", "s_3", "%.4f", "s_4", "%.4f",
		"prediction", "", "sojourn", "%.4f", "s_2", "%.4f", "s_3", "%.4f", "s_4", "%.4f")
	pts := make([][]smPoint, len(supermarketGraphs))
	r.plan(len(supermarketGraphs) * len(supermarketLambdas))
	for gi, sg := range supermarketGraphs {
		for _, lambda := range supermarketLambdas {
			if r.o.Progress != nil {
				r.o.Progress(r.done, r.total, fmt.Sprintf("%s λ=%g", sg.spec, lambda))
			}
			pt, err := runSupermarketPoint(r, sg.spec, p.N, lambda, p)
			if err != nil {
				return nil, err
			}
			pts[gi] = append(pts[gi], pt)
			s := pt.sum
			row := []any{sg.name, pt.degree, lambda, s.MeanSojourn.Mean, Interval(s.MeanSojourn.CI95), s.Tail(2).Mean, s.Tail(3).Mean, s.Tail(4).Mean}
			if pr := pt.prediction(); pr != nil {
				row = append(row, pr.Name, pr.MeanSojourn, at(pr.Tails, 2), at(pr.Tails, 3), at(pr.Tails, 4))
			} else {
				row = append(row, "none applies", nil, nil, nil, nil)
			}
			ta.add(row...)
		}
	}
	ta.Notes = append(ta.Notes,
		"sojourn: mean time in the system, mean queue / λ (Little's law); "+supermarketIntervalNote(p.Trials)+".",
		"fixed point: s_i = λ^(2^i − 1), the limit n → ∞ on K_n [Mit96, VDK96]; fixed point on graphs: the same limit where BMW19's conditions hold "+
			"(minimum degree → ∞, max/min degree → 1: the ⌈√n⌉ family); pair approximation [Gast15] on regular graphs of degree 2–4 "+
			"(an approximation with no error bound). Regular 16 meets none: its degree does not grow with n.")
	tb, like := supermarketLikeKn(pts)
	return &Report{Tables: []*Table{ta, tb}, Findings: supermarketFindings(pts, like), Figure: supermarketFigure(pts)}, nil
}

// supermarketIntervalNote says what the intervals are.
func supermarketIntervalNote(trials int) string {
	if trials == 1 {
		return "95% CI: batch means over the window (one trial; groups of five correlation times or more, at most 20)"
	}
	return fmt.Sprintf("95%% CI: Student t across %d trials", trials)
}

// at is s[i], or nil past the end.
func at(s []float64, i int) any {
	if i < len(s) {
		return s[i]
	}
	return nil
}

// likeKnTolerance is how close to K_n's mean sojourn time a graph must be,
// interval included, to behave like K_n.
const likeKnTolerance = 0.02

// supermarketLikeKn compares each graph's mean sojourn with K_n's at each
// λ: the excess in per cent with an interval (the two 95% half-widths
// combined in quadrature, relative to K_n's mean) and whether the whole
// interval lies within ±2%. like[g] says whether graph g does at every λ.
func supermarketLikeKn(pts [][]smPoint) (*Table, []bool) {
	cols := []string{"topology", "", "Δ", ""}
	for _, l := range supermarketLambdas {
		cols = append(cols, fmt.Sprintf("excess λ=%g", l), "%+.2f%%", "95% CI", "%+.2f")
	}
	cols = append(cols, "like K_n", "")
	tb := newTable("like_kn", "(b) mean sojourn time against K_n's measured one: excess in per cent", cols...)
	like := make([]bool, len(pts))
	for gi := 1; gi < len(pts); gi++ { // K_n, the reference, is row 0 of table (a)
		row := []any{supermarketGraphs[gi].name, pts[gi][0].degree}
		like[gi] = true
		for li := range supermarketLambdas {
			k, g := pts[0][li].sum.MeanSojourn, pts[gi][li].sum.MeanSojourn
			ex := 100 * (g.Mean/k.Mean - 1)
			hk, hg := (k.CI95[1]-k.CI95[0])/2, (g.CI95[1]-g.CI95[0])/2
			half := 100 * math.Hypot(hk, hg) / k.Mean
			row = append(row, ex, Interval{ex - half, ex + half})
			if math.Abs(ex)+half > 100*likeKnTolerance {
				like[gi] = false
			}
		}
		tb.add(append(row, map[bool]string{true: "yes", false: "no"}[like[gi]])...)
	}
	tb.Notes = append(tb.Notes, fmt.Sprintf("like K_n: the interval of the excess lies within ±%g%% at every λ; the interval combines the two 95%% half-widths in quadrature.", 100*likeKnTolerance))
	return tb, like
}

// supermarketFindings answers the question.
func supermarketFindings(pts [][]smPoint, like []bool) []string {
	var f []string
	smallest := -1
	for gi := 1; gi < len(pts); gi++ {
		if like[gi] && (smallest < 0 || pts[gi][0].degree < pts[smallest][0].degree) {
			smallest = gi
		}
	}
	if smallest > 0 {
		f = append(f, fmt.Sprintf("the smallest degree that behaves like K_n here (mean sojourn within ±%g%% at every λ): %d (%s)",
			100*likeKnTolerance, pts[smallest][0].degree, supermarketGraphs[smallest].name))
	} else {
		f = append(f, fmt.Sprintf("no graph but K_n has its mean sojourn within ±%g%% of K_n's at every λ", 100*likeKnTolerance))
	}
	last := len(supermarketLambdas) - 1
	for gi, sg := range supermarketGraphs {
		pt := pts[gi][last]
		pr := pt.prediction()
		if pr == nil || pr.Name != "pair approximation" {
			continue
		}
		f = append(f, fmt.Sprintf("%s at λ = %g: mean sojourn %.4f measured, %.4f by the pair approximation (%+.1f%%)",
			sg.name, supermarketLambdas[last], pt.sum.MeanSojourn.Mean, pr.MeanSojourn, 100*(pt.sum.MeanSojourn.Mean/pr.MeanSojourn-1)))
	}
	return f
}

// supermarketFigure draws the mean sojourn time against λ and the tails
// at λ = 0.9, each graph with the prediction that applies to it.
func supermarketFigure(pts [][]smPoint) *figure.Figure {
	fig := &figure.Figure{SharedLegend: true}
	pa := fig.Add(&figure.Panel{Title: "mean sojourn time against λ (measured, 95% CI)", XLabel: "λ", YLabel: "mean sojourn time", YScale: figure.ScaleLog})
	pb := fig.Add(&figure.Panel{Title: "tails s_i at λ = 0.9: measured (points); dashed: the fixed point (K_n) and the pair approximation (degree 2 to 4)", XLabel: "i", YLabel: "s_i", YScale: figure.ScaleLog10, XInt: true})
	li := 2 // λ = 0.9
	for gi, sg := range supermarketGraphs {
		s := pa.Add(&figure.Series{Name: sg.name, Color: gi, Shape: gi, Style: figure.StylePoints})
		for l, pt := range pts[gi] {
			e := pt.sum.MeanSojourn
			s.Points = append(s.Points, figure.Pt{X: supermarketLambdas[l], Y: e.Mean, Lo: e.CI95[0], Hi: e.CI95[1]})
		}
		tails := pb.Add(&figure.Series{Color: gi, Shape: gi, Style: figure.StylePoints})
		for i, e := range pts[gi][li].sum.Tails {
			if e.Mean > 0 {
				tails.Points = append(tails.Points, figure.Pt{X: float64(i + 1), Y: e.Mean})
			}
		}
		if pr := pts[gi][li].prediction(); pr != nil && pr.Name != "ODE over the window" && (gi == 0 || pr.Name == "pair approximation") {
			ps := pb.Add(&figure.Series{Color: gi, Style: figure.StyleDashed})
			for i := 1; i < len(pr.Tails) && pr.Tails[i] > 1e-7; i++ {
				ps.Points = append(ps.Points, figure.Pt{X: float64(i), Y: pr.Tails[i]})
			}
		}
	}
	return fig
}
