package results

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/study"
)

// DynamicFile is the result of a run with deletions (run --delete): the
// run's config (its Delete and Steps set), every trial, and the summary
// with the bounds that speak for this process, model and graph. Its JSON
// and JSON lines have the shape of a File's, so that shards, merge,
// --resume and plot read both.
type DynamicFile struct {
	Config  Config                `json:"config"`
	Trials  []alloc.DynamicResult `json:"trials"`
	Summary DynamicSummary        `json:"summary"`
}

// NewDynamicFile is the file of the trials all of the run with deletions
// whose config is c, its summary computed over them (SummarizeDynamic)
// with the bounds for c's process, deletion model and graph.
func NewDynamicFile(c Config, all []alloc.DynamicResult) (*DynamicFile, error) {
	q, err := c.dynamicQuery(all)
	if err != nil {
		return nil, err
	}
	sum := DynamicSummary{Stats: SummarizeDynamic(all), Bounds: []analysis.Bound{}}
	if q != nil {
		sum.Bounds = analysis.DynamicBounds(*q)
	}
	if all == nil {
		all = []alloc.DynamicResult{} // an empty shard: a list, as every reader expects
	}
	return &DynamicFile{Config: c, Trials: all, Summary: sum}, nil
}

// dynamicQuery is the bounds query of the run with deletions c whose
// trials are all, read from the file alone: the most balls present is m
// for abku and fifo, m plus the steps for random deletions (unknown in
// advance), and for a sequence, the same in every trial, the trials'
// (nil, no bound, when no trial holds it).
func (c Config) dynamicQuery(all []alloc.DynamicResult) (*analysis.DynamicQuery, error) {
	del, err := alloc.ParseDeletions(c.Delete, func(s string) (int64, error) { return study.ParseCount(s, c.N) })
	if err != nil {
		return nil, fmt.Errorf("delete: %w", err)
	}
	q := &analysis.DynamicQuery{Process: c.Process, D: c.D, N: c.N, M: c.M, Model: del.Model, Phases: del.Phases}
	switch del.Model {
	case alloc.DeleteSequence:
		if len(all) == 0 {
			return nil, nil
		}
		for _, r := range all {
			q.MaxBalls = max(q.MaxBalls, r.MaxBalls)
		}
	case alloc.DeleteRandom:
		q.MaxBalls = c.M + c.Steps
	default:
		q.MaxBalls = c.M
	}
	return q, nil
}

// DynamicSummary holds the mean, sd, min and max over the trials of each
// reported quantity, and the bounds for the run (analysis.DynamicBounds).
type DynamicSummary struct {
	Stats  map[string]DynamicStat `json:"stats"`
	Bounds []analysis.Bound       `json:"bounds"`
}

// DynamicStat is a quantity over the trials: mean, sample sd, min, max
// and the half-width of the mean's 95% interval (Student t over the
// trials; null with one trial, whose mean has no interval).
type DynamicStat struct {
	Mean float64  `json:"mean"`
	SD   float64  `json:"std"`
	Min  float64  `json:"min"`
	Max  float64  `json:"max"`
	CI95 *float64 `json:"ci95_halfwidth"`
}

// dynamicFields are the reported quantities in order, with how to read
// each from a trial.
var dynamicFields = []struct {
	name string
	get  func(r alloc.DynamicResult) float64
}{
	{"max_load", func(r alloc.DynamicResult) float64 { return float64(r.MaxLoad) }},
	{"discrepancy", func(r alloc.DynamicResult) float64 { return r.Discrepancy }},
	{"overload", func(r alloc.DynamicResult) float64 { return r.Overload }},
	{"window_max_load", func(r alloc.DynamicResult) float64 { return float64(r.WindowMaxLoad) }},
	{"max_discrepancy", func(r alloc.DynamicResult) float64 { return r.MaxDiscrepancy }},
	{"max_overload", func(r alloc.DynamicResult) float64 { return r.MaxOverload }},
	{"balls", func(r alloc.DynamicResult) float64 { return float64(r.Balls) }},
}

