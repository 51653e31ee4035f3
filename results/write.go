package results

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/study"
)

// Formats are the formats Write takes.
var Formats = []string{"table", "csv", "json", "jsonl"}

// CheckFormat reports whether f is one of Formats.
func CheckFormat(f string) error {
	for _, g := range Formats {
		if f == g {
			return nil
		}
	}
	return fmt.Errorf("unknown format %q (allowed: %s)", f, strings.Join(Formats, ", "))
}

// Stream writes a file in JSON lines as the run goes: a config line, a line
// per trial, a summary line, each flushed as it is written so that an
// interrupted run leaves every finished trial behind.
type Stream struct {
	w *bufio.Writer
}

// NewStream returns a Stream writing to w.
func NewStream(w io.Writer) *Stream { return &Stream{bufio.NewWriter(w)} }

// Line writes the one-key object {key: v} as a line: the form of every
// line of a JSON-lines file (compare writes "point" lines with it).
func (s *Stream) Line(key string, v any) error {
	b, err := json.Marshal(map[string]any{key: v})
	if err != nil {
		return err
	}
	s.w.Write(b)
	s.w.WriteByte('\n')
	return s.w.Flush()
}

// Config writes the config line.
func (s *Stream) Config(c Config) error { return s.Line("config", c) }

// Summary writes the summary line.
func (s *Stream) Summary(sum Summary) error { return s.Line("summary", sum) }

// WriteJSON writes v as JSON indented by two spaces, as every JSON output
// of graphalloc is.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeLines writes a file as JSON lines: its config, a line under key
// for each of items, then its summary.
func writeLines[T any](w io.Writer, config any, key string, items []T, summary any) error {
	s := NewStream(w)
	if err := writeHead(s, config, key, items); err != nil {
		return err
	}
	return s.Line("summary", summary)
}

// Write writes f in a format of Formats: JSON, JSON lines, CSV (a row per
// trial, with the config columns) or a table for people.
func Write(w io.Writer, format string, f *File) error {
	switch format {
	case "jsonl":
		return writeLines(w, f.Config, "trial", f.Trials, f.Summary)
	case "json":
		if f.Trials == nil { // an empty shard: a list, as every reader expects
			empty := *f
			empty.Trials = []alloc.Result{}
			f = &empty
		}
		return WriteJSON(w, f)
	case "csv":
		return writeCSV(w, f)
	case "table":
		return writeTable(w, f)
	}
	return CheckFormat(format)
}

// configColumns are the columns that say which run a CSV row belongs to,
// so that the CSV files of many runs concatenate into one data frame (by
// column name: a batched run adds a last column, batch, which a frame reads
// as missing, one ball at a time, for the other runs). configHeader
// follows them with ProcessParams' columns: g and sigma, then memory, k
// and threshold in the files of the runs that have them.
var configColumns = []string{"process", "d", "n", "m", "graph", "sample", "ties", "seed", "beta", "cap", "weights"}

// configHeader is the config columns of c's rows.
func configHeader(c Config) []string {
	params, _ := c.cells(^alloc.Param(0))
	h := append(slices.Clone(configColumns), params...)
	if c.Batch > 1 {
		h = append(h, "batch")
	}
	return h
}

// configCells are c's values of configHeader(c).
func configCells(c Config) []string {
	cells := configCellsSequential(c)
	if c.Batch > 1 {
		cells = append(cells, strconv.FormatInt(c.Batch, 10))
	}
	return cells
}

// configCellsSequential are c's values of configHeader(c) but batch.
func configCellsSequential(c Config) []string {
	beta := ""
	if c.Beta != nil {
		beta = FormatFloat(*c.Beta)
	}
	capacity := ""
	if c.Cap != 0 {
		capacity = strconv.Itoa(c.Cap)
	}
	_, params := c.cells(^alloc.Param(0))
	return append([]string{c.Process, FormatFloat(c.D), strconv.FormatInt(c.N, 10), strconv.FormatInt(c.M, 10), c.Graph.String(),
		optText(c.Sample), c.Ties.String(), strconv.FormatUint(c.Seed, 10), beta, capacity, optText(c.Weights)}, params...)
}

// optText is the text of an optional field of a config, "" if it is
// absent.
func optText[T fmt.Stringer](v *T) string {
	if v == nil {
		return ""
	}
	return (*v).String()
}

