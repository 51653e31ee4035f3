package study

import (
	"context"
	"math"
	"strconv"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
)

// Setting is a run as the theory sees it: a process of package alloc with
// its parameters, n bins, m balls and, for a graph process, what is known of
// its graph (Topology; Params.Graph itself may be nil, as when merge
// summarises saved trials). Every command and study summarises its trials
// from a Setting (Summarize), so that they all report the same fluid
// prediction and the same bounds for the same run.
type Setting struct {
	Process  *alloc.Descriptor
	Params   alloc.Params
	N, M     int64
	Topology *Topology // for a graph process
	// Batch is the batch size of a batched run (alloc.Config.Batch); 0 or
	// 1 for one ball at a time.
	Batch int64
}

// Topology is what the bounds need to know of a built graph.
type Topology struct {
	Spec   graphgen.Spec
	Edges  int64
	Degree Degrees
	// Core and CoreFraction: the dense core of a nonregular graph, its
	// vertices and the fraction of the edges inside it (0 if none).
	Core         int
	CoreFraction float64
	// Expansion is a lower bound on the degree-normalised edge expansion
	// σ, for the bounds that need it (analysis.Query.Expansion); 0 if
	// unknown.
	Expansion float64
	// MinRank and MaxRank are the least and the greatest hyperedge size
	// of a hypergraph (graphgen.Hypergraph), whose Edges are hyperedges
	// and Degree the numbers of hyperedges at a vertex; 0 for a graph.
	MinRank, MaxRank int
}

// Measure returns the Topology of g, built from sp, with a certified lower
// bound on its edge expansion σ where it is cheap (certifiedExpansion).
func Measure(sp graphgen.Spec, g graphgen.Graph) *Topology {
	return MeasureContext(context.Background(), sp, g)
}

// MeasureContext is Measure whose certificate (a circulant's scan, up to
// about 40 s) stops once ctx is done; σ is then 0 (unknown).
func MeasureContext(ctx context.Context, sp graphgen.Spec, g graphgen.Graph) *Topology {
	var q analysis.Query
	deg := GraphQuery(&q, sp, g)
	t := &Topology{Spec: sp, Edges: g.Size(), Degree: deg, Core: int(q.Core), CoreFraction: q.CoreFraction}
	if t.Edges == math.MaxInt64 {
		t.Edges = 0 // K_n beyond graphgen.MaxOrder: more edges than an int64 holds; not stated
	}
	t.Expansion = certifiedExpansion(ctx, sp, g.Order(), func() graphgen.Graph { return g })
	if h, ok := g.(*graphgen.Hypergraph); ok {
		t.MinRank, t.MaxRank = h.Rank()
	}
	return t
}

// certifiedExpansion is a certified lower bound on the edge expansion σ
// of the graph spec sp builds on n vertices, where it is cheap: from the
// closed form of the spec's spectrum (complete, cycle, torus, hypercube:
// analysis.SpecExpansion, O(1)), or for a circulant from the graph (an
// implicit graph, O(Δ) to build; graph returns it). 0 otherwise: the
// bounds that need σ then say so. Every command gets σ from here, so they
// agree. Once ctx is done it returns 0.
func certifiedExpansion(ctx context.Context, sp graphgen.Spec, n int, graph func() graphgen.Graph) float64 {
	plan, err := sp.Plan(n)
	if err != nil {
		return 0
	}
	if sigma, ok := analysis.SpecExpansion(sp, plan); ok {
		return sigma
	}
	if sp.Kind == "circulant" {
		if g := graph(); g != nil {
			if sigma, ok := analysis.ExpansionLowerBound(g, analysis.DescribeOptions{Context: ctx}); ok && ctx.Err() == nil {
				return sigma
			}
		}
	}
	return 0
}

// usesGraph reports whether the process runs on a graph that is known.
func (s Setting) usesGraph() bool {
	return s.Process.Uses&alloc.ParamGraph != 0 && s.Topology != nil
}

