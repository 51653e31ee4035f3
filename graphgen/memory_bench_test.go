package graphgen

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"
)

// peakHeap runs f and returns the most bytes of live and not yet swept heap
// objects seen while it ran, above those before it (sampled every 100 µs
// from runtime/metrics, which does not stop the world), and what f
// allocated in all.
func peakHeap(f func()) (peak, total int64) {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() int64 {
		metrics.Read(sample)
		return int64(sample[0].Value.Uint64())
	}
	base := read()
	var most atomic.Int64
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if h := read(); h > most.Load() {
					most.Store(h)
				}
			}
		}
	}()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	close(done)
	if h := read(); h > most.Load() {
		most.Store(h)
	}
	return most.Load() - base, int64(after.TotalAlloc - before.TotalAlloc)
}

// csrHeld is the memory of the arrays g holds.
func csrHeld(g *CSR) int64 {
	return 8*int64(cap(g.off)) + 4*int64(cap(g.adj)) + 4*int64(cap(g.edges))
}

// BenchmarkRegularMemory reports the peak heap of RandomRegular at
// n = 2^20, Δ = 16 (the repair path) against the CSR it returns
// (peak/csr), and the edge-list reader's peak per edge on the same graph
// written as text without the graphalloc header (ids relabelled), on
// that text without its last line, a graph that is not regular, and on
// the text with the header (ids as they are: no id table).
func BenchmarkRegularMemory(b *testing.B) {
	const n, Delta = 1 << 20, 16
	var g *CSR
	b.Run("generate/n=2^20/d=16", func(b *testing.B) {
		for b.Loop() {
			var err error
			peak, total := peakHeap(func() { g, _, err = RandomRegular(n, Delta, rand.NewPCG(1, 2)) })
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(peak)/float64(csrHeld(g)), "peak/csr")
			b.ReportMetric(float64(total)/float64(csrHeld(g)), "alloc/csr")
			b.ReportMetric(float64(csrHeld(g))/(1<<20), "csr-MiB")
		}
	})
	if g == nil {
		return
	}
	var text, header bytes.Buffer
	if err := WriteEdgeList(&header, g); err != nil {
		b.Fatal(err)
	}
	e := g.EdgeList()
	for k := 0; k < len(e); k += 2 {
		text.WriteString(itoa(e[k]))
		text.WriteByte(' ')
		text.WriteString(itoa(e[k+1]))
		text.WriteByte('\n')
	}
	edges := float64(len(e) / 2)
	e = nil
	g = nil
	// Without its last line the graph is not regular, and the CSR holds
	// an edge array too.
	all := text.Bytes()
	cut := all[:bytes.LastIndexByte(all[:len(all)-1], '\n')+1]
	for _, c := range []struct {
		name string
		text []byte
	}{{"read/n=2^20/d=16", all}, {"read-nonregular/n=2^20/d=16", cut}, {"read-header/n=2^20/d=16", header.Bytes()}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				var h *CSR
				var err error
				peak, _ := peakHeap(func() { h, _, err = ReadEdgeList(bytes.NewReader(c.text), "g.el") })
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(peak)/edges, "peak-bytes/edge")
				b.ReportMetric(float64(csrHeld(h))/edges, "csr-bytes/edge")
			}
		})
	}
}

func itoa(v uint32) string {
	var buf [10]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte('0' + v%10)
		if v /= 10; v == 0 {
			return string(buf[i:])
		}
	}
}
