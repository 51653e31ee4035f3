package results

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/study"
)

// GridConfig is the "config" object of a grid's file (graphalloc compare).
type GridConfig struct {
	Graphs    []string `json:"graphs,omitempty"` // the topologies as given
	Processes []string `json:"processes"`
	Ns        []int    `json:"n"`
	M         string   `json:"m"`
	D         float64  `json:"d"`
	Beta      float64  `json:"beta,omitempty"`
	// GraphBeta: the graph process ran as graphical (1+β) with Beta
	// (--beta given); otherwise it ran two-choice whatever Beta says.
	GraphBeta bool              `json:"graph_beta,omitempty"`
	Cap       int               `json:"cap,omitempty"`
	Weights   *alloc.WeightDist `json:"weights,omitempty"`
	ProcessParams
	Ties    *alloc.Ties     `json:"ties,omitempty"`
	Sample  *alloc.Sampling `json:"sample,omitempty"`
	Trials  int             `json:"trials"`
	Seed    uint64          `json:"seed"`
	Shard   string          `json:"shard,omitempty"`
	Version string          `json:"version"`
	// Batch is the batch size of a batched grid, omitted for one ball at
	// a time.
	Batch int64 `json:"batch,omitempty"`
}

// NewGridConfig is the config of grid g, whose -m was balls (the caller
// sets the shard and the version): its parameters as the processes of the
// grid read them.
func NewGridConfig(g study.Grid, balls string) GridConfig {
	c := GridConfig{Processes: g.Processes, Ns: g.Ns, M: balls, D: g.Params.D, Trials: g.Trials, Seed: g.Seed}
	if g.Batch > 1 {
		c.Batch = g.Batch
	}
	if g.TiesSet {
		c.Ties = &g.Params.Ties
	}
	for _, name := range g.Processes {
		d, err := alloc.Lookup(name)
		if err != nil {
			continue
		}
		if d.Uses&alloc.ParamGraph != 0 {
			c.Graphs = nil
			for _, sp := range g.Graphs {
				c.Graphs = append(c.Graphs, sp.Given())
			}
		}
		if d.Uses&alloc.ParamSample != 0 {
			c.Sample = &g.Params.Sample
		}
		if b, ok := d.BetaOf(g.Params); ok {
			c.Beta = b
			c.GraphBeta = c.GraphBeta || d.Uses&alloc.ParamGraph != 0
		}
		if d.Uses&alloc.ParamCap != 0 {
			c.Cap = g.Params.Cap
		}
		if d.Uses&alloc.ParamWeights != 0 {
			c.Weights = &g.Params.Weights
		}
		c.record(d.Uses, g.Params)
	}
	return c
}

// params returns the process parameters c records (besides d).
func (c GridConfig) params() alloc.Params {
	p := alloc.Params{Beta: c.Beta, Cap: c.Cap}
	c.apply(&p)
	return p
}

// Grid is a grid's output: its config, a row per point in the grid's
// order, and the points that could not be built.
type Grid struct {
	Config  GridConfig  `json:"config"`
	Points  []study.Row `json:"points"`
	Skipped []string    `json:"skipped,omitempty"`
}

