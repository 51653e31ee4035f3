package graphgen

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Spec is a parsed topology description, the `--graph` argument of the
// command line: KIND[:key=value,key=value,...], for example
//
//	complete                 K_n, implicit
//	cycle                    C_n
//	torus:dim=2              side ⌈n^{1/dim}⌉, n = side^dim (dim defaults to 2;
//	                         an error if that more than doubles n)
//	torus:dim=3,side=10      n = 1000
//	hypercube                n a power of two; or hypercube:dim=10
//	regular:degree=16        random 16-regular
//	regular:eps=0.5          degree ⌈n^ε⌉, made even-compatible with n
//	regular:degree=16,implicit
//	                         random 16-regular multigraph of the permutation
//	                         model (8 keyed permutations and their inverses),
//	                         implicit: O(degree) memory whatever n
//	torus:dim=2,implicit     the torus without adjacency (neighbours by
//	                         arithmetic; its own draw order); also hypercube
//	gnp:p=0.001              Erdős–Rényi G(n, p)
//	gnp:degree=16            G(n, p) with p = 16/(n−1)
//	circulant:degree=16      random Cayley graph of Z_n, implicit
//	nonregular:mindeg=16,core=1024
//	                         a clique on 1024 vertices joined to a random
//	                         16-regular remainder
//	ba:m=4                   Barabási–Albert preferential attachment: a
//	                         clique on 5 vertices, then each new vertex
//	                         joined to 4 distinct earlier ones (m >= 1, m < n)
//	file:graphs/road.txt.gz  (a bare path containing '/' or with a known
//	                          extension also works)
//	file:graphs/x.el,multi   the file as a multigraph: its loops and
//	                         repeated lines kept as edges (ReadOptions.Multi;
//	                         a graphalloc header's multi flag does the same)
//	hyper:graphs/dht.txt     a hypergraph file, one hyperedge per line
//	                         (ReadHypergraph); Build makes a *Hypergraph
//	hypergraph:rank=4,edges=100000
//	                         k random 4-subsets of the n vertices
//	                         (RandomUniformHypergraph)
//
// Every kind but file and hyper accepts n=N to fix the vertex count instead of taking
// it from the run.
type Spec struct {
	Kind   string
	Params map[string]string
	Path   string // for Kind "file" and "hyper"
	// Text is the text ParseSpec read, as the user wrote it (String is
	// the canonical form): what a file that lists the user's specs
	// records. "" for a Spec not parsed.
	Text string
}

// FromFile reports whether s reads a file (file:PATH, hyper:PATH), whose
// order is the file's.
func (s Spec) FromFile() bool { return s.Kind == "file" || s.Kind == "hyper" }

// OrderLimit returns the most vertices a graph of spec s may have: 2^62
// (MaxCompleteOrder) for complete, MaxImplicitOrder for the implicit
// graphs that index vertices with 64 bits (regular:…,implicit,
// torus:…,implicit, hypercube:implicit), MaxOrder (the 32-bit vertex ids
// of a CSR) for the rest. Plan and Build refuse a larger n; memory may
// refuse one before.
func (s Spec) OrderLimit() int {
	switch {
	case s.Kind == "complete":
		return MaxCompleteOrder
	case s.Params["implicit"] == "true" && (s.Kind == "regular" || s.Kind == "torus" || s.Kind == "hypercube"):
		return MaxImplicitOrder
	}
	return MaxOrder
}

// Multi reports whether s reads its file as a multigraph (file:PATH,multi).
func (s Spec) Multi() bool { return s.Kind == "file" && s.Params["multi"] == "true" }

// Hyper reports whether Build makes a *Hypergraph (hyper:PATH,
// hypergraph:...).
func (s Spec) Hyper() bool { return s.Kind == "hyper" || s.Kind == "hypergraph" }

// kinds lists the accepted kinds and their keys.
var kinds = map[string][]string{
	"complete":   {"n"},
	"cycle":      {"n"},
	"torus":      {"n", "dim", "side", "implicit"},
	"hypercube":  {"n", "dim", "implicit"},
	"regular":    {"n", "degree", "eps", "implicit"},
	"gnp":        {"n", "p", "degree"},
	"circulant":  {"n", "degree"},
	"nonregular": {"n", "mindeg", "core"},
	"ba":         {"n", "m"},
	"hypergraph": {"n", "rank", "edges"},
	"file":       nil,
	"hyper":      nil,
}

// flagKeys are the keys written bare, without a value ("implicit").
var flagKeys = map[string]bool{"implicit": true}

