package graphgen

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPlanFIFO: planning a FIFO neither waits for a writer nor reads from
// it, since what it read Build would not see.
func TestPlanFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "g")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"file:" + fifo, "hyper:" + fifo} {
		s, err := ParseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := s.Plan(0)
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Plan(%s): %v", spec, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Plan(%s) waits for a writer", spec)
		}
	}
}

// TestReadCancel: a read stops with the context's error within a second
// of its cancellation: on an endless stream, on a FIFO that no one opens
// for writing, and on a pipe whose writer writes nothing.
func TestReadCancel(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	w.Write([]byte("1 2\n")) // then nothing, and no end
	pipe := fmt.Sprintf("/proc/self/fd/%d", r.Fd())
	zr, zw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	defer zw.Close()
	zw.Write(gzipOf(t, "", "1 2\n", 1<<20)[:200]) // a gzip stream cut short, then silence
	zpipe := fmt.Sprintf("/proc/self/fd/%d", zr.Fd())
	load := func(f func(ReadOptions, string) error) func(ReadOptions) error {
		return func(o ReadOptions) error { return f(o, fifo) }
	}
	for _, tc := range []struct {
		name string
		read func(ReadOptions) error
	}{
		{"endless comments", func(o ReadOptions) error {
			_, _, err := o.ReadGraph(&endless{pattern: "# a comment\n"}, "endless")
			return err
		}},
		{"endless edges, lean", func(o ReadOptions) error {
			_, _, err := o.ReadEdges(&endless{pattern: "% c\n"}, "endless")
			return err
		}},
		{"endless hyperedge comments", func(o ReadOptions) error {
			_, _, err := o.ReadHypergraph(&endless{pattern: "# c\n"}, "endless")
			return err
		}},
		{"endless Matrix Market", func(o ReadOptions) error {
			_, _, err := o.ReadGraph(io.MultiReader(strings.NewReader("%%MatrixMarket matrix coordinate pattern general\n"), &endless{pattern: "% c\n"}), "endless")
			return err
		}},
		{"FIFO without writer", load(func(o ReadOptions, p string) error { _, _, err := o.LoadGraph(p); return err })},
		{"FIFO without writer, lean", load(func(o ReadOptions, p string) error { _, _, err := o.LoadEdges(p); return err })},
		{"FIFO without writer, hyper", load(func(o ReadOptions, p string) error { _, _, err := o.LoadHypergraph(p); return err })},
		{"silent pipe", func(o ReadOptions) error { _, _, err := o.LoadGraph(pipe); return err }},
		{"silent gzip pipe", func(o ReadOptions) error { _, _, err := o.LoadGraph(zpipe); return err }},
		{"silent gzip pipe, lean", func(o ReadOptions) error { _, _, err := o.LoadEdges(zpipe); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(20*time.Millisecond, cancel)
			checkCancel(t, ctx, func() error { return tc.read(ReadOptions{Context: ctx}) })
		})
	}
}
