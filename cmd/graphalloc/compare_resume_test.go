package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// resumeGrid is the compare the resume tests cut and continue: points
// that skip (the core does not fit at 2^10) among points that run.
var resumeGrid = []string{"compare", "-n", "2^10..2^12", "-t", "3", "-g", "cycle", "-g", "nonregular:mindeg=8,core=1024", "-g", "regular:degree=4"}

// TestCompareResumeCut cuts an uninterrupted compare's JSON lines after
// each point, with half a line after the cut as a kill mid-write leaves,
// and resumes: the same file continued, and the table printed, are byte
// for byte those of the uninterrupted grid.
func TestCompareResumeCut(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full.jsonl")
	if _, errs, code := invoke(append(resumeGrid, "-f", "jsonl", "-o", full)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	table, _, _ := invoke(resumeGrid...)
	lines := strings.SplitAfter(string(want), "\n")
	for cut := 1; cut < len(lines)-1; cut++ {
		part := filepath.Join(dir, "part.jsonl")
		cutText := strings.Join(lines[:cut], "") + lines[cut][:len(lines[cut])/2]
		if err := os.WriteFile(part, []byte(cutText), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errs, code := invoke(append(resumeGrid, "--resume", part)...)
		if code != 0 || out != table {
			t.Errorf("cut after line %d, table: exit %d, %s\n%s", cut, code, errs, out)
		}
		if _, errs, code := invoke(append(resumeGrid, "-f", "jsonl", "-o", part, "--resume", part)...); code != 0 {
			t.Fatalf("cut after line %d: exit %d: %s", cut, code, errs)
		}
		if got, _ := os.ReadFile(part); !bytes.Equal(got, want) {
			t.Errorf("cut after line %d: the continued file differs from the uninterrupted one:\n%s", cut, got)
		}
	}
	// The file of another grid is refused, and so is a point not the grid's.
	if _, errs, code := invoke(append(resumeGrid[:len(resumeGrid):len(resumeGrid)], "-s", "2", "--resume", full)...); code != 2 || !strings.Contains(errs, "another compare") {
		t.Errorf("another seed: exit %d, %s", code, errs)
	}
}

// TestCompareInterrupt interrupts a compare once its first point is in
// its file, then continues it with --resume as the message says: the file
// is the uninterrupted grid's.
func TestCompareInterrupt(t *testing.T) {
	dir := t.TempDir()
	args := []string{"compare", "-n", "2^10..2^16", "-t", "10", "-g", "cycle", "-g", "regular:degree=4", "-f", "jsonl", "-w", "1"}
	full, part := filepath.Join(dir, "full.jsonl"), filepath.Join(dir, "part.jsonl")
	if _, errs, code := invoke(append(args, "-o", full)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer cancel()
		for ctx.Err() == nil {
			if b, _ := os.ReadFile(part); bytes.Contains(b, []byte(`{"point"`)) {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	var out, errb bytes.Buffer
	code := report(&errb, run(ctx, &out, &errb, append(args, "-o", part)))
	cancel()
	if code == 0 {
		t.Skip("the grid finished before the interrupt reached it")
	}
	if want := "continue with --resume " + part; code != 1 || !strings.Contains(errb.String(), want) {
		t.Fatalf("interrupted: exit %d, %q; want exit 1 and %q", code, errb.String(), want)
	}
	if _, errs, code := invoke(append(args, "-o", part, "--resume", part)...); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	want, _ := os.ReadFile(full)
	if got, _ := os.ReadFile(part); !bytes.Equal(got, want) {
		t.Errorf("the resumed file differs from the uninterrupted one")
	}
}
