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
