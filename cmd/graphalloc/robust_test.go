package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestShardMergeEqualsRun: the shards of a run, merged, print exactly what
// the unsharded run prints, byte for byte, whatever the shards' formats.
func TestShardMergeEqualsRun(t *testing.T) {
	dir := t.TempDir()
	args := []string{"run", "-p", "graph", "-g", "regular:degree=4", "-n", "300", "-t", "7", "--seed", "5"}
	want, errs, code := invoke(append(args, "-f", "json")...)
	if code != 0 {
		t.Fatal(errs)
	}
	var parts []string
	for i, f := range []string{"json", "jsonl", "jsonl"} {
		p := filepath.Join(dir, "part"+string(rune('0'+i))+"."+f)
		if _, errs, code := invoke(append(args, "--shard", string(rune('0'+i))+"/3", "-f", f, "-o", p)...); code != 0 {
			t.Fatal(errs)
		}
		parts = append(parts, p)
	}
	got, errs, code := invoke(append([]string{"merge", "-f", "json"}, parts...)...)
	if code != 0 {
		t.Fatal(errs)
	}
	if got != want {
		t.Fatalf("merged output differs from the unsharded run:\n%s\nwant\n%s", got, want)
	}
	// Missing and doubled shards are refused; --partial accepts a subset.
	if _, errs, code := invoke("merge", parts[0], parts[1]); code != 2 || !strings.Contains(errs, "missing") {
		t.Errorf("incomplete merge: exit %d, %q", code, errs)
	}
	if _, errs, code := invoke("merge", parts[0], parts[0], parts[1], parts[2]); code != 2 || !strings.Contains(errs, "both") {
		t.Errorf("doubled shard: exit %d, %q", code, errs)
	}
	if _, errs, code := invoke("merge", "--partial", parts[0], parts[2]); code != 0 {
		t.Errorf("partial merge: exit %d, %q", code, errs)
	}
	other := filepath.Join(dir, "other.json")
	if _, errs, code := invoke("run", "-n", "300", "-t", "7", "--seed", "6", "-f", "json", "-o", other); code != 0 {
		t.Fatal(errs)
	}
	if _, errs, code := invoke("merge", parts[0], other); code != 2 || !strings.Contains(errs, "not shards of one run") {
		t.Errorf("foreign file: exit %d, %q", code, errs)
	}
}