// WriteGrid writes g as JSON, JSON lines (as compare -f jsonl streams
// them), CSV (a row per point) or a table.
func WriteGrid(w io.Writer, format string, g *Grid) error {
	switch format {
	case "jsonl":
		return writeLines(w, g.Config, "point", g.Points, GridSummary{Points: len(g.Points), Skipped: g.Skipped})
	case "json":
		if g.Points == nil { // an empty shard: a list, as every reader expects
			empty := *g
			empty.Points = []study.Row{}
			g = &empty
		}
		return WriteJSON(w, g)
	case "csv":
		return writeGridCSV(w, g.Config, g.Points)
	case "table":
		writeGridTable(w, g.Config, g.Points, g.Skipped)
		return nil
	}
	return CheckFormat(format)
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

func writeGridTable(w io.Writer, c GridConfig, rows []study.Row, skipped []string) {
	extra := ""
	if c.Sample != nil {
		extra = ", " + c.Sample.String() + " sampling"
	}
	if c.Ties != nil {
		extra += ", ties " + c.Ties.String()
	}
	if c.Batch > 1 {
		extra += fmt.Sprintf(", batches of %d", c.Batch)
	}
	fmt.Fprintf(w, "compare: %s, %s per point, seed %d%s\n", describeM(c.M), analysis.Count(c.Trials, "trial"), c.Seed, extra)
	fmt.Fprintf(w, "max load: mean and 95%% CI over the trials; fluid: the max load the fluid limit predicts at this n\n")
	fmt.Fprintf(w, "intervals: exact, from binomial tails, where a point's max loads are whole numbers spanning at most %d; else Student's t\n\n",
		analysis.MaxExactSpan)
	var legend boundLegend
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "topology\tn\tdegree min/mean/max\tprocess\tmax load\t95% CI\tdistribution\tgap\tfluid\tbounds")
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
		dist := FormatCounts(r.MaxLoad.Counts)
		if dist == "" {
			dist = "-"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%.3f\t%s\t%s\t%.3f\t%s\t%s\n",
			topo, r.N, fmtDegrees(r.Degree), processLabel(r, c.params()), r.MaxLoad.Mean, r.MaxLoad.Interval("%.3f"),
			dist, r.Gap.Mean, fluid, bounds)
	}
	tw.Flush()
	writeNoFluid(w, rows)
	if len(legend.names) > 0 {
		procs := map[string]bool{}
		for _, key := range legend.names {
			procs[legend.info[key].Process] = true
		}
		// The bounds that hold for the row's setting, then the references
		// (worst cases some other graph attains), each under its heading.
		marks := "≤ upper, ≥ lower, ≈ leading term, O Ω Θ order only"
		for _, key := range legend.names {
			if analysis.HasAsymptotic(legend.info[key].Kind) {
				marks += ", ~ asymptotic (n → ∞: no bound at a given n)"
				break
			}
		}
		for _, ref := range []bool{false, true} {
			head := "\nbounds that apply (explicit terms, O(·) constants unknown; " + marks + "; each on its own quantity):"
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
	for _, r := range rows {
		if strings.HasPrefix(r.Topology, "file:") {
			fmt.Fprintln(w, "\na graph read from a file has its own n: it runs once, at that n, whatever -n says")
			break
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintln(w, "\nskipped (the graph cannot be built there):")
		for _, s := range skipped {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
}

// writeNoFluid says, once for each reason, why rows have no fluid
// prediction.
func writeNoFluid(w io.Writer, rows []study.Row) {
	seen := map[string]bool{}
	for _, r := range rows {
		if r.Fluid == nil && r.NoFluid != "" && !seen[r.NoFluid] {
			if len(seen) == 0 {
				fmt.Fprintln(w)
			}
			seen[r.NoFluid] = true
			fmt.Fprintf(w, "fluid -: %s\n", r.NoFluid)
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
	return d.Label(p)
}

// writeGridCSV writes a row per point and bound that applies to it (one
// row, its bound cells empty, for a point without bounds), with every
// config column (so that the CSV files of many grids concatenate into one
// data frame): the bound's letter (the table's legend's), name, quantity
// (max_load, gap or spread), kind and value (empty for a bound with no
// value).
func writeGridCSV(w io.Writer, c GridConfig, rows []study.Row) error {
	cw := csv.NewWriter(w)
	head := []string{"topology", "n", "m", "edges", "deg_min", "deg_mean", "deg_max", "process", "d", "sample", "ties", "beta", "cap", "weights"}
	paramHead, _ := c.cells(^alloc.Param(0))
	head = append(append(head, paramHead...), "trials", "seed",
		"max_load_mean", "max_load_std", "max_load_ci_lo", "max_load_ci_hi", "max_load_ci_method", "max_load_dist", "gap_mean", "gap_std", "fluid_max_load",
		"bound_letter", "bound_name", "bound_quantity", "bound_kind", "bound_value")
	if c.Batch > 1 {
		head = append(head, "batch") // last, as in a run's CSV
	}
	cw.Write(head)
	var legend boundLegend
	for _, r := range rows {
		// The parameters of the processes that read them.
		var beta, capacity, weights string
		uses := alloc.Param(0)
		if d, err := alloc.Lookup(r.Process); err == nil {
			uses = d.Uses
			if _, ok := d.BetaOf(alloc.Params{GraphBeta: c.GraphBeta}); ok {
				beta = FormatFloat(c.Beta)
			}
			if d.Uses&alloc.ParamCap != 0 && c.Cap != 0 {
				capacity = strconv.Itoa(c.Cap)
			}
			if d.Uses&alloc.ParamWeights != 0 {
				weights = optText(c.Weights)
			}
		}
		var dmin, dmean, dmax, edges string
		if r.Degree != nil {
			dmin, dmean, dmax = strconv.Itoa(r.Degree.Min), FormatFloat(r.Degree.Mean), strconv.Itoa(r.Degree.Max)
			edges = strconv.FormatInt(r.Edges, 10)
		}
		fluid := ""
		if r.Fluid != nil {
			fluid = strconv.Itoa(r.Fluid.PredictedMaxLoad)
		}
		ciLo, ciHi := "", "" // no interval from one trial
		if r.MaxLoad.IntervalMethod != analysis.IntervalNone {
			ciLo, ciHi = FormatFloat(r.MaxLoad.CI95[0]), FormatFloat(r.MaxLoad.CI95[1])
		}
		bounds := [][]string{{"", "", "", "", ""}}
		if len(r.Bounds) > 0 {
			bounds = nil
		}
		for _, b := range r.Bounds {
			v := ""
			if !b.NoValue {
				v = FormatFloat(b.Value)
			}
			bounds = append(bounds, []string{legend.letter(b), b.Name, b.Quantity, b.Kind, v})
		}
		_, params := c.cells(uses)
		cells := []string{r.Topology, strconv.FormatInt(r.N, 10), strconv.FormatInt(r.M, 10), edges, dmin, dmean, dmax,
			r.Process, FormatFloat(r.D), r.Sample, r.Ties, beta, capacity, weights}
		cells = append(append(cells, params...), strconv.Itoa(r.Trials), strconv.FormatUint(r.Seed, 10),
			FormatFloat(r.MaxLoad.Mean), FormatFloat(r.MaxLoad.Std), ciLo, ciHi, r.MaxLoad.IntervalMethod,
			FormatCounts(r.MaxLoad.Counts), FormatFloat(r.Gap.Mean), FormatFloat(r.Gap.Std), fluid)
		for _, bc := range bounds {
			row := append(slices.Clone(cells), bc...)
			if c.Batch > 1 {
				row = append(row, strconv.FormatInt(c.Batch, 10))
			}
			cw.Write(row)
		}
	}
	cw.Flush()
	return cw.Error()
}
