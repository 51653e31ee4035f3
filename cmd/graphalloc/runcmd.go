package main

import (
	"context"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/figure"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/results"
	"github.com/graphalloc/graphalloc/study"
)

// runOptions are the parsed flags of run.
type runOptions struct {
	runFlags
	plotFlags
	sizeFlags
	pf                        processFlags
	shard, every, perVertex   string
	resume, maxMemory, engine string
	batch                     string
	profile                   bool
	spec                      graphgen.Spec       // -g, parsed
	dyn                       study.DeleteOptions // --delete, --steps (deletecmd.go)
}

// parse parses and checks the flags of run (run and serve share it).
func (o *runOptions) parse(args []string, stdout, stderr io.Writer) (*pflag.FlagSet, error) {
	fs := newFlags("run", stdout, stderr)
	o.pf.add(fs, alloc.Greedy{}.Name(), "process: "+processList())
	o.addSizes(fs, "complete", "topology for -p graph: KIND[:key=value,...] with KIND one of "+strings.Join(graphgen.Kinds(), ", ")+", or file:PATH", true)
	o.add(fs, 10, "table, csv, json, jsonl")
	o.addExpansion(fs)
	o.addPlot(fs, "the run's figure (load distribution, series over time, load against degree)")
	fs.StringVar(&o.perVertex, "per-vertex", "", "write a CSV to FILE (- for stdout, with -o FILE): each vertex (the file's own name), its degree, mean load, sd and the fraction of trials in which it held the max (graph processes)")
	fs.StringVar(&o.shard, "shard", "", "run only shard I of K of the trials, as I/K (0 <= I < K)")
	fs.StringVar(&o.every, "every", "", "record the gap and max-min every K balls (K or a multiple of n)")
	fs.BoolVar(&o.profile, "profile", false, "record each trial's sorted normalised load vector (load - m/n, as value/count pairs)")
	addMaxMemory(fs, &o.maxMemory, "runs")
	addBatch(fs, &o.batch)
	fs.StringVar(&o.engine, "engine", "auto", "bins (a load per bin) or levels (a count per load: exchangeable processes on complete, n up to 2^62); auto: bins up to n = 2^32-1, levels beyond")
	o.addDelete(fs)
	fs.StringVar(&o.resume, "resume", "", "skip the trials FILE (an earlier output of this run, json or jsonl) holds and finish the run; with -f jsonl -o FILE the same file is continued")
	if err := parseFlags(fs, args, 0); err != nil {
		return fs, err
	}
	if err := o.checkTrials(); err != nil {
		return fs, err
	}
	if err := o.checkExpansion(fs); err != nil {
		return fs, err
	}
	if err := checkOutput("--per-vertex", o.perVertex); err != nil {
		return fs, err
	}
	if err := o.checkPlot(fs); err != nil {
		return fs, err
	}
	if o.perVertex != "" && o.resume != "" {
		return fs, usagef("--per-vertex gathers every trial's loads: it cannot follow --resume (rerun the whole run)")
	}
	return fs, nil
}

func cmdRun(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	var o runOptions
	fs, err := o.parse(args, stdout, stderr)
	if err != nil {
		return err
	}
	if err := o.checkFiles(); err != nil {
		return err
	}
	useMemoryLimit(o.maxMemory)
	if err := o.dyn.ReadSequence(ctx, fs.Changed); err != nil {
		return inputError("", err)
	}
	cfg, head, pv, err := o.setupContext(ctx, fs, stderr)
	if err != nil {
		return err
	}
	si, sk, err := parseShard(o.shard)
	if err != nil {
		return err
	}
	trials := study.ShardTrials(o.trials, si, sk)
	if o.dyn.Delete != "" {
		return o.runDeletions(ctx, fs, cfg, head, trials, stdout, stderr)
	}
	return o.execute(ctx, cfg, head, pv, trials, stdout, stderr)
}

// checkFiles refuses, before any work, --per-vertex for a process without
// vertices, and an output that would overwrite an input or another
// output. --resume and -o may name one file: the run reads it whole
// before it writes, or continues its JSON lines.
func (o *runOptions) checkFiles() error {
	descs, err := o.pf.descriptors()
	if err != nil {
		return err
	}
	graph := descs[0].Uses&alloc.ParamGraph != 0
	if o.perVertex != "" && !graph {
		return usagef("--per-vertex: -p %s has no vertices (a row a vertex is for -p %s)", descs[0].Name, users(alloc.ParamGraph))
	}
	var in []outfile.File
	if graph {
		in = graphInputs(o.graph)
	}
	return distinctResume(o.output, o.resume, []outfile.File{{Flag: "--per-vertex", Path: o.perVertex}, o.plotFile()}, in...)
}

// degreeTableMax is the most vertices the load against the degree of a
// table or JSON file (summary.by_degree) is gathered for unasked: it costs results.PerVertexBytes (26) a vertex,
// 0.9 GB at 2^25, beside the graph.
const degreeTableMax = 1 << 25

