package analysis

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/graphalloc/graphalloc/graphgen"
)

// Info is what graphalloc info reports of a graph (its JSON output): the spec, how the graph was made,
// and the statistics of GraphStats at the top level.
type Info struct {
	Graph string `json:"graph"`
	Seed  uint64 `json:"seed,omitempty"`
	Made  Made   `json:"made"`
	GraphStats
	// ExpansionForBounds is what GraphStats.FillQuery passes to
	// the bounds as Expansion (0: unknown).
	ExpansionForBounds float64 `json:"expansion_for_bounds"`
}

// NewInfo describes graph g, built from spec with build info info, as
// info reports it: its statistics (DescribeWith with o; a generated
// graph's own plan lets a torus or hypercube be recognised, and given its
// closed form), how it was made, and the expansion the bounds take from
// it. It returns o.Context's error if the description was cut short.
func NewInfo(spec graphgen.Spec, g graphgen.Graph, info *graphgen.BuildInfo, o DescribeOptions) (Info, error) {
	if spec.Kind != "file" {
		if plan, err := spec.Plan(g.Order()); err == nil {
			o.Plan = &plan
		}
	}
	st := DescribeWith(g, o)
	if o.Context != nil && o.Context.Err() != nil {
		return Info{}, o.Context.Err()
	}
	var q Query
	st.FillQuery(&q)
	return Info{Graph: spec.String(), GraphStats: st, Made: NewMade(spec, g, info), ExpansionForBounds: q.Expansion}, nil
}

// Made says how a graph was made; only the fields of its kind are set.
type Made struct {
	Kind  string   `json:"kind"`
	Notes []string `json:"notes,omitempty"`
	// regular
	PairingAttempts int   `json:"pairing_attempts,omitempty"`
	Switches        int64 `json:"switches,omitempty"`
	Complement      bool  `json:"complement,omitempty"`
	// Permutations is d = Δ/2 for the permutation model
	// (regular:degree=D,implicit: graphgen.PermutationRegular), whose loops
	// and parallel edges GraphStats counts.
	Permutations int `json:"permutations,omitempty"`
	// Multi says that a file was read as a multigraph (file:PATH,multi or
	// the header's multi flag): its loops and parallel edges, counted in
	// GraphStats, were kept, and nothing was dropped.
	Multi bool `json:"multi,omitempty"`
	// torus, hypercube
	Dim  int `json:"dim,omitempty"`
	Side int `json:"side,omitempty"`
	// gnp
	P float64 `json:"p,omitempty"`
	// circulant (the connection set when it has at most 64 elements)
	ConnectionSet []uint32 `json:"connection_set,omitempty"`
	// nonregular
	Core                int     `json:"core,omitempty"`
	CoreEdges           int64   `json:"core_edges,omitempty"`
	JoinEdges           int64   `json:"join_edges,omitempty"`
	CoreFraction        float64 `json:"core_fraction,omitempty"`
	RemainderComponents int     `json:"remainder_components,omitempty"`
	// file
	Path       string `json:"path,omitempty"`
	Format     string `json:"format,omitempty"`
	Gzip       bool   `json:"gzip,omitempty"`
	Lines      int    `json:"lines,omitempty"`
	SelfLoops  int64  `json:"self_loops_dropped,omitempty"`
	Duplicates int64  `json:"duplicates_dropped,omitempty"`
}

// NewMade is how g was made from spec, from Build's info.
func NewMade(spec graphgen.Spec, g graphgen.Graph, info *graphgen.BuildInfo) Made {
	m := Made{Kind: spec.Kind, Notes: info.Notes, Dim: info.Dim, Side: info.Side, P: info.P}
	if r := info.Regular; r != nil {
		m.PairingAttempts, m.Switches, m.Complement = r.PairingAttempts, r.Switches, r.Complement
	}
	if p, ok := g.(graphgen.PermutationRegular); ok {
		m.Permutations = p.Permutations()
	}
	if c, ok := g.(graphgen.Circulant); ok && c.Degree(0) <= 64 {
		m.ConnectionSet = c.ConnectionSet()
	}
	if nr := info.Nonregular; nr != nil {
		m.Core, m.CoreEdges, m.JoinEdges, m.CoreFraction, m.RemainderComponents = nr.Core, nr.CoreEdges, nr.JoinEdges, nr.CoreFraction, nr.RemainderComponents
		m.PairingAttempts, m.Switches, m.Complement = nr.Remainder.PairingAttempts, nr.Remainder.Switches, nr.Remainder.Complement
	}
	if f := info.File; f != nil {
		m.Path, m.Format, m.Gzip, m.Lines, m.Multi = spec.Path, f.Format, f.Gzip, f.Lines, f.Multi
		if !f.Multi {
			m.SelfLoops, m.Duplicates = f.SelfLoops, f.Duplicates
		}
	}
	return m
}

