package results

import (
	"bytes"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
)

// TestParseRefusesDynamic checks that the file of a run with deletions, in
// JSON and in JSON lines, is refused with one clear error rather than read
// as a run without deletions (whose fields its trials half match: a merge
// would print a static summary, with the static process's bounds, of
// numbers that are not the run's).
func TestParseRefusesDynamic(t *testing.T) {
	f := &DynamicFile{Config: Config{Process: "greedy", D: 2, Graph: graphgen.MustParseSpec("complete"), Ties: alloc.TiesRandom, N: 64, M: 64, Trials: 2, Seed: 1, Version: "0.1.0"}, Delete: "abku", Steps: 640,
		Trials: []alloc.DynamicResult{{Trial: 0, MaxLoad: 3, Balls: 64}, {Trial: 1, MaxLoad: 4, Balls: 64}}}
	for _, format := range []string{"json", "jsonl"} {
		var b bytes.Buffer
		if err := WriteDynamic(&b, format, f); err != nil {
			t.Fatal(err)
		}
		_, err := Parse("f."+format, b.Bytes())
		if err == nil || !strings.Contains(err.Error(), "run --delete") {
			t.Errorf("%s: %v, want the refusal of a run with deletions", format, err)
		}
	}
}
