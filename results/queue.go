package results

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/queue"
)

// The file of `graphalloc queue`: the supermarket model's config, its
// trials (queue.Trial) and a summary with the predictions, in the formats
// of Formats. JSON lines are a config line, a line per trial and a summary
// line, as a run's.

// QueueConfig says what ran.
type QueueConfig struct {
	Process string  `json:"process"` // greedy, one-choice or graph
	D       int     `json:"d"`
	N       int64   `json:"n"`
	Lambda  float64 `json:"lambda"`
	Time    float64 `json:"time"`
	// Warmup is "auto" (MSER) or the warm-up asked for, in time units.
	Warmup  string  `json:"warmup"`
	Graph   string  `json:"graph,omitempty"`
	Sample  string  `json:"sample"` // uniform, edge or vertex
	Engine  string  `json:"engine"`
	Start   string  `json:"start"`
	Batches int     `json:"batches"`
	Every   float64 `json:"every,omitempty"`
	Seed    uint64  `json:"seed"`
	Trials  int     `json:"trials"`
	// Shard is "I/K" for a file of shard I of K of the trials (queue
	// --shard), "" for the whole run.
	Shard   string `json:"shard,omitempty"`
	Version string `json:"version"`
}

// QueueSummary is the summary of the trials (queue.Summarize) with the
// predictions for the run.
type QueueSummary struct {
	queue.Summary
	Predictions []queue.Prediction `json:"predictions"`
	// ODE is the mean-field trajectory at the series' times, beside the
	// measured series, where the queues are exchangeable and start empty.
	ODE []queue.Point `json:"ode,omitempty"`
}

// QueueFile is a whole output.
type QueueFile struct {
	Config  QueueConfig   `json:"config"`
	Trials  []queue.Trial `json:"trials"`
	Summary QueueSummary  `json:"summary"`
}

// SummarizeQueue summarises trials with the predictions and, if not nil,
// the ODE's trajectory.
func SummarizeQueue(trials []queue.Trial, preds []queue.Prediction, ode []queue.Point) QueueSummary {
	return QueueSummary{Summary: queue.Summarize(trials), Predictions: preds, ODE: ode}
}