// madeLine says in words how the graph was made.
func madeLine(o Info) string {
	m := o.Made
	if m.Format == graphgen.FormatHyper {
		s := fmt.Sprintf("read from %s (hyperedge list", m.Path)
		if m.Gzip {
			s += ", gzip"
		}
		return s + fmt.Sprintf(", %s)", plural(m.Lines, "line"))
	}
	switch m.Kind {
	case "complete":
		return "K_n, implicit (no edges stored)"
	case "cycle":
		return "the cycle C_n"
	case "torus":
		return fmt.Sprintf("%d-dimensional torus, side %d", m.Dim, m.Side)
	case "hypercube":
		return fmt.Sprintf("%d-dimensional hypercube", m.Dim)
	case "regular":
		if m.Permutations > 0 {
			return fmt.Sprintf("random %d-regular multigraph, permutation model: the %d keyed permutations π_j and their inverses, edges {u, π_j(u)}; %s", o.MaxDegree, m.Permutations, multiCounts(o.GraphStats))
		}
		s := fmt.Sprintf("random %d-regular: %s drawn, %d switches", o.MaxDegree, plural(m.PairingAttempts, "pairing"), m.Switches)
		if m.Complement {
			s += ", as the complement of a sparser random regular graph"
		}
		return s
	case "gnp":
		return fmt.Sprintf("Erdős–Rényi G(n, p), p = %.6g (expected mean degree %.4g)", m.P, m.P*float64(o.N-1))
	case "circulant":
		s := fmt.Sprintf("random circulant (Cayley graph of Z_n), implicit, degree %d", o.MaxDegree)
		if m.ConnectionSet != nil {
			s += fmt.Sprintf(", S = %v", m.ConnectionSet)
		}
		return s
	case "nonregular":
		return fmt.Sprintf("clique core on %d vertices (%d edges, fraction f = %.4f of all edges) joined by %d edges to a random %d-regular remainder (%s; %s drawn, %d switches)",
			m.Core, m.CoreEdges, m.CoreFraction, m.JoinEdges, o.MinDegree, plural(m.RemainderComponents, "component"), plural(m.PairingAttempts, "pairing"), m.Switches)
	case "hypergraph":
		return "random uniform hypergraph: each hyperedge a uniform subset of the vertices"
	case "file":
		s := fmt.Sprintf("read from %s (%s", m.Path, m.Format)
		if m.Gzip {
			s += ", gzip"
		}
		if m.Multi {
			return s + fmt.Sprintf(", %s) as a multigraph: %s", plural(m.Lines, "line"), multiCounts(o.GraphStats))
		}
		return s + fmt.Sprintf(", %s): dropped %s and %s", plural(m.Lines, "line"), plural(int(m.SelfLoops), "self-loop"), plural(int(m.Duplicates), "duplicate edge"))
	}
	return m.Kind
}

// multiCounts says what a multigraph holds beside a simple graph's edges.
func multiCounts(st GraphStats) string {
	return fmt.Sprintf("%s and %s, kept (a loop counts 2 towards its vertex's degree)", plural(int(st.Loops), "loop"), plural(int(st.Parallel), "parallel edge"))
}

func plural(k int, word string) string {
	if k == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", k, word)
}

