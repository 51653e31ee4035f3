package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/study"
)

type fluidOptions struct {
	sizeFlags
	pf     processFlags
	format string
	tol    float64
}

func cmdFluid(_ context.Context, stdout, stderr io.Writer, args []string) error {
	var o fluidOptions
	fs := newFlags("fluid", stdout, stderr)
	o.pf.add(fs, alloc.Greedy{}.Name(), "process with a mean-field limit: "+strings.Join(alloc.MeanFieldNames(), ", "))
	o.addSizes(fs, "complete", "topology of a graph process: only complete has a fluid limit", true)
	fs.Float64Var(&o.tol, "tol", 1e-15, "list s_i down to this value (1e-300 <= tol < 1)")
	fs.StringVarP(&o.format, "format", "f", "table", "output format: table or json")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if err := checkFormat(o.format, "table", "json"); err != nil {
		return err
	}
	descs, err := o.pf.descriptors()
	if err != nil {
		return err
	}
	if len(descs) > 1 {
		return usagef("--process: fluid takes one process, got %q", o.pf.process)
	}
	desc := descs[0]
	params, err := o.pf.params(fs, descs)
	if err != nil {
		return err
	}
	if desc.Uses&alloc.ParamGraph != 0 {
		if sp, err := parseSpec(o.graph); err != nil {
			return err
		} else if sp.Kind == "complete" {
			params.Graph = graphgen.Complete(2)
		}
	}
	if err := checkParams(descs, params, stderr); err != nil {
		return err
	}
	if !(o.tol >= 1e-300 && o.tol < 1) {
		return usagef("--tol: need 1e-300 <= tol < 1, got %g", o.tol)
	}
	n, load, err := study.FluidSize(o.bins, o.balls)
	if err != nil {
		return usageError{err}
	}
	f, err := analysis.FluidOf(analysis.FluidRun{Process: desc, Params: params, N: float64(n), Load: load, Tol: o.tol})
	if why, ok := analysis.WhyNoFluid(err); ok {
		if desc.Uses&alloc.ParamD != 0 && params.D > analysis.MaxFluidD {
			return usagef("--choices: need a whole number 1 <= d <= %d for a fluid limit, got %q", analysis.MaxFluidD, *o.pf.text["choices"])
		}
		return usagef("--process: no fluid limit for %s: %s", desc.Label(params), why)
	} else if err != nil {
		return err
	}
	out := analysis.NewFluidReport(desc, params, f, load, n)
	name := desc.Label(params)
	if desc.Uses&alloc.ParamGraph != 0 && name != out.Limit {
		name = fmt.Sprintf("%s (%s on the complete graph: %s)", name, desc.Candidates(params), out.Limit)
	}
	return writeInfo(stdout, o.format, out, func(w io.Writer) { out.WriteTable(w, name) })
}
