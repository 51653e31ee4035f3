package alloc_test

import (
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
)

// The structural test of predictions: for every process of
// alloc.Descriptors, every sampler it accepts and a few values of every
// parameter it reads, wherever analysis.FluidOf gives a fluid limit — the
// one function behind the limit run, compare, fluid, the explorer and the
// studies print — a simulation of the process as it runs agrees with it
// level by level, on every engine that runs it; off the complete graph it
// gives none, with the reason.
//
// Tolerance. At n = 2^16 and m = n (and m = 4n under walk:len=0 and 3, as
// the audit that found the walks' wrong limits ran), T independent trials give at level i a
// mean fraction of bins with load ≥ i and its standard error se from the
// trials. Level i passes when |mean − s_i| ≤ q·se + c/n, with q the
// Student-t quantile (T − 1 degrees of freedom) at 1 − α/2, α = 1e-6/K for
// the K comparisons of the whole test (Bonferroni: a correct simulator
// fails the test with probability about 1e-6; the seeds are fixed, so it
// is deterministic). The finite-n term c = 5 + t·C(d, 2) at m = t·n, d the
// candidates of the limit's rule (L + 1 under walk:len=L): the mean-field bias of the
// trials' mean is O(1/n) [Kurtz 1970; Gast, Van Houdt 2017], allowed for as
// 5/n throughout the suite, and d candidates the limit takes as distinct
// uniform bins collide (a walk on K_n revisits, an edge's ends are
// distinct where Greedy[2]'s are not) with probability at most C(d, 2)/(n − 2)
// a ball, so about t·C(d, 2) balls see other candidates, each moving a
// tail by 1/n. Only levels where n·s_i ≥ 30 are compared: below that a
// level holds a few bins, and the t interval's normal approximation fails.
//
// Negative controls: the sampler-blind limits — Greedy[2] for the graph
// process under walk:len=3, g-Bounded's limit on two uniform bins under
// walk:len=0, (1+β) of Greedy[2] for graphical (1+β) under walk:len=3 —
// fed the same simulations, must be rejected by the same q.
func TestFluidOfAgainstSimulation(t *testing.T) {
	const n = 1 << 16
	trials := 16
	if testing.Short() {
		trials = 10
	}
	jobs, k := fluidJobs(t, n)
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(trials - 1)}.Quantile(1 - 1e-6/float64(k)/2)
	t.Logf("%d simulations, %d level comparisons, %d trials each: q = %.2f", len(jobs), k, trials, q)
	sims := map[string][][]float64{}
	for i, j := range jobs {
		t.Run(j.name, func(t *testing.T) {
			c := alloc.Config{Process: j.rule, Engine: j.engine, N: n, M: j.m, Seed: 2024 + uint64(i)}
			f := configTails(t, c, trials, len(j.want))
			sims[j.name] = f
			if d, at := deviation(f, j.want, q, j.slack); d > 1 {
				mean, _ := meanSE(f, at)
				t.Errorf("%v: level %d measured %.6g, fluid limit %.6g: off by %.2f tolerances (q = %.2f, %d trials)",
					j.limit, at, mean, j.want[at], d, q, trials)
			}
		})
	}
	for _, ctl := range []struct {
		sim string
		old alloc.MeanField
	}{
		{"graph/beta=1/walk:len=3/m=1n/bins", alloc.MeanField{Family: alloc.FamilyGreedy, D: 2}},
		{"g-bounded/g=1/walk:len=0/m=4n/bins", alloc.MeanField{Family: alloc.FamilyGBounded, D: 2, Tolerance: 1}},
		{"graph/beta=0.5/walk:len=3/m=4n/bins", alloc.MeanField{Family: alloc.FamilyOnePlusBeta, D: 2, Beta: 0.5}},
	} {
		f, ok := sims[ctl.sim]
		if !ok {
			t.Fatalf("control: no simulation %q", ctl.sim)
		}
		load := 1.0
		if strings.Contains(ctl.sim, "m=4n") {
			load = 4
		}
		old, err := analysis.TailsTol(ctl.old, load, 30.0/n)
		if err != nil {
			t.Fatal(err)
		}
		old = old[:min(len(old), len(f[0]))] // the levels simulated
		d, at := deviation(f, old, q, (5+load)/float64(n))
		if d <= 1 {
			t.Errorf("control: %v's limit passed for %s (worst %.2f tolerances)", ctl.old, ctl.sim, d)
		}
		t.Logf("control: %v's limit for %s: rejected at level %d by %.1f tolerances", ctl.old, ctl.sim, at, d)
	}
}

