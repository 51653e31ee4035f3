package study

import (
	"context"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/graphgen"
)

// TestGraphBuild: a graph is built with the spec's notes; one that needs
// more than the limit is refused before it is built.
func TestGraphBuild(t *testing.T) {
	sp, err := graphgen.ParseSpec("torus:dim=2")
	if err != nil {
		t.Fatal(err)
	}
	// 1000 bins: the torus rounds n up to 32² = 1024, and says so.
	b := GraphBuild{Spec: sp, N: 1000, MaxMemory: 1 << 30}
	g, _, notes, err := b.Build(context.Background(), 1)
	if err != nil || g.Order() != 1024 || len(notes) != 1 || !strings.HasPrefix(notes[0], "torus:dim=2: ") {
		t.Fatalf("torus: %v, notes %q", err, notes)
	}
	sp, _ = graphgen.ParseSpec("regular:degree=4")
	b = GraphBuild{Spec: sp, N: 1 << 20, MaxMemory: 1 << 20, Alone: true}
	if _, _, _, err := b.Build(context.Background(), 1); err == nil || !strings.HasPrefix(err.Error(), "this graph needs about") {
		t.Errorf("a graph above --max-memory: %v", err)
	}
}
