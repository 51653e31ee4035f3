package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
// uninterrupted run, with deletions or without.
func TestResumeFromPartialFile(t *testing.T) {
	for _, run := range [][]string{
		{"run", "-n", "1000", "-t", "6", "--seed", "3"},
		{"run", "-p", "graph", "-g", "regular:degree=4", "-n", "2^9", "--delete", "random:beta=0.6", "--steps", "20n", "--every", "5n", "-t", "6", "--seed", "3"},
	} {
		resumeFromPartial(t, run)
	}
	// A run with deletions does not resume the file of a run without, nor
	// one with another model.
	dir := t.TempDir()
	static := filepath.Join(dir, "static.json")
	mustRun(t, "run", "-n", "64", "-t", "2", "-f", "json", "-o", static)
	for _, del := range []string{"abku", "fifo"} {
		if _, errs, code := invoke("run", "-n", "64", "-t", "2", "--delete", del, "--resume", static); code != 2 || !strings.Contains(errs, "delete differs") {
			t.Errorf("--delete %s --resume of a run without: exit %d, %q", del, code, errs)
		}
	}
	abku := filepath.Join(dir, "abku.json")
	mustRun(t, "run", "-n", "64", "-t", "2", "--delete", "abku", "-f", "json", "-o", abku)
	if _, errs, code := invoke("run", "-n", "64", "-t", "2", "--delete", "fifo", "--resume", abku); code != 2 || !strings.Contains(errs, "delete differs (abku against fifo)") {
		t.Errorf("--delete fifo --resume of abku: exit %d, %q", code, errs)
	}
	if _, errs, code := invoke("run", "-n", "64", "-t", "2", "--resume", abku); code != 2 || !strings.Contains(errs, "delete differs") {
		t.Errorf("a run without deletions resuming one with: exit %d, %q", code, errs)
	}
}

