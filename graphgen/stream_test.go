package graphgen

import (
	"path/filepath"
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
