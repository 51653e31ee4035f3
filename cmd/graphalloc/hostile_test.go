package main

// The hostile-input suite (issue 23): every case of testdata/hostile/*.cases
// runs the built binary under `prlimit --as=2G` and a timeout, and must end
// with its documented exit status, one line on stderr when it fails, and
// never a panic, a fatal runtime error, a stack dump or a hang. The case
// files' format is described in testdata/hostile/README.md.
//
//	go test ./cmd/graphalloc -run '^TestHostileInputs$' -hostile -count=1
//
// TestHostileCasesParse, which only parses the case files, runs in every
// go test.

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var (
	hostile     = flag.Bool("hostile", false, "run the hostile-input suite of testdata/hostile/*.cases against the built binary")
	hostileOnly = flag.String("hostile-run", "", "with -hostile, run only the cases whose name matches this regular expression")
)

// hostileDir holds the case files; hostileInputs the files they read.
var (
	hostileDir    = filepath.Join(root, "testdata", "hostile")
	hostileInputs = filepath.Join(hostileDir, "inputs")
)

// hostileCase is one line of a case file.
type hostileCase struct {
	file    string // the case file and line, for messages
	line    int
	name    string
	exit    []int // the accepted exit statuses
	timeout time.Duration
	// interrupt, if set: SIGINT this long after the start; the command
	// must then exit within a second (a FIFO that no one writes waits for
	// a writer, as cat does, but hears the interrupt).
	interrupt time.Duration
	stdin     string   // "", zeros, urandom, pipe:REL or file:REL (REL under testdata)
	errHas    []string // stderr must contain each
	outHas    []string // stdout must contain each
	outNot    []string // stdout must contain none
	okOut     []string // when the exit status is 0, stdout must contain each
	kinds     []string // REL:KIND: the path under {tmp} is still a file, dir, symlink, fifo or chardev
	makes     []string // files to create in {tmp} first (see makeHostileFile)
	noFile    []string // paths (under {tmp}) that must not exist afterwards
	fileHas   []string // REL:SUBSTR: the file under {tmp} must exist and contain SUBSTR
	same      []string // REL:TESTDATAREL: the file under {tmp} must equal the testdata file
	args      []string // after graphalloc, placeholders not yet expanded
}

const hostileDefaultTimeout = 10 * time.Second

// splitHostileWords splits a line into words: blanks separate them, and
// '...' or "..." quote (no escapes; a word may mix quoted and bare parts).
func splitHostileWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unclosed %c", c)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// parseHostileLine parses `NAME EXIT [key=value ...] -- ARG ...`.
func parseHostileLine(text string) (hostileCase, error) {
	var c hostileCase
	words, err := splitHostileWords(text)
	if err != nil {
		return c, err
	}
	sep := slices.Index(words, "--")
	if sep < 2 {
		return c, errors.New("want NAME EXIT [key=value ...] -- ARGS")
	}
	c.name, c.args, c.timeout = words[0], words[sep+1:], hostileDefaultTimeout
	for _, e := range strings.Split(words[1], ",") {
		code, err := strconv.Atoi(e)
		if err != nil || code < 0 || code > 2 {
			return c, fmt.Errorf("exit %q: want 0, 1 or 2, or a list of them", words[1])
		}
		c.exit = append(c.exit, code)
	}
	for _, kv := range words[2:sep] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || v == "" {
			return c, fmt.Errorf("option %q: want key=value", kv)
		}
		if err := c.setOption(k, v); err != nil {
			return c, err
		}
	}
	return c, nil
}

func (c *hostileCase) setOption(k, v string) error {
	lists := map[string]*[]string{"err": &c.errHas, "out": &c.outHas, "noout": &c.outNot, "okout": &c.okOut,
		"nofile": &c.noFile, "kind": &c.kinds, "filehas": &c.fileHas, "same": &c.same, "make": &c.makes}
	switch k {
	case "timeout":
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 || d > 2*time.Minute {
			return fmt.Errorf("timeout=%q: want a duration up to 2m", v)
		}
		c.timeout = d
		return nil
	case "interrupt":
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 || d > time.Minute {
			return fmt.Errorf("interrupt=%q: want a duration up to 1m", v)
		}
		c.interrupt = d
		return nil
	case "stdin":
		if v != "zeros" && v != "urandom" && !strings.HasPrefix(v, "pipe:") && !strings.HasPrefix(v, "file:") {
			return fmt.Errorf("stdin=%q: want zeros, urandom, pipe:REL or file:REL", v)
		}
		c.stdin = v
		return nil
	case "make":
		if err := checkHostileMake(v); err != nil {
			return err
		}
	case "kind", "filehas", "same":
		if !strings.Contains(v, ":") {
			return fmt.Errorf("%s=%q: want REL:VALUE", k, v)
		}
	}
	list, ok := lists[k]
	if !ok {
		return fmt.Errorf("unknown option %q", k)
	}
	*list = append(*list, v)
	return nil
}

