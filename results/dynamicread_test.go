package results

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
)

// TestParseDynamic checks that the file of a run with deletions, in JSON
// and in JSON lines, reads back as its trials, and that a trial that does
// not agree with itself, or a static trial in its file, is refused with
// one clear error rather than merged.
func TestParseDynamic(t *testing.T) {
	c := Config{Process: "greedy", D: 2, Graph: graphgen.MustParseSpec("complete"), Ties: alloc.TiesRandom, N: 4, M: 4, Trials: 2, Seed: 1, Version: "0.1.0", Delete: "abku", Steps: 40}
	good := []alloc.DynamicResult{
		{Trial: 0, MaxLoad: 2, Balls: 4, MaxBalls: 4, WindowMaxLoad: 3, LoadCounts: []int64{1, 2, 1}},
		{Trial: 1, MaxLoad: 1, Balls: 4, MaxBalls: 4, WindowMaxLoad: 2, LoadCounts: []int64{0, 4}},
	}
	f, err := NewDynamicFile(c, good)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"json", "jsonl"} {
		var b bytes.Buffer
		if err := WriteDynamic(&b, format, f); err != nil {
			t.Fatal(err)
		}
		p, err := Parse("f."+format, b.Bytes())
		if err != nil || !reflect.DeepEqual(p.Dynamic, good) || p.Trials != nil || !p.Complete {
			t.Errorf("%s: %v %+v", format, err, p)
		}
	}
	bad := map[string]string{
		`"max_load":2,`:       `"max_load":3,`,
		`"balls":4,`:          `"balls":5,`,
		`"load_counts":[1,`:   `"load_counts":[-1,`,
		`"window_max_load":3`: `"window_max_load":1`,
		`"trial":1,`:          `"trial":0,`,
		`"inserted":0,`:       `"gap":0,`,
	}
	var b bytes.Buffer
	if err := WriteDynamic(&b, "jsonl", f); err != nil {
		t.Fatal(err)
	}
	for from, to := range bad {
		if !strings.Contains(b.String(), from) {
			t.Fatalf("%s is not in the file:\n%s", from, b.String())
		}
		_, err := Parse("f.jsonl", []byte(strings.Replace(b.String(), from, to, 1)))
		if err == nil || strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("%s → %s: %v, want one line of refusal", from, to, err)
		}
	}
}

// TestDynamicFileRefuses: the trials of one run with deletions must record
// their series at the same steps (plot indexed them by trial 0's and
// panicked), a sequence's trials must agree on its balls (shards of a file
// changed between their runs), a config must be a run's, and a null trial
// line is no trial.
func TestDynamicFileRefuses(t *testing.T) {
	c := Config{Process: "greedy", D: 2, Graph: graphgen.MustParseSpec("complete"), Ties: alloc.TiesRandom, N: 4, M: 4, Trials: 2, Seed: 1, Version: "0.1.0", Delete: "abku", Steps: 8, Every: 4}
	pt := func(step int64) alloc.DynPoint { return alloc.DynPoint{Step: step, Balls: 4, MaxLoad: 2} }
	a := alloc.DynamicResult{Trial: 0, MaxLoad: 2, Balls: 4, MaxBalls: 4, WindowMaxLoad: 2, LoadCounts: []int64{1, 2, 1}, Series: []alloc.DynPoint{pt(4), pt(8)}}
	b := a
	b.Trial, b.Series = 1, b.Series[:1]
	if _, err := NewDynamicFile(c, []alloc.DynamicResult{a, b}); err == nil || !strings.Contains(err.Error(), "different steps") {
		t.Errorf("series at different steps: %v", err)
	}
	seq := c
	seq.Delete, seq.M = "file:ops.txt", 0
	b = a
	b.Trial, b.Balls, b.LoadCounts = 1, 3, []int64{1, 3}
	if _, err := NewDynamicFile(seq, []alloc.DynamicResult{a, b}); err == nil || !strings.Contains(err.Error(), "different sequences") {
		t.Errorf("a sequence's trials that disagree: %v", err)
	}
	if _, err := NewDynamicFile(c, []alloc.DynamicResult{a, b}); err != nil {
		t.Errorf("abku trials that differ: %v", err)
	}
	bad := c
	bad.Process = "xyz"
	if _, err := NewDynamicFile(bad, nil); err == nil {
		t.Error("an unknown process is taken")
	}
	bad = c
	bad.D = -3
	if _, err := NewDynamicFile(bad, nil); err == nil {
		t.Error("d = -3 is taken")
	}
	// A null trial line: in a run's file (without deletions), whose zero
	// trial passes every check, it was read as an all-zero trial 0.
	static := `{"config":{"process":"greedy","d":2,"n":4,"m":4,"graph":"complete","ties":"random","seed":1,"trials":2,"version":"0.1.0"}}` + "\n"
	p, err := Parse("f.jsonl", []byte(static+`{"trial":null}`+"\n"))
	if err == nil {
		t.Errorf("a null trial line was read: %d trials", len(p.Trials))
	} else if !strings.Contains(err.Error(), "expected a config, trial or summary") {
		t.Errorf("a null trial line: %v", err)
	}
	if p, err := Parse("f.jsonl", []byte(static)); err != nil || len(p.Trials) != 0 {
		t.Errorf("the config alone: %v", err)
	}
}
