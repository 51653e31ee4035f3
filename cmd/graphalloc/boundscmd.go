package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/study"
)

type boundsOptions struct {
	sizeFlags
	pf     processFlags
	format string
	batch  string
	seed   uint64
}

func cmdBounds(_ context.Context, stdout, stderr io.Writer, args []string) error {
	var o boundsOptions
	fs := newFlags("bounds", stdout, stderr)
	o.pf.add(fs, "", "process: "+processList()+" (default: every process but rank; graph with -g)")
	o.addSizes(fs, "", "topology SPEC for the graph bounds (gnp and files are built to be measured)", true)
	addSeed(fs, &o.seed)
	o.addExpansion(fs)
	addBatch(fs, &o.batch)
	fs.StringVarP(&o.format, "format", "f", "table", "output format: table or json")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if err := checkFormat(o.format, "table", "json"); err != nil {
		return err
	}
	q, desc, err := o.query(fs, stderr)
	if err != nil {
		return err
	}
	bs := analysis.Bounds(q)
	return outfile.Write(context.Background(), stdout, "", func(w io.Writer) error {
		if o.format == "json" {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(struct {
				Bounds []analysis.Bound `json:"bounds"`
			}{bs})
		}
		analysis.WriteBoundsTable(w, desc, bs)
		return nil
	})
}

// query turns the flags into an analysis.Query, through the same
// study.Setting as run and compare, and a one-line description.
func (o *boundsOptions) query(fs *pflag.FlagSet, stderr io.Writer) (analysis.Query, string, error) {
	var q analysis.Query
	n, err := study.ParseCount(o.bins, 0)
	if err != nil {
		return q, "", usagef("--bins: %v", err)
	}
	// The bounds are formulas: n may be as large as the level engine
	// runs, or as the graph may be.
	limit := int64(alloc.MaxLevelBins)
	var sp graphgen.Spec
	if o.graph != "" {
		if sp, err = graphgen.ParseSpec(o.graph); err != nil {
			return q, "", usagef("--graph: %v%s", err, graphHint(o.graph))
		}
		limit = int64(sp.OrderLimit())
	}
	if n < 1 || n > limit {
		return q, "", usagef("--bins: need 1 <= n <= %d, got %d", limit, n)
	}
	if o.pf.process == "" && o.graph != "" {
		o.pf.process = graphicalName()
	}
	if o.graph != "" {
		nn, err := study.SpecQuery(&q, sp, int(n), o.seed)
		if err != nil {
			return q, "", usageError{fmt.Errorf("--graph: %w", err)}
		}
		if nn != int(n) {
			if fs.Changed("bins") {
				return q, "", usagef("--bins: n=%d but graph %s has %d vertices", n, sp, nn)
			}
			n = int64(nn)
		}
	}
	m, err := parseBalls(o.balls, n)
	if err != nil {
		return q, "", err
	}
	who := "every process but rank"
	if o.pf.process == "" {
		// Every process: the flags as given, no process to check them.
		params, err := o.pf.params(fs, alloc.Descriptors())
		if err != nil {
			return q, "", err
		}
		if params.D < 1 {
			return q, "", usagef("--choices: need a number d >= 1, got %q", *o.pf.text["choices"])
		}
		q = analysis.Query{N: float64(n), M: float64(m), D: params.D, Sample: params.Sample.String()}
		q.SetParams(params)
		if params.GraphBeta {
			q.GraphBeta = params.Beta // graph is two-choice unless --beta is given
		}
		var batched []*alloc.Descriptor
		for _, d := range alloc.Descriptors() {
			if d.Batches() {
				batched = append(batched, d)
			}
		}
		b, err := parseBatch(o.batch, n, batched)
		if err != nil {
			return q, "", err
		}
		q.Batch = float64(b)
		if fs.Changed("weights") {
			q.Weights = params.Weights.String()
		}
	} else {
		descs, err := o.pf.descriptors()
		if err != nil {
			return q, "", err
		}
		params, err := o.pf.params(fs, descs)
		if err != nil {
			return q, "", err
		}
		if err := checkParams(descs, params, stderr); err != nil {
			return q, "", err
		}
		b, err := parseBatch(o.batch, n, descs)
		if err != nil {
			return q, "", err
		}
		topo := q
		q = study.Setting{Process: descs[0], Params: params, N: n, M: m, Batch: b}.Query()
		q.Topology, q.Degree, q.MinDegree, q.Eps = topo.Topology, topo.Degree, topo.MinDegree, topo.Eps
		q.Core, q.CoreFraction, q.Expansion = topo.Core, topo.CoreFraction, topo.Expansion
		if topo.MinRank > 0 {
			q.MinRank, q.Balance, q.D = topo.MinRank, topo.Balance, topo.D
		}
		if descs[0].Uses&alloc.ParamSample != 0 {
			q.Sample = params.Sample.String()
		}
		who = describe(descs[0], params)
	}
	if err := o.checkExpansion(fs); err != nil {
		return q, "", err
	}
	if fs.Changed("expansion") {
		q.Expansion = o.expansion
	}
	if err := q.Validate(); err != nil {
		return q, "", usageError{err}
	}
	topo := ""
	if o.graph != "" {
		topo = fmt.Sprintf("; topology %s (%s)", sp, q.DescribeGraph())
	}
	if q.Batch > 1 {
		topo += fmt.Sprintf("; batches of b=%g", q.Batch)
	}
	return q, fmt.Sprintf("bounds for %s: n=%d m=%d (m/n=%.4g) d=%g%s", who, n, m, float64(m)/float64(n), q.D, topo), nil
}

// graphicalName is the process -g implies: the first that runs on a graph.
func graphicalName() string {
	for _, d := range alloc.Descriptors() {
		if d.Uses&alloc.ParamGraph != 0 {
			return d.Name
		}
	}
	return ""
}
