package analysis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/graphalloc/graphalloc/alloc"
)

// FluidReport is a fluid limit as graphalloc fluid writes it: the process,
// d, the parameters the process reads (those of alloc.ParamTable, in its
// order, each under its name), the sampling rule, then the limit solved
// with its tails and the finite-n prediction beside them.
type FluidReport struct {
	Process string
	D       float64
	// Params are the numbers of alloc.ParamTable the process reads.
	Params []FluidParam
	Sample string
	FluidLimit
}

// FluidParam is one parameter of a FluidReport and its value.
type FluidParam struct {
	Spec  *alloc.ParamSpec
	Value float64
}

// FluidLimit is the limit solved and its tails, in a FluidReport.
type FluidLimit struct {
	// Limit names the rule whose limit this is, the process as it runs
	// (FluidOf): Greedy[4] for -p graph --sample walk:len=3.
	Limit       string    `json:"limit"`
	Load        float64   `json:"load"`
	Tails       []float64 `json:"tails"`
	N           int64     `json:"n"`
	PMaxAtLeast []float64 `json:"p_max_at_least"`
	PredMax     int       `json:"predicted_max_load"`
}

// NewFluidReport is the report of fluid limit f of process d with
// parameters p, at load m/n = load and n bins.
func NewFluidReport(d *alloc.Descriptor, p alloc.Params, f Fluid, load float64, n int64) FluidReport {
	r := FluidReport{
		Process: d.Name, D: d.Choices(p),
		FluidLimit: FluidLimit{Limit: f.Rule.String(), Load: load, N: n, Tails: f.Tails, PMaxAtLeast: f.PMaxAtLeast, PredMax: f.PredictedMaxLoad},
	}
	if d.Uses&alloc.ParamSample != 0 {
		r.Sample = p.Sample.String()
	}
	for _, s := range alloc.ParamTable {
		if s.Get != nil && d.Uses&s.Bit != 0 {
			r.Params = append(r.Params, FluidParam{s, s.Get(p)})
		}
	}
	return r
}

// MarshalJSON writes process and d, the parameters, then the rest: one
// object whose parameter keys come from alloc.ParamTable.
func (r FluidReport) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(struct {
		Process string  `json:"process"`
		D       float64 `json:"d"`
	}{r.Process, r.D})
	if err != nil {
		return nil, err
	}
	b := bytes.TrimSuffix(head, []byte("}"))
	for _, p := range r.Params {
		var v any = p.Value
		if p.Spec.Kind == alloc.ParamInt {
			v = int(p.Value)
		}
		val, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		key, _ := json.Marshal(p.Spec.Name)
		b = append(append(append(append(b, ','), key...), ':'), val...)
	}
	tail, err := json.Marshal(struct {
		Sample string `json:"sample,omitempty"`
		FluidLimit
	}{r.Sample, r.FluidLimit})
	if err != nil {
		return nil, err
	}
	return append(append(b, ','), tail[1:]...), nil
}

// WriteTable writes the report as a table headed by name, the process as
// the reader should see it named.
func (r FluidReport) WriteTable(w io.Writer, name string) {
	fmt.Fprintf(w, "fluid limit of %s at m/n = %.6g (n → ∞), and at n = %d\n\n", name, r.Load, r.N)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "i\ts_i (load ≥ i)\ts_i − s_{i+1} (load = i)\tP(max ≥ i) at n\t")
	for i, s := range r.Tails {
		next := 0.0
		if i+1 < len(r.Tails) {
			next = r.Tails[i+1]
		}
		fmt.Fprintf(tw, "%d\t%.10g\t%.10g\t%.6g\t\n", i, s, s-next, r.PMaxAtLeast[i])
	}
	tw.Flush()
	fmt.Fprintf(w, "\npredicted max load at n = %d: %d (P(max ≥ i) ≈ 1 − exp(−n s_i))\n", r.N, r.PredMax)
}
