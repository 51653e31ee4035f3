package outfile

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/graphalloc/graphalloc/internal/testfs"
)

// TestDevices: a device node is written in place and stays a device
// (replacing /dev/null with a regular file, as root, breaks the machine);
// a device that refuses the bytes (like /dev/full) is an error. Nodes of
// the test's own, never the real /dev; a symlink to a device reaches it.
func TestDevices(t *testing.T) {
	dir := t.TempDir()
	null := testfs.Null(t, dir, "null")
	full := testfs.Full(t, dir, "full")
	os.Symlink("null", filepath.Join(dir, "stdout"))
	big := bytes.Repeat([]byte("y"), 3*bufSize)
	for _, path := range []string{null, filepath.Join(dir, "stdout")} {
		if err := Check(path); err != nil {
			t.Errorf("Check(%s): %v", path, err)
		}
		if err := Write(context.Background(), nil, path, text(string(big))); err != nil {
			t.Errorf("write %s: %v", path, err)
		}
		f, err := Create(context.Background(), path)
		if err != nil {
			t.Fatalf("create %s: %v", path, err)
		}
		f.Close()
	}
	if !testfs.IsCharDevice(t, null) {
		t.Errorf("%s is no longer a character device", null)
	}
	err := Write(context.Background(), nil, full, text("z"))
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("write to a full device: %v, want ENOSPC", err)
	}
	if got := testfs.Names(t, dir); !slices.Equal(got, []string{"full", "null", "stdout"}) {
		t.Errorf("left in the directory: %q", got)
	}
}

// TestFIFO: a FIFO's reader gets the whole output (more than the buffer)
// and its end, and the FIFO stays one; a FIFO that no one reads does not
// hold a cancelled write.
func TestFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := testfs.FIFO(t, dir, "fifo")
	want := bytes.Repeat([]byte("0123456789abcdef"), (3*bufSize)/16+5)
	got := testfs.ReadAll(fifo)
	if err := Write(context.Background(), nil, fifo, text(string(want))); err != nil {
		t.Fatal(err)
	}
	select {
	case b := <-got:
		if !bytes.Equal(b, want) {
			t.Errorf("the reader got %d bytes, want %d", len(b), len(want))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the reader got no end of file")
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("%s is no longer a FIFO (%v)", fifo, err)
	}
	// A FIFO of its own: the first one's reader may still hold it open
	// for a moment after it has sent what it read, and an open reader
	// lets the write through.
	lonely := testfs.FIFO(t, dir, "lonely")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := Write(ctx, nil, lonely, text("nobody reads")); !errors.Is(err, context.Canceled) {
		t.Errorf("a FIFO without a reader, cancelled: %v, want interrupted", err)
	}
}

// TestReadOnlyDirectory: as root a 0555 directory is still writable, so a
// read-only file system: the check refuses, the write fails, the old file
// stays.
func TestReadOnlyDirectory(t *testing.T) { bothTemps(t, readOnlyDirectory) }

func readOnlyDirectory(t *testing.T) {
	_, out := oldOnTmpfs(t, true)
	if err := Check(out); !errors.Is(err, syscall.EROFS) {
		t.Errorf("Check: %v, want EROFS", err)
	}
	if err := Write(context.Background(), nil, out, text("new")); !errors.Is(err, syscall.EROFS) {
		t.Errorf("Write: %v, want EROFS", err)
	}
	if b, _ := os.ReadFile(out); string(b) != "old" {
		t.Errorf("the old file holds %q", b)
	}
}

// oldOnTmpfs mounts a 64 KiB tmpfs holding res.json, "old", read-only or
// not, and returns it and the file.
func oldOnTmpfs(t *testing.T, readOnly bool) (dir, old string) {
	dir = testfs.Tmpfs(t, "size=64k", readOnly, func(dir string) {
		os.WriteFile(filepath.Join(dir, "res.json"), []byte("old"), 0o644)
	})
	return dir, filepath.Join(dir, "res.json")
}

// TestFullDisk: an output larger than the file system has room for fails
// with ENOSPC, the old file intact and no temporary file left (the space
// is given back: a second, small write fits).
func TestFullDisk(t *testing.T) { bothTemps(t, fullDisk) }