// writeCSV writes a run as CSV, every row led by the config columns: a row
// per trial; or, with a series or a profile, the long format: a row per
// trial (statistic "trial"), a row per time and statistic (gap and
// spread: their mean, 95% interval and trials) and a row per level of the
// mean profile, each with the columns of every other (empty where they do
// not apply).
func writeCSV(w io.Writer, f *File) error {
	bw := bufio.NewWriter(w)
	cw := csv.NewWriter(bw)
	cfg := configCells(f.Config)
	row := func(cells ...string) { cw.Write(append(slices.Clone(cfg), cells...)) }
	s := f.Summary
	if len(s.Series) == 0 && len(s.Profile) == 0 {
		cw.Write(append(configHeader(f.Config), "trial", "max_load", "min_load", "gap", "probes", "max_probes"))
		for _, r := range f.Trials {
			row(strconv.Itoa(r.Trial), FormatFloat(r.MaxLoad), FormatFloat(r.MinLoad), FormatFloat(r.Gap),
				strconv.FormatInt(r.Probes, 10), strconv.FormatInt(r.MaxProbes, 10))
		}
	} else {
		// One long table: the per-trial rows (statistic "trial", the
		// trial's number in rank, its values in the trial columns), then
		// the series and the profile.
		cw.Write(append(configHeader(f.Config), "balls", "load", "statistic", "rank", "count", "mean", "ci_lo", "ci_hi", "trials",
			"max_load", "min_load", "gap", "probes", "max_probes"))
		m, load := strconv.FormatInt(f.Config.M, 10), FormatFloat(float64(f.Config.M)/float64(f.Config.N))
		for _, r := range f.Trials {
			row(m, load, "trial", strconv.Itoa(r.Trial), "", "", "", "", "1", FormatFloat(r.MaxLoad), FormatFloat(r.MinLoad), FormatFloat(r.Gap),
				strconv.FormatInt(r.Probes, 10), strconv.FormatInt(r.MaxProbes, 10))
		}
		for _, p := range s.Series {
			balls, load, t := strconv.FormatInt(p.Balls, 10), FormatFloat(p.Load), strconv.Itoa(p.Trials)
			glo, ghi := p.ciCells(p.GapCI)
			slo, shi := p.ciCells(p.SpreadCI)
			row(balls, load, "gap", "", "", FormatFloat(p.Gap), glo, ghi, t, "", "", "", "", "")
			row(balls, load, "spread", "", "", FormatFloat(p.Spread), slo, shi, t, "", "", "", "", "")
		}
		rank := int64(0)
		for _, l := range s.Profile {
			row(strconv.FormatInt(f.Config.M, 10), FormatFloat(float64(f.Config.M)/float64(f.Config.N)), "profile",
				strconv.FormatInt(rank, 10), strconv.FormatInt(l.Count, 10), FormatFloat(l.Value), "", "", strconv.Itoa(len(f.Trials)), "", "", "", "", "")
			rank += l.Count
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// FormatFloat prints x in the shortest form that reads back exactly.
func FormatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// formatLoad prints a whole load as an integer and a real one (weighted
// balls) to four decimals, for tables.
func formatLoad(x float64) string {
	if x == float64(int64(x)) {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'f', 4, 64)
}

func writeTable(out io.Writer, f *File) error {
	w := bufio.NewWriter(out)
	c, rs, s := f.Config, f.Trials, f.Summary
	fmt.Fprintf(w, "%s: n=%d m=%d (m/n=%.4g), ties=%s, seed=%d, %s\n\n",
		c.Label(), c.N, c.M, float64(c.M)/float64(c.N), c.Ties, c.Seed, analysis.Count(len(rs), "trial"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	moves := s.MovesPerBall != nil // a process whose balls walk
	head := "trial\tmax_load\tmin_load\tgap\tprobes/ball\t"
	if moves {
		head += "moves/ball\tmax_moves\t"
	}
	fmt.Fprintln(tw, head)
	for _, r := range rs {
		ppb, mpb := 0.0, 0.0
		if c.M > 0 {
			ppb = float64(r.Probes) / float64(c.M)
			mpb = float64(r.Moves) / float64(c.M)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.4f\t%.3f\t", r.Trial, formatLoad(r.MaxLoad), formatLoad(r.MinLoad), r.Gap, ppb)
		if moves {
			fmt.Fprintf(tw, "%.4f\t%d\t", mpb, r.MaxMoves)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintf(w, "max load: mean %.3f ± %.3f (95%% CI %s), distribution %s\n",
		s.MaxLoad.Mean, s.MaxLoad.Std, s.MaxLoad.Interval("%.3f"), FormatCounts(s.MaxLoad.Counts))
	fmt.Fprintf(w, "gap:      mean %.3f ± %.3f\n", s.Gap.Mean, s.Gap.Std)
	if m := intervalMethod(s.MaxLoad); m != "" {
		fmt.Fprintf(w, "interval: %s\n", m)
	}
	if moves {
		fmt.Fprintf(w, "moves:    %.4f per ball on average, at most %d for one ball\n", *s.MovesPerBall, *s.MaxMoves)
	}
	fmt.Fprint(w, "measured, load ≥ i (mean fraction):")
	if rs := trialsWithCounts(rs); len(rs) > 0 {
		for i, tail := range study.MeanTails(rs, c.N) {
			if i > 0 && tail > 0 && tail < 1 {
				fmt.Fprintf(w, "  %d: %.4g", i, tail)
			}
		}
	}
	fmt.Fprintln(w)
	if s.NoFluid != "" {
		fmt.Fprintf(w, "fluid limit: none (%s)\n", s.NoFluid)
	}
	if fl := s.Fluid; fl != nil {
		fmt.Fprintf(w, "fluid limit of %s (n → ∞), load ≥ i:", fl.Limit)
		for i, x := range fl.Tails {
			if i > 0 {
				fmt.Fprintf(w, "  %d: %.4g", i, x)
			}
		}
		fmt.Fprintf(w, "\nfluid prediction at this n: max load %d (P(max ≥ i) ≈ 1 − exp(−n s_i))\n", fl.PredMax)
	}
	if len(s.Bounds) > 0 {
		fmt.Fprintln(w, "\ntheory (explicit terms; O(1) constants unknown):")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		var kinds []string
		for _, b := range s.Bounds {
			value := "" // a bound with no value
			if b.Value != nil {
				value = fmt.Sprintf(" = %.3f", *b.Value)
			}
			base := ""
			if b.Base != "" {
				base = "(" + b.Base + ")"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s%s\t%s\n", b.Name, b.Kind, b.Formula, value, base)
			kinds = append(kinds, b.Kind)
		}
		tw.Flush()
		if analysis.HasAsymptotic(kinds...) {
			fmt.Fprintln(w, "  "+analysis.AsymptoticNote)
		}
	}
	writeSeriesTable(w, s)
	if len(s.NotApplicable) > 0 {
		fmt.Fprintln(w, "\nnot applicable here:")
		for _, b := range s.NotApplicable {
			fmt.Fprintf(w, "  %s: %s\n", b.Name, b.Reason)
		}
	}
	if len(s.ByDegree) > 0 {
		WriteDegreeTable(w, DegreeClasses(s.ByDegree))
	}
	return w.Flush()
}

// trialsWithCounts returns rs if its trials have load counts (not weighted
// balls), else nil.
func trialsWithCounts(rs []alloc.Result) []alloc.Result {
	for _, r := range rs {
		if r.LoadCounts == nil {
			return nil
		}
	}
	return rs
}

// FormatCounts prints a distribution {"4": 7, "5": 3} as "4:7 5:3", in
// increasing numeric order.
func FormatCounts(c map[string]int) string {
	type kv struct {
		v float64
		k string
	}
	var ks []kv
	for k := range c {
		v, _ := strconv.ParseFloat(k, 64)
		ks = append(ks, kv{v, k})
	}
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j].v < ks[j-1].v; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	var b strings.Builder
	for i, e := range ks {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s:%d", e.k, c[e.k])
	}
	return b.String()
}

// intervalMethod says in words how the max load's interval was computed
// (analysis.Summary.IntervalMethod, named as JSON names it), for the
// table; "" without one.
func intervalMethod(st Stat) string {
	switch st.IntervalMethod {
	case analysis.IntervalBinomialTails:
		return "the 95% CI of the mean max load is exact, from binomial tails (binomial-tails)"
	case analysis.IntervalStudentT:
		return "the 95% CI of the mean max load is Student's t, mean ± t·sd/√trials, cut at the floor (student-t)"
	}
	return ""
}
