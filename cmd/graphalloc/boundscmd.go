package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/study"
)

const boundsHelp = `Usage: graphalloc bounds [flags]

Print every theoretical bound of docs/theory.md for the given n, m, d and
topology, evaluated: its explicit leading terms (O(·) constants are unknown
and dropped, and labelled so), the formula, the base of its logarithms, and
whether its assumptions hold here — a bound that does not apply is listed
with the reason, never dropped.

With -g SPEC the graph's Δ, minimum degree, ε and dense core are read from
the spec where its family fixes them (regular:degree=D gives Δ = D,
regular:eps=E gives ε = E; complete, cycle, torus, hypercube, circulant and
nonregular likewise), without building the graph; gnp and files are built
(from --seed, as run builds them) and measured. -g implies -p graph unless
-p is given.

Examples:
  graphalloc bounds -n 2^20                          # every process, m = n
  graphalloc bounds -p greedy -d 3 -n 1e6 -m 100n
  graphalloc bounds -g regular:eps=0.5 -n 2^20 -f json
  graphalloc bounds -p one-plus-beta --beta 0.2 -n 2^16 -m 1000n

Flags:
`

type boundsOptions struct {
	process, choices, bins, balls, graph, sample, weights, format string
	beta                                                          float64
	seed                                                          uint64
}

func cmdBounds(_ context.Context, stdout, stderr io.Writer, args []string) error {
	var o boundsOptions
	fs := pflag.NewFlagSet("bounds", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stdout, boundsHelp)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
	}
	fs.StringVarP(&o.process, "process", "p", "", "process (default: every process but rank; graph with -g)")
	fs.StringVarP(&o.choices, "choices", "d", "2", "number of choices d")
	fs.StringVarP(&o.bins, "bins", "n", "65536", "bins n (1e6, 2^20 allowed)")
	fs.StringVarP(&o.balls, "balls", "m", "n", "balls m: 1e6, 2^20, or a multiple of n: n, 16n, 0.5n")
	fs.StringVarP(&o.graph, "graph", "g", "", "topology SPEC for the graph bounds")
	fs.Float64Var(&o.beta, "beta", 0.5, "β of one-plus-beta")
	fs.StringVar(&o.sample, "sample", "edge", "graph sampling: edge or vertex")
	fs.StringVar(&o.weights, "weights", "exp", "weighted: const, exp, pareto:shape=A, uniform:a=A,b=B")
	fs.Uint64VarP(&o.seed, "seed", "s", 1, "seed for building a gnp or file graph")
	fs.StringVarP(&o.format, "format", "f", "table", "output format: table or json")
	fs.SortFlags = false
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usagef("bounds: unexpected argument %q", fs.Arg(0))
	}
	if o.format != "table" && o.format != "json" {
		return usagef("--format: unknown format %q (allowed: table, json)", o.format)
	}
	q, desc, err := o.query(fs)
	if err != nil {
		return err
	}
	bs := analysis.Bounds(q)
	var buf bytes.Buffer
	if o.format == "json" {
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Bounds []analysis.Bound `json:"bounds"`
		}{bs}); err != nil {
			return err
		}
	} else {
		writeBoundsTable(&buf, desc, bs)
	}
	_, err = stdout.Write(buf.Bytes())
	return err
}

// query turns the flags into an analysis.Query and a one-line description.
func (o *boundsOptions) query(fs *pflag.FlagSet) (analysis.Query, string, error) {
	var q analysis.Query
	n, err := parseCount(o.bins, 0)
	if err != nil {
		return q, "", usagef("--bins: %v", err)
	}
	if n < 1 || n > graphgen.MaxOrder {
		return q, "", usagef("--bins: need 1 <= n <= %d, got %d", int64(graphgen.MaxOrder), n)
	}
	d, err := strconv.ParseFloat(o.choices, 64)
	if err != nil || math.IsNaN(d) || math.IsInf(d, 0) || d < 1 {
		return q, "", usagef("--choices: need a number d >= 1, got %q", o.choices)
	}
	if !(o.beta >= 0 && o.beta <= 1) {
		return q, "", usagef("--beta: need 0 <= beta <= 1, got %g", o.beta)
	}
	if o.sample != "edge" && o.sample != "vertex" {
		return q, "", usagef("--sample: unknown sampling rule %q (allowed: edge, vertex)", o.sample)
	}
	proc := o.process
	if proc == "" && o.graph != "" {
		proc = "graph"
	}
	q = analysis.Query{N: float64(n), D: d, Beta: o.beta, Process: proc, Sample: o.sample}
	if fs.Changed("weights") {
		q.Weights = o.weights
	}
	topo := ""
	if o.graph != "" {
		sp, err := graphgen.ParseSpec(o.graph)
		if err != nil {
			return q, "", usagef("--graph: %v", err)
		}
		nn, err := study.SpecQuery(&q, sp, int(n), o.seed)
		if err != nil {
			return q, "", usageError{fmt.Errorf("--graph: %w", err)}
		}
		if nn != int(n) {
			if fs.Changed("bins") {
				return q, "", usagef("--bins: n=%d but graph %s has %d vertices", n, sp, nn)
			}
			n = int64(nn)
			q.N = float64(n)
		}
		topo = fmt.Sprintf("; topology %s (%s)", sp, describeTopology(q))
	}
	m, err := parseCount(o.balls, n)
	if err != nil {
		return q, "", usagef("--balls: %v", err)
	}
	q.M = float64(m)
	if err := q.Validate(); err != nil {
		return q, "", usageError{err}
	}
	who := "every process but rank"
	if proc != "" {
		who = proc
	}
	desc := fmt.Sprintf("bounds for %s: n=%d m=%d (m/n=%.4g) d=%g%s", who, n, m, float64(m)/float64(n), d, topo)
	return q, desc, nil
}

// describeTopology says what the bounds know of the graph.
func describeTopology(q analysis.Query) string {
	var parts []string
	if q.Degree > 0 {
		parts = append(parts, fmt.Sprintf("Δ = %g", q.Degree))
	} else if q.MinDegree > 0 {
		parts = append(parts, fmt.Sprintf("not regular, δ = %g", q.MinDegree))
	}
	if q.Eps > 0 {
		parts = append(parts, fmt.Sprintf("ε = %g", q.Eps))
	}
	if q.Core > 0 {
		parts = append(parts, fmt.Sprintf("core %g vertices holding a fraction %.4g of the edges", q.Core, q.CoreFraction))
	}
	if len(parts) == 0 {
		return "degrees unknown"
	}
	return strings.Join(parts, ", ")
}

func writeBoundsTable(w io.Writer, desc string, bs []analysis.Bound) {
	fmt.Fprintln(w, desc)
	fmt.Fprintln(w, "values are the explicit terms; O(·) and ± O(1) constants are unknown")
	var na []analysis.Bound
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := false
	for _, b := range bs {
		if !b.Applies {
			na = append(na, b)
			continue
		}
		if !header {
			fmt.Fprintln(tw, "\nprocess\tbound\tkind\tvalue\tformula\tbase")
			header = true
		}
		base := b.Base
		if base == "" {
			base = "-"
		}
		value := fmt.Sprintf("%.4f", b.Value)
		if b.NoValue {
			value = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", b.Process, b.Name, b.Kind, value, b.Formula, base)
	}
	tw.Flush()
	if !header {
		fmt.Fprintln(w, "\nno bound applies here")
	}
	if len(na) > 0 {
		fmt.Fprintln(w, "\nnot applicable here:")
		for _, b := range na {
			fmt.Fprintf(w, "  %s: %s: %s\n", b.Process, b.Name, b.Reason)
		}
	}
}