func fullDisk(t *testing.T) {
	dir, out := oldOnTmpfs(t, false)
	err := Write(context.Background(), nil, out, text(string(bytes.Repeat([]byte("x"), 256<<10))))
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Write: %v, want ENOSPC", err)
	}
	if b, _ := os.ReadFile(out); string(b) != "old" {
		t.Errorf("the old file holds %d bytes", len(b))
	}
	if got := testfs.Names(t, dir); !slices.Equal(got, []string{"res.json"}) {
		t.Errorf("left in the directory: %q", got)
	}
	if err := Write(context.Background(), nil, out, text(string(bytes.Repeat([]byte("x"), 32<<10)))); err != nil {
		t.Errorf("a write that fits: %v", err)
	}
}

// killedEnv names, for the test binary run by TestKilledWriteLeavesNothing,
// the file to write before it is killed.
const killedEnv = "OUTFILE_TEST_KILLED_WRITE"

// TestKilledWriteLeavesNothing: a process killed (SIGKILL, which no code
// can catch) in the middle of a write leaves the old file and, where the
// temporary file is unnamed, nothing else.
func TestKilledWriteLeavesNothing(t *testing.T) {
	if path := os.Getenv(killedEnv); path != "" {
		Write(context.Background(), nil, path, func(w io.Writer) error {
			w.Write(bytes.Repeat([]byte("x"), 2*bufSize)) // past the buffer, into the file
			os.Stdout.WriteString("writing\n")
			select {} // until killed
		})
		return
	}
	dir := t.TempDir()
	a, err := createAtomic(filepath.Join(dir, "probe"))
	if err != nil {
		t.Fatal(err)
	}
	a.abort()
	if a.named {
		t.Skip("no unnamed temporary files on this file system: a SIGKILL leaves the named one")
	}
	out := filepath.Join(dir, "res.json")
	os.WriteFile(out, []byte("old"), 0o644)
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriteLeavesNothing$")
	cmd.Env = append(os.Environ(), killedEnv+"="+out)
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	cmd.Process.Kill()
	cmd.Wait()
	if line != "writing\n" {
		t.Fatalf("the writer said %q", line)
	}
	if b, _ := os.ReadFile(out); string(b) != "old" {
		t.Errorf("the old file holds %d bytes", len(b))
	}
	if got := testfs.Names(t, dir); !slices.Equal(got, []string{"res.json"}) {
		t.Errorf("left in the directory: %q", got)
	}
}

// TestDescriptors: a path to an open descriptor (/dev/stdout is a link to
// /proc/self/fd/1) is written in place, through a link of the test's own:
// a pipe's reader gets the output, and a regular file is truncated and
// written, the same inode, as a shell's "> /dev/stdout" does.
func TestDescriptors(t *testing.T) {
	dir := t.TempDir()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fdPath := func(f *os.File) string { return "/proc/self/fd/" + strconv.Itoa(int(f.Fd())) }
	os.Symlink(fdPath(w), filepath.Join(dir, "stdout"))
	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(r); got <- b }()
	want := strings.Repeat("pipe ", 1<<16)
	if err := Write(context.Background(), nil, filepath.Join(dir, "stdout"), text(want)); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if b := <-got; string(b) != want {
		t.Errorf("the pipe's reader got %d bytes, want %d", len(b), len(want))
	}

	file := filepath.Join(dir, "out.txt")
	os.WriteFile(file, []byte("old old old"), 0o644)
	f, err := os.OpenFile(file, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before, _ := os.Stat(file)
	os.Symlink(fdPath(f), filepath.Join(dir, "fd"))
	if err := Write(context.Background(), nil, filepath.Join(dir, "fd"), text("new")); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(file)
	if b, _ := os.ReadFile(file); string(b) != "new" || !os.SameFile(before, after) {
		t.Errorf("the file holds %q, same inode %v", b, os.SameFile(before, after))
	}
	// The input and the output, through the descriptor link.
	err = Distinct(File{Flag: "--graph", Path: file, Input: true}, File{Flag: "--output", Path: filepath.Join(dir, "fd")})
	if err == nil || !strings.Contains(err.Error(), "--output: "+filepath.Join(dir, "fd")+" is the file --graph reads") {
		t.Errorf("an output through a descriptor over an input: %v", err)
	}
}