// SummarizeDynamic returns the statistics of the trials.
func SummarizeDynamic(trials []alloc.DynamicResult) map[string]DynamicStat {
	out := map[string]DynamicStat{}
	for _, f := range dynamicFields {
		s := DynamicStat{Min: math.Inf(1), Max: math.Inf(-1)}
		for _, r := range trials {
			v := f.get(r)
			s.Mean += v / float64(len(trials))
			s.Min, s.Max = min(s.Min, v), max(s.Max, v)
		}
		var sq float64
		for _, r := range trials {
			sq += (f.get(r) - s.Mean) * (f.get(r) - s.Mean)
		}
		if k := len(trials); k > 1 {
			s.SD = math.Sqrt(sq / float64(k-1))
			h := analysis.StudentQuantile(0.975, k-1) * s.SD / math.Sqrt(float64(k))
			s.CI95 = &h
		}
		if len(trials) == 0 {
			s.Min, s.Max = 0, 0
		}
		out[f.name] = s
	}
	return out
}

// WriteDynamic writes f as a table, csv (one row a trial), json or jsonl
// (the config, one trial a line, then the summary).
func WriteDynamic(w io.Writer, format string, f *DynamicFile) error {
	switch format {
	case "json":
		return WriteJSON(w, f)
	case "jsonl":
		return writeLines(w, f.Config, "trial", f.Trials, f.Summary)
	case "csv":
		names := []string{"trial"}
		for _, d := range dynamicFields {
			names = append(names, d.name)
		}
		fmt.Fprintln(w, strings.Join(names, ","))
		for _, t := range f.Trials {
			row := []string{fmt.Sprint(t.Trial)}
			for _, d := range dynamicFields {
				row = append(row, fmt.Sprintf("%g", d.get(t)))
			}
			fmt.Fprintln(w, strings.Join(row, ","))
		}
		return nil
	}
	return writeDynamicTable(w, f)
}

// writeDynamicTable writes the summary as a table, then the bounds in
// their regimes with their kind and source, and the ones that do not apply
// with the reason.
func writeDynamicTable(w io.Writer, f *DynamicFile) error {
	fmt.Fprintf(w, "%s, n = %d, deletions %s: %d balls placed, then %d steps; %d trials, seed %d\n",
		f.Config.Process, f.Config.N, f.Config.Delete, f.Config.M, f.Config.Steps, len(f.Trials), f.Config.Seed)
	fmt.Fprintln(w, "discrepancy = max load - m(t)/n; overload = max load - max_{s<=t} m(s)/n; window = the initial balls and every step")
	fmt.Fprintln(w, "95% CI: of the mean over the trials, Student t (— with one trial)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "quantity\tmean\t95% CI\tsd\tmin\tmax\t")
	for _, d := range dynamicFields {
		s := f.Summary.Stats[d.name]
		ci := "—"
		if s.CI95 != nil {
			ci = fmt.Sprintf("[%.4g, %.4g]", s.Mean-*s.CI95, s.Mean+*s.CI95)
		}
		fmt.Fprintf(tw, "%s\t%.4g\t%s\t%.3g\t%.4g\t%.4g\t\n", d.name, s.Mean, ci, s.SD, s.Min, s.Max)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(f.Summary.Bounds) == 0 {
		fmt.Fprintln(w, "no stated bound for this process and deletion model")
		return nil
	}
	fmt.Fprintln(w, "bounds (value: the explicit leading terms, O(1) dropped):")
	for _, b := range f.Summary.Bounds {
		if b.Applies {
			fmt.Fprintf(w, "  %s: %s = %.4g (%s, %s)\n", b.Name, b.Formula, b.Value, b.Kind, b.Reason)
		} else {
			fmt.Fprintf(w, "  %s: not shown: %s\n", b.Name, b.Reason)
		}
	}
	return nil
}
