package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/study"
)

const compareHelp = `Usage: graphalloc compare [flags]

Run a grid of topologies × processes × sizes, T trials per point, and print
one row per point: the topology, n, its degrees (min/mean/max), the process,
the mean max load with its 95% confidence interval and distribution, the
mean gap, the fluid-limit prediction where there is one, and the bounds that
apply. A point's row is exactly what 'graphalloc run' gives for the same
process, graph, n, m, trials and seed (the graph is built once per (SPEC, n)
from --seed, as run builds it). Processes that use no graph run once per n.

With no flags it runs the default study: two-choice on random regular graphs
of degree 4, 16 and ⌈n^0.5⌉, a non-regular graph of minimum degree 16 with a
dense core, the cycle and the complete graph; n = m = 2^16; 20 trials.

Examples:
  graphalloc compare                                    # the default study
  graphalloc compare -n 2^10..2^18 --plot compare.svg   # a sweep of n, plotted
  graphalloc compare -g cycle -g 'regular:degree=8' -n 2^12,2^14 -t 50
  graphalloc compare --graphs 'torus:dim=2;hypercube' -n 2^16 -f csv
  graphalloc compare -p one-choice,greedy,left -d 3 -n 2^20 -m 16n -f jsonl

Flags:
`

type compareOptions struct {
	pf                             processFlags
	graphs                         []string
	graphList, bins, balls, format string
	output, shard, plot            string
	trials, workers                int
	seed                           uint64
}

func cmdCompare(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	var o compareOptions
	fs := pflag.NewFlagSet("compare", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stdout, compareHelp)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
	}
	fs.StringArrayVarP(&o.graphs, "graph", "g", nil, "a topology SPEC for -p graph; repeat for several (a SPEC may contain commas)")
	fs.StringVar(&o.graphList, "graphs", "", "topologies as a ';'-separated list: 'cycle;regular:degree=8'")
	o.pf.add(fs, "graph", "processes, comma-separated: "+processList())
	fs.StringVarP(&o.bins, "bins", "n", "2^16", "sizes n: a list 2^10,2^12, or a range 2^10..2^20 (n, 2n, 4n, … up to the end)")
	fs.StringVarP(&o.balls, "balls", "m", "n", "balls m per point: a count (1e6) or a multiple of n (n, 16n)")
	fs.IntVarP(&o.trials, "trials", "t", study.DefaultTrials, "trials per grid point")
	fs.Uint64VarP(&o.seed, "seed", "s", 1, "base seed: graphs and trials derive from it as in run")
	fs.IntVarP(&o.workers, "workers", "w", 0, "trials run in parallel (0: one per CPU); never changes results")
	fs.StringVarP(&o.format, "format", "f", "table", "output format: table, csv, json, jsonl (one line per point as it finishes)")
	fs.StringVarP(&o.output, "output", "o", "", "write results to FILE (atomically) instead of stdout")
	fs.StringVar(&o.shard, "shard", "", "run only the grid points i with i mod K = I, as I/K")
	fs.StringVar(&o.plot, "plot", "", "also draw the results to FILE.svg or FILE.png")
	fs.SortFlags = false
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usagef("compare: unexpected argument %q", fs.Arg(0))
	}
	return o.run(ctx, fs, stdout, stderr)
}

// compareConfig is the "config" object of compare's JSON output.
type compareConfig struct {
	Graphs    []string `json:"graphs,omitempty"`
	Processes []string `json:"processes"`
	Ns        []int    `json:"n"`
	M         string   `json:"m"`
	D         float64  `json:"d"`
	Beta      float64  `json:"beta,omitempty"`
	Cap       int      `json:"cap,omitempty"`
	Weights   string   `json:"weights,omitempty"`
	Ties      string   `json:"ties,omitempty"`
	Sample    string   `json:"sample,omitempty"`
	Trials    int      `json:"trials"`
	Seed      uint64   `json:"seed"`
	Shard     string   `json:"shard,omitempty"`
	Version   string   `json:"version"`
}

