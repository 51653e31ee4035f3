package graphgen

import (
	"fmt"
	"math/bits"
	"strings"
	"testing"
)

func TestHypercube(t *testing.T) {
	for dim := range 11 {
		t.Run(fmt.Sprintf("dim=%d", dim), func(t *testing.T) {
			g, err := Hypercube(dim)
			if err != nil {
				t.Fatal(err)
			}
			n := 1 << dim
			checkRegular(t, g, n, dim)
			checkSimpleCSR(t, g)
			if !connected(g) {
				t.Error("not connected")
			}
			if n > 64 {
				return
			}
			for v := range n {
				for w := range n {
					if want := bits.OnesCount(uint(v^w)) == 1; g.HasEdge(v, w) != want {
						t.Fatalf("HasEdge(%d, %d) = %v, want %v", v, w, !want, want)
					}
				}
			}
		})
	}
	for _, dim := range []int{-1, MaxHypercubeDim + 1} {
		if _, err := Hypercube(dim); err == nil {
			t.Errorf("Hypercube(%d) accepted", dim)
		}
	}
}

func TestHypercubeDim(t *testing.T) {
	for n, want := range map[int]int{1: 0, 2: 1, 1024: 10, 1 << 31: 31} {
		if got, err := HypercubeDim(n); err != nil || got != want {
			t.Errorf("HypercubeDim(%d) = %d, %v; want %d", n, got, err, want)
		}
	}
	for n, mention := range map[int]string{0: "power of two", 1000: "512 or 1024", 3: "2 or 4", -4: "power of two"} {
		if _, err := HypercubeDim(n); err == nil || !strings.Contains(err.Error(), mention) {
			t.Errorf("HypercubeDim(%d): error %v, want one mentioning %q", n, err, mention)
		}
	}
}
