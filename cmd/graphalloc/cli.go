package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/internal/outfile"
	"github.com/graphalloc/graphalloc/results"
	"github.com/graphalloc/graphalloc/study"
)

// helpTexts are the help texts of the commands, help/NAME.txt, with
// examples; graphalloc.txt is the program's usage.
//
//go:embed help/*.txt
var helpTexts embed.FS

// helpText returns the help of command name; {{processes}} stands for the
// list of processes with their synopses.
func helpText(name string) string {
	b, err := helpTexts.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("graphalloc: no help text for " + name) // a command without its file: a build defect
	}
	return strings.ReplaceAll(string(b), "{{processes}}", processHelp())
}

// newFlags returns the flag set of command name, whose --help prints its
// help text and then the flags.
func newFlags(name string, stdout, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stdout, helpText(name))
		fs.SetOutput(stdout)
		fs.PrintDefaults()
	}
	fs.SortFlags = false
	return fs
}

// parseFlags parses args into fs; a command that takes no arguments
// (maxArgs 0) rejects any.
func parseFlags(fs *pflag.FlagSet, args []string, maxArgs int) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if maxArgs >= 0 && fs.NArg() > maxArgs {
		return usagef("%s: unexpected argument %q", fs.Name(), fs.Arg(maxArgs))
	}
	return nil
}

// checkFormat checks --format against the formats a command writes.
func checkFormat(format string, allowed ...string) error {
	for _, a := range allowed {
		if format == a {
			return nil
		}
	}
	return usagef("--format: unknown format %q (allowed: %s)", format, strings.Join(allowed, ", "))
}

// parseShard is study.ParseShard, whose error is a usage error.
func parseShard(s string) (i, k int, err error) {
	i, k, err = study.ParseShard(s)
	return i, k, wrapUsage(err)
}

// graphFlag is a --graph value with the -n it is built at, built as
// every command builds it.
type graphFlag struct{ study.GraphBuild }

// parseGraph parses a --graph value, and -n for it (study.NewGraphBuild).
func parseGraph(arg, bins string, binsSet bool, maxN int64, why string) (graphFlag, error) {
	spec, err := parseSpec(arg)
	if err != nil {
		return graphFlag{}, err
	}
	b, err := study.NewGraphBuild(spec, bins, binsSet, maxN, why)
	return graphFlag{b}, wrapUsage(err)
}

// parseSpec parses a --graph value.
func parseSpec(arg string) (graphgen.Spec, error) {
	spec, err := graphgen.ParseSpec(arg)
	if err != nil {
		return spec, usagef("--graph: %v%s", err, study.GraphHint(arg))
	}
	return spec, nil
}

// buildContext builds the graph (study.GraphBuild), printing its notes to
// stderr. Errors in the spec or its parameters are usage errors.
// Generation and reading stop once ctx is done, with ctx.Err().
func (g graphFlag) buildContext(ctx context.Context, seed uint64, stderr io.Writer) (graphgen.Graph, *graphgen.BuildInfo, error) {
	g.Sources = memorySources
	gr, info, notes, err := g.Build(ctx, seed)
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, nil, err
	}
	if err != nil {
		return nil, nil, usageError{err}
	}
	for _, note := range notes {
		fmt.Fprintf(stderr, "graphalloc: %s\n", note)
	}
	return gr, info, nil
}

// runFlags are the flags of every command that runs trials: run, compare
// and study.
type runFlags struct {
	trials, workers int
	seed            uint64
	format, output  string
}

// add defines -t (default trials), -s, -w, -f (formats, for the help) and
// -o on fs.
func (o *runFlags) add(fs *pflag.FlagSet, trials int, formats string) {
	help := "independent trials (per point)"
	if trials == 0 {
		help = "trials per point instead of the size's own (0: the size's)"
	}
	fs.IntVarP(&o.trials, "trials", "t", trials, help)
	addSeed(fs, &o.seed)
	fs.IntVarP(&o.workers, "workers", "w", 0, "trials run in parallel (0: one per CPU); never changes results")
	fs.StringVarP(&o.format, "format", "f", "table", "output format: "+formats)
	fs.StringVarP(&o.output, "output", "o", "", outputHelp)
}