func (o *compareOptions) grid(fs *pflag.FlagSet) (study.Grid, compareConfig, error) {
	var g study.Grid
	var cfg compareConfig
	switch o.format {
	case "table", "csv", "json", "jsonl":
	default:
		return g, cfg, usagef("--format: unknown format %q (allowed: table, csv, json, jsonl)", o.format)
	}
	if o.trials < 1 {
		return g, cfg, usagef("--trials: need at least 1 trial, got %d", o.trials)
	}
	if o.plot != "" {
		if _, err := plotFormat(o.plot); err != nil {
			return g, cfg, err
		}
	}
	descs, err := o.pf.descriptors()
	if err != nil {
		return g, cfg, err
	}
	usesGraph := false
	for _, d := range descs {
		g.Processes = append(g.Processes, d.Name)
		usesGraph = usesGraph || d.Uses&alloc.ParamGraph != 0
	}
	g.Graphs = append(g.Graphs, o.graphs...)
	for s := range strings.SplitSeq(o.graphList, ";") {
		if s = strings.TrimSpace(s); s != "" {
			g.Graphs = append(g.Graphs, s)
		}
	}
	if len(g.Graphs) > 0 && !usesGraph {
		return g, cfg, usagef("--graph applies only to -p %s, not to -p %s", users(alloc.ParamGraph), o.pf.process)
	}
	if usesGraph && len(g.Graphs) == 0 {
		g.Graphs = slices.Clone(study.DefaultGraphs)
	}
	ns, err := parseSizes(o.bins)
	if err != nil {
		return g, cfg, usagef("--bins: %v", err)
	}
	g.Ns = ns
	// m per n: checked once here so that a bad -m fails before any work.
	if _, err := parseCount(o.balls, int64(ns[0])); err != nil {
		return g, cfg, usagef("--balls: %v", err)
	}
	balls := o.balls
	g.Balls = func(n int) int64 {
		m, _ := parseCount(balls, int64(n))
		return m
	}
	for _, n := range ns {
		if _, err := parseCount(balls, int64(n)); err != nil {
			return g, cfg, usagef("--balls: %v at n=%d", err, n)
		}
	}
	if g.Params, err = o.pf.params(fs, descs); err != nil {
		return g, cfg, err
	}
	if err := checkParams(descs, g.Params); err != nil {
		return g, cfg, err
	}
	g.TiesSet = fs.Changed("ties")
	g.Trials, g.Seed, g.Workers = o.trials, o.seed, o.workers
	if o.shard != "" {
		is, ks, ok := strings.Cut(o.shard, "/")
		i, e1 := strconv.Atoi(is)
		k, e2 := strconv.Atoi(ks)
		if !ok || e1 != nil || e2 != nil || k < 1 || i < 0 || i >= k {
			return g, cfg, usagef("--shard: want I/K with 0 <= I < K, got %q", o.shard)
		}
		g.Shard.Index, g.Shard.Of = i, k
	}
	if err := g.Check(); err != nil {
		return g, cfg, usageError{err}
	}
	cfg = compareConfig{
		Processes: g.Processes, Ns: g.Ns, M: o.balls, D: g.Params.D, Trials: g.Trials, Seed: g.Seed,
		Shard: o.shard, Version: Version,
	}
	if usesGraph {
		cfg.Graphs = g.Graphs
		cfg.Sample = g.Params.Sample.String()
	}
	if g.TiesSet {
		cfg.Ties = g.Params.Ties.String()
	}
	for _, d := range descs {
		if d.Uses&alloc.ParamBeta != 0 {
			cfg.Beta = g.Params.Beta
		}
		if d.Uses&alloc.ParamCap != 0 {
			cfg.Cap = g.Params.Cap
		}
		if d.Uses&alloc.ParamWeights != 0 {
			cfg.Weights = o.pf.weights
		}
	}
	return g, cfg, nil
}

