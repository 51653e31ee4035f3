package study

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/analysis"
	"github.com/graphalloc/graphalloc/graphgen"
)

// GraphHint is what a -g that is a number was likely meant to be, said
// after the spec's error: the threshold --g of the processes that read
// one, one dash short; "" for any other value.
func GraphHint(arg string) string {
	v := strings.TrimSpace(arg)
	if _, err := strconv.ParseFloat(v, 64); err != nil {
		return ""
	}
	return fmt.Sprintf("; -g is the graph: the threshold of -p %s is --g %s", strings.Join(alloc.Readers(alloc.ParamG), ", -p "), v)
}

// GraphBuild is a topology to build as every command builds it: from the
// graph stream of a seed, once its parameters and its memory are checked
// (the memory guard, MemorySources.Check).
type GraphBuild struct {
	Spec graphgen.Spec
	N    int64 // the requested n; 0 for a file read without one
	// MaxMemory is --max-memory (0: the memory available); Extra is what
	// the command holds beside the graph.
	MaxMemory, Extra int64
	// Lean: the process draws only uniform edges, so a graph file is held
	// as its edge array alone (graphgen.Spec.BuildEdges).
	Lean bool
	// Alone: the graph is what the command holds (info, gen), not a
	// run's; its refusal says so.
	Alone   bool
	Sources MemorySources // where the memory limits are read
}

// CheckDescribe checks, once g is built from b, what describing it takes
// beside it (analysis.DescribeBytes, and the graph itself when
// b.MaxMemory counts it) against b.MaxMemory or the limits of sources,
// for a spec whose edges only the build tells (the check "again" of
// analysis.PlannedDescribeBytes); nil for any other, and a hypergraph.
func (b GraphBuild) CheckDescribe(g graphgen.Graph, sources MemorySources) error {
	_, hyper := g.(*graphgen.Hypergraph)
	if _, again := analysis.PlannedDescribeBytes(b.Spec, int(b.N)); !again || hyper {
		return nil
	}
	need := analysis.DescribeBytes(int64(g.Order()), g.Size(), false)
	if plan, _ := b.Spec.Plan(int(b.N)); b.MaxMemory > 0 {
		need += plan.Bytes // the graph, held; the memory available has counted it already
	}
	return sources.Check("this graph", need, "", b.MaxMemory)
}

// NewGraphBuild is the build of topology spec at the bins n it is built
// at: n from bins, unless the spec is a file and bins was not given
// (binsSet), in [1, maxN], why saying what bounds it. Its errors name the
// CLI's --graph and --bins.
func NewGraphBuild(spec graphgen.Spec, bins string, binsSet bool, maxN int64, why string) (GraphBuild, error) {
	var err error
	b := GraphBuild{Spec: spec}
	if !spec.FromFile() || binsSet {
		if b.N, err = ParseCount(bins, 0); err != nil {
			return b, fmt.Errorf("--bins: %v", err)
		}
		if b.N < 1 || b.N > maxN {
			return b, fmt.Errorf("--bins: need 1 <= n <= %d (%s), got %d", maxN, why, b.N)
		}
	}
	// A spec's own n= (up to 2^40 for the implicit graphs, 2^62 for
	// complete) has the same limit as -n.
	if plan, err := spec.Plan(int(b.N)); err == nil && int64(plan.N) > maxN {
		return b, fmt.Errorf("--graph: %s has n=%d vertices; need n <= %d (%s)", spec, plan.N, maxN, why)
	}
	return b, nil
}

// Build builds the graph and returns it, what the build reports, and the
// notes for the user, one line each. Its errors are the input's, except
// ctx.Err() once ctx is done: generation and reading stop then.
func (b GraphBuild) Build(ctx context.Context, seed uint64) (graphgen.Graph, *graphgen.BuildInfo, []string, error) {
	plan, err := b.Spec.Plan(int(b.N))
	if err != nil {
		return nil, nil, nil, err
	}
	need := plan.BuildBytes
	if b.Lean {
		need = plan.LeanBytes
	}
	subject := "this run"
	if b.Alone {
		subject = "this graph"
	}
	if err := b.Sources.Check(subject, need+b.Extra, "", b.MaxMemory); err != nil {
		return nil, nil, nil, err
	}
	src := alloc.NewRand(alloc.DeriveSeed(seed, alloc.StreamGraph, 0))
	var (
		gr   graphgen.Graph
		info *graphgen.BuildInfo
	)
	// A file's reader holds to half the memory the command leaves it,
	// whatever the file's size or header claimed: it counts what it keeps,
	// and the heap holds that and the garbage of growing it (the collector
	// lets the heap reach twice what is live).
	var o graphgen.ReadOptions
	if limit, _, ok := b.Sources.LimitOf(b.MaxMemory); ok && b.Spec.FromFile() {
		o.MaxBytes = max((limit-b.Extra)/2, 1)
	}
	if b.Lean {
		gr, info, err = b.Spec.BuildEdgesContext(ctx, int(b.N), src, o)
	} else {
		gr, info, err = b.Spec.BuildContext(ctx, int(b.N), src, o)
	}
	if ctx.Err() != nil {
		return nil, nil, nil, ctx.Err()
	}
	if err != nil {
		return nil, nil, nil, err
	}
	// A generated graph states its own n (a torus rounds n up to side^dim,
	// and says so in a note); for a file, n is a check.
	if b.N != 0 && b.Spec.FromFile() && int64(gr.Order()) != b.N {
		return nil, nil, nil, fmt.Errorf("--bins: n=%d but graph %s has %d vertices", b.N, b.Spec, gr.Order())
	}
	var notes []string
	for _, note := range info.Notes {
		notes = append(notes, fmt.Sprintf("%s: %s", b.Spec, note))
	}
	switch f := info.File; {
	case f == nil || (f.SelfLoops == 0 && f.Duplicates == 0):
	case f.Multi:
		notes = append(notes, fmt.Sprintf("%s: a multigraph: kept %d self-loops and %d parallel edges", b.Spec.Path, f.SelfLoops, f.Duplicates))
	default:
		notes = append(notes, fmt.Sprintf("%s: dropped %d self-loops and %d duplicate edges", b.Spec.Path, f.SelfLoops, f.Duplicates))
	}
	return gr, info, notes, nil
}
