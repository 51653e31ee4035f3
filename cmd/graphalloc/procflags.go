package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/study"
)

// processFlags are the process flags of run, compare, bounds and fluid: one
// definition, so that their help texts, defaults and checks are the same.
type processFlags struct {
	process, choices, ties, sample, probeCap, weights string
	beta                                              float64
	g                                                 int
	sigma                                             float64
	memory, k                                         int
	threshold                                         int
	delta                                             float64
}

// processList is the list of processes for a help text.
func processList() string {
	var names []string
	for _, d := range alloc.Descriptors() {
		names = append(names, d.Name)
	}
	return strings.Join(names, ", ")
}

// add defines the flags on fs; -p has the given default and help.
func (o *processFlags) add(fs *pflag.FlagSet, defProcess, processHelp string) {
	fs.StringVarP(&o.process, "process", "p", defProcess, processHelp)
	fs.StringVarP(&o.choices, "choices", "d", "2", "number of choices d (a real number >= 1 for rank)")
	fs.Float64Var(&o.beta, "beta", 0.5, "β of -p one-plus-beta, in [0, 1]: the probability of a Greedy[2] step; with -p graph (given: graph is two-choice, β = 1, without it), the probability that a ball compares the ends of its edge (graphical (1+β), 0 < β <= 1)")
	fs.StringVar(&o.probeCap, "cap", "", "probe cap of -p firstdiff (default 2^d)")
	fs.StringVar(&o.weights, "weights", "exp", "ball weights of -p weighted: const, exp, pareto:shape=A, uniform:a=A,b=B")
	fs.StringVar(&o.ties, "ties", "random", "tie rule: random or left (left, grouped, window and rank use left unless this is given)")
	fs.StringVar(&o.sample, "sample", "edge", "graph sampling: edge (uniform edge), vertex (uniform vertex, then uniform neighbour) or walk:len=L (a non-backtracking walk of L steps from a uniform vertex: the graph process takes its least loaded visited vertex [Pourmiri 2019], the two-sample rules its start and end; CSR graphs and complete)")
	fs.IntVar(&o.g, "g", 1, "threshold g >= 0 of -p g-bounded and g-myopic: two loads within g are compared by the adversary (g-bounded) or a coin (g-myopic); not -g, the graph")
	fs.Float64Var(&o.sigma, "sigma", 1, "noise σ >= 0 of -p noisy: each candidate's load is read as load + N(0, σ²)")
	fs.IntVar(&o.memory, "memory", 1, "memory K >= 0 of -p memory: the K least loaded candidates of the last ball are candidates again")
	fs.IntVar(&o.k, "k", 1, "balls per round k of -p kd-choice, 1 <= k <= d: each round puts k balls in the k least loaded of d uniform bins")
	fs.IntVar(&o.threshold, "threshold", 1, "load threshold L >= 0 of -p threshold: a first bin with fewer than L balls takes the ball, else a second uniform bin")
	fs.Float64Var(&o.delta, "delta", 0.5, "quantile 0 < δ < 1 of -p quantile: a first bin among the ⌊δn⌋ heaviest gives the ball to a second uniform bin")
}

// flagParams maps the parameter flags to the parameters they set.
var flagParams = []struct {
	flag  string
	param alloc.Param
}{
	{"choices", alloc.ParamD | alloc.ParamRealD},
	{"beta", alloc.ParamBeta}, {"cap", alloc.ParamCap}, {"weights", alloc.ParamWeights},
	{"sample", alloc.ParamSample}, {graphFlagName, alloc.ParamGraph}, {"expansion", alloc.ParamGraph},
	{"sample", alloc.ParamGraph}, {graphFlagName, alloc.ParamGraph}, {"expansion", alloc.ParamGraph},
	{"g", alloc.ParamG}, {"sigma", alloc.ParamSigma},
	{"memory", alloc.ParamMemory}, {"k", alloc.ParamK},
	{"threshold", alloc.ParamThreshold}, {"delta", alloc.ParamDelta},
}