func (o Info) WriteTable(w io.Writer, tol float64) {
	st, sp := o.GraphStats, o.Spectral
	fmt.Fprintf(w, "graph:        %s", o.Graph)
	if o.Seed != 0 {
		fmt.Fprintf(w, " (seed %d)", o.Seed)
	}
	fmt.Fprintf(w, "\nmade:         %s\n", madeLine(o))
	for _, note := range o.Made.Notes {
		fmt.Fprintf(w, "note:         %s\n", note)
	}
	fmt.Fprintf(w, "vertices:     %d\n", st.N)
	fmt.Fprintf(w, "edges:        %d\n", st.Edges)
	reg := "not regular"
	if st.Regular {
		reg = fmt.Sprintf("%d-regular", st.MaxDegree)
	}
	fmt.Fprintf(w, "degree:       min %d, mean %.4g, max %d (%s)\n", st.MinDegree, st.MeanDegree, st.MaxDegree, reg)
	if st.Isolated > 0 {
		fmt.Fprintf(w, "isolated:     %d vertices of degree 0\n", st.Isolated)
	}
	conn := "connected"
	if st.Components != 1 {
		conn = fmt.Sprintf("largest has %d vertices", st.LargestComponent)
	}
	fmt.Fprintf(w, "components:   %d (%s)\n", st.Components, conn)
	if o.Made.Kind == "nonregular" {
		// [KP06]: under edge sampling the core keeps about m·f balls.
		fmt.Fprintf(w, "core load:    m·f/c = %.4g balls per core vertex at m = n (average 1) [KP06]\n", float64(st.N)*o.Made.CoreFraction/float64(o.Made.Core))
	}
	switch sp.Method {
	case SpectralNone:
		fmt.Fprintf(w, "spectrum:     not computed: %s\n", sp.Note)
		return
	case SpectralDisconnected:
		fmt.Fprintf(w, "spectrum:     disconnected: μ₂ = 1, gap 0, expansion σ = 0\n")
		return
	}
	fmt.Fprintf(w, "spectral gap: %s\n", gapLine(sp, tol))
	if sp.Certified {
		fmt.Fprintf(w, "expansion:    Cheeger %s ≤ σ ≤ %s", sigDigits(sp.ExpansionLower, 4, false), sigDigits(sp.ExpansionUpper, 4, true))
	} else {
		fmt.Fprintf(w, "expansion:    σ ≤ %s (Cheeger; no certified lower bound)", sigDigits(sp.ExpansionUpper, 4, true))
	}
	if sp.ExpansionExact {
		fmt.Fprintf(w, "; exactly σ = %.6g", sp.Expansion)
	}
	fmt.Fprintln(w)
	if c := sp.Sweep; c != nil {
		fmt.Fprintf(w, "sweep cut:    σ ≤ %s (|S| = %d, %d edges leave S)\n", sigDigits(c.Conductance, 4, true), c.Size, c.Cut)
	}
	switch {
	case o.ExpansionForBounds > 0:
		what := "the certified Cheeger lower bound gap/2"
		if sp.ExpansionExact {
			what = "exact"
		}
		fmt.Fprintf(w, "for bounds:   Expansion = %s (%s)\n", sigDigits(o.ExpansionForBounds, 4, false), what)
	case !st.Regular:
		fmt.Fprintf(w, "for bounds:   no Expansion (the expansion bounds are stated for regular graphs)\n")
	default:
		fmt.Fprintf(w, "for bounds:   no Expansion (the gap's lower end is not certified)\n")
	}
	if strings.Contains(sp.Note, "circulant") {
		fmt.Fprintf(w, "note:         %s\n", sp.Note)
	}
}

// gapLine says what is known of the spectral gap: the exact value, or the
// certified interval [lower, upper] with how it was certified and whether
// it is narrower than tol, or only the upper end.
func gapLine(sp Spectral, tol float64) string {
	mu := fmt.Sprintf("μ₂ = %.6g of the random walk", sp.Lambda2)
	if sp.Method == SpectralExact {
		return fmt.Sprintf("%.6g (exact; %s)", sp.Gap, mu)
	}
	lanczos := fmt.Sprintf("Lanczos, %s", plural(sp.Iterations, "step"))
	if sp.FilterDegree > 0 {
		lanczos += fmt.Sprintf(", test %s", plural(sp.FilterDegree, "step"))
	}
	if !sp.Certified {
		return fmt.Sprintf("≤ %s, lower end NOT certified (%s; %s): %s", sigDigits(sp.GapUpper, 7, true), lanczos, mu, sp.Note)
	}
	how := sp.Certificate
	if sp.Certificate == CertChebyshev {
		how = fmt.Sprintf("a %s, failure probability ≤ %.2g", sp.Certificate, sp.FailureProb)
	}
	width := (sp.GapUpper - sp.GapLower) / sp.GapLower
	conv := fmt.Sprintf("converged: width %.2g ≤ tol %.2g relative", width, tol)
	if !sp.Converged {
		conv = fmt.Sprintf("NOT converged: width %.2g > tol %.2g relative (raise --max-iter)", width, tol)
	}
	return fmt.Sprintf("[%s, %s] certified by %s; %s (%s; %s)", sigDigits(sp.GapLower, 7, false), sigDigits(sp.GapUpper, 7, true), how, conv, lanczos, mu)
}

