package results

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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
	return readConfig(b, &v) && len(v.Config.Processes) > 0
}

// readConfig decodes into v the object of the result file b that holds
// its config: the whole of a JSON file, the first line of JSON lines. It
// reports whether that object is JSON.
func readConfig(b []byte, v any) bool {
	line := bytes.TrimSpace(b)
	if i := bytes.IndexByte(line, '\n'); i >= 0 && bytes.HasPrefix(line, []byte(`{"`)) {
		line = line[:i] // JSON lines: the config line
	}
	return json.Unmarshal(line, v) == nil
}

// GridSummary is the "summary" line of a grid's JSON-lines file: the
// points it holds and the points that could not be built.
type GridSummary struct {
	Points  int      `json:"points"`
	Skipped []string `json:"skipped,omitempty"`
}

// ParseGrid parses a grid's file, JSON or JSON lines, named name in
// errors. A JSON-lines file cut short (no summary line, perhaps a partial
// last line) gives the points it holds.
func ParseGrid(name string, b []byte) (*Grid, error) {
	g, _, err := parseGrid(name, b)
	return g, err
}

// parseGrid is ParseGrid, and reports whether the file is complete: JSON,
// or JSON lines that end with the summary.
func parseGrid(name string, b []byte) (g *Grid, complete bool, err error) {
	trimmed := bytes.TrimSpace(b)
	if !bytes.HasPrefix(trimmed, []byte(`{"`)) {
		g = &Grid{}
		if err := json.Unmarshal(b, g); err != nil {
			return nil, false, fmt.Errorf("%s: not the JSON output of graphalloc compare: %v", name, err)
		}
		return g, true, nil
	}
	g = &Grid{}
	lines := bytes.Split(trimmed, []byte("\n"))
	seenConfig := false
	for i, text := range lines {
		var v struct {
			Config  *GridConfig  `json:"config"`
			Point   *study.Row   `json:"point"`
			Summary *GridSummary `json:"summary"`
		}
		if err := json.Unmarshal(text, &v); err != nil {
			if i == len(lines)-1 && !bytes.HasSuffix(b, []byte("\n")) {
				break // a partial last line: the grid was killed mid-write
			}
			return nil, false, fmt.Errorf("%s:%d: not a line of graphalloc compare -f jsonl: %v", name, i+1, err)
		}
		switch {
		case v.Config != nil && !seenConfig:
			g.Config, seenConfig = *v.Config, true
		case v.Config != nil:
			return nil, false, fmt.Errorf("%s:%d: a second config line", name, i+1)
		case !seenConfig:
			return nil, false, fmt.Errorf("%s:%d: a line before the config line", name, i+1)
		case v.Point != nil:
			g.Points = append(g.Points, *v.Point)
		case v.Summary != nil:
			g.Skipped, complete = v.Summary.Skipped, true
		default:
			return nil, false, fmt.Errorf("%s:%d: expected a config, point or summary object", name, i+1)
		}
	}
	return g, complete, nil
}

// mergeGrid merges the files of the shards of one grid into the grid's
// file: the points of every shard in the order of the unsharded grid
// (processes, then topologies, then n, as study.Grid.Points), the config
// without its shard. The shards must come from one grid and hold no point
// twice; unless partial is set, they must hold every point of the grid
// (or name it skipped).
func mergeGrid(in *inputs, partial bool) (*Grid, error) {
	var out *Grid
	var shards, cut []string
	for i, p := range in.paths {
		b, err := in.read(i)
		if err != nil {
			return nil, err
		}
		g, complete, err := parseGrid(p, b)
		if err != nil {
			return nil, err
		}
		shards = append(shards, g.Config.Shard)
		if !complete {
			cut = append(cut, p)
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
			return nil, fmt.Errorf("%s and %s are not shards of one grid (their configs differ)", in.paths[0], p)
		}
		out.Points = append(out.Points, g.Points...)
		out.Skipped = append(out.Skipped, g.Skipped...)
	}
	out.Config.Shard = ""
	if err := sortPoints(out); err != nil {
		return nil, err
	}
	pts, err := gridPoints(out.Config)
	if err != nil {
		return nil, err
	}
	sortSkipped(out.Skipped, pts)
	want, have := len(pts), len(out.Points)+len(out.Skipped)
	if have < want && !partial {
		return nil, fmt.Errorf("%d of %d grid points missing%s; --partial merges what is there", want-have, want, whyMissing(shards, cut))
	}
	return out, nil
}

