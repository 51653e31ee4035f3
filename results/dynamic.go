package results

import (
	"fmt"
	"io"
	"math"
	"slices"
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
//
// A config that no run writes (an unknown process, d, n, m or steps out
// of range, a model that does not parse) is an error, and so are the
// trials of a sequence that do not agree on its balls (the sequence
// decides them): shards or a --resume of a file:PATH whose file changed
// between the runs.
func NewDynamicFile(c Config, all []alloc.DynamicResult) (*DynamicFile, error) {
	del, err := alloc.ParseDeletions(c.Delete, func(s string) (int64, error) { return study.ParseCount(s, c.N) })
	if err != nil {
		return nil, fmt.Errorf("delete: %w", err)
	}
	if err := c.checkDynamic(del.Model, all); err != nil {
		return nil, err
	}
	sum := DynamicSummary{Stats: SummarizeDynamic(all, del.Model != alloc.DeleteRandom), Bounds: []analysis.Bound{}}
	if q := c.dynamicQuery(del, all); q != nil {
		sum.Bounds = analysis.DynamicBounds(*q)
	}
	if all == nil {
		all = []alloc.DynamicResult{} // an empty shard: a list, as every reader expects
	}
	return &DynamicFile{Config: c, Trials: all, Summary: sum}, nil
}

// checkDynamic refuses the config c of a run with deletions (model
// model) that no run writes, trials all whose series are recorded at
// different steps, and those of a sequence that ran different sequences.
func (c Config) checkDynamic(model alloc.DeleteModel, all []alloc.DynamicResult) error {
	if _, err := alloc.Lookup(c.Process); err != nil {
		return err
	}
	switch {
	case !(c.D >= 1 && c.D <= 1<<20) || math.IsNaN(c.D):
		return fmt.Errorf("d %v: not a run's", c.D)
	case c.N < 1 || c.M < 0 || c.Steps < 0:
		return fmt.Errorf("n %d, m %d, steps %d: not a run's", c.N, c.M, c.Steps)
	}
	sequence := model == alloc.DeleteSequence
	for _, r := range all[min(1, len(all)):] {
		a := all[0]
		if !slices.EqualFunc(r.Series, a.Series, func(p, q alloc.DynPoint) bool { return p.Step == q.Step }) {
			return fmt.Errorf("trials %d and %d record their series at different steps: not trials of one run", a.Trial, r.Trial)
		}
		if sequence && (r.Balls != a.Balls || r.MaxBalls != a.MaxBalls || r.Inserted != a.Inserted || r.Deleted != a.Deleted) {
			return fmt.Errorf("trials %d and %d ran different sequences (%d and %d balls at the end): was %s changed between the runs of their files?",
				a.Trial, r.Trial, a.Balls, r.Balls, c.Delete)
		}
	}
	return nil
}

// dynamicQuery is the bounds query of the run with deletions c (its
// model del, parsed) whose trials are all, read from the file alone: the
// most balls present is m for abku and fifo, m plus the steps for random
// deletions (unknown in advance), and for a sequence, the same in every
// trial, the trials' (nil, no bound, when no trial holds it).
func (c Config) dynamicQuery(del alloc.Deletions, all []alloc.DynamicResult) *analysis.DynamicQuery {
	q := &analysis.DynamicQuery{Process: c.Process, D: c.D, N: c.N, M: c.M, Model: del.Model, Phases: del.Phases}
	switch del.Model {
	case alloc.DeleteSequence:
		if len(all) == 0 {
			return nil
		}
		for _, r := range all {
			q.MaxBalls = max(q.MaxBalls, r.MaxBalls)
		}
	case alloc.DeleteRandom:
		q.MaxBalls = c.M + c.Steps
	default:
		q.MaxBalls = c.M
	}
	return q
}

// DynamicSummary holds each reported quantity over the trials, and the
// bounds for the run (analysis.DynamicBounds).
type DynamicSummary struct {
	Stats  map[string]Stat  `json:"stats"`
	Bounds []analysis.Bound `json:"bounds"`
}

// dynamicFields are the reported quantities in order, with how to read
// each from a trial and the least value it can take (a max load, a
// discrepancy x_max − m/n and a ball count are at least 0; an overload
// can be negative), for the interval of its mean.
var dynamicFields = []struct {
	name  string
	floor float64
	get   func(r alloc.DynamicResult) float64
}{
	{"max_load", 0, func(r alloc.DynamicResult) float64 { return float64(r.MaxLoad) }},
	{"discrepancy", 0, func(r alloc.DynamicResult) float64 { return r.Discrepancy }},
	{"overload", math.Inf(-1), func(r alloc.DynamicResult) float64 { return r.Overload }},
	{"window_max_load", 0, func(r alloc.DynamicResult) float64 { return float64(r.WindowMaxLoad) }},
	{"max_discrepancy", 0, func(r alloc.DynamicResult) float64 { return r.MaxDiscrepancy }},
	{"max_overload", 0, func(r alloc.DynamicResult) float64 { return r.MaxOverload }}, // from the initial balls' discrepancy, ≥ 0
	{"balls", 0, func(r alloc.DynamicResult) float64 { return float64(r.Balls) }},
}

// SummarizeDynamic returns each quantity over the trials as the summary
// of a run without deletions gives its max load (analysis.SummarizeAtLeast):
// the mean's 95% interval is exact from binomial tails where the values
// lie on a lattice of step 1 spanning at most analysis.MaxExactSpan steps
// (an interval of positive width even when every trial agrees), else
// Student's t cut at the quantity's floor; none with one trial. The balls
// at the end get none when the model fixes them (fixedBalls: abku, fifo,
// a sequence), as it does for every trial alike.
func SummarizeDynamic(trials []alloc.DynamicResult, fixedBalls bool) map[string]Stat {
	out := map[string]Stat{}
	x := make([]float64, len(trials))
	for _, f := range dynamicFields {
		for i, r := range trials {
			x[i] = f.get(r)
		}
		s := analysis.SummarizeAtLeast(x, f.floor)
		if f.name == "balls" && fixedBalls {
			s.IntervalMethod, s.CI95 = analysis.IntervalNone, [2]float64{}
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
	fmt.Fprintln(w, "95% CI of the mean over the trials: exact from binomial tails where the trials' values are one apart and span at most 4, else Student t cut at the floor (— with one trial, or a value the model fixes)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "quantity\tmean\t95% CI\tmethod\tsd\tmin\tmax\t")
	for _, d := range dynamicFields {
		s := f.Summary.Stats[d.name]
		ci, method := "—", "—"
		if s.IntervalMethod != analysis.IntervalNone {
			ci, method = fmt.Sprintf("[%.4g, %.4g]", s.CI95[0], s.CI95[1]), s.IntervalMethod
		}
		fmt.Fprintf(tw, "%s\t%.4g\t%s\t%s\t%.3g\t%.4g\t%.4g\t\n", d.name, s.Mean, ci, method, s.Std, s.Min, s.Max)
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