// users lists the processes that read parameter p.
func users(p alloc.Param) string {
	var names []string
	for _, d := range alloc.Descriptors() {
		if d.Uses&p != 0 {
			names = append(names, d.Name)
		}
	}
	return strings.Join(names, ", -p ")
}

// descriptors looks up the processes of a comma-separated -p value, in
// order, without repeats.
func (o *processFlags) descriptors() ([]*alloc.Descriptor, error) {
	var ds []*alloc.Descriptor
	for name := range strings.SplitSeq(o.process, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		d, err := alloc.Lookup(name)
		if err != nil {
			return nil, usagef("--process: %v", err)
		}
		if !containsDesc(ds, d) {
			ds = append(ds, d)
		}
	}
	if len(ds) == 0 {
		return nil, usagef("--process: no process given")
	}
	return ds, nil
}

func containsDesc(ds []*alloc.Descriptor, d *alloc.Descriptor) bool {
	for _, e := range ds {
		if e == d {
			return true
		}
	}
	return false
}

// params parses the parameter flags for the processes ds: a flag given
// that none of them reads is an error naming the processes that read it;
// Ties stays TiesDefault unless --ties is given.
func (o *processFlags) params(fs *pflag.FlagSet, ds []*alloc.Descriptor) (alloc.Params, error) {
	var p alloc.Params
	var uses alloc.Param
	var names []string
	for _, d := range ds {
		uses |= d.Uses
		names = append(names, d.Name)
	}
	for _, f := range flagParams {
		if fs.Lookup(f.flag) != nil && fs.Changed(f.flag) && uses&f.param == 0 {
			return p, usagef("--%s applies only to -p %s, not to -p %s", f.flag, users(f.param), strings.Join(names, ","))
		}
	}
	d, err := strconv.ParseFloat(o.choices, 64)
	if err != nil || math.IsNaN(d) || math.IsInf(d, 0) {
		return p, usagef("--choices: %q is not a number", o.choices)
	}
	p.D = d
	if fs.Changed("ties") {
		if p.Ties, err = alloc.ParseTies(o.ties); err != nil {
			return p, usagef("--ties: %v", err)
		}
	}
	if p.Sample, err = alloc.ParseSampling(o.sample); err != nil {
		return p, usagef("--sample: %v", err)
	}
	if !(o.beta >= 0 && o.beta <= 1) {
		return p, usagef("--beta: need 0 <= beta <= 1, got %g", o.beta)
	}
	if uses&alloc.ParamBeta != 0 {
		p.Beta = o.beta
		// graph reads β only when it is given (see alloc.Params).
		p.GraphBeta = fs.Changed("beta")
	}
	if o.g < 0 || o.g > alloc.MaxG {
		return p, usagef("--g: need a threshold 0 <= g <= %d, got %d", alloc.MaxG, o.g)
	}
	if !(o.sigma >= 0 && o.sigma <= alloc.MaxSigma) {
		return p, usagef("--sigma: need a noise level 0 <= σ <= %g, got %g", float64(alloc.MaxSigma), o.sigma)
	}
	if uses&alloc.ParamG != 0 {
		p.G = o.g
	}
	if uses&alloc.ParamSigma != 0 {
		p.Sigma = o.sigma
	}
	if o.memory < 0 || o.memory > alloc.MaxMemory {
		return p, usagef("--memory: need 0 <= K <= %d, got %d", alloc.MaxMemory, o.memory)
	}
	if o.k < 1 {
		return p, usagef("--k: need k >= 1, got %d", o.k)
	}
	if uses&alloc.ParamMemory != 0 {
		p.Memory = o.memory
	}
	if uses&alloc.ParamK != 0 {
		p.K = o.k
	}
	if o.threshold < 0 || o.threshold > alloc.MaxThreshold {
		return p, usagef("--threshold: need a load threshold 0 <= L <= %d, got %d", alloc.MaxThreshold, o.threshold)
	}
	if uses&alloc.ParamThreshold != 0 {
		p.Threshold = o.threshold
	}
	if !(o.delta > 0 && o.delta < 1) {
		return p, usagef("--delta: need a quantile 0 < δ < 1, got %g", o.delta)
	}
	if uses&alloc.ParamDelta != 0 {
		p.Delta = o.delta
	}
	if o.probeCap != "" {
		c, err := study.ParseCount(o.probeCap, 0)
		if err != nil || c < 1 || c > 1<<20 {
			return p, usagef("--cap: need a probe cap 1 <= cap <= 2^20, got %q", o.probeCap)
		}
		p.Cap = int(c)
	}
	if p.Weights, err = alloc.ParseWeights(o.weights); err != nil {
		return p, usagef("--weights: %v", err)
	}
	return p, nil
}

