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