// outputHelp is the help of -o.
const outputHelp = "write to FILE instead of stdout: a file atomically (a symlink's target), a device or FIFO in place"

// addSeed defines -s, the seed every random graph and trial derives from.
func addSeed(fs *pflag.FlagSet, seed *uint64) {
	fs.Uint64VarP(seed, "seed", "s", 1, "base seed: the graph and trial i derive from (seed, i) alone")
}

// graphFlagName is the long name of -g (a word that is also the name of the
// graph process).
const graphFlagName = "graph"

// sizeFlags are -g, -n and -m of the commands that take one graph, and
// what the user knows of the graph that the bounds need (--expansion).
type sizeFlags struct {
	graph, bins, balls string
	expansion          float64
}

// addExpansion defines --expansion.
func (o *sizeFlags) addExpansion(fs *pflag.FlagSet) {
	fs.Float64Var(&o.expansion, "expansion", 0, "the graph's edge expansion σ in (0, 1] (min over |S| <= n/2 of |E(S, V∖S)| / (Δ|S|); graphalloc info measures it), for the bounds that need it")
}

// checkExpansion checks --expansion.
func (o *sizeFlags) checkExpansion(fs *pflag.FlagSet) error {
	if fs.Changed("expansion") && !(o.expansion > 0 && o.expansion <= 1) {
		return usagef("--expansion: need 0 < σ <= 1 (degree-normalised), got %g", o.expansion)
	}
	return nil
}

// add defines -g (with its default and help), -n and, if balls, -m.
func (o *sizeFlags) addSizes(fs *pflag.FlagSet, defGraph, graphHelp string, balls bool) {
	fs.StringVarP(&o.graph, graphFlagName, "g", defGraph, graphHelp)
	fs.StringVarP(&o.bins, "bins", "n", "65536", "bins (vertices) n: 1e6, 2^20; for a graph file, its vertex count")
	if balls {
		fs.StringVarP(&o.balls, "balls", "m", "n", "balls m: 1e6, 2^20, or a multiple of n: n, 16n, 0.5n")
	}
}

// checkTrials checks the flags of a command that runs at least one trial
// into a file of results.Formats (run, compare, queue): -f, -t and check.
func (o *runFlags) checkTrials() error {
	if err := checkFormat(o.format, results.Formats...); err != nil {
		return err
	}
	if o.trials < 1 {
		return usagef("--trials: need at least 1 trial, got %d", o.trials)
	}
	return o.check()
}

// check checks the run flags before any work: -w is not negative, and -o
// names a file that can be written.
func (o *runFlags) check() error {
	if o.workers < 0 {
		return usagef("--workers: need 0 (one per CPU) or more, got %d", o.workers)
	}
	return checkOutput("--output", o.output)
}

// checkOutput checks, before any work, that path ("" or "-": stdout) can be
// written (outfile.Check). The error names the flag and the user's path.
func checkOutput(flag, path string) error {
	if err := outfile.Check(path); err != nil {
		return usagef("%s: %v", flag, err)
	}
	return nil
}

// distinct refuses, before any work, an output that would overwrite an
// input or another output (outfile.Distinct).
func distinct(files ...outfile.File) error {
	if err := outfile.Distinct(files...); err != nil {
		return usageError{err}
	}
	return nil
}

// distinctResume refuses, before any work, an output (-o, then more)
// that would overwrite an input (in) or another output, or an output but
// -o that would overwrite the file of --resume, which -o may continue.
func distinctResume(output, resume string, more []outfile.File, in ...outfile.File) error {
	outs := outfile.Outputs(output, more...)
	if err := distinct(slices.Concat(outs, in)...); err != nil || resume == "" {
		return err
	}
	return distinct(slices.Concat(outs[1:], outfile.Inputs("--resume", resume))...)
}

// graphInputs are the files that the graph SPECs read, to keep outputs
// off them.
func graphInputs(specs ...string) []outfile.File {
	var paths []string
	for _, s := range specs {
		if sp, err := graphgen.ParseSpec(s); err == nil && sp.FromFile() {
			paths = append(paths, sp.Path)
		}
	}
	return outfile.Inputs("--graph", paths...)
}