// loadHostileCases reads every testdata/hostile/*.cases file.
func loadHostileCases() ([]hostileCase, error) {
	files, err := filepath.Glob(filepath.Join(hostileDir, "*.cases"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no case files under %s (%v)", hostileDir, err)
	}
	var cases []hostileCase
	seen := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for i, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			where := fmt.Sprintf("%s:%d", filepath.Base(f), i+1)
			c, err := parseHostileLine(line)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", where, err)
			}
			if prev, dup := seen[c.name]; dup {
				return nil, fmt.Errorf("%s: case %q already defined at %s", where, c.name, prev)
			}
			seen[c.name] = where
			c.file, c.line = filepath.Base(f), i+1
			cases = append(cases, c)
		}
	}
	return cases, nil
}

// TestHostileCasesParse checks, in every go test, that the case files
// parse, that they hold at least 300 cases, and that every input file and
// stdin source they name exists.
func TestHostileCasesParse(t *testing.T) {
	cases, err := loadHostileCases()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 300 {
		t.Errorf("%d hostile cases, want at least 300", len(cases))
	}
	ref := regexp.MustCompile(`\{(in|testdata)\}/[^ ,;:'"]*`)
	for _, c := range cases {
		var refs []string
		for _, a := range c.args {
			refs = append(refs, ref.FindAllString(a, -1)...)
		}
		if rel, ok := strings.CutPrefix(c.stdin, "pipe:"); ok {
			refs = append(refs, "{testdata}/"+rel)
		} else if rel, ok := strings.CutPrefix(c.stdin, "file:"); ok {
			refs = append(refs, "{testdata}/"+rel)
		}
		for _, r := range refs {
			if _, err := os.Stat(expandHostile(r, "/nonexistent-tmp")); err != nil {
				t.Errorf("%s:%d %s: %v", c.file, c.line, c.name, err)
			}
		}
		for _, s := range c.same {
			_, rel, _ := strings.Cut(s, ":")
			if _, err := os.Stat(filepath.Join(root, "testdata", rel)); err != nil {
				t.Errorf("%s:%d %s: same=%s: %v", c.file, c.line, c.name, s, err)
			}
		}
	}
}

// expandHostile replaces the placeholders {tmp}, {in} and {testdata}.
func expandHostile(s, tmp string) string {
	abs, _ := filepath.Abs(filepath.Join(root, "testdata"))
	return strings.NewReplacer("{tmp}", tmp, "{in}", filepath.Join(abs, "hostile", "inputs"), "{testdata}", abs).Replace(s)
}

// checkHostileMake validates a make= value (see makeHostileFile).
func checkHostileMake(v string) error {
	kind, rest, _ := strings.Cut(v, ":")
	parts := strings.SplitN(rest, ":", 3)
	want := map[string]int{"fifo": 1, "dir": 1, "text": 2, "copy": 2, "symlink": 2, "repeat": 3, "gzbomb": 3, "gzcut": 2, "rodir": 1, "null": 1}
	n, ok := want[kind]
	if !ok {
		return fmt.Errorf("make=%q: unknown kind %q", v, kind)
	}
	if len(parts) < n || parts[0] == "" {
		return fmt.Errorf("make=%q: %s takes %d fields", v, kind, n)
	}
	return nil
}

