package analysis

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/graphalloc/graphalloc/graphgen"
)

// TestNewInfo: a generated torus is described as one, and a cancelled
// description returns the context's error.
func TestNewInfo(t *testing.T) {
	sp, err := graphgen.ParseSpec("torus:dim=2")
	if err != nil {
		t.Fatal(err)
	}
	g, info, err := sp.Build(64, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	out, err := NewInfo(sp, g, info, DescribeOptions{Context: context.Background()})
	if err != nil || out.Graph != "torus:dim=2" || out.Made.Kind != "torus" || out.N != 64 {
		t.Fatalf("%v: %+v", err, out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewInfo(sp, g, info, DescribeOptions{Context: ctx}); err != context.Canceled {
		t.Errorf("a cancelled description: %v", err)
	}
}
