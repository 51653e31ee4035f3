package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInfoPipeSameAsFile: a graph read through a FIFO or a pipe gives the
// same info as the file itself, whatever its format: nothing of the
// stream is consumed by sniffing or planning before the reader reads it.
func TestInfoPipeSameAsFile(t *testing.T) {
	dir := t.TempDir()
	karate, err := os.ReadFile(filepath.Join(root, "testdata/graphs/karate.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write(karate)
	zw.Close()
	gz := filepath.Join(dir, "karate.txt.gz")
	if err := os.WriteFile(gz, zb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ kind, path string }{
		{"file", filepath.Join(root, "testdata/graphs/karate.txt")},
		{"file", filepath.Join(root, "testdata/graphs/lesmis.txt")},
		{"file", filepath.Join(root, "testdata/graphs/small.mtx")},
		{"file", filepath.Join(root, "testdata/graphs/path10.txt.gz")},
		{"file", gz}, // a gzip stream of karate
		{"hyper", filepath.Join(root, "testdata/graphs/hyper.txt")},
	} {
		data, err := os.ReadFile(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		want, wantErr, code := invoke("info", "-g", tc.kind+":"+tc.path)
		if code != 0 {
			t.Fatalf("info %s: exit %d: %s", tc.path, code, wantErr)
		}
		name := filepath.Base(tc.path)
		t.Run("fifo/"+name, func(t *testing.T) {
			fifo := filepath.Join(dir, "fifo-"+name)
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			go func() {
				if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
					w.Write(data)
					w.Close()
				}
			}()
			checkSameInfo(t, tc.kind, fifo, tc.path, want, wantErr)
		})
		t.Run("pipe/"+name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			go func() {
				w.Write(data)
				w.Close()
			}()
			checkSameInfo(t, tc.kind, fmt.Sprintf("/proc/self/fd/%d", r.Fd()), tc.path, want, wantErr)
		})
	}
}

// checkSameInfo runs info on kind:path and compares its output with want,
// the output for the file at orig, once the names are made the same.
func checkSameInfo(t *testing.T, kind, path, orig, want, wantErr string) {
	t.Helper()
	got, gotErr, code := invoke("info", "-g", kind+":"+path)
	if code != 0 {
		t.Fatalf("info %s: exit %d: %s", path, code, gotErr)
	}
	got, gotErr = strings.ReplaceAll(got, path, orig), strings.ReplaceAll(gotErr, path, orig)
	if got != want || gotErr != wantErr {
		t.Errorf("info through %s differs from the file's:\n%s%s\nwant\n%s%s", path, got, gotErr, want, wantErr)
	}
}

// TestInfoCancel: info returns the context's error (exit 1) within a
// second of its cancellation: on a FIFO that no one writes, while it
// generates a large graph, and while it certifies one; and so do gen and
// run while they generate or list one.
func TestInfoCancel(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		args  []string
		after time.Duration
	}{
		{"FIFO without writer", []string{"info", "-g", "file:" + fifo}, 20 * time.Millisecond},
		{"generation", []string{"info", "-g", "regular:degree=4", "-n", "2^22"}, 20 * time.Millisecond},
		{"certification", []string{"info", "-g", "regular:degree=3", "-n", "2^17"}, 300 * time.Millisecond},
		{"gen's generation", []string{"gen", "-g", "gnp:degree=8", "-n", "2^22", "-o", filepath.Join(t.TempDir(), "g.txt")}, 20 * time.Millisecond},
		{"run's generation", []string{"run", "-p", "graph", "-g", "regular:degree=4", "-n", "2^22", "-t", "1"}, 20 * time.Millisecond},
		{"gen's listing of an implicit graph", []string{"gen", "-g", "regular:degree=4,implicit", "-n", "2^22", "-o", filepath.Join(t.TempDir(), "g.txt")}, 20 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(tc.after, cancel)
			done := make(chan error, 1)
			go func() {
				var out, errb bytes.Buffer
				done <- run(ctx, &out, &errb, tc.args)
			}()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) || report(io.Discard, err) != 1 {
					t.Errorf("error %v, want %v and exit 1", err, context.Canceled)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("still running 5 s after its context was cancelled")
			}
		})
	}
}
