package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/study"
)

// IsGrid reports whether the file b is the output of a grid (compare), by
// its config: a grid's names "processes", a run's "process".
func IsGrid(b []byte) bool {
	var v struct {
		Config struct {
			Processes []string `json:"processes"`
		} `json:"config"`
	}
	line := bytes.TrimSpace(b)
	if i := bytes.IndexByte(line, '\n'); i >= 0 && bytes.HasPrefix(line, []byte(`{"`)) {
		line = line[:i] // JSON lines: the config line
	}
	return json.Unmarshal(line, &v) == nil && len(v.Config.Processes) > 0
}

// ParseGrid parses a grid's file, JSON or JSON lines, named name in errors.
func ParseGrid(name string, b []byte) (*Grid, error) {
	trimmed := bytes.TrimSpace(b)
	if !bytes.HasPrefix(trimmed, []byte(`{"`)) {
		var g Grid
		if err := json.Unmarshal(b, &g); err != nil {
			return nil, fmt.Errorf("%s: not the JSON output of graphalloc compare: %v", name, err)
		}
		return &g, nil
	}
	g := &Grid{}
	for i, text := range bytes.Split(trimmed, []byte("\n")) {
		var v struct {
			Config  *GridConfig `json:"config"`
			Point   *study.Row  `json:"point"`
			Summary *struct {
				Skipped []string `json:"skipped"`
			} `json:"summary"`
		}
		if err := json.Unmarshal(text, &v); err != nil {
			return nil, fmt.Errorf("%s:%d: not a line of graphalloc compare -f jsonl: %v", name, i+1, err)
		}
		switch {
		case v.Config != nil:
			g.Config = *v.Config
		case v.Point != nil:
			g.Points = append(g.Points, *v.Point)
		case v.Summary != nil:
			g.Skipped = v.Summary.Skipped
		}
	}
	return g, nil
}

// MergeGrid merges the files of the shards of one grid into the grid's
// file: the points of every shard in the order of the unsharded grid
// (processes, then topologies, then n, as study.Grid.Points), the config
// without its shard. The shards must come from one grid and hold no point
// twice.
func MergeGrid(paths []string) (*Grid, error) {
	var out *Grid
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		g, err := ParseGrid(p, b)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = g
			continue
		}
		a, c := out.Config, g.Config
		a.Shard, c.Shard = "", ""
		ja, _ := json.Marshal(a)
		jc, _ := json.Marshal(c)
		if !bytes.Equal(ja, jc) {
			return nil, fmt.Errorf("%s and %s are not shards of one grid (their configs differ)", paths[0], p)
		}
		out.Points = append(out.Points, g.Points...)
		out.Skipped = append(out.Skipped, g.Skipped...)
	}
	out.Config.Shard = ""
	// The grid's order: process, topology (as listed), n.
	graphAt := map[string]int{}
	for i, s := range out.Config.Graphs {
		if sp, err := graphgen.ParseSpec(s); err == nil {
			graphAt[sp.String()] = i
		}
	}
	key := func(r study.Row) []int {
		return []int{slices.Index(out.Config.Processes, r.Process), graphAt[r.Topology], int(r.N)}
	}
	slices.SortStableFunc(out.Points, func(a, b study.Row) int { return slices.Compare(key(a), key(b)) })
	for i := 1; i < len(out.Points); i++ {
		if slices.Equal(key(out.Points[i]), key(out.Points[i-1])) {
			r := out.Points[i]
			return nil, fmt.Errorf("the point %s %s n=%d is in two files", r.Process, r.Topology, r.N)
		}
	}
	slices.Sort(out.Skipped)
	return out, nil
}

// csvOrTable says why a file that is not JSON cannot be merged.
func csvOrTable(name string, b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] != '{' {
		first, _, _ := strings.Cut(string(t), "\n")
		return fmt.Errorf("%s is not JSON (it starts %.30q): merge reads the -f json or -f jsonl output of run and compare, not csv or table", name, first)
	}
	return nil
}