// TestResumeFromPartialFile: a jsonl file cut anywhere (after a trial,
// or inside a line) is continued by --resume into exactly the output of an
// uninterrupted run.
func TestResumeFromPartialFile(t *testing.T) {
	dir := t.TempDir()
	args := []string{"run", "-n", "1000", "-t", "6", "-f", "jsonl", "--seed", "3"}
	full := filepath.Join(dir, "full.jsonl")
	if _, errs, code := invoke(append(args, "-o", full)...); code != 0 {
		t.Fatal(errs)
	}
	want, _ := os.ReadFile(full)
	lines := bytes.SplitAfter(want, []byte("\n"))
	for _, cut := range []int{1, 3, 5} {
		for _, partialLine := range []bool{false, true} {
			p := filepath.Join(dir, "cut.jsonl")
			b := bytes.Join(lines[:cut], nil)
			if partialLine {
				b = append(b, lines[cut][:len(lines[cut])/2]...)
			}
			os.WriteFile(p, b, 0o644)
			if _, errs, code := invoke(append(args, "-o", p, "--resume", p)...); code != 0 {
				t.Fatalf("cut %d: %s", cut, errs)
			}
			got, _ := os.ReadFile(p)
			if !bytes.Equal(got, want) {
				t.Fatalf("cut after %d lines (partial %v): resumed file differs:\n%s", cut, partialLine, got)
			}
		}
	}
	// Resuming into another format gives that format's full output.
	p := filepath.Join(dir, "cut.jsonl")
	os.WriteFile(p, bytes.Join(lines[:3], nil), 0o644)
	wantJSON, _, _ := invoke("run", "-n", "1000", "-t", "6", "-f", "json", "--seed", "3")
	gotJSON, errs, code := invoke("run", "-n", "1000", "-t", "6", "-f", "json", "--seed", "3", "--resume", p)
	if code != 0 || gotJSON != wantJSON {
		t.Fatalf("resume to json: exit %d %s", code, errs)
	}
	// A file of another run is refused.
	if _, errs, code := invoke("run", "-n", "1000", "-t", "6", "--seed", "4", "--resume", p); code != 2 || !strings.Contains(errs, "seed") {
		t.Errorf("foreign resume: exit %d, %q", code, errs)
	}
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// buildBinary compiles graphalloc once for the subprocess tests.
func buildBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("subprocess test skipped in short mode")
	}
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "graphalloc-test")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "graphalloc")
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// waitForLines waits until the file at path holds at least k lines.
func waitForLines(t *testing.T, path string, k int, done <-chan error) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(path)
		if bytes.Count(b, []byte("\n")) >= k {
			return
		}
		select {
		case err := <-done:
			t.Fatalf("process ended before writing %d lines: %v", k, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("no %d lines in %s after 60 s", k, path)
}

// TestInterruptAndResume sends SIGINT to a real run mid-way: it stops
// cleanly with exit status 1, keeps every finished trial, and --resume then
// finishes the same file into exactly the uninterrupted output.
func TestInterruptAndResume(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	// About 0.1–0.3 s per trial (measured): long enough to interrupt.
	args := []string{"run", "-n", "2^20", "-m", "16n", "-t", "6", "-w", "1", "-f", "jsonl", "--seed", "8"}
	want := filepath.Join(dir, "want.jsonl")
	if out, err := exec.Command(bin, append(args, "-o", want)...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	got := filepath.Join(dir, "got.jsonl")
	cmd := exec.Command(bin, append(args, "-o", got)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	waitForLines(t, got, 2, done) // the config and one trial
	cmd.Process.Signal(syscall.SIGINT)
	err := <-done
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("interrupted run: %v, stderr %q", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted") || !strings.Contains(stderr.String(), "--resume") {
		t.Errorf("stderr %q does not say how to resume", stderr.String())
	}
	b, _ := os.ReadFile(got)
	if n := bytes.Count(b, []byte(`{"trial"`)); n < 1 || n >= 6 || bytes.Contains(b, []byte(`"summary"`)) {
		t.Fatalf("interrupted file holds %d trials (summary %v)", n, bytes.Contains(b, []byte(`"summary"`)))
	}
	if out, err := exec.Command(bin, append(args, "-o", got, "--resume", got)...).CombinedOutput(); err != nil {
		t.Fatalf("resume: %v: %s", err, out)
	}
	wb, _ := os.ReadFile(want)
	gb, _ := os.ReadFile(got)
	if !bytes.Equal(wb, gb) {
		t.Fatal("resumed output differs from the uninterrupted run")
	}
}

// TestFailedWriteLeavesNoPartialFile: a write that fails midway (as a
// run killed while writing would) leaves the file under the final name as
// it was and no temporary file behind, and the error names the user's
// path. The negative control, a plain os.WriteFile-style write, fails the
// same check, so the test can tell the two apart. The file written gets
// 0666 less the umask, like any file the user creates.
func TestFailedWriteLeavesNoPartialFile(t *testing.T) {
	failing := func(w io.Writer) error {
		w.Write([]byte(`{"config": {"partial": `))
		return errors.New("disk full")
	}
	plain := func(stdout io.Writer, path string, write func(io.Writer) error) error {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		return write(f)
	}
	for name, tc := range map[string]struct {
		write    func(io.Writer, string, func(io.Writer) error) error
		wantSafe bool
	}{
		"atomic":           {writeOutput, true},
		"negative control": {plain, false},
	} {
		dir := t.TempDir()
		out := filepath.Join(dir, "res.json")
		os.WriteFile(out, []byte("old"), 0o644)
		err := tc.write(nil, out, failing)
		if err == nil {
			t.Fatalf("%s: the failed write reported no error", name)
		}
		b, _ := os.ReadFile(out)
		entries, _ := os.ReadDir(dir)
		safe := string(b) == "old" && len(entries) == 1
		if safe != tc.wantSafe {
			t.Errorf("%s: final file %q, %d entries in the directory; safe = %v, want %v", name, b, len(entries), safe, tc.wantSafe)
		}
		if tc.wantSafe && !strings.Contains(err.Error(), out) {
			t.Errorf("%s: error %q does not name %s", name, err, out)
		}
	}
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	out := filepath.Join(t.TempDir(), "ok.json")
	if err := writeOutput(nil, out, func(w io.Writer) error { _, err := w.Write([]byte("{}")); return err }); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(out); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v under umask 022, want 0644 (%v)", st.Mode().Perm(), err)
	}
}

// TestSlurmExample runs examples/slurm-array.sh as a 3-task array on a
// tiny study (interrupting nothing), then examples/slurm-merge.sh, and
// checks the merged JSON is the unsharded run's.
func TestSlurmExample(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	study := "run -n 500 -t 5 --seed 4 -f jsonl"
	env := append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"), "GRAPHALLOC_ARGS="+study, "SLURM_ARRAY_TASK_COUNT=3")
	examples, _ := filepath.Abs(filepath.Join(root, "examples"))
	for i := range 3 {
		cmd := exec.Command("bash", filepath.Join(examples, "slurm-array.sh"))
		cmd.Dir, cmd.Env = dir, append(env, "SLURM_ARRAY_TASK_ID="+string(rune('0'+i)))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("task %d: %v\n%s", i, err, out)
		}
	}
	cmd := exec.Command("bash", filepath.Join(examples, "slurm-merge.sh"))
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "results", "all.json"))
	want, _, _ := invoke("run", "-n", "500", "-t", "5", "--seed", "4", "-f", "json")
	if string(got) != want {
		t.Fatalf("merged Slurm output differs from the unsharded run:\n%s", got)
	}
}