// makeHostileFile creates one input under tmp:
//
//	fifo:NAME               a FIFO (nobody writes to it)
//	dir:NAME, rodir:NAME    a directory (rodir: mode 0555)
//	text:NAME:GOSTRING      a file holding the Go-escaped string (\n, \x00, ...)
//	copy:NAME:REL           a copy of testdata/REL
//	symlink:NAME:TARGET     a symlink to TARGET (placeholders expanded)
//	repeat:NAME:N:GOSTRING  the string N times (N a count: 1000, 1M)
//	gzbomb:NAME:MIB:LINE    a multi-member gzip of LINE repeated to MIB MiB
//	gzcut:NAME:REL          testdata/REL gzipped, then cut in half
//	null:NAME               a character device like /dev/null (1, 3), made here
func makeHostileFile(spec, tmp string) error {
	kind, rest, _ := strings.Cut(spec, ":")
	parts := strings.SplitN(rest, ":", 3)
	path := filepath.Join(tmp, parts[0])
	unq := func(s string) (string, error) { return strconv.Unquote(`"` + strings.ReplaceAll(s, `"`, `\"`) + `"`) }
	switch kind {
	case "fifo":
		return syscall.Mkfifo(path, 0o644)
	case "dir":
		return os.MkdirAll(path, 0o755)
	case "rodir":
		return os.Mkdir(path, 0o555)
	case "null":
		return syscall.Mknod(path, syscall.S_IFCHR|0o666, int(unix1x3))
	case "text":
		s, err := unq(parts[1])
		if err != nil {
			return err
		}
		return os.WriteFile(path, []byte(s), 0o644)
	case "copy":
		data, err := os.ReadFile(filepath.Join(root, "testdata", parts[1]))
		if err != nil {
			return err
		}
		return os.WriteFile(path, data, 0o644)
	case "symlink":
		return os.Symlink(expandHostile(parts[1], tmp), path)
	case "repeat", "gzbomb":
		n, err := strconv.ParseUint(strings.TrimSuffix(parts[1], "M"), 10, 40)
		if err != nil {
			return err
		}
		if strings.HasSuffix(parts[1], "M") {
			n <<= 20
		}
		s, err := unq(parts[2])
		if err != nil {
			return err
		}
		if kind == "repeat" {
			return os.WriteFile(path, bytes.Repeat([]byte(s), int(n)), 0o644)
		}
		return writeGzipBomb(path, int(n), s)
	case "gzcut":
		data, err := os.ReadFile(filepath.Join(root, "testdata", parts[1]))
		if err != nil {
			return err
		}
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write(data)
		w.Close()
		return os.WriteFile(path, b.Bytes()[:b.Len()/2], 0o644)
	}
	return fmt.Errorf("unknown make kind %q", kind)
}

// unix1x3 is the device number of a null device: major 1, minor 3.
const unix1x3 = 1<<8 | 3

// writeGzipBomb writes a gzip stream that inflates to mib MiB of line
// repeated: one member of 1 MiB, compressed once, then written mib times
// (a valid multi-member gzip file, about 1 KiB per MiB).
func writeGzipBomb(path string, mib int, line string) error {
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	chunk := bytes.Repeat([]byte(line), (1<<20)/len(line))
	w.Write(chunk)
	w.Close()
	return os.WriteFile(path, bytes.Repeat(b.Bytes(), mib), 0o644)
}

// TestHostileInputs runs the hostile-input suite (with -hostile): the
// binary is built once, and each case runs under prlimit --as=2G (when
// prlimit is installed) and its timeout, two at a time.
func TestHostileInputs(t *testing.T) {
	if !*hostile {
		t.Skip("the hostile-input suite runs with -hostile")
	}
	cases, err := loadHostileCases()
	if err != nil {
		t.Fatal(err)
	}
	if *hostileOnly != "" {
		re := regexp.MustCompile(*hostileOnly)
		cases = slices.DeleteFunc(cases, func(c hostileCase) bool { return !re.MatchString(c.name) })
	}
	bin := filepath.Join(t.TempDir(), "graphalloc")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var wrap []string
	if p, err := exec.LookPath("prlimit"); err == nil {
		wrap = []string{p, "--as=2147483648", "--"}
	} else {
		t.Logf("prlimit not found (%v): the cases run without the 2 GiB address-space limit", err)
	}
	sem := make(chan struct{}, 2)
	var mu sync.Mutex
	var failed []string
	start := time.Now()
	t.Run("case", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				sem <- struct{}{}
				defer func() { <-sem }()
				if problems := runHostileCase(t, wrap, bin, c); len(problems) > 0 {
					mu.Lock()
					failed = append(failed, c.name)
					mu.Unlock()
				}
			})
		}
	})
	slices.Sort(failed)
	t.Logf("hostile inputs: %d cases in %v, %d failed", len(cases), time.Since(start).Round(time.Second), len(failed))
	for _, f := range failed {
		t.Logf("FAIL %s", f)
	}
}

