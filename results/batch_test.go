package results

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/study"
)

// TestConfigBatchAndGraphBeta: a run's config records the batch size and
// graph's β only when they are set, reads them back into its Setting, and
// names them in its label; a batched run's CSV adds a last config column.
func TestConfigBatchAndGraphBeta(t *testing.T) {
	greedy, _ := alloc.Lookup("greedy")
	graph, _ := alloc.Lookup("graph")
	topo := &study.Topology{Spec: graphgen.Spec{Kind: "complete"}, Degree: study.Degrees{Min: 99, Max: 99}}

	seq := NewConfig(study.Setting{Process: greedy, Params: alloc.Params{D: 2}, N: 100, M: 100})
	bat := NewConfig(study.Setting{Process: greedy, Params: alloc.Params{D: 2}, N: 100, M: 100, Batch: 64})
	if seq.Batch != 0 || bat.Batch != 64 || SameRun(seq, bat) == nil {
		t.Fatalf("batch recorded as %d and %d", seq.Batch, bat.Batch)
	}
	if s, err := bat.Setting(); err != nil || s.Batch != 64 || !strings.HasSuffix(bat.Label(), "batches of 64") {
		t.Fatalf("batched setting %+v (%v), label %q", s, err, bat.Label())
	}

	// graph: β only when given, whatever Params.Beta holds.
	two := NewConfig(study.Setting{Process: graph, Params: alloc.Params{Beta: 0.5}, N: 100, M: 100, Topology: topo})
	lazy := NewConfig(study.Setting{Process: graph, Params: alloc.Params{Beta: 0.5, GraphBeta: true}, N: 100, M: 100, Topology: topo})
	if two.Beta != nil || lazy.Beta == nil || *lazy.Beta != 0.5 {
		t.Fatalf("graph's β recorded as %v and %v", two.Beta, lazy.Beta)
	}
	if s, err := lazy.Setting(); err != nil || !s.Params.GraphBeta || s.Params.Beta != 0.5 || !strings.Contains(lazy.Label(), "β = 0.5") {
		t.Fatalf("graph (1+β) setting %+v (%v), label %q", s, err, lazy.Label())
	}

	for _, tc := range []struct {
		c    Config
		last string
	}{{seq, "sigma"}, {bat, "batch"}} {
		var buf bytes.Buffer
		if err := Write(&buf, "csv", &File{Config: tc.c}); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&buf).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if got := rows[0][len(configHeader(tc.c))-1]; got != tc.last {
			t.Errorf("batch %d: last config column %q, want %q", tc.c.Batch, got, tc.last)
		}
	}
}
