package results

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/study"
)

// runFile runs the given trials of Greedy[2] at n = m = 500 and returns its
// file.
func runFile(t *testing.T, trials []int) *File {
	t.Helper()
	desc, _ := alloc.Lookup(alloc.Greedy{}.Name())
	params := alloc.Params{D: 2}
	p, _ := desc.New(params)
	cfg := alloc.Config{Process: p, N: 500, M: 500, Seed: 3}
	var rs []alloc.Result
	if err := alloc.Run(context.Background(), cfg, trials, 2, func(r alloc.Result) error {
		rs = append(rs, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	c := NewConfig(study.Setting{Process: desc, Params: params, N: 500, M: 500})
	c.Seed, c.Trials, c.Version = 3, 6, "test"
	sum, err := Summarize(c, rs)
	if err != nil {
		t.Fatal(err)
	}
	return &File{Config: c, Trials: rs, Summary: sum}
}

// TestRoundTrip: a file written as JSON or JSON lines reads back to the
// same config and trials; a JSON-lines file cut anywhere reads back to the
// trials whose lines are complete, and is complete only with its summary.
func TestRoundTrip(t *testing.T) {
	f := runFile(t, []int{0, 1, 2, 3, 4, 5})
	for _, format := range []string{"json", "jsonl"} {
		var b bytes.Buffer
		if err := Write(&b, format, f); err != nil {
			t.Fatal(err)
		}
		p, err := Parse(format, b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if !p.Complete || !reflect.DeepEqual(p.Config, f.Config) || !reflect.DeepEqual(p.Trials, f.Trials) {
			t.Errorf("%s: read back %+v", format, p)
		}
		if format != "jsonl" {
			continue
		}
		full := b.Bytes()
		for cut := len(full) - 1; cut > 0; cut -= 7 {
			p, err := Parse("cut", full[:cut])
			if err != nil {
				if strings.Contains(err.Error(), "no config line") {
					continue // cut inside the config line
				}
				t.Fatalf("cut at %d: %v", cut, err)
			}
			lines := bytes.Count(full[:p.Valid], []byte("\n"))
			if p.Complete || len(p.Trials) != lines-1 || !bytes.HasSuffix(full[:p.Valid], []byte("\n")) {
				t.Fatalf("cut at %d: complete %v, %d trials for %d lines", cut, p.Complete, len(p.Trials), lines)
			}
		}
	}
}

// mergeFiles is MergeFiles of a run's files, without --partial.
func mergeFiles(t *testing.T, paths []string) (*File, error) {
	t.Helper()
	m, err := MergeFiles(context.Background(), paths, false)
	if err != nil {
		return nil, err
	}
	return m.Run, nil
}

// TestMerge: the files of two shards merge into the whole run's file, byte
// for byte; a missing trial or a foreign file is refused.
func TestMerge(t *testing.T) {
	dir := t.TempDir()
	whole := runFile(t, []int{0, 1, 2, 3, 4, 5})
	write := func(name string, f *File) string {
		var b bytes.Buffer
		if err := Write(&b, "jsonl", f); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		os.WriteFile(path, b.Bytes(), 0o644)
		return path
	}
	a, b := runFile(t, []int{0, 2, 4}), runFile(t, []int{1, 3, 5})
	a.Config.Shard, b.Config.Shard = "0/2", "1/2"
	pa, pb := write("a.jsonl", a), write("b.jsonl", b)
	m, err := mergeFiles(t, []string{pb, pa})
	if err != nil {
		t.Fatal(err)
	}
	var got, want bytes.Buffer
	Write(&got, "json", m)
	Write(&want, "json", whole)
	if got.String() != want.String() {
		t.Errorf("merged file differs from the whole run:\n%s\nwant\n%s", got.String(), want.String())
	}
	if _, err := mergeFiles(t, []string{pa}); err == nil || !strings.Contains(err.Error(), "missing 1,3,5 (shard 1/2 not given)") {
		t.Errorf("a missing shard: %v", err)
	}
	b2, _ := os.ReadFile(pb)
	cut := filepath.Join(dir, "cut.jsonl")
	os.WriteFile(cut, b2[:bytes.LastIndexByte(b2[:len(b2)-1], '\n')+1], 0o644) // no summary
	if _, err := mergeFiles(t, []string{pa, cut}); err != nil {
		t.Errorf("every trial, one file without its summary: %v", err)
	}
	os.WriteFile(cut, b2[:bytes.IndexByte(b2, '\n')+1], 0o644) // the config alone
	if _, err := mergeFiles(t, []string{pa, cut}); err == nil || !strings.Contains(err.Error(), "missing 1,3,5 ("+cut+" is cut short)") {
		t.Errorf("a shard cut short: %v", err)
	}
	other := runFile(t, []int{1, 3, 5})
	other.Config.Seed = 4
	if _, err := mergeFiles(t, []string{pa, write("c.jsonl", other)}); err == nil || !strings.Contains(err.Error(), "seed differs") {
		t.Errorf("a foreign shard: %v", err)
	}
}

// TestMeanProfile: the mean of run-length profiles, position by position,
// against the plain mean of the expanded vectors.
func TestMeanProfile(t *testing.T) {
	a := []alloc.ProfileLevel{{Value: 2, Count: 1}, {Value: 0, Count: 3}, {Value: -1, Count: 2}}
	b := []alloc.ProfileLevel{{Value: 1, Count: 3}, {Value: -1, Count: 3}}
	expand := func(p []alloc.ProfileLevel) (v []float64) {
		for _, l := range p {
			for range l.Count {
				v = append(v, l.Value)
			}
		}
		return v
	}
	got := expand(meanProfile([]alloc.Result{{Profile: a}, {Profile: b}, {}}))
	ea, eb := expand(a), expand(b)
	if len(got) != 6 {
		t.Fatalf("mean profile has %d positions, want 6", len(got))
	}
	for i := range got {
		if want := (ea[i] + eb[i]) / 2; got[i] != want {
			t.Errorf("position %d: %g, want %g", i, got[i], want)
		}
	}
}

// TestCSVReadBack: the run CSV, the long-format series CSV and the
// per-vertex CSV read back with encoding/csv, with their columns and one
// row per trial, per time and statistic, and per vertex.
func TestCSVReadBack(t *testing.T) {
	read := func(b []byte) [][]string {
		t.Helper()
		rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	f := runFile(t, []int{0, 1, 2})
	var b bytes.Buffer
	Write(&b, "csv", f)
	rows := read(b.Bytes())
	head := configHeader(f.Config)
	if !slices.Equal(head[len(head)-2:], []string{"g", "sigma"}) {
		t.Errorf("config header %v: g and sigma are not its last columns", head)
	}
	if len(rows) != 1+3 || !slices.Equal(rows[0][:len(head)], head) || rows[0][len(head)] != "trial" {
		t.Errorf("run CSV: %d rows, header %v", len(rows), rows[0])
	}
	for _, r := range rows[1:] {
		if r[0] != "greedy" || r[2] != "500" || r[7] != "3" {
			t.Errorf("row %v lacks its config", r)
		}
	}

	f.Summary.Series = []SeriesPoint{{Balls: 250, Load: 0.5, Trials: 3}, {Balls: 500, Load: 1, Trials: 3}}
	b.Reset()
	Write(&b, "csv", f)
	rows = read(b.Bytes())
	// The trials' rows, then the series'.
	if len(rows) != 1+3+2*2 || rows[0][len(head)] != "balls" || rows[1][len(head)+2] != "trial" || rows[1][len(head)+3] != "0" ||
		rows[4][len(head)+2] != "gap" || rows[5][len(head)+2] != "spread" {
		t.Errorf("series CSV: %v", rows)
	}

	cycle, _ := graphgen.Cycle(5)
	pv := NewPerVertex(cycle, []string{"a", "b", "c", "d", "e"})
	pv.Add([]uint32{1, 0, 2, 2, 0})
	pv.Add([]uint32{3, 1, 0, 0, 1})
	b.Reset()
	pv.WriteCSV(&b)
	rows = read(b.Bytes())
	want := [][]string{{"vertex", "degree", "mean_load", "sd_load", "max_fraction"},
		{"a", "2", "2", "1.4142135623730951", "0.5"}, {"c", "2", "1", "1.4142135623730951", "0.5"}}
	if len(rows) != 6 || !slices.Equal(rows[0], want[0]) || !slices.Equal(rows[1], want[1]) || !slices.Equal(rows[3], want[2]) {
		t.Errorf("per-vertex CSV: %v", rows)
	}
}

// TestPerVertexClasses: degree classes, exact for few degrees and by
// powers of two for many, with their mean load and mean max load.
func TestPerVertexClasses(t *testing.T) {
	star, _, _ := graphgen.FromEdges(5, []uint32{0, 1, 0, 2, 0, 3, 0, 4})
	pv := NewPerVertex(star, nil)
	pv.Add([]uint32{4, 0, 1, 0, 0})
	pv.Add([]uint32{2, 1, 1, 1, 0})
	c := pv.Classes()
	if len(c) != 2 || c[0].Lo != 1 || c[0].Vertices != 4 || c[1].Lo != 4 || c[1].MeanLoad != 3 || c[1].MeanMaxLoad != 3 || c[0].MeanMaxLoad != 1 || c[0].MeanLoad != 0.5 {
		t.Errorf("classes %+v", c)
	}
}

// TestCSVProcessParams: a run of memory, kd-choice, threshold or quantile
// carries its parameter in a column of its own (so that CSV files of runs
// with different K, k, L or δ tell their rows apart), and a run of another
// process has no such column.
func TestCSVProcessParams(t *testing.T) {
	for _, tc := range []struct {
		name, col, want string
		p               alloc.Params
	}{
		{"memory", "memory", "3", alloc.Params{D: 1, Memory: 3}},
		{"kd-choice", "k", "2", alloc.Params{D: 4, K: 2}},
		{"threshold", "threshold", "5", alloc.Params{D: 2, Threshold: 5}},
		{"quantile", "delta", "0.25", alloc.Params{D: 2, Delta: 0.25}},
		{"greedy", "", "", alloc.Params{D: 2}},
	} {
		d, err := alloc.Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		c := NewConfig(study.Setting{Process: d, Params: tc.p, N: 10, M: 10})
		head, cells := configHeader(c), configCells(c)
		if len(head) != len(cells) {
			t.Fatalf("%s: %d columns, %d cells", tc.name, len(head), len(cells))
		}
		i := slices.Index(head, tc.col)
		switch {
		case tc.col == "" && len(head) != len(configColumns)+2:
			t.Errorf("%s: header %v has extra columns", tc.name, head)
		case tc.col != "" && (i < 0 || cells[i] != tc.want):
			t.Errorf("%s: header %v, cells %v: want %s = %s", tc.name, head, cells, tc.col, tc.want)
		}
		s, err := c.Setting()
		if err != nil {
			t.Fatal(err)
		}
		if s.Params.Memory != tc.p.Memory || s.Params.K != tc.p.K || s.Params.Threshold != tc.p.Threshold || s.Params.Delta != tc.p.Delta {
			t.Errorf("%s: Setting() reads back %+v, want %+v", tc.name, s.Params, tc.p)
		}
	}
}
