package outfile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/graphalloc/graphalloc/internal/testfs"
)

// text returns a write of s.
func text(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// bothTemps runs test with unnamed temporary files, where the system has
// them, and with the named ones of the other systems.
func bothTemps(t *testing.T, test func(t *testing.T)) {
	t.Run("unnamed", test)
	t.Run("named", func(t *testing.T) {
		openTemp = func(string) (*os.File, error) { return nil, errNoUnnamed }
		defer func() { openTemp = openUnnamed }()
		test(t)
	})
}

// TestFailedWriteLeavesOldFile: a write that fails midway, or is
// cancelled midway (SIGINT cancels the commands' context), leaves the file
// under the final name as it was and no temporary file, and the error names
// the user's path. The negative control, a plain os.Create write, fails the
// same check, so the test can tell the two apart.
func TestFailedWriteLeavesOldFile(t *testing.T) { bothTemps(t, failedWriteLeavesOldFile) }

func failedWriteLeavesOldFile(t *testing.T) {
	failing := func(w io.Writer) error {
		w.Write([]byte(`{"config": {"partial": `))
		return errors.New("disk full")
	}
	plain := func(_ context.Context, _ io.Writer, path string, write func(io.Writer) error) error {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		return write(f)
	}
	ctx, cancel := context.WithCancel(context.Background())
	// 3 MiB, cancelled after the first: the buffer (1 MiB) has reached
	// the temporary file by then.
	cancelled := func(w io.Writer) error {
		chunk := bytes.Repeat([]byte("x"), bufSize)
		for i := range 3 {
			if i == 1 {
				cancel()
			}
			if _, err := w.Write(chunk); err != nil {
				return err
			}
		}
		return nil
	}
	for _, tc := range []struct {
		name     string
		write    func(context.Context, io.Writer, string, func(io.Writer) error) error
		fill     func(io.Writer) error
		wantSafe bool
	}{
		{"failed", Write, failing, true},
		{"cancelled", Write, cancelled, true},
		{"negative control", plain, failing, false},
	} {
		dir := t.TempDir()
		out := filepath.Join(dir, "res.json")
		os.WriteFile(out, []byte("old"), 0o644)
		err := tc.write(ctx, nil, out, tc.fill)
		if err == nil {
			t.Fatalf("%s: the failed write reported no error", tc.name)
		}
		b, _ := os.ReadFile(out)
		safe := string(b) == "old" && len(testfs.Names(t, dir)) == 1
		if safe != tc.wantSafe {
			t.Errorf("%s: final file %q, directory %q; safe = %v, want %v", tc.name, b, testfs.Names(t, dir), safe, tc.wantSafe)
		}
		if tc.wantSafe && !strings.Contains(err.Error(), out) {
			t.Errorf("%s: error %q does not name %s", tc.name, err, out)
		}
	}
	if err := Write(ctx, nil, filepath.Join(t.TempDir(), "x"), cancelled); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled write: error %v, want one that is context.Canceled", err)
	}
}

// TestNewFileMode: a written file gets 0666 less the umask, like any file
// the user creates (os.CreateTemp's 0600 would hide results from a group).
func TestNewFileMode(t *testing.T) { bothTemps(t, newFileMode) }

func newFileMode(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	for _, exists := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "ok.json")
		if exists {
			os.WriteFile(out, nil, 0o600)
		}
		if err := Write(context.Background(), nil, out, text("{}")); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(out); err != nil || st.Mode().Perm() != 0o644 {
			t.Errorf("existing %v: mode %v under umask 022, want 0644 (%v)", exists, st.Mode().Perm(), err)
		}
	}
}

