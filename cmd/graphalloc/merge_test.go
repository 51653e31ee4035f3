package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// shardFiles runs args as shards 0/k … k−1/k, each written in format to a
// file of dir, and returns the files.
func shardFiles(t *testing.T, dir string, args []string, k int, format string) []string {
	t.Helper()
	var files []string
	for i := range k {
		p := filepath.Join(dir, fmt.Sprintf("%s-%d-of-%d.%s", args[0], i, k, format))
		mustRun(t, append(args, "--shard", fmt.Sprintf("%d/%d", i, k), "-f", format, "-o", p)...)
		files = append(files, p)
	}
	return files
}

// TestMergeMatchesUnsharded: the shards of a run and of a grid, in json or
// jsonl, merge in every format into exactly what the unsharded command
// prints in that format, also with more shards than trials or grid points,
// whose empty shards succeed in every format, a figure asked for skipped.
func TestMergeMatchesUnsharded(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"run", "-n", "300", "-t", "3", "--seed", "5"},
		{"compare", "-g", "cycle", "-p", "graph,greedy", "-n", "2^6..2^7", "-t", "2"}, // 3 points
		// Runs with deletions: the bounds of a sequence read its peak from
		// the trials.
		{"run", "-p", "graph", "-g", "regular:degree=4", "-n", "2^8", "--delete", "abku", "--steps", "10n", "--every", "2n", "-t", "3"},
		{"run", "-n", "4", "--delete", "masking:survivors=16", "-t", "3"},
	} {
		want := map[string]string{}
		for _, f := range []string{"table", "csv", "json", "jsonl"} {
			want[f] = mustRun(t, append(args, "-f", f)...)
		}
		for _, k := range []int{3, 5} {
			for _, shardFormat := range []string{"json", "jsonl"} {
				files := shardFiles(t, dir, args, k, shardFormat)
				for f, w := range want {
					got := mustRun(t, append([]string{"merge", "-f", f}, files...)...)
					if got != w {
						t.Errorf("%s in %d %s shards, merged to %s, differs from the unsharded output:\n%s\nwant\n%s", args[0], k, shardFormat, f, got, w)
					}
				}
			}
		}
		for _, f := range []string{"table", "csv"} {
			mustRun(t, append(args, "--shard", "4/5", "-f", f)...) // empty
		}
		fig := filepath.Join(dir, "empty.png")
		_, errs, code := invoke(append(args, "--shard", "4/5", "--plot", fig)...)
		if _, err := os.Stat(fig); code != 0 || !strings.Contains(errs, "holds nothing to draw") || err == nil {
			t.Errorf("--plot of an empty shard: exit %d, %q, figure %v", code, errs, err)
		}
	}
}

// TestMergeIncompleteGrid: a grid whose shards lack points is refused, with
// the shards not given or the files cut short, unless --partial.
func TestMergeIncompleteGrid(t *testing.T) {
	dir := t.TempDir()
	grid := []string{"compare", "-g", "cycle", "-g", "regular:degree=4", "-p", "graph,greedy", "-n", "2^6..2^7", "-t", "2"} // 6 points
	files := shardFiles(t, dir, grid, 3, "jsonl")
	out, errs, code := invoke("merge", files[1])
	checkBadInput(t, out, errs, code, "4 of 6 grid points missing (shards 0/3, 2/3 not given); --partial merges what is there")
	b, _ := os.ReadFile(files[2])
	cut := filepath.Join(dir, "cut.jsonl")
	os.WriteFile(cut, b[:strings.IndexByte(string(b), '\n')+1], 0o644) // the config line alone
	out, errs, code = invoke("merge", files[0], files[1], cut)
	checkBadInput(t, out, errs, code, "2 of 6 grid points missing ("+cut+" is cut short)")
	out = mustRun(t, "merge", "--partial", "-f", "jsonl", files[1])
	if n := strings.Count(out, `{"point":`); n != 2 || !strings.HasSuffix(out, `{"summary":{"points":2}}`+"\n") {
		t.Errorf("--partial merge of one shard: %d points:\n%s", n, out)
	}
}