// setupContext turns the flags into the run's config and its file's
// config, building the graph of a graph process (the build stops once ctx
// is done), and the per-vertex gathering of a graph run (nil if none:
// --per-vertex, or the load against the degree of a table, JSON or
// JSON-lines file on a graph that is not regular, up to degreeTableMax
// vertices).
func (o *runOptions) setupContext(ctx context.Context, fs *pflag.FlagSet, stderr io.Writer) (cfg alloc.Config, head results.Config, pv *results.PerVertex, err error) {
	descs, err := o.pf.descriptors()
	if err != nil {
		return cfg, head, nil, err
	}
	if len(descs) > 1 {
		return cfg, head, nil, usagef("--process: run takes one process, got %q (compare runs several)", o.pf.process)
	}
	desc := descs[0]
	params, err := o.pf.params(fs, descs)
	if err != nil {
		return cfg, head, nil, err
	}
	if err := checkParams(descs, params, stderr); err != nil {
		return cfg, head, nil, err
	}
	memLimit, err := parseMaxMemory(o.maxMemory)
	if err != nil {
		return cfg, head, nil, err
	}
	gf, req, err := o.request(fs, desc, params)
	if err != nil {
		return cfg, head, nil, err
	}
	plan, err := study.Plan(req)
	if err != nil {
		return cfg, head, nil, usageError{err}
	}
	n, regular, levels := plan.N, plan.Regular, plan.Levels
	var topo *study.Topology
	if desc.Uses&alloc.ParamGraph != 0 {
		gf.MaxMemory = memLimit
		gf.Lean = desc.EdgesOnly(params)
		r := plan.Memory
		byDegree := o.format != "csv" && o.dyn.Delete == "" // the static summary's by_degree
		if !levels && (o.perVertex != "" || (byDegree && !regular && n <= degreeTableMax)) {
			r.PerVertex = results.PerVertexBytes
		}
		gf.Extra = r.Bytes()
		g, info, err := gf.buildContext(ctx, o.seed, stderr)
		if err != nil {
			return cfg, head, nil, err
		}
		topo = study.MeasureContext(ctx, gf.Spec, g)
		if o.perVertex != "" || (byDegree && topo.Degree.Min != topo.Degree.Max && g.Order() <= degreeTableMax) {
			var names []string
			if info.File != nil {
				names = info.File.Labels
			}
			pv = results.NewPerVertex(g, names)
		}
		if fs.Changed("expansion") {
			topo.Expansion = o.expansion
		}
		n = int64(g.Order())
		params.Graph = g
	}
	m, every, batch, err := study.RunCounts(o.balls, o.every, o.batch, n, descs, levels)
	if err != nil {
		return cfg, head, nil, usageError{err}
	}
	if topo == nil {
		if err := wrapUsage(memorySources.CheckRun(plan.Memory, memLimit)); err != nil {
			return cfg, head, nil, err
		}
	}
	p, err := desc.New(params)
	if err != nil {
		return cfg, head, nil, usageError{err}
	}
	cfg = alloc.Config{Process: p, N: int(n), M: m, Seed: o.seed, Every: every, Profile: o.profile, Batch: batch}
	if pv != nil {
		cfg.Loads = func(_ int, loads []uint32) { pv.Add(loads) }
	}
	if levels {
		cfg.Engine = alloc.EngineLevels
	}
	if err := cfg.Check(); err != nil {
		return cfg, head, nil, usageError{err}
	}
	head = results.NewConfig(study.Setting{Process: desc, Params: params, N: n, M: m, Topology: topo, Batch: batch})
	head.Seed, head.Trials, head.Shard, head.Version = o.seed, o.trials, o.shard, Version
	head.Every, head.Profile = every, o.profile
	if levels {
		head.Engine = alloc.EngineLevels.String()
	}
	return cfg, head, pv, nil
}

// request parses -g with -n, within the engine's limit on n, and returns
// the run as study.Plan takes it: the results held are the shard's
// trials, which the output holds until it is written.
func (o *runOptions) request(fs *pflag.FlagSet, desc *alloc.Descriptor, params alloc.Params) (graphFlag, study.RunRequest, error) {
	spec, err := parseSpec(o.graph)
	if err != nil {
		return graphFlag{}, study.RunRequest{}, err
	}
	o.spec = spec
	maxN, why := study.BinsLimit(o.engine, desc, params, spec)
	b, err := study.NewGraphBuild(spec, o.bins, fs.Changed("bins"), maxN, why)
	gf := graphFlag{b}
	if err != nil {
		return gf, study.RunRequest{}, usageError{err}
	}
	held := int64(o.trials)
	if si, sk, err := parseShard(o.shard); err == nil {
		held = int64((o.trials - si + sk - 1) / sk)
	}
	return gf, study.RunRequest{Process: desc, Params: params, Engine: o.engine, Spec: spec, N: gf.N,
		Balls: o.balls, Batch: o.batch, Every: o.every, Profile: o.profile,
		Workers: o.workers, Trials: o.trials, Held: held, JSON: o.format == "json",
		Delete: o.dyn.Delete, Steps: o.dyn.Steps, Ops: int64(len(o.dyn.Ops))}, nil
}

// execute runs the trials of cfg (those --resume does not hold already)
// and writes the run's file.
func (o *runOptions) execute(ctx context.Context, cfg alloc.Config, head results.Config, pv *results.PerVertex, trials []int, stdout, stderr io.Writer) error {
	// --resume: keep the trials an earlier output holds, run the rest.
	prev, err := results.ResumeRun(ctx, o.resume, head)
	if err != nil {
		return inputError("--resume: ", err)
	}
	out := results.RunOutput{Head: head, Output: o.output, Format: o.format, Resume: o.resume, PerVertex: pv, Progress: stderr}
	all, err := out.Execute(ctx, stdout, cfg, prev, trials, o.workers)
	if err != nil {
		return err
	}
	err = o.plotShard(ctx, stderr, o.shard, len(all) == 0, func() (*figure.Figure, error) {
		fig, err := results.RunFigure(head, all)
		if err == nil && pv != nil && len(pv.Classes()) > 1 {
			fig.Panels = append(fig.Panels, results.DegreePanel(pv.Classes()))
		}
		return fig, err
	})
	if err != nil {
		return err
	}
	if o.perVertex == "" {
		return nil
	}
	return outfile.Write(ctx, stdout, o.perVertex, pv.WriteCSV)
}