// resumeFromPartial checks TestResumeFromPartialFile for the command run.
func resumeFromPartial(t *testing.T, run []string) {
	dir := t.TempDir()
	args := append(slices.Clone(run), "-f", "jsonl")
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
				t.Fatalf("%v: cut %d: %s", run, cut, errs)
			}
			got, _ := os.ReadFile(p)
			if !bytes.Equal(got, want) {
				t.Fatalf("%v: cut after %d lines (partial %v): resumed file differs:\n%s", run, cut, partialLine, got)
			}
		}
	}
	// Resuming into another format gives that format's full output.
	p := filepath.Join(dir, "cut.jsonl")
	os.WriteFile(p, bytes.Join(lines[:3], nil), 0o644)
	wantJSON, _, _ := invoke(append(slices.Clone(run), "-f", "json")...)
	gotJSON, errs, code := invoke(append(slices.Clone(run), "-f", "json", "--resume", p)...)
	if code != 0 || gotJSON != wantJSON {
		t.Fatalf("%v: resume to json: exit %d %s", run, code, errs)
	}
	// A file of another run is refused.
	other := append(slices.Clone(run), "--seed", "4", "--resume", p)
	if _, errs, code := invoke(other...); code != 2 || !strings.Contains(errs, "seed") {
		t.Errorf("%v: foreign resume: exit %d, %q", run, code, errs)
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

// TestInterruptAndResume sends SIGINT to a real run mid-way, with
// deletions and without: it stops cleanly with exit status 1, keeps every
// finished trial, and --resume then finishes the same file into exactly
// the uninterrupted output.
func TestInterruptAndResume(t *testing.T) {
	bin := buildBinary(t)
	// About 0.1–0.3 s per trial (measured): long enough to interrupt.
	for _, args := range [][]string{
		{"run", "-n", "2^20", "-m", "16n", "-t", "6", "-w", "1", "-f", "jsonl", "--seed", "8"},
		{"run", "-n", "2^16", "--delete", "abku", "--steps", "100n", "-t", "6", "-w", "1", "-f", "jsonl", "--seed", "8"},
	} {
		interruptAndResume(t, bin, args)
	}
}

// interruptAndResume checks TestInterruptAndResume for the command args.
func interruptAndResume(t *testing.T, bin string, args []string) {
	dir := t.TempDir()
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
		t.Fatalf("%v: interrupted run: %v, stderr %q", args, err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted") || !strings.Contains(stderr.String(), "--resume") {
		t.Errorf("%v: stderr %q does not say how to resume", args, stderr.String())
	}
	b, _ := os.ReadFile(got)
	if n := bytes.Count(b, []byte(`{"trial"`)); n < 1 || n >= 6 || bytes.Contains(b, []byte(`"summary"`)) {
		t.Fatalf("%v: interrupted file holds %d trials (summary %v)", args, n, bytes.Contains(b, []byte(`"summary"`)))
	}
	if out, err := exec.Command(bin, append(args, "-o", got, "--resume", got)...).CombinedOutput(); err != nil {
		t.Fatalf("%v: resume: %v: %s", args, err, out)
	}
	wb, _ := os.ReadFile(want)
	gb, _ := os.ReadFile(got)
	if !bytes.Equal(wb, gb) {
		t.Fatalf("%v: resumed output differs from the uninterrupted run", args)
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

// badGraphFiles writes the malformed and hostile graph files of
// TestBadGraphInput into dir and returns them with a fragment of the
// message each must give: every format (edge list, gzip, Matrix Market,
// an edge list with the graphalloc header that declares n), empty, cut
// short, binary, and declaring sizes its bytes do not back.
func badGraphFiles(t *testing.T, dir string) []struct{ name, path, want string } {
	t.Helper()
	gz := func(s string) string {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.String()
	}
	const mm = "%%MatrixMarket matrix coordinate pattern general\n"
	// 77 bytes declaring 2·10^9 vertices: once 16 GiB and a stack dump.
	const huge = mm + "2000000000 2000000000 1\n1 2\n"
	files := []struct{ name, content, want string }{
		{"empty.txt", "", "empty.txt has no edges: it is empty"},
		{"comments.txt", "# a\n% b\n\n", "comments.txt has no edges: its 3 lines are all comments or blank"},
		{"loops.txt", "1 1\n2 2\n", "has no edges: its 2 edge lines are all self-loops"},
		{"one-field.txt", "0 1\n1 2\n3\n", "one-field.txt:3: expected two vertex ids"},
		{"commas.txt", "1,2\n", "not commas"},
		{"nul.txt", "1 2\n\x00 3\n", "nul.txt:2: NUL byte"},
		{"empty.txt.gz", gz(""), "has no edges: it is empty once decompressed"},
		{"comments.txt.gz", gz("# only\n"), "has no edges: its one line is a comment or blank"},
		{"cut.txt.gz", gz(strings.Repeat("1 2\n", 1000))[:40], "cut.txt.gz"},
		{"notgzip.gz", "\x1f\x8bxxxxxxxxxxxxxxxxxx", "bad gzip header"},
		{"header-n0.txt", "# graphalloc edge list: n=5 edges=0\n", "its graphalloc header declares n=5 edges=0"},
		{"header-huge.txt", "# graphalloc edge list: n=4294967295 edges=1\n0 1\n", "header-huge.txt:1: graphalloc header declares 4294967295 vertices"},
		{"header-cut.txt", "# graphalloc edge list: n=3 edges=2\n0 1\n", "found 1 edge lines, the graphalloc header on line 1 declares 2"},
		{"header-id.txt", "# graphalloc edge list: n=3 edges=1\n0 3\n", "is not an integer below n=3"},
		{"header-bad.txt", "# graphalloc edge list: n=x edges=1\n0 1\n", "malformed graphalloc header"},
		{"huge.mtx", huge, "huge.mtx:2: size line declares 2000000000 vertices"},
		{"huge.mtx.gz", gz(huge), "huge.mtx.gz:2: size line declares 2000000000 vertices"},
		{"nnz.mtx", mm + "3 3 4611686018427387904\n1 2\n", "found 1 of the 4611686018427387904 entries"},
		{"zero.mtx", mm + "4 4 0\n", "zero.mtx has no edges: its size line declares 0 entries"},
		{"array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", "array (dense) format not supported"},
		{"nosize.mtx", mm + "% nothing\n", "missing size line"},
		{"index.mtx", mm + "3 3 1\n0 1\n", "row index 0"},
		{"toobig.mtx", mm + "4294967296 1 0\n", "more than the 4294967295 vertices"},
	}
	var out []struct{ name, path, want string }
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, []byte(f.content), 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, struct{ name, path, want string }{f.name, p, f.want})
	}
	for _, f := range []struct{ name, want string }{
		{"bad_field.txt", "bad_field.txt:4: expected two vertex ids"},
		{"bad_index.mtx", "beyond declared size"},
		{"garbage.bin", "garbage.bin:1: NUL byte"},
		{"truncated.txt.gz", "truncated.txt.gz"},
	} {
		out = append(out, struct{ name, path, want string }{f.name, filepath.Join(root, "testdata", "graphs", "bad", f.name), f.want})
	}
	out = append(out, struct{ name, path, want string }{"missing", filepath.Join(dir, "nope.txt"), "nope.txt"})
	return out
}

// badSpecs are impossible parameters of every spec kind, at n = 65536,
// with a fragment of the message: each is named as what it is, never as a
// lack of memory.
var badSpecs = []struct{ spec, want string }{
	{"moebius", "unknown graph kind"},
	{"complete:n=x", `complete:n needs an integer in [0, 4611686018427387904], got "x"`},
	{"cycle:n=-3", `cycle:n needs an integer`},
	{"torus:dim=0", "torus needs 1 <= dim <= 64"},
	{"torus:dim=2,side=10,n=99", "has 100 vertices, but the spec sets n=99"},
	{"hypercube:dim=99", "hypercube needs 0 <= dim <= 31"},
	{"regular:degree=70000", "regular:degree=70000 needs degree < n = 65536"},
	{"regular:eps=2", "regular:eps needs 0 < eps <= 1"},
	{"regular", "regular needs degree=D or eps=E"},
	{"gnp:p=2", "gnp:p needs 0 <= p <= 1"},
	{"gnp:degree=70000", "gnp:degree needs 0 <= degree <= n-1"},
	{"circulant:degree=70000", "circulant:degree=70000 needs degree < n = 65536"},
	{"circulant:degree=3,n=7", "needs n even for an odd degree"},
	{"nonregular:mindeg=0,core=3", "needs mindeg >= 1"},
	{"nonregular:mindeg=3,core=70000", "vertices outside the core"},
	{"file:", "needs a path after file:"},
}

// TestBadGraphInput runs every command that takes a graph on every bad
// graph file and every impossible spec: each must exit 2 with one line on
// stderr naming the problem, print nothing on stdout, and show no panic or
// stack trace.
func TestBadGraphInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.txt")
	commands := []struct {
		name string
		args []string // the command and its flags, before -g
	}{
		{"run", []string{"run", "-p", "graph", "-t", "1"}},
		{"compare", []string{"compare", "-p", "graph", "-t", "1", "-n", "2^10..2^11"}},
		{"bounds", []string{"bounds"}},
		{"info", []string{"info"}},
		{"gen", []string{"gen", "-o", out}},
	}
	type badCase struct {
		name, want string
		args       []string
	}
	var cases []badCase
	for _, f := range badGraphFiles(t, dir) {
		for _, c := range commands {
			cases = append(cases, badCase{c.name + "/file/" + f.name, f.want, append(slices.Clone(c.args), "-g", f.path)})
		}
	}
	for _, s := range badSpecs {
		for _, c := range commands {
			args := slices.Clone(c.args)
			if c.name == "compare" {
				args = args[:len(args)-2] // -n 65536 instead of the range
			}
			cases = append(cases, badCase{c.name + "/spec/" + s.spec, s.want, append(args, "-g", s.spec, "-n", "65536")})
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stdout, errs, code := invoke(tc.args...)
			checkBadInput(t, stdout, errs, code, tc.want)
		})
	}
	if entries, _ := os.ReadDir(dir); slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == "out.txt" }) {
		t.Error("gen wrote a graph for bad input")
	}
	if len(cases) < 60 {
		t.Errorf("%d cases; the bad-input table wants at least 60", len(cases))
	}
}