// Query returns the bounds query of s.
func (s Setting) Query() analysis.Query {
	q := analysis.Query{N: float64(s.N), M: float64(s.M), Process: s.Process.Name, Params: QueryParams(s.Process, s.Params)}
	if s.Batch > 1 {
		q.Batch = float64(s.Batch)
	}
	if !s.usesGraph() {
		q.Sample = alloc.SampleEdge // a summary states the sampling rule's bounds on a graph alone
		return q
	}
	t := s.Topology
	q.Topology = t.Spec.Kind
	q.MinDegree = float64(t.Degree.Min)
	if t.Degree.Min == t.Degree.Max {
		q.Degree = float64(t.Degree.Min)
	}
	if t.Spec.Kind == "regular" {
		q.Eps = specEps(t.Spec)
	}
	q.Core, q.CoreFraction = float64(t.Core), t.CoreFraction
	q.Expansion = t.Expansion
	if t.MinRank > 0 {
		q.MinRank = float64(t.MinRank)
		if t.Degree.Mean > 0 {
			q.Balance = max(float64(t.Degree.Max)/t.Degree.Mean, 1)
		}
	}
	return q
}

// QueryParams are the parameters of process d with p as a bounds query
// reads them: d's own choices and tie rule, β only where d reads it
// (graph is two-choice without --beta), and edge sampling for a process
// that draws no neighbours.
func QueryParams(d *alloc.Descriptor, p alloc.Params) alloc.Params {
	p.D, p.Ties = d.Choices(p), d.TiesFor(p)
	if d.Uses&alloc.ParamGraph != 0 {
		p.Beta, p.GraphBeta = d.BetaOf(p)
	}
	p.Graph = nil
	if d.Uses&alloc.ParamSample == 0 {
		p.Sample = alloc.SampleEdge
	}
	return p
}

// maxFluidLoad is the heaviest m/n whose fluid limit a summary solves: the
// solver's time grows with m/n, and a summary is a first look.
const maxFluidLoad = 64

// Fluid returns the mean-field prediction for s, the process as it ran
// (analysis.FluidOf), or nil and why there is none: the process has none
// with these parameters or on this graph, m/n is above 64, or the balls
// come in batches.
func (s Setting) Fluid() (*Fluid, string) {
	if s.N < 1 || s.M < 1 {
		return nil, "no balls"
	}
	p := s.Params
	if p.Graph == nil && s.usesGraph() && s.Topology.Spec.Kind == "complete" {
		p.Graph = graphgen.Complete(s.N)
	}
	// Tails below 1e-12 of the bins are beyond any simulation.
	f, err := analysis.FluidOf(analysis.FluidRun{Process: s.Process, Params: p, N: float64(s.N),
		Load: float64(s.M) / float64(s.N), Batch: s.Batch, Tol: 1e-12, MaxLoad: maxFluidLoad})
	if err != nil {
		if why, ok := analysis.WhyNoFluid(err); ok {
			return nil, why
		}
		return nil, err.Error()
	}
	return &Fluid{
		Process: f.Rule.Family.String(), D: f.Rule.D, Limit: f.Rule.String(), Tails: f.Tails,
		PMaxAtLeast: f.PMaxAtLeast, PredictedMaxLoad: f.PredictedMaxLoad,
	}, ""
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
	// NoFluid says why there is no fluid prediction, when Fluid is nil.
	NoFluid string
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
	// Both are at least 0: the gap is max − average load.
	sum := Summary{MaxLoad: analysis.SummarizeAtLeast(mx, 0), Gap: analysis.SummarizeAtLeast(gap, 0), Bounds: []analysis.Bound{}}
	if s.M > 0 && len(rs) > 0 {
		sum.Probes = probes / float64(s.M) / float64(len(rs))
	}
	if !weighted && len(rs) > 0 {
		sum.Tails = MeanTails(rs, s.N)
	}
	sum.Fluid, sum.NoFluid = s.Fluid()
	sum.Query = s.Query()
	if s.usesGraph() {
		sum.Degree = &s.Topology.Degree
	}
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
		Ties: s.Process.TiesFor(s.Params).String(), Seed: seed, Trials: trials, Batch: s.Batch,
		MaxLoad: sum.MaxLoad, Gap: sum.Gap, Tails: sum.Tails, Fluid: sum.Fluid, NoFluid: sum.NoFluid,
		Bounds: sum.Bounds, Query: sum.Query, Degree: sum.Degree,
	}
	if s.usesGraph() {
		row.Topology = s.Topology.Spec.String()
		if s.Process.Uses&alloc.ParamSample != 0 {
			row.Sample = s.Params.Sample.String()
		}
		row.Edges = s.Topology.Edges
	}
	return row
}

// specEps is ε of a regular:eps=E spec, 0 if it has none.
func specEps(sp graphgen.Spec) float64 {
	eps, err := strconv.ParseFloat(sp.Params["eps"], 64)
	if err != nil {
		return 0
	}
	return eps
}