// sigDigits prints x ≥ 0 with k significant digits, rounded up or down
// (never to nearest), so that a printed bound stays a bound: the nearest
// k-digit decimal, moved by one unit in its last digit if it lies on the
// wrong side of x.
func sigDigits(x float64, k int, up bool) string {
	if !(x > 0) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', k, 64)
	}
	e := strconv.FormatFloat(x, 'e', k-1, 64) // d.ddd…e±XX
	mant, exp, _ := strings.Cut(e, "e")
	m, _ := strconv.ParseInt(strings.Replace(mant, ".", "", 1), 10, 64)
	p, _ := strconv.Atoi(exp)
	p -= k - 1 // the value is m·10^p
	v, _ := strconv.ParseFloat(fmt.Sprintf("%de%d", m, p), 64)
	switch {
	case up && v < x:
		m++
	case !up && v > x:
		m--
		if m < int64(math.Pow10(k-1)) { // 1000e-3 became 999e-3: keep k digits
			m, p = 10*m+9, p-1
		}
	}
	v, _ = strconv.ParseFloat(fmt.Sprintf("%de%d", m, p), 64)
	return fmt.Sprintf("%#.*g", k, v) // trailing zeros kept: k digits
}

// HyperInfo is the output of info on a hypergraph: vertices,
// hyperedges, their sizes (the rank) and the vertex degrees (hyperedges
// at a vertex). The spectral statistics of graphs are not computed.
type HyperInfo struct {
	Graph      string  `json:"graph"`
	Seed       uint64  `json:"seed,omitempty"`
	Made       Made    `json:"made"`
	N          int     `json:"n"`
	Hyperedges int64   `json:"hyperedges"`
	MinRank    int     `json:"min_rank"`
	MeanRank   float64 `json:"mean_rank"`
	MaxRank    int     `json:"max_rank"`
	MinDegree  int     `json:"min_degree"`
	MeanDegree float64 `json:"mean_degree"`
	MaxDegree  int     `json:"max_degree"`
	Isolated   int     `json:"isolated"`
	// Balance is MaxDegree/MeanDegree, what the bounds take as
	// [God08]'s balance (Query.Balance).
	Balance float64 `json:"balance"`
}

// NewHyperInfo describes hypergraph h, built from spec: vertices,
// hyperedges, their sizes (the rank), the vertex degrees and how h was
// made. The seed is the caller's to set (for a spec that is not a file).
func NewHyperInfo(spec graphgen.Spec, h *graphgen.Hypergraph, info *graphgen.BuildInfo) HyperInfo {
	out := HyperInfo{Graph: spec.String(), Made: NewMade(spec, h, info), N: h.Order(), Hyperedges: h.Size()}
	out.MinRank, out.MaxRank = h.Rank()
	out.MinDegree = math.MaxInt
	for v := range out.N {
		d := h.Degree(v)
		out.MinDegree, out.MaxDegree = min(out.MinDegree, d), max(out.MaxDegree, d)
		if d == 0 {
			out.Isolated++
		}
	}
	if out.N == 0 {
		out.MinDegree = 0
	}
	if out.Hyperedges > 0 {
		out.MeanRank = float64(h.Incidences()) / float64(out.Hyperedges)
	}
	if out.N > 0 {
		out.MeanDegree = float64(h.Incidences()) / float64(out.N)
	}
	if out.MeanDegree > 0 {
		out.Balance = float64(out.MaxDegree) / out.MeanDegree
	}
	return out
}

// WriteTable writes o as info's table.
func (out HyperInfo) WriteTable(w io.Writer) {
	fmt.Fprintf(w, "graph:        %s", out.Graph)
	if out.Seed != 0 {
		fmt.Fprintf(w, " (seed %d)", out.Seed)
	}
	fmt.Fprintf(w, "\nmade:         %s\n", madeLine(Info{Made: out.Made}))
	for _, note := range out.Made.Notes {
		fmt.Fprintf(w, "note:         %s\n", note)
	}
	fmt.Fprintf(w, "vertices:     %d\n", out.N)
	fmt.Fprintf(w, "hyperedges:   %d\n", out.Hyperedges)
	uniform := "not uniform"
	if out.MinRank == out.MaxRank {
		uniform = fmt.Sprintf("%d-uniform", out.MinRank)
	}
	fmt.Fprintf(w, "rank:         min %d, mean %.4g, max %d (%s)\n", out.MinRank, out.MeanRank, out.MaxRank, uniform)
	fmt.Fprintf(w, "degree:       min %d, mean %.4g, max %d (hyperedges at a vertex; max/mean %.4g)\n", out.MinDegree, out.MeanDegree, out.MaxDegree, out.Balance)
	if out.Isolated > 0 {
		fmt.Fprintf(w, "isolated:     %d vertices in no hyperedge\n", out.Isolated)
	}
}