func (o *compareOptions) run(ctx context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) error {
	g, cfg, err := o.grid(fs)
	if err != nil {
		return err
	}
	// Progress: the grid's trials and balls; graph building is not counted.
	var totalBalls int64
	pts := g.Points()
	for _, pt := range pts {
		totalBalls += g.Balls(pt.N) * int64(g.Trials)
	}
	bar := newProgress(stderr, "compare", len(pts)*g.Trials, totalBalls)
	defer bar.done()
	g.Progress = func(t, _ int, b, _ int64) { bar.set(t, b) }
	g.Building = func(spec string, n int) {
		if spec == "" {
			bar.status("")
		} else {
			bar.status(fmt.Sprintf("building %s at n=%d", spec, n))
		}
	}

	var stream *bufio.Writer
	var streamFile *os.File
	if o.format == "jsonl" {
		w := stdout
		if o.output != "" {
			if streamFile, err = os.Create(o.output); err != nil {
				return err
			}
			defer streamFile.Close()
			w = streamFile
		}
		stream = bufio.NewWriter(w)
		if err := writeJSONLine(stream, map[string]any{"config": cfg}); err != nil {
			return err
		}
	}
	var rows []study.Row
	skipped, err := study.Run(ctx, g, func(r study.Row) error {
		rows = append(rows, r)
		if stream != nil {
			return writeJSONLine(stream, map[string]any{"point": r})
		}
		return nil
	}, func(note string) {
		bar.note(stderr, "graphalloc: "+note)
	})
	bar.done()
	var skips []string
	for _, e := range skipped {
		skips = append(skips, e.Error())
		if err == nil {
			fmt.Fprintf(stderr, "graphalloc: skipped %s\n", e)
		}
	}
	if err != nil {
		if stream != nil {
			stream.Flush()
		}
		var be *study.BuildError
		switch {
		case errors.As(err, &be):
			return usageError{fmt.Errorf("--graph %w", err)}
		case errors.Is(err, context.Canceled):
			return fmt.Errorf("interrupted after %d of %d grid points", len(rows), len(pts))
		}
		return err
	}
	if o.plot != "" {
		if err := writePlot(o.plot, rows); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	switch o.format {
	case "jsonl":
		sum := map[string]any{"points": len(rows)}
		if len(skips) > 0 {
			sum["skipped"] = skips
		}
		if err := writeJSONLine(stream, map[string]any{"summary": sum}); err != nil {
			return err
		}
		if err := stream.Flush(); err != nil {
			return err
		}
		if streamFile != nil {
			return streamFile.Close()
		}
		return nil
	case "json":
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		out := map[string]any{"config": cfg, "points": rows}
		if len(skips) > 0 {
			out["skipped"] = skips
		}
		if err := enc.Encode(out); err != nil {
			return err
		}
	case "csv":
		if err := writeCompareCSV(&buf, rows); err != nil {
			return err
		}
	default:
		writeCompareTable(&buf, cfg, rows, skips)
	}
	return writeOutput(stdout, o.output, buf.Bytes())
}

// parseSizes parses -n: comma-separated counts and ranges A..B, a range
// being A, 2A, 4A, … up to B (the powers of two between when A is one).
// Every count, and both ends of a range, must lie in [1, graphgen.MaxOrder],
// the bins the per-bin engine of compare holds; outside it is an error.
// The result is sorted, without repeats.
func parseSizes(s string) ([]int, error) {
	size := func(t string) (int64, error) {
		v, err := parseCount(t, 0)
		if err == nil && (v < 1 || v > graphgen.MaxOrder) {
			what := strings.TrimSpace(t)
			if what != strconv.FormatInt(v, 10) {
				what += " = " + strconv.FormatInt(v, 10)
			}
			err = fmt.Errorf("%s is out of range: need 1 <= n <= %d (2^32-1)", what, int64(graphgen.MaxOrder))
		}
		return v, err
	}
	var ns []int
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if a, b, ok := strings.Cut(item, ".."); ok {
			lo, err := size(a)
			if err != nil {
				return nil, err
			}
			hi, err := size(b)
			if err != nil {
				return nil, err
			}
			if hi < lo {
				return nil, fmt.Errorf("range %q needs start <= end", item)
			}
			for v := lo; v <= hi; v *= 2 {
				ns = append(ns, int(v))
				if v > hi/2 {
					break
				}
			}
			continue
		}
		v, err := size(item)
		if err != nil {
			return nil, err
		}
		ns = append(ns, int(v))
	}
	if len(ns) == 0 {
		return nil, fmt.Errorf("no size given in %q", s)
	}
	slices.Sort(ns)
	return slices.Compact(ns), nil
}

