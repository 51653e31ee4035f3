package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
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
