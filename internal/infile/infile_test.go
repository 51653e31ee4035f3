package infile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFIFO, on a FIFO made in the test's directory: with no writer, Open
// waits, and returns ctx's error within a second of its end; with a writer
// that never writes, a read does the same; with a writer, the bytes are
// read (control: the FIFO works).
func TestFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "f")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	within := func(what string, start time.Time) {
		t.Helper()
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s returned %v after the cancel, want within a second", what, d)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, _, err := Open(ctx, fifo); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Open with no writer: %v, want the context's error", err)
	}
	within("Open with no writer", time.Now().Add(-50*time.Millisecond))

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // a writer that never writes
		if err == nil {
			<-ctx.Done()
			time.Sleep(100 * time.Millisecond)
			w.Close()
		}
	}()
	f, closeFile, err := Open(ctx, fifo)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFile()
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now().Add(50 * time.Millisecond)
	if _, err := f.Read(make([]byte, 16)); err == nil {
		t.Error("a read from a silent writer returned no error after the cancel")
	}
	within("a blocked read", start)

	go func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.WriteString("0 1\n")
			w.Close()
		}
	}()
	f2, close2, err := Open(context.Background(), fifo)
	if err != nil {
		t.Fatal(err)
	}
	defer close2()
	b := make([]byte, 16)
	if n, _ := f2.Read(b); string(b[:n]) != "0 1\n" {
		t.Errorf("read %q, want the writer's line", b[:n])
	}
}
