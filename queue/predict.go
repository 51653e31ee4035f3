package queue

import (
	"fmt"
	"math"

	"github.com/graphalloc/graphalloc/graphgen"
)

// Prediction is a theoretical value of the stationary tails printed beside
// a measurement, with what kind of statement it is and where it holds.
type Prediction struct {
	Name string `json:"name"`
	// Kind is "exact" (the stationary law of every finite system),
	// "limit" (exact as n → ∞ under the source's conditions) or
	// "approximation" (a closure with no error bound).
	Kind   string `json:"kind"`
	Source string `json:"source"`
	Regime string `json:"regime"`
	// Applies says whether the run is in the regime; Reason says why not.
	// Tails and the means are given only when it applies.
	Applies     bool      `json:"applies"`
	Reason      string    `json:"reason,omitempty"`
	Tails       []float64 `json:"tails,omitempty"` // s_0 = 1, s_1, …
	MeanQueue   float64   `json:"mean_queue,omitempty"`
	MeanSojourn float64   `json:"mean_sojourn,omitempty"`
}

// The sources, as cited in every output.
const (
	SourceFixed = "Mitzenmacher 1996; Vvedenskaya, Dobrushin, Karpelevich 1996"
	SourceBMW   = "Budhiraja, Mukherjee, Wu 2019 (Ann. Appl. Probab.)"
	SourceGast  = "Gast 2015 (SIGMETRICS PER)"
)

// Graph is what the predictions need to know of a graph: its spec (the
// family it comes from as n grows) and its degrees.
type Graph struct {
	Spec           graphgen.Spec
	MinDeg, MaxDeg int
}

// Describe measures g's degrees (O(n)).
func Describe(spec graphgen.Spec, g graphgen.Graph) Graph {
	f := Graph{Spec: spec, MinDeg: math.MaxInt}
	if csr, ok := g.(*graphgen.CSR); ok && csr.RegularDegree() > 0 {
		f.MinDeg, f.MaxDeg = csr.RegularDegree(), csr.RegularDegree()
		return f
	}
	if r, ok := g.(interface{ RegularDegree() int }); ok && r.RegularDegree() > 0 {
		f.MinDeg, f.MaxDeg = r.RegularDegree(), r.RegularDegree()
		return f
	}
	n := g.Order()
	if _, ok := g.(graphgen.Complete); ok {
		f.MinDeg, f.MaxDeg = n-1, n-1
		return f
	}
	for v := range n {
		d := g.Degree(v)
		f.MinDeg, f.MaxDeg = min(f.MinDeg, d), max(f.MaxDeg, d)
	}
	return f
}

// Regular is the common degree of a regular graph, 0 otherwise.
func (g Graph) Regular() int {
	if g.MinDeg == g.MaxDeg {
		return g.MinDeg
	}
	return 0
}

// growing says whether the spec's family meets BMW19's conditions as n
// grows — minimum degree → ∞, and max/min degree → 1 in each component —
// and names the family, or says why not.
func (g Graph) growing() (string, bool) {
	s := g.Spec
	switch {
	case s.Kind == "complete":
		return "K_n", true
	case s.Kind == "hypercube":
		return "the hypercube, degree log₂ n", true
	case s.Kind == "regular" && s.Params["eps"] != "":
		return "random regular of degree ⌈n^ε⌉", true
	case s.Kind == "gnp" && s.Params["p"] != "":
		return "G(n, p) with p fixed: mean degree c = p(n−1), c/ln n → ∞ (BMW19's condition for almost every graph)", true
	case s.FromFile():
		return "a graph file is one graph, not a family with growing degree", false
	case s.Kind == "nonregular" || s.Kind == "ba":
		return "its max/min degree ratio does not tend to 1", false
	}
	return fmt.Sprintf("its degree (%d) does not grow with n", g.MinDeg), false
}

