package analysis

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/graphalloc/graphalloc/graphgen"
)

// TestDescribeCancel: the spectral computation stops within a second of
// its context's cancellation, on graphs whose certificate or scan takes
// several seconds, and says that it was not computed.
func TestDescribeCancel(t *testing.T) {
	regular, _, err := graphgen.RandomRegular(1<<18, 3, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	// n·Δ/4 = 2^32 cosine updates: about 4 s (DescribeWith's doc).
	circulant, err := graphgen.RandomCirculant(1<<28, 64, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	for name, g := range map[string]graphgen.Graph{"lanczos": regular, "circulant": circulant} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(20*time.Millisecond, cancel)
			done := make(chan GraphStats, 1)
			go func() { done <- DescribeWith(g, DescribeOptions{Context: ctx, MaxWork: 1e12}) }()
			select {
			case st := <-done:
				if st.Spectral.Method != SpectralNone || st.Spectral.Certified {
					t.Errorf("cancelled: spectral %+v, want none", st.Spectral)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("still running 5 s after its context was cancelled")
			}
		})
	}
}