// TestResumeRefusesForeignTrials: --resume refuses, with one line naming
// the trial and its line, a file holding a trial twice or a trial of
// another run, and leaves the file as it was.
func TestResumeRefusesForeignTrials(t *testing.T) {
	dir := t.TempDir()
	args := []string{"run", "-n", "300", "-t", "4", "-f", "jsonl"}
	lines := strings.SplitAfter(mustRun(t, args...), "\n")
	other := strings.SplitAfter(mustRun(t, "run", "-n", "301", "-t", "4", "-f", "jsonl"), "\n")
	for _, tc := range []struct {
		name, file, want string
	}{
		{"a trial twice", lines[0] + lines[1] + lines[2] + lines[1], "f.jsonl:4: trial 0 a second time (first at line 2)"},
		{"a trial of another n", lines[0] + lines[1] + other[2], "f.jsonl:3: trial 1 counts 301 bins, the run has n=300"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, "f.jsonl")
			os.WriteFile(p, []byte(tc.file), 0o644)
			out, errs, code := invoke(append(args, "--resume", p, "-o", p)...)
			checkBadInput(t, out, errs, code, tc.want)
			if b, _ := os.ReadFile(p); string(b) != tc.file {
				t.Errorf("the refused file was changed:\n%s", b)
			}
		})
	}
}

// endlessFIFO makes a FIFO in dir that a goroutine feeds NUL bytes without
// end to whoever opens it, until the reader closes it; the cleanup
// unblocks a writer no reader opened.
func endlessFIFO(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "endless")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		zeros := make([]byte, 1<<16)
		for {
			select {
			case <-stop:
				return
			default:
			}
			f, err := os.OpenFile(p, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			for err == nil {
				_, err = f.Write(zeros)
			}
			f.Close()
			if !errors.Is(err, syscall.EPIPE) {
				return
			}
		}
	}()
	t.Cleanup(func() {
		close(stop)
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		// A reader opened and closed lets a writer waiting for one open,
		// then fail; again until the writer has gone, as it may come to
		// its open only after a reader has been and gone.
		for {
			if r, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
				r.Close()
			}
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	})
	return p
}

// TestUnboundedInputs: a result file that never ends (a FIFO fed NUL bytes
// forever) or a device (a node made here, never the real /dev) is refused
// by --resume, merge and plot with one line, without reading it whole.
func TestUnboundedInputs(t *testing.T) {
	dir := t.TempDir()
	inputs := []string{endlessFIFO(t, dir)}
	zero := filepath.Join(dir, "zero")
	if err := syscall.Mknod(zero, syscall.S_IFCHR|0o600, 1<<8|5); err == nil { // 1:5, a /dev/zero of our own
		inputs = append(inputs, zero)
	}
	for _, in := range inputs {
		for _, args := range [][]string{
			{"run", "-n", "100", "-t", "2", "--resume", in},
			{"merge", in},
			{"plot", in, "-o", filepath.Join(dir, "p.png")},
		} {
			out, errs, code := invoke(args...)
			checkBadInput(t, out, errs, code, in)
		}
	}
}

// TestShardSkipsUnbuildable: a shard whose points a topology cannot be
// built at skips them, as the unsharded grid does, when another shard
// builds it; the merge is then the unsharded grid, its skipped points in
// the grid's order. A topology built at no n of the grid still fails in
// every shard.
func TestShardSkipsUnbuildable(t *testing.T) {
	dir := t.TempDir()
	// A hypercube needs n a power of two: shard 1/2 holds n=96 alone, and
	// the skips, in the grid's order, are not in alphabetical order.
	grid := []string{"compare", "-g", "hypercube", "-p", "graph", "-n", "64,96,100", "-t", "2"}
	files := shardFiles(t, dir, grid, 2, "jsonl")
	for _, f := range []string{"jsonl", "table"} {
		want := mustRun(t, append(grid, "-f", f)...)
		if got := mustRun(t, append([]string{"merge", "-f", f}, files...)...); got != want {
			t.Errorf("merged shards differ from the unsharded grid:\n%s\nwant\n%s", got, want)
		}
	}
	_, errs, code := invoke("compare", "-g", "hypercube", "-p", "graph", "-n", "100,200", "-t", "2", "--shard", "1/2")
	if code != 2 || !strings.Contains(errs, "--graph hypercube at n=200") {
		t.Errorf("a topology never built, in a shard: exit %d, %q", code, errs)
	}
}

// TestReadInterrupted: an interrupt while a result file is read is a
// runtime failure (exit 1, one line), not bad input.
func TestReadInterrupted(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.jsonl")
	mustRun(t, "run", "-n", "100", "-t", "2", "-f", "jsonl", "-o", p)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"merge", p}, ""},
		{[]string{"plot", p, "-o", p + ".png"}, "plot: "},
		{[]string{"run", "-n", "100", "-t", "2", "--resume", p}, "--resume: "},
	} {
		var out, errb bytes.Buffer
		code := report(&errb, run(ctx, &out, &errb, tc.args))
		want := "graphalloc: " + tc.want + "interrupted while reading " + p + ": context canceled\n"
		if code != 1 || errb.String() != want {
			t.Errorf("%s: exit %d, %q; want exit 1, %q", tc.args[0], code, errb.String(), want)
		}
	}
}