// gridPoints are the points of the whole grid c describes.
func gridPoints(c GridConfig) ([]study.Point, error) {
	sg := study.Grid{Processes: c.Processes, Ns: c.Ns}
	for _, s := range c.Graphs {
		sp, err := graphgen.ParseSpec(s)
		if err != nil {
			return nil, fmt.Errorf("graphs: %w", err)
		}
		sg.Graphs = append(sg.Graphs, sp)
	}
	return sg.Points(), nil
}

// sortPoints puts g's points in the grid's order (process, topology as
// listed, n), refusing a point given twice.
func sortPoints(g *Grid) error {
	graphAt := map[string]int{}
	for i, s := range g.Config.Graphs {
		if sp, err := graphgen.ParseSpec(s); err == nil {
			graphAt[sp.String()] = i
		}
	}
	key := func(r study.Row) []int {
		return []int{slices.Index(g.Config.Processes, r.Process), graphAt[r.Topology], int(r.N)}
	}
	slices.SortStableFunc(g.Points, func(a, b study.Row) int { return slices.Compare(key(a), key(b)) })
	for i := 1; i < len(g.Points); i++ {
		if slices.Equal(key(g.Points[i]), key(g.Points[i-1])) {
			r := g.Points[i]
			return fmt.Errorf("the point %s %s n=%d is in two files", r.Process, r.Topology, r.N)
		}
	}
	return nil
}

// sortSkipped puts the skipped points of a grid in the order of pts, the
// grid's points, as the unsharded grid lists them: a skip reads "SPEC at
// n=N: why" (study.BuildError); one that names no point goes last.
func sortSkipped(skipped []string, pts []study.Point) {
	at := map[string]int{}
	for _, s := range skipped {
		at[s] = len(pts)
		for i, pt := range pts {
			if strings.HasPrefix(s, fmt.Sprintf("%s at n=%d: ", pt.Graph.Given(), pt.N)) {
				at[s] = i
				break
			}
		}
	}
	slices.SortStableFunc(skipped, func(a, b string) int { return at[a] - at[b] })
}

// notGiven names the shards no file holds, from the shards of the files
// ("I/K", "" unsharded): ["shards 1/3, 2/3 not given"], or nil if every
// shard is there or the files are not shards of one K.
func notGiven(shards []string) []string {
	k := 0
	given := map[int]bool{}
	for _, s := range shards {
		i, ki, err := shardOf(s)
		if err != nil || s == "" || (k != 0 && ki != k) {
			return nil
		}
		k, given[i] = ki, true
	}
	var missing []string
	for i := range k {
		if !given[i] {
			missing = append(missing, fmt.Sprintf("%d/%d", i, k))
		}
	}
	if len(missing) > 10 {
		missing = append(missing[:10], "...")
	}
	switch len(missing) {
	case 0:
		return nil
	case 1:
		return []string{"shard " + missing[0] + " not given"}
	}
	return []string{"shards " + strings.Join(missing, ", ") + " not given"}
}

// whyMissing says why the files of a merge lack trials or points, from
// their shards (notGiven) and the files cut short (by an interruption,
// before their summary): " (shard 1/3 not given; b.jsonl is cut short)",
// or "" if neither explains it.
func whyMissing(shards, cut []string) string {
	why := notGiven(shards)
	for _, p := range cut {
		why = append(why, p+" is cut short")
	}
	if len(why) == 0 {
		return ""
	}
	return " (" + strings.Join(why, "; ") + ")"
}

// inputs reads the files of a merge, within one budget of InputLimit
// bytes for them all; the first may be read already (to tell a grid from
// a run).
type inputs struct {
	ctx   context.Context
	paths []string
	first []byte
	left  int64
}

// read returns the bytes of the i-th file.
func (in *inputs) read(i int) ([]byte, error) {
	if i == 0 && in.first != nil {
		b := in.first
		in.first = nil
		return b, nil
	}
	b, err := ReadInput(in.ctx, in.paths[i], in.left)
	in.left -= int64(len(b))
	return b, err
}

// csvOrTable says why a file that is not JSON cannot be merged.
func csvOrTable(name string, b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] != '{' {
		first, _, _ := strings.Cut(string(t), "\n")
		return fmt.Errorf("%s is not JSON (it starts %.30q): merge reads the -f json or -f jsonl output of run, compare and queue, not csv or table", name, first)
	}
	return nil
}