// Kinds returns the accepted kinds, sorted.
func Kinds() []string {
	ks := make([]string, 0, len(kinds))
	for k := range kinds {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

var fileExts = []string{".txt", ".el", ".edges", ".edgelist", ".mtx", ".gz", ".tsv"}

// ParseSpec parses a topology description. It returns an error naming the
// problem and what is accepted for an unknown kind, an unknown or repeated
// key, or a malformed key=value pair.
func ParseSpec(s string) (Spec, error) {
	sp, err := parseSpec(strings.TrimSpace(s))
	if err != nil {
		return Spec{}, err
	}
	sp.Text = strings.TrimSpace(s)
	return sp, nil
}

// Given is the spec as the user wrote it (Text), or, for one not parsed,
// its canonical form.
func (s Spec) Given() string {
	if s.Text != "" {
		return s.Text
	}
	return s.String()
}

// parseSpec is ParseSpec of a trimmed s.
func parseSpec(s string) (Spec, error) {
	if s == "" {
		return Spec{}, fmt.Errorf("graphgen: empty graph spec (kinds: %s)", strings.Join(Kinds(), ", "))
	}
	kind, rest, hasParams := strings.Cut(s, ":")
	if kind == "file" || kind == "hyper" {
		path, multi := strings.CutSuffix(rest, ",multi")
		if path == "" {
			return Spec{}, fmt.Errorf("graphgen: graph spec %q needs a path after %s:", s, kind)
		}
		if multi && kind == "file" {
			return Spec{Kind: kind, Path: path, Params: map[string]string{"multi": "true"}}, nil
		}
		return Spec{Kind: kind, Path: rest}, nil
	}
	if _, ok := kinds[kind]; !ok {
		if strings.Contains(s, "/") || slices.Contains(fileExts, strings.ToLower(filepath.Ext(s))) {
			return Spec{Kind: "file", Path: s}, nil
		}
		return Spec{}, fmt.Errorf("graphgen: unknown graph kind %q (kinds: %s; or file:PATH)", kind, strings.Join(Kinds(), ", "))
	}
	sp := Spec{Kind: kind, Params: map[string]string{}}
	if !hasParams {
		return sp, nil
	}
	for kv := range strings.SplitSeq(rest, ",") {
		k, v, ok := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if flagKeys[k] {
			// A flag: the bare key, stored as "true".
			if ok {
				return Spec{}, fmt.Errorf("graphgen: graph spec %q: %s takes no value", s, k)
			}
			ok, v = true, "true"
		}
		if !ok || k == "" || v == "" {
			return Spec{}, fmt.Errorf("graphgen: graph spec %q: %q is not key=value", s, kv)
		}
		if !slices.Contains(kinds[kind], k) {
			return Spec{}, fmt.Errorf("graphgen: graph kind %s has no key %q (keys: %s)", kind, k, strings.Join(kinds[kind], ", "))
		}
		if _, dup := sp.Params[k]; dup {
			return Spec{}, fmt.Errorf("graphgen: graph spec %q sets %s twice", s, k)
		}
		sp.Params[k] = v
	}
	return sp, nil
}

// String returns the canonical form of s, with the keys sorted.
func (s Spec) String() string {
	if s.FromFile() {
		if s.Multi() {
			return s.Kind + ":" + s.Path + ",multi"
		}
		return s.Kind + ":" + s.Path
	}
	keys := make([]string, 0, len(s.Params))
	for k := range s.Params {
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return s.Kind
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteString(s.Kind)
	for i, k := range keys {
		b.WriteByte(":,"[min(i, 1)])
		if flagKeys[k] {
			b.WriteString(k)
			continue
		}
		b.WriteString(k + "=" + s.Params[k])
	}
	return b.String()
}

// BuildInfo says what Build made.
type BuildInfo struct {
	N      int      // vertices
	Edges  int64    // undirected edges
	Degree int      // Δ for regular kinds, -1 otherwise
	Notes  []string // adjustments made, in words
	// Regular says how a random regular graph was made (regular).
	Regular *RegularStats
	// File describes the file read (file): format, dropped self-loops
	// and duplicate edges.
	File *FileInfo
	// Dim and Side are the dimension and side of a torus (Side = 2 for a
	// hypercube); 0 for other kinds.
	Dim, Side int
	// P is the edge probability of gnp; 0 for other kinds.
	P float64
	// Nonregular says how a nonregular graph was made: core size, core
	// edge fraction, join edges, and how the remainder was made.
	Nonregular *NonregularStats
}

// Build makes the graph s describes on n vertices (unless s sets n or reads
// a file), drawing randomness from src. It takes its parameters from
// s.Plan(n), and returns Plan's error if the spec does not fit n.
//
// A file is read with LoadGraph, and must hold at least one edge: a file
// without (empty, only comments, only self-loops, a header declaring no
// edges) is an error wrapping ErrNoEdges, which says "FILE has no edges"
// and why, since no topology is made of isolated vertices. A generated
// graph may have no edges (gnp:p=0); the processes that need one say so.
// A hypergraph (hyper:PATH, read with LoadHypergraph, which must hold a
// hyperedge; hypergraph:rank=s,edges=k) is a *Hypergraph, and the
// BuildInfo's Edges counts its hyperedges.
func (s Spec) Build(n int, src rand.Source) (Graph, *BuildInfo, error) {
	return s.BuildContext(context.Background(), n, src, ReadOptions{})
}

// BuildContext is Build under a context and read options. It stops once
// ctx is done and returns ctx.Err(): the generators look at ctx every few
// thousand vertices or edges they make, and a file is read with
// o.Context = ctx (see ReadOptions), so a FIFO that no one writes is
// abandoned too. A graph or hypergraph file is read under o, so within
// o.MaxBytes if that is set, whatever its size or a header claims, and
// as a multigraph if o.Multi or the spec's multi key asks.
func (s Spec) BuildContext(ctx context.Context, n int, src rand.Source, o ReadOptions) (Graph, *BuildInfo, error) {
	o.Context = ctx
	o.Multi = o.Multi || s.Multi()
	switch s.Kind {
	case "file":
		return s.buildFile(func(path string) (Graph, *FileInfo, error) { return o.LoadGraph(path) })
	case "hyper":
		return s.buildHyper(o)
	}
	stop := newStopper(ctx)
	g, info, err := s.generate(stop, n, src)
	if err != nil && stop.err() != nil {
		return nil, nil, stop.err()
	}
	return g, info, err
}

// buildHyper reads the hypergraph file of s under o.
func (s Spec) buildHyper(o ReadOptions) (Graph, *BuildInfo, error) {
	h, fi, err := o.LoadHypergraph(s.Path)
	if err != nil {
		return nil, nil, err
	}
	if h.Size() == 0 {
		return nil, nil, fmt.Errorf("graphgen: %s has no hyperedges: %d lines, all comments or blank", fi.Name, fi.Lines)
	}
	info := &BuildInfo{Degree: -1, N: h.Order(), Edges: h.Size(), File: fi}
	if fi.Repeats > 0 {
		info.Notes = append(info.Notes, fmt.Sprintf("dropped %d vertex ids repeated within a hyperedge line", fi.Repeats))
	}
	return h, info, nil
}

// generate makes the graph of a generated kind, polling stop.
func (s Spec) generate(stop *stopper, n int, src rand.Source) (Graph, *BuildInfo, error) {
	info := &BuildInfo{Degree: -1}
	p, err := s.Plan(n)
	if err != nil {
		return nil, nil, err
	}
	n = p.N
	info.N, info.Notes = n, p.Notes
	var g Graph
	switch s.Kind {
	case "complete":
		g, err = NewComplete(n)
		info.Degree = n - 1
	case "cycle":
		g, err = cycle(stop, n)
		if n > 2 {
			info.Degree = 2
		}
	case "torus":
		if p.Implicit {
			g, err = NewTorusLattice(p.Dim, p.Side)
		} else {
			g, err = torus(stop, p.Dim, p.Side)
		}
		info.Degree, info.Dim, info.Side = p.MaxDegree, p.Dim, p.Side
	case "hypercube":
		if p.Implicit {
			g, err = NewHypercubeLattice(p.Dim)
		} else {
			g, err = hypercube(stop, p.Dim)
		}
		info.Degree, info.Dim, info.Side = p.MaxDegree, p.Dim, p.Side
	case "regular":
		if p.Implicit {
			g, err = NewPermutationRegular(n, p.MaxDegree, src)
			info.Degree = p.MaxDegree
			break
		}
		var st RegularStats
		g, st, err = randomRegular(stop, n, p.MaxDegree, src)
		info.Degree, info.Regular = p.MaxDegree, &st
	case "gnp":
		g, err = gnp(stop, n, p.P, src)
		info.P = p.P
		if err == nil {
			if iso := isolated(g); iso > 0 {
				info.Notes = append(info.Notes, fmt.Sprintf("%d of %d vertices are isolated (degree 0): "+
					"no edge reaches them, and under vertex sampling they keep every ball they draw", iso, n))
			}
		}
	case "circulant":
		g, err = RandomCirculant(n, p.MaxDegree, src)
		info.Degree = p.MaxDegree
	case "nonregular":
		var st NonregularStats
		g, st, err = nonregular(stop, n, p.MinDegree, p.Core, src)
		info.Nonregular = &st
	case "ba":
		g, err = barabasiAlbert(stop, n, p.MinDegree, src)
	case "hypergraph":
		g, err = randomUniformHypergraph(stop, n, p.MinRank, int(p.Edges), src)
	}
	if err != nil {
		return nil, nil, err
	}
	info.Edges = g.Size()
	return g, info, nil
}

// BuildEdges is Build for a caller that draws only uniform edges of the
// graph, such as the graph process under edge sampling: a graph file is
// read by o.LoadEdges, which holds an edge list as an *EdgeArray (8 bytes
// an edge), within o.MaxBytes if it is set; a regular graph as a CSR if
// it fits, else with a note saying that its draws then differ. Every
// other spec is built as Build builds it.
func (s Spec) BuildEdges(n int, src rand.Source, o ReadOptions) (Graph, *BuildInfo, error) {
	return s.BuildEdgesContext(context.Background(), n, src, o)
}

// BuildEdgesContext is BuildEdges under a context, as BuildContext is
// Build.
func (s Spec) BuildEdgesContext(ctx context.Context, n int, src rand.Source, o ReadOptions) (Graph, *BuildInfo, error) {
	o.Multi = o.Multi || s.Multi()
	if s.Kind == "file" {
		o.Context = ctx
		return s.buildFile(o.LoadEdges)
	}
	return s.BuildContext(ctx, n, src, o)
}

// buildFile reads the graph file of s with load.
func (s Spec) buildFile(load func(path string) (Graph, *FileInfo, error)) (Graph, *BuildInfo, error) {
	g, fi, err := load(s.Path)
	if err != nil {
		return nil, nil, err
	}
	if g.Size() == 0 {
		return nil, nil, noEdges(fi)
	}
	info := &BuildInfo{Degree: -1, N: g.Order(), Edges: g.Size(), File: fi}
	if e, ok := g.(*EdgeArray); ok {
		if lo, hi := e.DegreeRange(); lo == hi {
			info.Notes = append(info.Notes, fmt.Sprintf("the graph is %d-regular, but its rows do not fit in memory beside its edges: edges are drawn from its edge array, with the same law as from its rows but not the same draws (a run on a smaller graph, or on the spec it was generated from, draws from its rows)", lo))
		}
	}
	return g, info, nil
}

// ErrNoEdges is what the error of Spec.Build for a graph file without
// edges wraps, for errors.Is.
var ErrNoEdges = errors.New("graph file has no edges")

// noEdgesError says that a file read as fi has no edges, and why.
type noEdgesError struct{ fi *FileInfo }

func noEdges(fi *FileInfo) error { return &noEdgesError{fi} }

func (e *noEdgesError) Error() string {
	fi := e.fi
	var why string
	switch {
	case fi.SelfLoops == 1: // with no edge, no line is a duplicate
		why = "its one edge line is a self-loop, which is dropped"
	case fi.SelfLoops > 1:
		why = fmt.Sprintf("its %d edge lines are all self-loops, which are dropped", fi.SelfLoops)
	case fi.Format == FormatMatrixMarket:
		why = "its size line declares 0 entries"
	case fi.Vertices > 0:
		why = fmt.Sprintf("its graphalloc header declares n=%d edges=0", fi.Vertices)
	case fi.Lines == 0 && fi.Gzip:
		why = "it is empty once decompressed"
	case fi.Lines == 0:
		why = "it is empty"
	case fi.Lines == 1:
		why = "its one line is a comment or blank"
	default:
		why = fmt.Sprintf("its %d lines are all comments or blank", fi.Lines)
	}
	return fmt.Sprintf("graphgen: %s has no edges: %s", fi.Name, why)
}

func (e *noEdgesError) Is(target error) bool { return target == ErrNoEdges }

func (s Spec) intParam(key, v string) (int, error) {
	limit := int64(MaxOrder)
	if key == "n" {
		limit = int64(s.OrderLimit())
	}
	x, err := strconv.ParseInt(v, 10, 64)
	if err != nil || x < 0 || x > limit {
		return 0, fmt.Errorf("graphgen: %s:%s needs an integer in [0, %d], got %q", s.Kind, key, limit, v)
	}
	return int(x), nil
}

// isolated counts the vertices of g of degree 0.
func isolated(g Graph) int {
	k := 0
	for v := range g.Order() {
		if g.Degree(v) == 0 {
			k++
		}
	}
	return k
}

// MarshalText writes s as String does, the form ParseSpec reads back.
func (s Spec) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a spec (ParseSpec).
func (s *Spec) UnmarshalText(b []byte) (err error) {
	*s, err = ParseSpec(string(b))
	return err
}

// MustParseSpec is ParseSpec for a spec known to be good, such as a
// literal; it panics if s is not one.
func MustParseSpec(s string) Spec {
	sp, err := ParseSpec(s)
	if err != nil {
		panic(err)
	}
	return sp
}
