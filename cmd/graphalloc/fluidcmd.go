package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/study"
)

type fluidOptions struct {
	sizeFlags
	pf     processFlags
	format string
	tol    float64
}

// fluidJSONOut is the JSON of fluid (README.md): process, d, the
// parameters the process reads (of alloc.ParamTable, in its order, each
// under its name), sample, then the limit, load and tails, with the
// finite-n prediction beside them.
type fluidJSONOut struct {
	Process string  `json:"process"`
	D       float64 `json:"d"`
	// Params are the numbers of alloc.ParamTable the process reads.
	Params []fluidParam `json:"-"`
	Sample string       `json:"sample,omitempty"`
	fluidLimitOut
}

// fluidParam is one parameter of a fluid JSON and its value.
type fluidParam struct {
	spec *alloc.ParamSpec
	v    float64
}

// fluidLimitOut is the limit solved and its tails, in a fluid JSON.
type fluidLimitOut struct {
	// Limit names the rule whose limit this is, the process as it runs
	// (analysis.FluidOf): Greedy[4] for -p graph --sample walk:len=3.
	Limit       string    `json:"limit"`
	Load        float64   `json:"load"`
	Tails       []float64 `json:"tails"`
	N           int64     `json:"n"`
	PMaxAtLeast []float64 `json:"p_max_at_least"`
	PredMax     int       `json:"predicted_max_load"`
}

// MarshalJSON writes process and d, the parameters, then the rest: one
// object whose parameter keys come from alloc.ParamTable.
func (f fluidJSONOut) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(struct {
		Process string  `json:"process"`
		D       float64 `json:"d"`
	}{f.Process, f.D})
	if err != nil {
		return nil, err
	}
	b := bytes.TrimSuffix(head, []byte("}"))
	for _, p := range f.Params {
		var v any = p.v
		if p.spec.Kind == alloc.ParamInt {
			v = int(p.v)
		}
		val, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		key, _ := json.Marshal(p.spec.Name)
		b = append(append(append(append(b, ','), key...), ':'), val...)
	}
	tail, err := json.Marshal(struct {
		Sample string `json:"sample,omitempty"`
		fluidLimitOut
	}{f.Sample, f.fluidLimitOut})
	if err != nil {
		return nil, err
	}
	return append(append(b, ','), tail[1:]...), nil
}

func cmdFluid(_ context.Context, stdout, stderr io.Writer, args []string) error {
	var o fluidOptions
	fs := newFlags("fluid", stdout, stderr)
	o.pf.add(fs, alloc.Greedy{}.Name(), "process with a mean-field limit: "+fluidProcessList())
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
		if sp, err := graphgen.ParseSpec(o.graph); err != nil {
			return usagef("--graph: %v%s", err, graphHint(o.graph))
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
	n, err := study.ParseCount(o.bins, 0)
	if err != nil {
		return usagef("--bins: %v", err)
	}
	if n < 1 || n > alloc.MaxLevelBins {
		return usagef("--bins: need 1 <= n <= %d, got %d", int64(alloc.MaxLevelBins), n)
	}
	m, err := study.ParseCount(o.balls, n)
	if err != nil {
		return usagef("--balls: %v", err)
	}
	load := float64(m) / float64(n)
	if strings.HasSuffix(strings.TrimSpace(o.balls), "n") {
		// 0.5n of n = 3 is not whole, but the load 0.5 is what was meant.
		if f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(o.balls), "n"), 64); err == nil {
			load = f
		} else if strings.TrimSpace(o.balls) == "n" {
			load = 1
		}
	}
	if !(load >= 0 && load <= analysis.MaxFluidLoad) {
		return usagef("--balls: the load m/n must be in [0, %g], got %g", float64(analysis.MaxFluidLoad), load)
	}
	f, err := analysis.FluidOf(analysis.FluidRun{Process: desc, Params: params, N: float64(n), Load: load, Tol: o.tol})
	if why, ok := analysis.WhyNoFluid(err); ok {
		if desc.Uses&alloc.ParamD != 0 && params.D > analysis.MaxFluidD {
			return usagef("--choices: need a whole number 1 <= d <= %d for a fluid limit, got %q", analysis.MaxFluidD, *o.pf.text["choices"])
		}
		return usagef("--process: no fluid limit for %s: %s", describe(desc, params), why)
	} else if err != nil {
		return err
	}
	out := newFluidOut(desc, params, f)
	out.Load, out.N = load, n
	return outfile.Write(context.Background(), stdout, "", func(w io.Writer) error {
		if o.format == "json" {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(out)
		}
		name := describe(desc, params)
		if desc.Uses&alloc.ParamGraph != 0 && name != out.Limit {
			name = fmt.Sprintf("%s (%s on the complete graph: %s)", name, desc.Candidates(params), out.Limit)
		}
		writeFluidTable(w, name, out)
		return nil
	})
}

// newFluidOut is the JSON of fluid limit f of process desc with params:
// the process, its parameters, the limit solved and its tails.
func newFluidOut(desc *alloc.Descriptor, params alloc.Params, f analysis.Fluid) fluidJSONOut {
	out := fluidJSONOut{
		Process: desc.Name, D: desc.Choices(params),
		fluidLimitOut: fluidLimitOut{Limit: f.Rule.String(), Tails: f.Tails, PMaxAtLeast: f.PMaxAtLeast, PredMax: f.PredictedMaxLoad},
	}
	if desc.Uses&alloc.ParamSample != 0 {
		out.Sample = params.Sample.String()
	}
	for _, s := range alloc.ParamTable {
		if s.Get != nil && desc.Uses&s.Bit != 0 {
			out.Params = append(out.Params, fluidParam{s, s.Get(params)})
		}
	}
	return out
}

func writeFluidTable(w io.Writer, name string, f fluidJSONOut) {
	fmt.Fprintf(w, "fluid limit of %s at m/n = %.6g (n → ∞), and at n = %d\n\n", name, f.Load, f.N)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "i\ts_i (load ≥ i)\ts_i − s_{i+1} (load = i)\tP(max ≥ i) at n\t")
	for i, s := range f.Tails {
		next := 0.0
		if i+1 < len(f.Tails) {
			next = f.Tails[i+1]
		}
		fmt.Fprintf(tw, "%d\t%.10g\t%.10g\t%.6g\t\n", i, s, s-next, f.PMaxAtLeast[i])
	}
	tw.Flush()
	fmt.Fprintf(w, "\npredicted max load at n = %d: %d (P(max ≥ i) ≈ 1 − exp(−n s_i))\n", f.N, f.PredMax)
}

// fluidProcessList lists the processes that have a mean-field limit.
func fluidProcessList() string {
	var names []string
	for _, d := range alloc.Descriptors() {
		if d.HasMeanField() {
			names = append(names, d.Name)
		}
	}
	return strings.Join(names, ", ")
}