// checkBadInput fails unless a command exited 2 with nothing on stdout and
// one line "graphalloc: ..." on stderr containing want, and no trace of a
// panic or a stack dump.
func checkBadInput(t *testing.T, stdout, stderr string, code int, want string) {
	t.Helper()
	if code != 2 {
		t.Fatalf("exit %d, want 2 (stderr %q)", code, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout not empty: %q", stdout)
	}
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "graphalloc: ") || !strings.HasSuffix(stderr, "\n") {
		t.Fatalf("want one line 'graphalloc: ...', got %q", stderr)
	}
	if !strings.Contains(stderr, want) {
		t.Errorf("message %q does not mention %q", stderr, want)
	}
	for _, trace := range []string{"goroutine ", "panic", "runtime.", ".go:"} {
		if strings.Contains(stderr, trace) {
			t.Errorf("message %q holds %q: a stack trace", stderr, trace)
		}
	}
}

// TestHostileFileSubprocess runs the real binary, under a 4 GiB address
// space limit, on the 77-byte Matrix Market file that once allocated
// 16 GiB and died with a runtime stack dump: every command must exit 2
// with one line.
func TestHostileFileSubprocess(t *testing.T) {
	bin := buildBinary(t)
	path := filepath.Join(t.TempDir(), "huge.mtx")
	os.WriteFile(path, []byte("%%MatrixMarket matrix coordinate pattern general\n2000000000 2000000000 1\n1 2\n"), 0o644)
	for _, args := range [][]string{
		{"run", "-p", "graph", "-g", path},
		{"compare", "-p", "graph", "-g", path},
		{"bounds", "-g", path},
		{"info", path},
		{"gen", "-g", path, "-o", path + ".out"},
	} {
		t.Run(args[0], func(t *testing.T) {
			cmd := exec.Command("bash", append([]string{"-c", `ulimit -v 4194304 && exec "$0" "$@"`, bin}, args...)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			checkBadInput(t, stdout.String(), stderr.String(), code, "size line declares 2000000000 vertices")
		})
	}
}
