package progress

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// The progress bar: silent on a non-terminal, and its line says trials,
// balls/s and ETA.
func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	if p := New(&buf, "x", 10, 100); p != nil {
		t.Fatal("progress bar on a buffer")
	}
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("a regular file is not a terminal")
	}
	var p *Bar // nil: every method is a no-op
	p.Add(5)
	p.Note(&buf, "note")
	p.Done()
	if buf.String() != "note\n" {
		t.Errorf("nil bar note: %q", buf.String())
	}

	clock := time.Unix(0, 0)
	now := func() time.Time { return clock }
	buf.Reset()
	p = start(&buf, "compare", 4, 4000, now)
	clock = clock.Add(2 * time.Second)
	p.Add(1000)
	line := buf.String()
	for _, want := range []string{"compare", "1/4 trials", "500 balls/s", "ETA 6s"} {
		if !strings.Contains(line, want) {
			t.Errorf("bar %q lacks %q", line, want)
		}
	}
	p.Done()
	if !strings.HasSuffix(buf.String(), "\r") {
		t.Errorf("done does not erase the bar: %q", buf.String())
	}
}

// TestCount: an open-ended task shows its count and what it does, no bar.
func TestCount(t *testing.T) {
	var b strings.Builder
	t0 := time.Unix(0, 0)
	p := start(&b, "info", 0, 0, func() time.Time { return t0.Add(time.Second) })
	p.Count(42, "passes over the graph", "spectral gap")
	p.Done()
	if !strings.Contains(b.String(), "info 42 passes over the graph") || strings.Contains(b.String(), "░") {
		t.Errorf("Count drew %q", b.String())
	}
}
