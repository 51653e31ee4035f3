package graphgen

import (
	"fmt"
	"math"
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
//	gnp:p=0.001              Erdős–Rényi G(n, p)
//	gnp:degree=16            G(n, p) with p = 16/(n−1)
//	circulant:degree=16      random Cayley graph of Z_n, implicit
//	nonregular:mindeg=16,core=1024
//	                         a clique on 1024 vertices joined to a random
//	                         16-regular remainder
//	file:graphs/road.txt.gz  (a bare path containing '/' or with a known
//	                          extension also works)
//
// Every kind but file accepts n=N to fix the vertex count instead of taking
// it from the run.
type Spec struct {
	Kind   string
	Params map[string]string
	Path   string // for Kind "file"
}

// kinds lists the accepted kinds and their keys.
var kinds = map[string][]string{
	"complete":   {"n"},
	"cycle":      {"n"},
	"torus":      {"n", "dim", "side"},
	"hypercube":  {"n", "dim"},
	"regular":    {"n", "degree", "eps"},
	"gnp":        {"n", "p", "degree"},
	"circulant":  {"n", "degree"},
	"nonregular": {"n", "mindeg", "core"},
	"file":       nil,
}

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
	s = strings.TrimSpace(s)
	if s == "" {
		return Spec{}, fmt.Errorf("graphgen: empty graph spec (kinds: %s)", strings.Join(Kinds(), ", "))
	}
	kind, rest, hasParams := strings.Cut(s, ":")
	if kind == "file" {
		if rest == "" {
			return Spec{}, fmt.Errorf("graphgen: graph spec %q needs a path after file:", s)
		}
		return Spec{Kind: "file", Path: rest}, nil
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
	if s.Kind == "file" {
		return "file:" + s.Path
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
// a file), drawing randomness from src.
func (s Spec) Build(n int, src rand.Source) (Graph, *BuildInfo, error) {
	info := &BuildInfo{Degree: -1}
	if s.Kind == "file" {
		g, fi, err := LoadGraph(s.Path)
		if err != nil {
			return nil, nil, err
		}
		info.N, info.Edges, info.File = g.Order(), g.Size(), fi
		return g, info, nil
	}
	_, nSet := s.Params["n"]
	if v, ok := s.Params["n"]; ok {
		var err error
		if n, err = s.intParam("n", v); err != nil {
			return nil, nil, err
		}
	}
	switch s.Kind {
	case "torus", "hypercube":
		// These fix their own n from dim and side.
		return s.buildLattice(n, nSet, info)
	}
	if n < 0 || n > MaxOrder {
		return nil, nil, fmt.Errorf("graphgen: %s needs 0 <= n <= %d, got n=%d", s.Kind, MaxOrder, n)
	}
	info.N = n
	switch s.Kind {
	case "complete":
		g, err := NewComplete(n)
		if err != nil {
			return nil, nil, err
		}
		info.Edges, info.Degree = g.Size(), n-1
		return g, info, nil
	case "cycle":
		g, err := Cycle(n)
		if err != nil {
			return nil, nil, err
		}
		info.Edges = g.Size()
		if n > 2 {
			info.Degree = 2
		}
		return g, info, nil
	case "regular":
		delta, err := s.regularDegree(n, info)
		if err != nil {
			return nil, nil, err
		}
		g, st, err := RandomRegular(n, delta, src)
		if err != nil {
			return nil, nil, err
		}
		info.Edges, info.Degree, info.Regular = g.Size(), delta, &st
		return g, info, nil
	case "gnp":
		p, err := s.gnpP(n)
		if err != nil {
			return nil, nil, err
		}
		g, err := Gnp(n, p, src)
		if err != nil {
			return nil, nil, err
		}
		info.Edges, info.P = g.Size(), p
		return g, info, nil
	case "circulant":
		dv, ok := s.Params["degree"]
		if !ok {
			return nil, nil, fmt.Errorf("graphgen: circulant needs degree=D")
		}
		delta, err := s.intParam("degree", dv)
		if err != nil {
			return nil, nil, err
		}
		g, err := RandomCirculant(n, delta, src)
		if err != nil {
			return nil, nil, err
		}
		info.Edges, info.Degree = g.Size(), delta
		return g, info, nil
	case "nonregular":
		var mindeg, core int
		for _, kp := range []struct {
			key string
			dst *int
		}{{"mindeg", &mindeg}, {"core", &core}} {
			v, ok := s.Params[kp.key]
			if !ok {
				return nil, nil, fmt.Errorf("graphgen: nonregular needs mindeg=δ and core=c")
			}
			var err error
			if *kp.dst, err = s.intParam(kp.key, v); err != nil {
				return nil, nil, err
			}
		}
		g, st, err := Nonregular(n, mindeg, core, src)
		if err != nil {
			return nil, nil, err
		}
		info.Edges, info.Nonregular = g.Size(), &st
		return g, info, nil
	}
	return nil, nil, fmt.Errorf("graphgen: unknown graph kind %q", s.Kind)
}

// buildLattice builds a torus or a hypercube, whose vertex count follows
// from dim and side: n is only used to choose them when they are not given,
// and must agree with them when the spec sets it (nSet).
func (s Spec) buildLattice(n int, nSet bool, info *BuildInfo) (Graph, *BuildInfo, error) {
	dim, side := 0, 0
	for _, kp := range []struct {
		key string
		dst *int
	}{{"dim", &dim}, {"side", &side}} {
		if v, ok := s.Params[kp.key]; ok {
			x, err := s.intParam(kp.key, v)
			if err != nil {
				return nil, nil, err
			}
			*kp.dst = x
		}
	}
	_, dimSet := s.Params["dim"]
	_, sideSet := s.Params["side"]
	var (
		g   *CSR
		err error
	)
	if s.Kind == "hypercube" {
		if !dimSet {
			if dim, err = HypercubeDim(n); err != nil {
				return nil, nil, err
			}
		}
		side = 2
		g, err = Hypercube(dim)
		info.Degree = dim
	} else {
		if !dimSet {
			dim = 2
		}
		if dim < 1 || dim > 64 {
			return nil, nil, fmt.Errorf("graphgen: torus needs 1 <= dim <= 64, got dim=%d", dim)
		}
		if !sideSet {
			if n < 0 || n > MaxOrder {
				return nil, nil, fmt.Errorf("graphgen: torus needs 0 <= n <= %d, got n=%d", MaxOrder, n)
			}
			side = TorusSide(n, dim)
			// Rounding n up to side^dim may not more than double it:
			// for dim > log2 n the side is 2 and 2^dim could be
			// anything.
			if N, err := torusOrder(dim, side); err != nil || N > 2*max(n, 1) {
				alt := ""
				if lo, _ := torusOrder(dim, side-1); side > 2 {
					alt = fmt.Sprintf(" (side=%d gives %d)", side-1, lo)
				}
				return nil, nil, fmt.Errorf("graphgen: torus:dim=%d on n=%d: side ⌈n^(1/%d)⌉ = %d gives more than 2n vertices; set side= explicitly%s or use a smaller dim", dim, n, dim, side, alt)
			}
		}
		g, err = Torus(dim, side)
		switch {
		case side == 1:
			info.Degree = 0
		case side == 2:
			info.Degree = dim
		default:
			info.Degree = 2 * dim
		}
	}
	if err != nil {
		return nil, nil, err
	}
	if g.Order() != n {
		if nSet {
			return nil, nil, fmt.Errorf("graphgen: %s has %d vertices, but the spec sets n=%d", s, g.Order(), n)
		}
		if s.Kind == "torus" && !sideSet {
			info.Notes = append(info.Notes, fmt.Sprintf("torus side ⌈n^(1/%d)⌉ = %d for n=%d: %d^%d = %d vertices", dim, side, n, side, dim, g.Order()))
		} else {
			info.Notes = append(info.Notes, fmt.Sprintf("%s has %d vertices", s, g.Order()))
		}
	}
	info.N, info.Edges, info.Dim, info.Side = g.Order(), g.Size(), dim, side
	return g, info, nil
}

// gnpP reads p= or degree= of a gnp spec.
func (s Spec) gnpP(n int) (float64, error) {
	pv, hasP := s.Params["p"]
	dv, hasD := s.Params["degree"]
	switch {
	case hasP && hasD:
		return 0, fmt.Errorf("graphgen: gnp takes p= or degree=, not both")
	case hasP:
		p, err := strconv.ParseFloat(pv, 64)
		if err != nil || !(p >= 0 && p <= 1) {
			return 0, fmt.Errorf("graphgen: gnp:p needs 0 <= p <= 1, got %q", pv)
		}
		return p, nil
	case hasD:
		d, err := strconv.ParseFloat(dv, 64)
		if err != nil {
			return 0, fmt.Errorf("graphgen: gnp:degree needs a number, got %q", dv)
		}
		return GnpDegreeP(n, d)
	}
	return 0, fmt.Errorf("graphgen: gnp needs p=P or degree=D")
}

// regularDegree reads degree= or eps= of a regular spec.
func (s Spec) regularDegree(n int, info *BuildInfo) (int, error) {
	dv, hasD := s.Params["degree"]
	ev, hasE := s.Params["eps"]
	switch {
	case hasD && hasE:
		return 0, fmt.Errorf("graphgen: regular takes degree= or eps=, not both")
	case hasD:
		return s.intParam("degree", dv)
	case hasE:
		eps, err := strconv.ParseFloat(ev, 64)
		if err != nil || !(eps > 0 && eps <= 1) {
			return 0, fmt.Errorf("graphgen: regular:eps needs 0 < eps <= 1, got %q", ev)
		}
		d := int(math.Ceil(math.Pow(float64(n), eps)))
		d = min(d, n-1)
		if n%2 == 1 && d%2 == 1 {
			if d+1 <= n-1 {
				d++
			} else {
				d--
			}
			info.Notes = append(info.Notes, fmt.Sprintf("degree ⌈n^%g⌉ adjusted to %d so that n*Delta is even", eps, d))
		}
		return d, nil
	}
	return 0, fmt.Errorf("graphgen: regular needs degree=D or eps=E")
}

func (s Spec) intParam(key, v string) (int, error) {
	x, err := strconv.ParseInt(v, 10, 64)
	if err != nil || x < 0 || x > MaxOrder {
		return 0, fmt.Errorf("graphgen: %s:%s needs an integer in [0, %d], got %q", s.Kind, key, MaxOrder, v)
	}
	return int(x), nil
}
