package infile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFIFO: a FIFO made in the test's directory. With no writer, Open
// returns at once and the FIFO reads as empty (control: os.Open would
// block until a writer came). With a writer that never writes, a read
// returns within a second of ctx's end.
func TestFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "f")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		f, stop, err := Open(context.Background(), fifo)
		if err == nil {
			defer f.Close()
			defer stop()
			var b []byte
			b, err = io.ReadAll(f)
			if err == nil && len(b) != 0 {
				err = errors.New("read bytes from a FIFO with no writer")
			}
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Open or read blocked on a FIFO with no writer")
	}

	ctx, cancel := context.WithCancel(context.Background())
	f, stop, err := Open(ctx, fifo)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	defer stop()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // a writer that never writes
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err = f.Read(make([]byte, 16))
	if err == nil || time.Since(start) > time.Second {
		t.Fatalf("read returned %v after %v, want an error within a second of the cancel", err, time.Since(start))
	}
}