// fluidJob is one simulation of the structural test: a process as run on
// one engine, and the fluid limit FluidOf prints for it, down to the last
// level compared.
type fluidJob struct {
	name   string
	rule   alloc.Rule
	m      int64
	engine alloc.Engine
	limit  alloc.MeanField
	want   []float64
	slack  float64
}

// fluidJobs returns the jobs of the structural test on n bins and the
// number of level comparisons they make; it checks that every process
// that uses a graph has no limit off the complete graph, with a reason.
func fluidJobs(t *testing.T, n int) ([]fluidJob, int) {
	t.Helper()
	cycle, _, err := graphgen.FromEdges(8, []uint32{0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 0})
	if err != nil {
		t.Fatal(err)
	}
	var jobs []fluidJob
	k := 0
	for _, d := range alloc.Descriptors() {
		for _, v := range paramVariants(d) {
			if d.Uses&alloc.ParamGraph != 0 {
				off := v.p
				off.Graph = cycle
				if _, err := analysis.FluidOf(analysis.FluidRun{Process: d, Params: off, N: 8, Load: 1}); err == nil {
					t.Errorf("%s/%s: a fluid limit on the cycle", d.Name, v.name)
				} else if why, ok := analysis.WhyNoFluid(err); !ok || why == "" {
					t.Errorf("%s/%s on the cycle: %v, want a reason", d.Name, v.name, err)
				}
				v.p.Graph = graphgen.Complete(n)
			}
			// The audit's walk runs were also at m = 4n.
			loads := []int64{1}
			if l, walk := v.p.Sample.Walk(); walk && l != 1 {
				loads = append(loads, 4)
			}
			for _, load := range loads {
				fl, err := analysis.FluidOf(analysis.FluidRun{Process: d, Params: v.p, N: float64(n), Load: float64(load), Tol: 30.0 / float64(n)})
				if _, none := analysis.WhyNoFluid(err); none {
					continue
				} else if err != nil {
					t.Fatalf("%s/%s: %v", d.Name, v.name, err)
				}
				rule, err := d.New(v.p)
				if err != nil {
					t.Fatalf("%s/%s: %v", d.Name, v.name, err)
				}
				dd := float64(fl.Rule.D)
				j := fluidJob{rule: rule, m: load * int64(n), limit: fl.Rule, want: fl.Tails,
					slack: (5 + float64(load)*dd*(dd-1)/2) / float64(n)}
				engines := []alloc.Engine{alloc.EngineBins}
				if d.Levels(v.p) {
					engines = append(engines, alloc.EngineLevels)
				}
				for _, e := range engines {
					j.name, j.engine = fmt.Sprintf("%s/%s/m=%dn/%v", d.Name, v.name, load, e), e
					jobs = append(jobs, j)
					k += len(j.want) - 1
				}
			}
		}
	}
	return jobs, k
}

// paramVariant is a process's parameters under a name.
type paramVariant struct {
	name string
	p    alloc.Params
}

// paramVariants returns the parameters the structural test runs d with:
// every combination of a few values of each parameter it reads, and every
// sampler it accepts (edge, vertex, walk:len=0, 1 and 3).
func paramVariants(d *alloc.Descriptor) []paramVariant {
	axes := []struct {
		use  alloc.Param
		vals []paramVariant
	}{
		{alloc.ParamD, []paramVariant{{"d=2", alloc.Params{D: 2}}, {"d=3", alloc.Params{D: 3}}}},
		{alloc.ParamRealD, []paramVariant{{"d=2", alloc.Params{D: 2}}, {"d=1.5", alloc.Params{D: 1.5}}}},
		{alloc.ParamBeta, []paramVariant{{"beta=1", alloc.Params{Beta: 1}}, {"beta=0.5", alloc.Params{Beta: 0.5, GraphBeta: true}}}},
		{alloc.ParamG, []paramVariant{{"g=1", alloc.Params{Tolerance: 1}}, {"g=3", alloc.Params{Tolerance: 3}}}},
		{alloc.ParamSigma, []paramVariant{{"sigma=0.5", alloc.Params{Sigma: 0.5}}, {"sigma=2", alloc.Params{Sigma: 2}}}},
		{alloc.ParamThreshold, []paramVariant{{"threshold=1", alloc.Params{Threshold: 1}}, {"threshold=2", alloc.Params{Threshold: 2}}}},
		{alloc.ParamDelta, []paramVariant{{"delta=0.25", alloc.Params{Delta: 0.25}}, {"delta=0.6", alloc.Params{Delta: 0.6}}}},
		{alloc.ParamMemory, []paramVariant{{"memory=1", alloc.Params{Memory: 1}}}},
		{alloc.ParamK, []paramVariant{{"k=1", alloc.Params{K: 1}}}},
		{alloc.ParamSample, []paramVariant{{"edge", alloc.Params{Sample: alloc.SampleEdge}}, {"vertex", alloc.Params{Sample: alloc.SampleVertex}},
			{"walk:len=0", alloc.Params{Sample: alloc.SampleWalk(0)}}, {"walk:len=1", alloc.Params{Sample: alloc.SampleWalk(1)}},
			{"walk:len=3", alloc.Params{Sample: alloc.SampleWalk(3)}}}},
	}
	out := []paramVariant{{"", alloc.Params{D: 2}}}
	for _, ax := range axes {
		if d.Uses&ax.use == 0 {
			continue
		}
		var next []paramVariant
		for _, base := range out {
			for _, v := range ax.vals {
				next = append(next, paramVariant{strings.TrimPrefix(base.name+"/"+v.name, "/"), merge(base.p, v.p)})
			}
		}
		out = next
	}
	if d.FixedTies {
		for i := range out {
			out[i].p.Ties = alloc.TiesLeft
		}
	}
	return out
}