// capWriter keeps the first max bytes written and counts them all.
type capWriter struct {
	buf   bytes.Buffer
	max   int
	total int64
}

func (w *capWriter) Write(p []byte) (int, error) {
	w.total += int64(len(p))
	if room := w.max - w.buf.Len(); room > 0 {
		w.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// hostileStdin opens a case's stdin: zeros (1 GiB) and urandom (64 MiB)
// through a pipe, pipe:REL a testdata file through a pipe, file:REL the
// file itself; nothing for none.
func hostileStdin(c hostileCase) (io.Reader, func(), error) {
	none := func() {}
	switch {
	case c.stdin == "":
		return nil, none, nil
	case c.stdin == "zeros":
		return io.LimitReader(zeroReader{}, 1<<30), none, nil
	case c.stdin == "urandom":
		f, err := os.Open("/dev/urandom")
		if err != nil {
			return nil, none, err
		}
		return io.LimitReader(f, 64<<20), func() { f.Close() }, nil
	case strings.HasPrefix(c.stdin, "pipe:"):
		data, err := os.ReadFile(filepath.Join(root, "testdata", c.stdin[len("pipe:"):]))
		return bytes.NewReader(data), none, err
	default:
		f, err := os.Open(filepath.Join(root, "testdata", c.stdin[len("file:"):]))
		if err != nil {
			return nil, none, err
		}
		return f, func() { f.Close() }, nil
	}
}

// runHostileCase runs one case and reports (and returns) what is wrong.
func runHostileCase(t *testing.T, wrap []string, bin string, c hostileCase) []string {
	tmp := t.TempDir()
	for _, m := range c.makes {
		if err := makeHostileFile(m, tmp); errors.Is(err, syscall.EPERM) {
			t.Skipf("%s:%d make=%s needs root (CI runs as root): %v", c.file, c.line, m, err)
		} else if err != nil {
			t.Fatalf("%s:%d make=%s: %v", c.file, c.line, m, err)
		}
	}
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = expandHostile(a, tmp)
	}
	stdin, closeIn, err := hostileStdin(c)
	if err != nil {
		t.Fatalf("%s:%d stdin=%s: %v", c.file, c.line, c.stdin, err)
	}
	defer closeIn()
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	argv := append(slices.Clone(wrap), bin)
	cmd := exec.CommandContext(ctx, argv[0], append(argv[1:], args...)...)
	cmd.Dir, cmd.Stdin = tmp, stdin
	stdout, stderr := &capWriter{max: 1 << 20}, &capWriter{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	began := time.Now()
	runErr := cmd.Start()
	if runErr == nil {
		if c.interrupt > 0 {
			sig := time.AfterFunc(c.interrupt, func() { cmd.Process.Signal(syscall.SIGINT) })
			defer sig.Stop()
		}
		runErr = cmd.Wait()
	}
	elapsed := time.Since(began)
	problems := checkHostileRun(c, tmp, cmd, runErr, ctx.Err(), stdout, stderr)
	if c.interrupt > 0 && elapsed > c.interrupt+time.Second {
		problems = append(problems, fmt.Sprintf("exited %v after the interrupt, want within a second", (elapsed-c.interrupt).Round(time.Millisecond)))
	}
	if len(problems) > 0 {
		t.Errorf("%s:%d %s (%v): graphalloc %s\n  %s\n  stderr: %s\n  stdout: %s", c.file, c.line, c.name,
			elapsed.Round(time.Millisecond), strings.Join(args, " "), strings.Join(problems, "\n  "),
			firstLines(stderr.buf.String(), 6), firstLines(stdout.buf.String(), 3))
	}
	return problems
}

// firstLines returns the first n lines of s, indented, with a count of
// those left off.
func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if s == "" {
		return "(empty)"
	}
	more := ""
	if len(lines) > n {
		more = fmt.Sprintf("\n    ... (%d more lines)", len(lines)-n)
		lines = lines[:n]
	}
	for i, l := range lines {
		if len(l) > 300 {
			lines[i] = l[:300] + "..."
		}
	}
	return strings.Join(lines, "\n    ") + more
}

var hostileCrash = []string{"panic:", "fatal error:", "goroutine ", "runtime.", "SIGSEGV", "[signal "}

// checkHostileRun lists what a finished case did wrong.
func checkHostileRun(c hostileCase, tmp string, cmd *exec.Cmd, runErr, ctxErr error, stdout, stderr *capWriter) []string {
	var p []string
	if errors.Is(ctxErr, context.DeadlineExceeded) {
		return []string{fmt.Sprintf("hang: still running after the case's timeout of %v (killed)", c.timeout)}
	}
	errText := stderr.buf.String()
	for _, s := range hostileCrash {
		if strings.Contains(errText, s) {
			p = append(p, fmt.Sprintf("stderr shows a crash (%q)", s))
			break
		}
	}
	code := -1
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	}
	if code < 0 {
		return append(p, fmt.Sprintf("no exit status: %v", runErr))
	}
	if !slices.Contains(c.exit, code) {
		p = append(p, fmt.Sprintf("exit %d, want %s", code, joinInts(c.exit)))
	}
	if code != 0 {
		lines := strings.Split(strings.TrimSuffix(errText, "\n"), "\n")
		if len(lines) != 1 || !strings.HasPrefix(lines[0], "graphalloc: ") || len(lines[0]) <= len("graphalloc: ") {
			p = append(p, fmt.Sprintf("stderr is not one line starting \"graphalloc: \" (%d lines, %d bytes)", len(lines), stderr.total))
		}
	}
	for _, s := range c.errHas {
		if !strings.Contains(errText, s) {
			p = append(p, fmt.Sprintf("stderr lacks %q", s))
		}
	}
	for _, s := range c.outHas {
		if !strings.Contains(stdout.buf.String(), s) {
			p = append(p, fmt.Sprintf("stdout lacks %q", s))
		}
	}
	for _, s := range c.outNot {
		if strings.Contains(stdout.buf.String(), s) {
			p = append(p, fmt.Sprintf("stdout holds %q", s))
		}
	}
	for _, s := range c.okOut {
		if code == 0 && !strings.Contains(stdout.buf.String(), s) {
			p = append(p, fmt.Sprintf("exit 0, but stdout lacks %q", s))
		}
	}
	return append(p, checkHostileFiles(c, tmp)...)
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " or ")
}

