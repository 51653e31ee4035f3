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
//	complete
//	cycle
//	regular:degree=16
//	regular:eps=0.5          (degree ⌈n^ε⌉, made even-compatible with n)
//	file:graphs/road.txt.gz  (a bare path containing '/' or with a known
//	                          extension also works)
//
// Every kind accepts n=N to fix the vertex count instead of taking it from
// the run.
type Spec struct {
	Kind   string
	Params map[string]string
	Path   string // for Kind "file"
}

// kinds lists the accepted kinds and their keys.
var kinds = map[string][]string{
	"complete": {"n"},
	"cycle":    {"n"},
	"regular":  {"n", "degree", "eps"},
	"file":     nil,
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
	N       int      // vertices
	Edges   int64    // undirected edges
	Degree  int      // Δ for regular kinds, -1 otherwise
	Notes   []string // adjustments made, in words
	Regular *RegularStats
	File    *FileInfo
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
	if v, ok := s.Params["n"]; ok {
		var err error
		if n, err = s.intParam("n", v); err != nil {
			return nil, nil, err
		}
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
	}
	return nil, nil, fmt.Errorf("graphgen: unknown graph kind %q", s.Kind)
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
