package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/graphalloc/graphalloc/alloc"
)

func writeRunCSV(w io.Writer, rs []alloc.Result) {
	fmt.Fprintln(w, "trial,max_load,min_load,gap,probes,max_probes")
	for _, r := range rs {
		fmt.Fprintf(w, "%d,%s,%s,%s,%d,%d\n", r.Trial, fmtFloat(r.MaxLoad), fmtFloat(r.MinLoad), fmtFloat(r.Gap), r.Probes, r.MaxProbes)
	}
}

func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// fmtLoad prints a whole load as an integer and a real one (weighted balls)
// to four decimals, for tables.
func fmtLoad(x float64) string {
	if x == float64(int64(x)) {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'f', 4, 64)
}

func writeRunTable(w io.Writer, c runConfig, rs []alloc.Result, s runSummary) {
	desc := c.Process
	switch c.Process {
	case "greedy", "left", "unbalanced", "rank", "grouped", "window":
		desc = fmt.Sprintf("%s[%g]", c.Process, c.D)
	case "firstdiff":
		desc = fmt.Sprintf("firstdiff[%g] (probe cap %d)", c.D, c.Cap)
	case "one-plus-beta":
		if c.Beta != nil {
			desc = fmt.Sprintf("(1+β) with β=%g", *c.Beta)
		}
	case "weighted":
		desc = fmt.Sprintf("weighted greedy[%g], weights %s", c.D, c.Weights)
	case "graph":
		desc = fmt.Sprintf("two-choice on %s (%s sampling)", c.Graph, c.Sample)
	}
	fmt.Fprintf(w, "%s: n=%d m=%d (m/n=%.4g), ties=%s, seed=%d, %d trials\n\n",
		desc, c.N, c.M, float64(c.M)/float64(c.N), c.Ties, c.Seed, len(rs))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "trial\tmax_load\tmin_load\tgap\tprobes/ball\t")
	for _, r := range rs {
		ppb := 0.0
		if c.M > 0 {
			ppb = float64(r.Probes) / float64(c.M)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.4f\t%.3f\t\n", r.Trial, fmtLoad(r.MaxLoad), fmtLoad(r.MinLoad), r.Gap, ppb)
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintf(w, "max load: mean %.3f ± %.3f (95%% CI [%.3f, %.3f]), distribution %s\n",
		s.MaxLoad.Mean, s.MaxLoad.Std, s.MaxLoad.CI95[0], s.MaxLoad.CI95[1], fmtCounts(s.MaxLoad.Counts))
	fmt.Fprintf(w, "gap:      mean %.3f ± %.3f\n", s.Gap.Mean, s.Gap.Std)
	// Mean fraction of bins at each load.
	var maxLen int
	for _, r := range rs {
		maxLen = max(maxLen, len(r.LoadCounts))
	}
	frac := make([]float64, maxLen)
	for _, r := range rs {
		for i, k := range r.LoadCounts {
			frac[i] += float64(k) / float64(c.N) / float64(len(rs))
		}
	}
	fmt.Fprint(w, "measured, load ≥ i (mean fraction):")
	for i := range frac {
		var tail float64
		for _, f := range frac[i:] {
			tail += f
		}
		if i > 0 && tail > 0 && tail < 1 {
			fmt.Fprintf(w, "  %d: %.4g", i, tail)
		}
	}
	fmt.Fprintln(w)
	if f := s.Fluid; f != nil {
		fmt.Fprint(w, "fluid limit (n → ∞), load ≥ i:")
		for i, x := range f.Tails {
			if i > 0 {
				fmt.Fprintf(w, "  %d: %.4g", i, x)
			}
		}
		fmt.Fprintf(w, "\nfluid prediction at this n: max load %d (P(max ≥ i) ≈ 1 − exp(−n s_i))\n", f.PredMax)
	}
	if len(s.Bounds) > 0 {
		fmt.Fprintln(w, "\ntheory (explicit terms; O(1) constants unknown):")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, b := range s.Bounds {
			value := "" // a bound with no value
			if b.Value != nil {
				value = fmt.Sprintf(" = %.3f", *b.Value)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s%s\t(%s)\n", b.Name, b.Kind, b.Formula, value, b.Base)
		}
		tw.Flush()
	}
	if len(s.notApplicable) > 0 {
		fmt.Fprintln(w, "\nnot applicable here:")
		for _, b := range s.notApplicable {
			fmt.Fprintf(w, "  %s: %s\n", b.Name, b.Reason)
		}
	}
}

// fmtCounts prints a distribution {"4": 7, "5": 3} as "4:7 5:3", in
// increasing numeric order.
func fmtCounts(c map[string]int) string {
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