// checkHostileFiles checks the nofile, filehas and same options.
func checkHostileFiles(c hostileCase, tmp string) []string {
	var p []string
	for _, rel := range c.noFile {
		if _, err := os.Lstat(filepath.Join(tmp, rel)); err == nil {
			p = append(p, fmt.Sprintf("%s was written", rel))
		}
	}
	for _, fh := range c.fileHas {
		rel, sub, _ := strings.Cut(fh, ":")
		data, err := os.ReadFile(filepath.Join(tmp, rel))
		if err != nil {
			p = append(p, fmt.Sprintf("%s: %v", rel, err))
		} else if !bytes.Contains(data, []byte(sub)) {
			p = append(p, fmt.Sprintf("%s lacks %q (%d bytes)", rel, sub, len(data)))
		}
	}
	for _, k := range c.kinds {
		rel, want, _ := strings.Cut(k, ":")
		if got := hostileFileKind(filepath.Join(tmp, rel)); got != want {
			p = append(p, fmt.Sprintf("%s is a %s now, was a %s", rel, got, want))
		}
	}
	for _, s := range c.same {
		rel, orig, _ := strings.Cut(s, ":")
		got, err1 := os.ReadFile(filepath.Join(tmp, rel))
		want, err2 := os.ReadFile(filepath.Join(root, "testdata", orig))
		if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
			p = append(p, fmt.Sprintf("%s is no longer testdata/%s (%v %v)", rel, orig, err1, err2))
		}
	}
	return p
}

// hostileFileKind names what path is: file, dir, symlink, fifo, chardev,
// other or missing.
func hostileFileKind(path string) string {
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		return "missing"
	case fi.Mode().IsRegular():
		return "file"
	case fi.IsDir():
		return "dir"
	case fi.Mode()&os.ModeSymlink != 0:
		return "symlink"
	case fi.Mode()&os.ModeNamedPipe != 0:
		return "fifo"
	case fi.Mode()&os.ModeCharDevice != 0:
		return "chardev"
	}
	return "other"
}