// checkParams checks p for each process of ds that does not take a graph
// (a graph process is checked once its graph is built), and warns on
// stderr of weights whose variance is infinite.
func checkParams(ds []*alloc.Descriptor, p alloc.Params, stderr io.Writer) error {
	for _, d := range ds {
		if d.Uses&alloc.ParamGraph != 0 {
			continue
		}
		if err := d.Check(p); err != nil {
			return usageError{err}
		}
		if c := p.Weights.Caveat(); d.Uses&alloc.ParamWeights != 0 && c != "" {
			fmt.Fprintln(stderr, "graphalloc: warning:", c)
		}
	}
	return nil
}

// addBatch defines --batch on fs.
func addBatch(fs *pflag.FlagSet, batch *string) {
	fs.StringVar(batch, "batch", "1", "batch size B: balls come in batches of B, each ball reading the loads at the start of its batch (1: one at a time); a count (1024, 2^10) or a multiple of n (n, 16n)")
}

// parseBatch parses --batch for n bins and the processes ds: B >= 1, and
// B > 1 only for processes that run in batches. It returns 0 for one ball
// at a time (B = 1).
func parseBatch(s string, n int64, ds []*alloc.Descriptor) (int64, error) {
	b, err := study.ParseCount(s, n)
	if err != nil || b < 1 {
		return 0, usagef("--batch: need a batch size B >= 1 (a count or a multiple of n), got %q", s)
	}
	if b == 1 {
		return 0, nil
	}
	for _, d := range ds {
		if !d.Batches() {
			var names []string
			for _, e := range alloc.Descriptors() {
				if !e.Batches() {
					names = append(names, e.Name)
				}
			}
			return 0, usagef("--batch applies to every process but -p %s, which run their trials on a state of their own; not to -p %s", strings.Join(names, " and -p "), d.Name)
		}
	}
	return b, nil
}

// parseBalls parses -m for n bins: at least one ball.
func parseBalls(s string, n int64) (int64, error) {
	m, err := study.ParseCount(s, n)
	if err != nil {
		return 0, usagef("--balls: %v", err)
	}
	if m < 1 {
		return 0, usagef("--balls: need m >= 1, got %d (%q)", m, s)
	}
	return m, nil
}

// describe is the label of process d with parameters p (Descriptor.Label).
func describe(d *alloc.Descriptor, p alloc.Params) string { return d.Label(p) }

// processHelp lists the processes with their synopses, for help texts.
func processHelp() string {
	var b strings.Builder
	for _, d := range alloc.Descriptors() {
		line := fmt.Sprintf("  %-14s", d.Name)
		for _, word := range strings.Fields(d.Synopsis) {
			if len(line)+1+len(word) > 78 {
				b.WriteString(strings.TrimRight(line, " ") + "\n")
				line = strings.Repeat(" ", 16)
			} else if !strings.HasSuffix(line, " ") {
				line += " "
			}
			line += word
		}
		b.WriteString(line + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