func plotFormat(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg":
		return "svg", nil
	case ".png":
		return "png", nil
	}
	return "", usagef("--plot: %q: the file must end in .svg or .png", path)
}

// writePlot draws rows to path atomically (temporary file, then rename).
func writePlot(path string, rows []study.Row) error {
	format, err := plotFormat(path)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := study.Plot(&buf, rows, format); err != nil {
		return err
	}
	if err := writeOutput(nil, path, buf.Bytes()); err != nil {
		return err
	}
	// The temporary file was private (0600); an image is for sharing.
	return os.Chmod(path, 0o644)
}

// boundLegend assigns letters to the bounds of rows in order of first
// appearance.
type boundLegend struct {
	names []string
	info  map[string]analysis.Bound
}

// letter returns b's letter; bounds are told apart by process and name
// (two processes may cite one paper for different formulas).
func (l *boundLegend) letter(b analysis.Bound) string {
	if l.info == nil {
		l.info = map[string]analysis.Bound{}
	}
	key := b.Process + "\x00" + b.Name
	i := slices.Index(l.names, key)
	if i < 0 {
		i = len(l.names)
		l.names = append(l.names, key)
		l.info[key] = b
	}
	if i < 26 {
		return string(rune('a' + i))
	}
	return fmt.Sprintf("b%d", i)
}

func fmtDegrees(d *study.Degrees) string {
	if d == nil {
		return "-"
	}
	return fmt.Sprintf("%d/%s/%d", d.Min, strconv.FormatFloat(math.Round(d.Mean*100)/100, 'f', -1, 64), d.Max)
}

func describeM(m string) string {
	m = strings.TrimSpace(m)
	if strings.HasSuffix(m, "n") {
		return "m = " + m
	}
	return "m = " + m + " balls"
}