// WriteQueue writes f in a format of Formats.
func WriteQueue(w io.Writer, format string, f *QueueFile) error {
	switch format {
	case "json":
		b, err := json.MarshalIndent(f, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	case "jsonl":
		s := NewStream(w)
		if err := s.Line("config", f.Config); err != nil {
			return err
		}
		for _, t := range f.Trials {
			if err := s.Line("trial", t); err != nil {
				return err
			}
		}
		return s.Line("summary", f.Summary)
	case "csv":
		return writeQueueCSV(w, f)
	}
	return writeQueueTable(w, f)
}

// queueTailColumns is the number of s_i columns of the CSV: the levels
// any trial reached.
func queueTailColumns(f *QueueFile) int {
	k := 0
	for _, t := range f.Trials {
		k = max(k, len(t.Tails))
	}
	return k
}

// writeQueueCSV writes a row per trial.
func writeQueueCSV(w io.Writer, f *QueueFile) error {
	cw := csv.NewWriter(w)
	head := []string{"trial", "process", "d", "n", "lambda", "time", "sample", "engine", "seed", "events", "warmup", "warmup_rule",
		"mean_queue", "mean_queue_lo", "mean_queue_hi", "mean_sojourn", "mean_sojourn_lo", "mean_sojourn_hi", "max_queue"}
	k := queueTailColumns(f)
	for i := 1; i <= k; i++ {
		head = append(head, fmt.Sprintf("s%d", i))
	}
	cw.Write(head)
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	c := f.Config
	for _, t := range f.Trials {
		row := []string{strconv.Itoa(t.Trial), c.Process, strconv.Itoa(c.D), strconv.FormatInt(c.N, 10), g(c.Lambda), g(c.Time), c.Sample, c.Engine,
			strconv.FormatUint(c.Seed, 10), strconv.FormatInt(t.Events, 10), g(t.Warmup), t.WarmupRule,
			g(t.MeanQueue.Mean), g(t.MeanQueue.CI95[0]), g(t.MeanQueue.CI95[1]),
			g(t.MeanSojourn.Mean), g(t.MeanSojourn.CI95[0]), g(t.MeanSojourn.CI95[1]), strconv.Itoa(t.MaxQueue)}
		for i := range k {
			v := 0.0
			if i < len(t.Tails) {
				v = t.Tails[i].Mean
			}
			row = append(row, g(v))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// QueueTitle is the one-line description of a run.
func QueueTitle(c QueueConfig) string {
	what := fmt.Sprintf("%s d=%d", c.Process, c.D)
	if c.Process == (alloc.Graphical{}).Name() {
		what = fmt.Sprintf("graph %s, %s sampling, d=%d", c.Graph, c.Sample, c.D)
	}
	return fmt.Sprintf("supermarket model, %s: n=%d, λ=%g, time %g, seed=%d, %d trials, engine %s, start %s",
		what, c.N, c.Lambda, c.Time, c.Seed, c.Trials, c.Engine, c.Start)
}

// writeQueueTable writes the table for people: the measurements with their
// intervals beside each prediction that applies, then those that do not
// and why.
func writeQueueTable(w io.Writer, f *QueueFile) error {
	s := f.Summary
	fmt.Fprintln(w, QueueTitle(f.Config))
	if len(f.Trials) == 0 {
		fmt.Fprintln(w, "no trial finished")
		return nil
	}
	fmt.Fprintf(w, "warm-up: %s; window [warm-up, %g]; intervals: %s\n\n", warmupLine(f), f.Config.Time, s.Interval)
	var preds []queue.Prediction
	for _, p := range s.Predictions {
		if p.Applies {
			preds = append(preds, p)
		}
	}
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', tabwriter.AlignRight)
	head := "quantity\tmeasured\t95% CI\t"
	for _, p := range preds {
		head += fmt.Sprintf("%s [%s]\t", p.Name, p.Kind)
	}
	fmt.Fprintln(tw, head)
	row := func(name string, e queue.Estimate, pred func(queue.Prediction) (float64, bool)) {
		line := fmt.Sprintf("%s\t%.5g\t[%.5g, %.5g]\t", name, e.Mean, e.CI95[0], e.CI95[1])
		for _, p := range preds {
			if v, ok := pred(p); ok {
				line += fmt.Sprintf("%.5g\t", v)
			} else {
				line += "-\t"
			}
		}
		fmt.Fprintln(tw, line)
	}
	row("mean queue", s.MeanQueue, func(p queue.Prediction) (float64, bool) { return p.MeanQueue, true })
	row("mean sojourn (Little)", s.MeanSojourn, func(p queue.Prediction) (float64, bool) { return p.MeanSojourn, true })
	for i, e := range s.Tails {
		row(fmt.Sprintf("s_%d", i+1), e, func(p queue.Prediction) (float64, bool) {
			if i+1 < len(p.Tails) {
				return p.Tails[i+1], true
			}
			return 0, false
		})
	}
	tw.Flush()
	fmt.Fprintf(w, "\nmax queue over the window: %s\n", maxQueueLine(s))
	fmt.Fprintln(w, "s_i: time-averaged fraction of queues holding at least i jobs; mean sojourn = mean queue / λ.")
	for _, p := range preds {
		fmt.Fprintf(w, "%s (%s, %s): %s\n", p.Name, p.Kind, p.Source, p.Regime)
	}
	for _, p := range s.Predictions {
		if !p.Applies {
			fmt.Fprintf(w, "not shown: %s [%s]: %s\n", p.Name, p.Source, p.Reason)
		}
	}
	return writeQueueSeries(w, f)
}

// warmupLine says how long the warm-up was and how it was chosen.
func warmupLine(f *QueueFile) string {
	s := f.Summary
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range s.Warmup {
		lo, hi = min(lo, x), max(hi, x)
	}
	span := fmt.Sprintf("%.4g", lo)
	if hi > lo {
		span = fmt.Sprintf("%.4g to %.4g", lo, hi)
	}
	step := f.Config.Time / float64(f.Config.Batches)
	switch s.WarmupRule {
	case "given":
		return fmt.Sprintf("%s time units as given (rounded up to whole batches of %.4g)", span, step)
	case "mser-edge":
		return fmt.Sprintf("%s time units, chosen by MSER at the edge of its search: the run may not have reached its steady state, run longer", span)
	}
	return fmt.Sprintf("%s time units, chosen by MSER on the batches of %.4g time units", span, step)
}

// maxQueueLine is the longest queue over the trials.
func maxQueueLine(s QueueSummary) string {
	if s.MaxQueue[0] == s.MaxQueue[2] {
		return fmt.Sprintf("%g in every trial", s.MaxQueue[0])
	}
	return fmt.Sprintf("%g to %g (mean %.3g over the trials)", s.MaxQueue[0], s.MaxQueue[2], s.MaxQueue[1])
}

// writeQueueSeries writes the first trial's series beside the ODE, if any.
func writeQueueSeries(w io.Writer, f *QueueFile) error {
	if len(f.Trials[0].Series) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nseries of trial %d (the state at each time)", f.Trials[0].Trial)
	if len(f.Summary.ODE) > 0 {
		fmt.Fprint(w, ", beside the mean-field ODE from empty (limit n → ∞)")
	}
	fmt.Fprintln(w, ":")
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', tabwriter.AlignRight)
	head := []string{"t", "mean queue", "s_1", "s_2", "s_3", "max queue"}
	if len(f.Summary.ODE) > 0 {
		head = append(head, "ODE mean", "ODE s_1", "ODE s_2", "ODE s_3")
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for i, p := range f.Trials[0].Series {
		line := fmt.Sprintf("%g\t%.4f\t%.4f\t%.4f\t%.4f\t%d\t", p.T, p.Mean, p.S[0], p.S[1], p.S[2], p.Max)
		if i < len(f.Summary.ODE) {
			o := f.Summary.ODE[i]
			line += fmt.Sprintf("%.4f\t%.4f\t%.4f\t%.4f\t", o.Mean, o.S[0], o.S[1], o.S[2])
		}
		fmt.Fprintln(tw, line)
	}
	return tw.Flush()
}

// QueueSummaryOf summarises the trials of c with the predictions for c on
// its graph, built from spec (summarizeQueue).
func QueueSummaryOf(c *queue.Config, spec graphgen.Spec, trials []queue.Trial) QueueSummary {
	var g queue.Graph
	if c.Graph != nil {
		g = queue.Describe(spec, c.Graph)
	}
	return summarizeQueue(c, queue.Predictions(c, g, trials), trials)
}

// summarizeQueue summarises the trials of c with the predictions preds and
// the mean-field ODE beside the series when the servers are exchangeable
// (uniform sampling or K_n) and start empty.
func summarizeQueue(c *queue.Config, preds []queue.Prediction, trials []queue.Trial) QueueSummary {
	var ode []queue.Point
	if len(trials) > 0 && len(trials[0].Series) > 0 && c.Start == queue.StartEmpty && c.Exchangeable() {
		times := make([]float64, len(trials[0].Series))
		for i, p := range trials[0].Series {
			times[i] = p.T
		}
		ode = queue.ODE(c.Lambda, c.Choices(), times)
	}
	return SummarizeQueue(trials, preds, ode)
}
