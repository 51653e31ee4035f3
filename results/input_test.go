package results

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// endless is an io.Reader that never ends: its pattern, over and over.
type endless []byte

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e[i%len(e)]
	}
	return len(p), nil
}

// TestReadBounded: an endless input is refused as soon as it shows what
// no result file holds (a NUL byte, a line too long, too many bytes), and
// a result file within the bounds is read whole.
func TestReadBounded(t *testing.T) {
	const limit, maxLine = 1 << 20, 1 << 16 // small, so that each case reads little
	for _, tc := range []struct {
		name string
		r    io.Reader
		want string
	}{
		{"zeros", endless{0}, "a NUL byte at offset 0"},
		{"one endless line", endless(`{"config": `), "a line longer than"},
		{"endless short lines", endless("{}\n"), "more than 1 MiB"},
		{"a NUL byte later", io.MultiReader(strings.NewReader(`{"config": {}}`+"\n"), endless{0}), "a NUL byte at offset 15"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := readBounded("in", tc.r, limit, maxLine, 4096)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("got %d bytes, error %v; want one line with %q", len(b), err, tc.want)
			}
		})
	}
	want := bytes.Repeat([]byte("{\"trial\": 1}\n"), 20000) // 260 kB: several reads
	if b, err := readBounded("in", bytes.NewReader(want), limit, maxLine, 4096); err != nil || !bytes.Equal(b, want) {
		t.Errorf("a file within the bounds: %d bytes, %v", len(b), err)
	}
}

// TestReadInputRefuses: what cannot be a result file is refused before a
// byte of it is read: a directory, a device node (made here, as root; the
// real /dev is never touched), a regular file over the limit.
func TestReadInputRefuses(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, bytes.Repeat([]byte(" "), 2048), 0o644)
	cases := map[string]string{dir: "is a directory", big: "holds 2 KiB, more than the 1 KiB"}
	zero := filepath.Join(dir, "zero")
	if err := syscall.Mknod(zero, syscall.S_IFCHR|0o600, 1<<8|5); err == nil { // 1:5, a /dev/zero of our own
		cases[zero] = "is a device"
	} else if os.Geteuid() == 0 {
		t.Errorf("mknod as root: %v", err)
	}
	for path, want := range cases {
		if _, err := ReadInput(context.Background(), path, 1024); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
}

// TestParseRefusesTrials: a run's file holding a trial twice, a trial
// outside the run or its shard, or a trial of another n is refused, with
// the line that holds it.
func TestParseRefusesTrials(t *testing.T) {
	jsonl := func(f *File) string {
		var b bytes.Buffer
		Write(&b, "jsonl", f)
		return b.String()
	}
	f := runFile(t, []int{0, 1, 2})
	lines := strings.SplitAfter(jsonl(f), "\n")
	shard := runFile(t, []int{1})
	shard.Config.Shard = "1/2"
	shardLines := strings.SplitAfter(jsonl(shard), "\n")
	other := runFile(t, []int{1})
	other.Trials[0].LoadCounts[0] += 7
	otherLines := strings.SplitAfter(jsonl(other), "\n")
	var twice bytes.Buffer
	dup := *f
	dup.Trials = append(dup.Trials, f.Trials[1])
	Write(&twice, "json", &dup)
	for _, tc := range []struct {
		name, file, want string
	}{
		{"a trial twice", lines[0] + lines[1] + lines[2] + lines[2], "f:4: trial 1 a second time (first at line 3)"},
		{"a trial twice, json", twice.String(), "f: trial 1 a second time (first at entry 2)"},
		{"a trial outside the run", lines[0] + strings.Replace(lines[1], `"trial":0`, `"trial":6`, 1), "f:2: trial 6, in a run of 6 trials (0..5)"},
		{"a trial of another shard", shardLines[0] + strings.Replace(shardLines[1], `"trial":1`, `"trial":2`, 1), "f:2: trial 2 is not of shard 1/2"},
		{"a trial of another n", lines[0] + otherLines[1], "f:2: trial 1 counts 507 bins, the run has n=500"},
		// Control: each edit below left Parse satisfied before countsAgree.
		{"a negative max load", lines[0] + strings.Replace(lines[1], `"max_load":`, `"max_load":-`, 1), "f:2: trial 0: max load -"},
		{"a max load its counts lack", lines[0] + strings.Replace(lines[1], `"max_load":`, `"max_load":1`, 1), "but its load counts hold loads"},
		{"a negative count", lines[0] + strings.Replace(lines[1], `"load_counts":[`, `"load_counts":[-`, 1), "is negative"},
		{"two JSON files joined", twice.String() + twice.String(), "f: more after the JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Parse("f", []byte(tc.file)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}