// merge returns a with the parameters set in b.
func merge(a, b alloc.Params) alloc.Params {
	if b.D != 0 {
		a.D = b.D
	}
	a.Beta, a.GraphBeta = max(a.Beta, b.Beta), a.GraphBeta || b.GraphBeta
	a.Tolerance, a.Sigma, a.Threshold = max(a.Tolerance, b.Tolerance), max(a.Sigma, b.Sigma), max(a.Threshold, b.Threshold)
	a.Delta, a.Memory, a.K = max(a.Delta, b.Delta), max(a.Memory, b.Memory), max(a.K, b.K)
	if b.Sample != alloc.SampleEdge {
		a.Sample = b.Sample
	}
	return a
}

// TestFluidOfNone: FluidOf says why it gives no limit for a run in
// batches, beyond the load cap and beyond the solver's d, and errs on a
// negative load.
func TestFluidOfNone(t *testing.T) {
	lookup := func(name string) *alloc.Descriptor {
		d, err := alloc.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	greedy, graph := lookup("greedy"), lookup("graph")
	kn := graphgen.Complete(100)
	for _, tc := range []struct {
		name string
		r    analysis.FluidRun
		why  string
	}{
		{"batch", analysis.FluidRun{Process: greedy, Params: alloc.Params{D: 2}, N: 100, Load: 1, Batch: 16}, "batches of 16"},
		{"load cap", analysis.FluidRun{Process: greedy, Params: alloc.Params{D: 2}, N: 100, Load: 100, MaxLoad: 64}, "m/n = 100"},
		{"d", analysis.FluidRun{Process: graph, Params: alloc.Params{Graph: kn, Sample: alloc.SampleWalk(2000)}, N: 100, Load: 1}, "Greedy[2001]"},
		{"firstdiff", analysis.FluidRun{Process: lookup("firstdiff"), Params: alloc.Params{D: 2}, N: 100, Load: 1}, "firstdiff"},
	} {
		_, err := analysis.FluidOf(tc.r)
		if why, ok := analysis.WhyNoFluid(err); !ok || !strings.Contains(why, tc.why) {
			t.Errorf("%s: %v, want a reason mentioning %q", tc.name, err, tc.why)
		}
	}
	_, err := analysis.FluidOf(analysis.FluidRun{Process: greedy, Params: alloc.Params{D: 2}, N: 100, Load: -1})
	if _, none := analysis.WhyNoFluid(err); err == nil || none {
		t.Errorf("negative load: %v, want an error that is not a reason", err)
	}
	// The limit of the process as run, by name.
	for _, tc := range []struct {
		p    alloc.Params
		want string
	}{
		{alloc.Params{Graph: kn, Sample: alloc.SampleWalk(3)}, "Greedy[4]"},
		{alloc.Params{Graph: kn, Sample: alloc.SampleWalk(0), Beta: 0.5, GraphBeta: true}, "one-choice"},
		{alloc.Params{Graph: kn, Sample: alloc.SampleWalk(3), Beta: 0.5, GraphBeta: true}, "(1+β) of Greedy[4], β = 0.5"},
		{alloc.Params{Graph: kn, Sample: alloc.SampleVertex}, "Greedy[2]"},
	} {
		fl, err := analysis.FluidOf(analysis.FluidRun{Process: graph, Params: tc.p, N: 100, Load: 1})
		if err != nil || fmt.Sprint(fl.Rule) != tc.want {
			t.Errorf("graph %+v: %v %v, want %s", tc.p, fl.Rule, err, tc.want)
		}
	}
}