func writeCompareTable(w io.Writer, c compareConfig, rows []study.Row, skipped []string) {
	extra := ""
	if c.Sample != "" {
		extra = ", " + c.Sample + " sampling"
	}
	if c.Ties != "" {
		extra += ", ties " + c.Ties
	}
	fmt.Fprintf(w, "compare: %s, %d trials per point, seed %d%s\n", describeM(c.M), c.Trials, c.Seed, extra)
	fmt.Fprintf(w, "max load: mean and 95%% CI over the trials; fluid: the max load the fluid limit predicts at this n\n\n")
	var legend boundLegend
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "topology\tn\tΔ min/mean/max\tprocess\tmax load\t95% CI\tdistribution\tgap\tfluid\tbounds")
	for _, r := range rows {
		topo := r.Topology
		if topo == "" {
			topo = "-"
		}
		fluid := "-"
		if r.Fluid != nil {
			fluid = strconv.Itoa(r.Fluid.PredictedMaxLoad)
		}
		var bs []string
		for _, b := range r.Bounds {
			bs = append(bs, legend.letter(b)+" "+b.Short("%.2f"))
		}
		bounds := "-"
		if len(bs) > 0 {
			bounds = strings.Join(bs, ", ")
		}
		dist := fmtCounts(r.MaxLoad.Counts)
		if dist == "" {
			dist = "-"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%.3f\t[%.3f, %.3f]\t%s\t%.3f\t%s\t%s\n",
			topo, r.N, fmtDegrees(r.Degree), processLabel(r, alloc.Params{Beta: c.Beta, Cap: c.Cap}), r.MaxLoad.Mean, r.MaxLoad.CI95[0], r.MaxLoad.CI95[1],
			dist, r.Gap.Mean, fluid, bounds)
	}
	tw.Flush()
	if len(legend.names) > 0 {
		procs := map[string]bool{}
		for _, key := range legend.names {
			procs[legend.info[key].Process] = true
		}
		// The bounds that hold for the row's setting, then the references
		// (worst cases some other graph attains), each under its heading.
		for _, ref := range []bool{false, true} {
			head := "\nbounds that apply (explicit terms, O(·) constants unknown; ≤ upper, ≥ lower, ≈ leading term, O Ω Θ order only; each on its own quantity):"
			if ref {
				head = "\nreference, " + analysis.WorstRegularLabel + "; not a bound for the row's graph:"
			}
			tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			for _, key := range legend.names {
				b := legend.info[key]
				if (b.Kind == analysis.KindReference) != ref {
					continue
				}
				if head != "" {
					fmt.Fprintln(w, head)
					head = ""
				}
				base := ""
				if b.Base != "" {
					base = " (" + b.Base + ")"
				}
				name := b.Name
				if len(procs) > 1 {
					name = b.Process + ": " + name
				}
				fmt.Fprintf(tw, "  %s\t%s\t%s%s\n", legend.letter(b), name, b.Formula, base)
			}
			tw.Flush()
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintln(w, "\nskipped (the graph cannot be built there):")
		for _, s := range skipped {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
}

// processLabel is the label of the process of row r (its String, as in
// every other output).
func processLabel(r study.Row, p alloc.Params) string {
	d, err := alloc.Lookup(r.Process)
	if err != nil {
		return r.Process
	}
	p.D = r.D
	return describe(d, p)
}

func writeCompareCSV(w io.Writer, rows []study.Row) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"topology", "n", "m", "edges", "deg_min", "deg_mean", "deg_max", "process", "d", "sample", "trials", "seed",
		"max_load_mean", "max_load_std", "max_load_ci_lo", "max_load_ci_hi", "max_load_dist", "gap_mean", "gap_std", "fluid_max_load", "bounds"})
	for _, r := range rows {
		var dmin, dmean, dmax, edges string
		if r.Degree != nil {
			dmin, dmean, dmax = strconv.Itoa(r.Degree.Min), fmtFloat(r.Degree.Mean), strconv.Itoa(r.Degree.Max)
			edges = strconv.FormatInt(r.Edges, 10)
		}
		fluid := ""
		if r.Fluid != nil {
			fluid = strconv.Itoa(r.Fluid.PredictedMaxLoad)
		}
		var bs []string
		for _, b := range r.Bounds {
			v := b.Short("")
			if !b.NoValue {
				v = b.Mark() + " " + fmtFloat(b.Value)
			}
			bs = append(bs, b.Name+" "+v)
		}
		cw.Write([]string{r.Topology, strconv.FormatInt(r.N, 10), strconv.FormatInt(r.M, 10), edges, dmin, dmean, dmax,
			r.Process, fmtFloat(r.D), r.Sample, strconv.Itoa(r.Trials), strconv.FormatUint(r.Seed, 10),
			fmtFloat(r.MaxLoad.Mean), fmtFloat(r.MaxLoad.Std), fmtFloat(r.MaxLoad.CI95[0]), fmtFloat(r.MaxLoad.CI95[1]),
			fmtCounts(r.MaxLoad.Counts), fmtFloat(r.Gap.Mean), fmtFloat(r.Gap.Std), fluid, strings.Join(bs, "; ")})
	}
	cw.Flush()
	return cw.Error()
}