// TestSymlinks: a link is kept and its target written; a dangling link
// creates the file it names; a chain of links is followed to its end, and
// a relative link is read from the link's directory.
func TestSymlinks(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "target.json"), []byte("old"), 0o644)
	os.Symlink("sub/target.json", filepath.Join(dir, "link"))
	os.Symlink("link", filepath.Join(dir, "chain"))
	os.Symlink("sub/new.json", filepath.Join(dir, "dangling"))
	for _, tc := range []struct{ link, target string }{
		{"link", "sub/target.json"},
		{"chain", "sub/target.json"},
		{"dangling", "sub/new.json"},
	} {
		if err := Write(context.Background(), nil, filepath.Join(dir, tc.link), text(tc.link)); err != nil {
			t.Fatalf("%s: %v", tc.link, err)
		}
		st, err := os.Lstat(filepath.Join(dir, tc.link))
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: no longer a symbolic link (%v)", tc.link, err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, tc.target)); string(b) != tc.link {
			t.Errorf("%s: target %s holds %q, want %q", tc.link, tc.target, b, tc.link)
		}
	}
	if got := testfs.Names(t, sub); !slices.Equal(got, []string{"new.json", "target.json"}) {
		t.Errorf("left in the target's directory: %q", got)
	}
	os.Symlink("loop", filepath.Join(dir, "loop"))
	if err := Write(context.Background(), nil, filepath.Join(dir, "loop"), text("x")); err == nil || !strings.Contains(err.Error(), "symbolic links") {
		t.Errorf("a link to itself: error %v", err)
	}
}

// TestStdout: "-" and "" are stdout, written as they come.
func TestStdout(t *testing.T) {
	for _, path := range []string{"-", ""} {
		var b bytes.Buffer
		if err := Write(context.Background(), &b, path, text("hello")); err != nil || b.String() != "hello" {
			t.Errorf("%q: wrote %q, %v", path, b.String(), err)
		}
	}
}

// TestCheck: a directory, a missing directory and a file in a missing
// directory are refused; a new file, a link to one and stdout are not; and
// the check leaves nothing behind.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	os.Symlink(dir, filepath.Join(dir, "dirlink"))
	for _, tc := range []struct {
		path, want string // want: part of the error; "" for none
	}{
		{"-", ""},
		{filepath.Join(dir, "new.json"), ""},
		{dir, "is a directory"},
		{filepath.Join(dir, "dirlink"), "is a directory"},
		{filepath.Join(dir, "missing", "x.json"), "no such file or directory"},
	} {
		err := Check(tc.path)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("Check(%s) = %v, want %q", tc.path, err, tc.want)
		}
	}
	if got := testfs.Names(t, dir); !slices.Equal(got, []string{"dirlink"}) {
		t.Errorf("the checks left %q", got)
	}
}

// TestDistinct: the ways two names can be one file, and the ways they are
// not.
func TestDistinct(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	os.WriteFile(at("g.txt"), []byte("0 1\n"), 0o644)
	os.Link(at("g.txt"), at("hard.txt"))
	os.Symlink("g.txt", at("soft.txt"))
	os.Symlink("new.json", at("dangling"))
	os.Mkdir(at("d"), 0o755)
	out := func(flag, path string) File { return File{Flag: flag, Path: path} }
	in := func(flag, path string) File { return File{Flag: flag, Path: path, Input: true} }
	for _, tc := range []struct {
		name  string
		files []File
		want  string // part of the error; "" for none
	}{
		{"output over input", []File{in("--graph", at("g.txt")), out("--output", at("g.txt"))}, "--output: " + at("g.txt") + " is the file --graph reads"},
		{"through ./ and ..", []File{in("--graph", at("g.txt")), out("--output", at("d/../g.txt"))}, "is the file --graph reads"},
		{"hard link", []File{out("--output", at("hard.txt")), in("--graph", at("g.txt"))}, "is the file --graph reads"},
		{"symlink", []File{in("--graph", at("g.txt")), out("--plot", at("soft.txt"))}, "--plot: "},
		{"two outputs", []File{out("--output", at("x.json")), out("--per-vertex", at("x.json"))}, "--output and --per-vertex both name"},
		{"dangling link and its target", []File{out("--output", at("dangling")), out("--plot", at("d/../new.json"))}, "both name"},
		{"stdout twice", []File{out("the results", "-"), out("--per-vertex", "-")}, "both write to stdout"},
		{"stdout and empty", []File{out("the results", ""), out("--per-vertex", "-")}, "both write to stdout"},
		{"two inputs", []File{in("a", at("g.txt")), in("b", at("g.txt"))}, ""},
		{"stdin and stdout", []File{in("--graph", "-"), out("--output", "-")}, ""},
		{"different files", []File{in("--graph", at("g.txt")), out("--output", at("x.json")), out("--plot", at("x.svg"))}, ""},
	} {
		err := Distinct(tc.files...)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