// Predictions returns the predictions for c's run, on graph g (ignored
// for Uniform sampling), each saying whether it applies, for the trials
// run (none: the run is taken as stationary). The stationary predictions
// are withheld when MSER found no steady state in some trial (its cut at
// the edge of its search). A run on exchangeable servers that starts empty
// also gets the mean-field ODE averaged over each trial's window, the
// n → ∞ limit of what it measures whether or not the window is
// stationary; and its stationary predictions are shown only when that
// average is within 1% of the fixed point's mean queue (else the window is
// still transient).
func Predictions(c *Config, g Graph, trials []Trial) []Prediction {
	preds := stationary(c, g)
	for _, t := range trials {
		if t.WarmupRule != "mser-edge" {
			continue
		}
		for i, p := range preds {
			if p.Applies {
				preds[i] = Prediction{Name: p.Name, Kind: p.Kind, Source: p.Source, Regime: p.Regime,
					Reason: fmt.Sprintf("trial %d found no steady state (MSER's cut at half the run): run longer", t.Trial)}
			}
		}
		break
	}
	if !c.Exchangeable() || c.Start != StartEmpty || len(trials) == 0 {
		return preds
	}
	froms := make([]float64, len(trials))
	for k, t := range trials {
		froms[k] = t.Warmup
	}
	avg := ODEMeanAverage(c.Lambda, c.Choices(), froms, c.Time)
	win := Prediction{Name: "ODE over the window", Kind: "limit", Source: SourceFixed, Applies: true,
		Regime: "uniform d-sampling or K_n from empty queues, n → ∞: the mean-field trajectory averaged over each trial's window", Tails: avg}
	win.MeanQueue = MeanOf(avg)
	win.MeanSojourn = win.MeanQueue / c.Lambda
	for i, p := range preds {
		if p.Applies && p.Kind != "approximation" {
			if off := win.MeanQueue/p.MeanQueue - 1; off < -0.01 || off > 0.01 {
				preds[i] = Prediction{Name: p.Name, Kind: p.Kind, Source: p.Source, Regime: p.Regime,
					Reason: fmt.Sprintf("the window is still transient: the mean-field mean queue over it is %.1f%% from the fixed point's (run longer)", 100*off)}
			}
		}
	}
	return append(preds, win)
}

// stationary returns the stationary predictions.
func stationary(c *Config, g Graph) []Prediction {
	d := c.Choices()
	fp := FixedPoint(c.Lambda, d, 1e-12)
	with := func(p Prediction, tails []float64) Prediction {
		p.Applies, p.Tails = true, tails
		p.MeanQueue = MeanOf(tails)
		p.MeanSojourn = p.MeanQueue / c.Lambda
		return p
	}
	fixed := Prediction{Name: "fixed point", Kind: "limit", Source: SourceFixed,
		Regime: fmt.Sprintf("uniform %d-sampling or K_n, n → ∞: s_i = λ^((d^i−1)/(d−1))", d)}
	if d == 1 {
		// One choice: every queue is an M/M/1 queue of load λ, alone.
		fixed.Kind, fixed.Regime = "exact", "one candidate: each queue is M/M/1, s_i = λ^i for every n (stationary)"
		return []Prediction{with(fixed, fp)}
	}
	if c.Exchangeable() {
		return []Prediction{with(fixed, fp)}
	}
	fixed.Reason = "the graph is not K_n (see BMW19's limit)"
	bmw := Prediction{Name: "fixed point on graphs", Kind: "limit", Source: SourceBMW,
		Regime: "vertex sampling (or edge sampling on a regular graph), min degree → ∞ and max/min degree → 1 in each component, n → ∞"}
	family, ok := g.growing()
	switch {
	case c.Sample == Edge && g.Regular() == 0:
		bmw.Reason = "edge sampling on a graph that is not regular weights vertices by degree"
	case !ok:
		bmw.Reason = family
	default:
		bmw = with(bmw, fp)
		bmw.Regime += "; here " + family
	}
	out := []Prediction{fixed, bmw}
	pair := Prediction{Name: "pair approximation", Kind: "approximation", Source: SourceGast,
		Regime: "edge sampling (or vertex sampling with d = 2) on a regular graph of degree 2–4, n → ∞; accurate in Gast15's simulations, no error bound"}
	k := g.Regular()
	switch {
	case d != 2:
		pair.Reason = "the pair approximation is for two candidates"
	case k < 2 || k > 4:
		pair.Reason = fmt.Sprintf("the graph is not regular of degree 2–4 (degrees %d–%d)", g.MinDeg, g.MaxDeg)
	default:
		tails, err := PairApproximation(c.Lambda, k)
		if err != nil {
			pair.Reason = err.Error()
		} else {
			pair = with(pair, tails)
		}
	}
	return append(out, pair)
}
