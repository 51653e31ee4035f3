package study

import (
	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
)

// Setting is a run as the theory sees it: a process of package alloc with
// its parameters, n bins, m balls and, for a graph process, the spec of the
// graph in Params.Graph. Every command and study summarises its trials from
// a Setting (Summarize), so that they all report the same fluid prediction
// and the same bounds for the same run.
type Setting struct {
	Process *alloc.Descriptor
	Params  alloc.Params
	N, M    int64
	Spec    graphgen.Spec // the graph's spec, for a graph process
}

// usesGraph reports whether the process runs on a graph that was given.
func (s Setting) usesGraph() bool {
	return s.Process.Uses&alloc.ParamGraph != 0 && s.Params.Graph != nil
}

// Query returns the bounds query of s and, for a graph process, the degree
// statistics of its graph.
func (s Setting) Query() (analysis.Query, *Degrees) {
	d := s.Process
	q := analysis.Query{N: float64(s.N), M: float64(s.M), D: d.Choices(s.Params), Beta: s.Params.Beta, Process: d.Name}
	if d.Uses&alloc.ParamWeights != 0 {
		q.Weights = s.Params.Weights.String()
	}
	if !s.usesGraph() {
		return q, nil
	}
	deg := GraphQuery(&q, s.Spec, s.Params.Graph)
	q.Sample = s.Params.Sample.String()
	return q, &deg
}

// maxFluidLoad is the heaviest m/n whose fluid limit a summary solves: the
// solver's time grows with m/n, and a summary is a first look.
const maxFluidLoad = 64

// Fluid returns the mean-field prediction for s, or nil if the process has
// none with these parameters or m/n is outside (0, 64].
func (s Setting) Fluid() *Fluid {
	if s.N < 1 || s.M < 1 || float64(s.M)/float64(s.N) > maxFluidLoad {
		return nil
	}
	mf, ok := s.Process.MeanField(s.Params)
	if !ok || mf.D < 1 || mf.D > analysis.MaxFluidD {
		return nil
	}
	// Tails below 1e-12 of the bins are beyond any simulation.
	tails, err := analysis.TailsTol(mf, float64(s.M)/float64(s.N), 1e-12)
	if err != nil {
		return nil
	}
	return &Fluid{
		Process: mf.Family.String(), D: mf.D, Tails: tails,
		PMaxAtLeast:      analysis.MaxLoadDist(tails, float64(s.N)),
		PredictedMaxLoad: analysis.PredictedMaxLoad(tails, float64(s.N)),
	}
}

// Summary is what the trials of a Setting come to: statistics over the
// trials, the mean tails, the fluid prediction and the bounds.
type Summary struct {
	MaxLoad, Gap analysis.Summary
	// Probes is the mean number of bins read per ball.
	Probes float64
	// Tails[i] is the measured fraction of bins with load ≥ i, averaged
	// over the trials; nil for weighted balls.
	Tails []float64
	Fluid *Fluid
	// Query is what the bounds were evaluated for; Degree the graph's
	// degree statistics (nil without a graph).
	Query  analysis.Query
	Degree *Degrees
	// Bounds apply to the setting; NotApplicable are the process's other
	// bounds, with the reason.
	Bounds, NotApplicable []analysis.Bound
}

// Summarize summarises the trials rs of s.
func Summarize(s Setting, rs []alloc.Result) Summary {
	var mx, gap []float64
	var probes float64
	weighted := false
	for _, r := range rs {
		mx = append(mx, r.MaxLoad)
		gap = append(gap, r.Gap)
		probes += float64(r.Probes)
		weighted = weighted || r.LoadCounts == nil
	}
	sum := Summary{MaxLoad: analysis.Summarize(mx), Gap: analysis.Summarize(gap), Bounds: []analysis.Bound{}}
	if s.M > 0 && len(rs) > 0 {
		sum.Probes = probes / float64(s.M) / float64(len(rs))
	}
	if !weighted && len(rs) > 0 {
		sum.Tails = MeanTails(rs, s.N)
	}
	sum.Fluid = s.Fluid()
	sum.Query, sum.Degree = s.Query()
	for _, b := range analysis.Bounds(sum.Query) {
		if b.Applies {
			sum.Bounds = append(sum.Bounds, b)
		} else {
			sum.NotApplicable = append(sum.NotApplicable, b)
		}
	}
	return sum
}

// newRow is the row of a grid point: the setting s, run with seed and
// trials, and its results.
func newRow(s Setting, seed uint64, trials int, rs []alloc.Result) Row {
	sum := Summarize(s, rs)
	row := Row{
		N: s.N, M: s.M, Process: s.Process.Name, D: s.Process.Choices(s.Params),
		Ties: s.Process.TiesFor(s.Params).String(), Seed: seed, Trials: trials,
		MaxLoad: sum.MaxLoad, Gap: sum.Gap, Tails: sum.Tails, Fluid: sum.Fluid,
		Bounds: sum.Bounds, Query: sum.Query, Degree: sum.Degree,
	}
	if s.usesGraph() {
		row.Topology = s.Spec.String()
		row.Sample = s.Params.Sample.String()
		row.Edges = s.Params.Graph.Size()
	}
	return row
}
