package main

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
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
	return writeInfo(stdout, o.format, struct {
		Bounds []analysis.Bound `json:"bounds"`
	}{bs}, func(w io.Writer) { analysis.WriteBoundsTable(w, desc, bs) })
}

// query turns the flags into an analysis.Query, through the same
// study.Setting as run and compare, and a one-line description.
func (o *boundsOptions) query(fs *pflag.FlagSet, stderr io.Writer) (analysis.Query, string, error) {
	var q analysis.Query
	n, sp, err := study.BoundsSize(&q, o.bins, o.graph, fs.Changed("bins"), o.seed)
	if err != nil {
		return q, "", usageError{err}
	}
	if o.pf.process == "" && o.graph != "" {
		o.pf.process = alloc.Readers(alloc.ParamGraph)[0] // -g implies the first process on a graph
	}
	m, err := parseBalls(o.balls, n)
	if err != nil {
		return q, "", err
	}
	// No process: every one, the flags as given and no process to check
	// them; a batch for those that run in batches.
	descs, who := alloc.Descriptors(), "every process but rank"
	var desc *alloc.Descriptor
	if o.pf.process != "" {
		if descs, err = o.pf.descriptors(); err != nil {
			return q, "", err
		}
		desc = descs[0]
	}
	params, err := o.pf.params(fs, descs)
	if err != nil {
		return q, "", err
	}
	if desc != nil {
		if err := checkParams(descs, params, stderr); err != nil {
			return q, "", err
		}
		who = desc.Label(params)
	} else if params.D < 1 {
		return q, "", usagef("--choices: need a number d >= 1, got %q", *o.pf.text["choices"])
	}
	b, err := parseBatch(o.batch, n, slices.DeleteFunc(descs, func(d *alloc.Descriptor) bool { return desc == nil && !d.Batches() }))
	if err != nil {
		return q, "", err
	}
	q = study.BoundsQuery(q, desc, params, n, m, b)
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
