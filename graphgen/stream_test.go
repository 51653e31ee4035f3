package graphgen

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
)

func TestIsNumber(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"1", true}, {"-2.5", true}, {"+.5", true}, {"3.", true}, {"1e9", true}, {"1E-3", true},
		{"NaN", true}, {"-inf", true}, {"Infinity", true}, {"1262304000", true},
		{"", false}, {".", false}, {"-", false}, {"e5", false}, {"1e", false}, {"1e+", false},
		{"x", false}, {"1,5", false}, {"0x10", false}, {"1.2.3", false},
	} {
		if got := isNumber([]byte(tc.s)); got != tc.want {
			t.Errorf("isNumber(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

// gzipOf returns the gzip compression of head followed by body repeated
// until the text is size bytes: a bomb of a few MB from a few KB.
func gzipOf(t *testing.T, head, body string, size int) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(head))
	if body != "" {
		chunk := []byte(strings.Repeat(body, 1<<16/len(body)))
		for n := len(head); n < size; n += len(chunk) {
			zw.Write(chunk)
		}
	}
	zw.Close()
	return b.Bytes()
}

// TestReadBombs: every reader stops with an error naming the limit once
// what it holds would pass ReadOptions.MaxBytes, whatever the compressed
// size or a header declared, and reads a control that fits.
func TestReadBombs(t *testing.T) {
	const limit = 1 << 20 // 1 MiB; each bomb inflates to 8 MiB
	const size = 8 << 20
	o := ReadOptions{MaxBytes: limit}
	// Distinct ids of 100 bytes: the id table grows 25 times faster
	// than the edges, which stay within the limit.
	var ids []byte
	for i := 0; len(ids) < size; i++ {
		ids = fmt.Appendf(ids, "v%099d w%099d\n", i, i)
	}
	idBomb, edgeBomb := gzipOf(t, string(ids), "", 0), gzipOf(t, "", "1 2\n", size)
	mtxHead := "%%MatrixMarket matrix coordinate pattern general\n3 3 2097152\n"
	read := map[string]func(r io.Reader) error{
		"graph": func(r io.Reader) error { _, _, err := o.ReadGraph(r, "bomb"); return err },
		"edges": func(r io.Reader) error { _, _, err := o.ReadEdges(r, "bomb"); return err },
		"hyper": func(r io.Reader) error { _, _, err := o.ReadHypergraph(r, "bomb"); return err },
	}
	const (
		lines  = "read so far take more than the limit of 1 MiB"
		idsToo = "vertex ids and the edges read so far take more than the limit of 1 MiB"
	)
	for _, tc := range []struct {
		name, reader string
		gz           []byte
		want         string
	}{
		{"edge lines", "graph", edgeBomb, lines},
		{"edge lines, lean", "edges", edgeBomb, lines},
		{"string ids", "graph", idBomb, idsToo},
		{"string ids, lean", "edges", idBomb, idsToo},
		{"Matrix Market entries", "graph", gzipOf(t, mtxHead, "1 2\n", size), lines},
		{"hyperedges", "hyper", gzipOf(t, "", "1 2 3\n", size), lines},
		{"hypergraph ids", "hyper", idBomb, idsToo},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := read[tc.reader](bytes.NewReader(tc.gz))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%d-byte gzip bomb under a 1 MiB limit: error %v, want %q", len(tc.gz), err, tc.want)
			}
		})
	}
	karate, err := os.ReadFile("../testdata/graphs/karate.txt")
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range read {
		if err := r(bytes.NewReader(gzipOf(t, string(karate), "", 0))); err != nil {
			t.Errorf("%s: karate under a 1 MiB limit: %v", name, err)
		}
	}
}

// endless is an io.Reader of its pattern repeated forever, as /dev/zero
// is of zeros.
type endless struct {
	pattern string
	off     int
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.pattern[e.off]
		e.off = (e.off + 1) % len(e.pattern)
	}
	return len(p), nil
}

// TestReadLongLine: a line without end is refused once it passes
// MaxLineBytes, by every reader, without buffering it.
func TestReadLongLine(t *testing.T) {
	mtx := "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n"
	for _, tc := range []struct {
		name string
		r    io.Reader
		read func(io.Reader) error
	}{
		{"edge list", &endless{pattern: "\x00"}, func(r io.Reader) error { _, _, err := ReadGraph(r, "zero"); return err }},
		{"edge list, lean", &endless{pattern: "1"}, func(r io.Reader) error { _, _, err := ReadEdges(r, "zero"); return err }},
		{"Matrix Market", io.MultiReader(strings.NewReader(mtx), &endless{pattern: "1"}),
			func(r io.Reader) error { _, _, err := ReadGraph(r, "zero"); return err }},
		{"hypergraph", &endless{pattern: "1 "}, func(r io.Reader) error { _, _, err := ReadHypergraph(r, "zero"); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.read(tc.r)
			if err == nil || !strings.Contains(err.Error(), "longer than 65536 bytes") {
				t.Errorf("an endless line: error %v, want it too long", err)
			}
		})
	}
}

// checkCancel runs f, whose context is cancelled after a few ms, and
// checks that it returns the context's error within a second of that.
func checkCancel(t *testing.T, ctx context.Context, f func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want %v", err, context.Canceled)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("still running 5 s after its context was cancelled")
	}
	<-ctx.Done()
}

// TestBuildCancel: each random generator returns the context's error
// within a second of its cancellation, on a graph that takes it from a
// fraction of a second to several seconds to make.
func TestBuildCancel(t *testing.T) {
	for _, spec := range []string{
		"regular:degree=4,n=4194304",
		"regular:degree=32,n=1048576", // the repaired pairing, rows transposed
		"gnp:degree=8,n=4194304",
		"ba:m=4,n=4194304",
		"nonregular:mindeg=4,core=64,n=4194304",
		"hypergraph:rank=4,edges=8388608,n=4194304",
		"torus:dim=2,n=4194304",
		"hypercube:dim=20",
		"cycle:n=4194304",
	} {
		t.Run(spec, func(t *testing.T) {
			s, err := ParseSpec(spec)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(5*time.Millisecond, cancel)
			checkCancel(t, ctx, func() error {
				_, _, err := s.BuildContext(ctx, 0, rand.NewPCG(1, 2), ReadOptions{})
				return err
			})
		})
	}
}
