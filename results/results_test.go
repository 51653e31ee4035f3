package results

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
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
	m, err := Merge([]string{pb, pa}, false)
	if err != nil {
		t.Fatal(err)
	}
	var got, want bytes.Buffer
	Write(&got, "json", m)
	Write(&want, "json", whole)
	if got.String() != want.String() {
		t.Errorf("merged file differs from the whole run:\n%s\nwant\n%s", got.String(), want.String())
	}
	if _, err := Merge([]string{pa}, false); err == nil || !strings.Contains(err.Error(), "missing 1,3,5") {
		t.Errorf("a missing shard: %v", err)
	}
	other := runFile(t, []int{1, 3, 5})
	other.Config.Seed = 4
	if _, err := Merge([]string{pa, write("c.jsonl", other)}, false); err == nil || !strings.Contains(err.Error(), "seed differs") {
		t.Errorf("a foreign shard: %v", err)
	}
}
