package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// helpCommands are the commands with a help text, help/NAME.txt.
func helpCommands(t *testing.T) []string {
	t.Helper()
	entries, err := helpTexts.ReadDir("help")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if name := strings.TrimSuffix(e.Name(), ".txt"); name != "graphalloc" {
			names = append(names, name)
		}
	}
	return names
}

// TestHelpSections holds every command's help to one shape, Go's: a
// "Usage: graphalloc NAME" line, a description, "Examples:" and, last,
// "Flags:"; and "graphalloc help NAME" prints what "NAME --help" prints.
func TestHelpSections(t *testing.T) {
	usage, _, _ := invoke("help")
	for _, name := range helpCommands(t) {
		text := helpText(name)
		usageAt := strings.Index(text, "Usage: graphalloc "+name)
		examples := strings.Index(text, "\nExamples:\n")
		flags := strings.Index(text, "\nFlags:\n")
		if usageAt != 0 || examples < 0 || flags < examples || !strings.HasSuffix(text, "\nFlags:\n") && !strings.HasSuffix(text, "\nFlags:\n  none\n") {
			t.Errorf("help/%s.txt: want Usage: graphalloc %s, a description, Examples: and Flags: last, in that order", name, name)
		}
		if !strings.Contains(text[:max(examples, 0)], "\n\n") {
			t.Errorf("help/%s.txt: no description between the usage line and the examples", name)
		}
		viaHelp, errs, code := invoke("help", name)
		viaFlag, _, _ := invoke(name, "--help")
		if code != 0 || viaHelp != viaFlag || !strings.HasPrefix(viaHelp, text) {
			t.Errorf("help %s: exit %d (%s); differs from %s --help, or does not start with its help text", name, code, errs, name)
		}
		if !strings.Contains(usage, "\n  "+name+" ") {
			t.Errorf("graphalloc's usage does not list %s", name)
		}
	}
}

// helpExampleLimit is the time an example of a help text may take: a
// reader copies them to learn a command, and waits for the answer. Each
// takes at most about 2 s on an idle 2-core machine; the limit leaves room
// for a machine busy with other tests.
const helpExampleLimit = 30 * time.Second

// TestHelpExamples runs every example of every help text, in order, in a
// temporary directory that holds the repository's testdata (so that an
// example may read what an earlier one of its text wrote), each within
// helpExampleLimit. What follows a pipe or a redirection is not
// graphalloc's and is left out; serve listens on a port of the system's
// choosing and stops after a moment.
func TestHelpExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every example of the help texts")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range helpCommands(t) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Symlink(filepath.Join(abs, "testdata"), filepath.Join(dir, "testdata")); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			for _, line := range helpExamples(helpText(name)) {
				args, err := shellWords(line)
				if err != nil {
					t.Fatalf("%s: %v", line, err)
				}
				runHelpExample(t, line, globArgs(args[1:]))
			}
		})
	}
}

// runHelpExample runs one example's arguments and fails on an error or
// when it takes longer than helpExampleLimit.
func runHelpExample(t *testing.T, line string, args []string) {
	t.Helper()
	limit := helpExampleLimit
	if args[0] == "serve" {
		args = serveOnAnyPort(args)
		limit = 500 * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	var out, errb bytes.Buffer
	start := time.Now()
	err := run(ctx, &out, &errb, args)
	took := time.Since(start)
	switch {
	case args[0] == "serve" && err == nil:
	case ctx.Err() != nil && (err == nil || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "interrupt")):
		t.Errorf("%s: still running after %v", line, limit)
	case err != nil:
		t.Errorf("%s: %v\n%s", line, err, errb.String())
	default:
		t.Logf("%6.2fs  %s", took.Seconds(), line)
	}
}

// helpExamples returns the example command lines of a help text: the
// lines of its Examples section that run graphalloc, without their
// comments and without what follows a pipe or a redirection.
func helpExamples(text string) []string {
	_, section, _ := strings.Cut(text, "\nExamples:\n")
	section, _, _ = strings.Cut(section, "\nFlags:\n")
	var lines []string
	for _, line := range strings.Split(section, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "graphalloc ") {
			continue
		}
		if i := unquotedIndex(line, "#|>"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		lines = append(lines, line)
	}
	return lines
}

// unquotedIndex is the index of the first byte of chars outside single
// quotes in s, or -1.
func unquotedIndex(s, chars string) int {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\'':
			quoted = !quoted
		case !quoted && strings.IndexByte(chars, s[i]) >= 0:
			return i
		}
	}
	return -1
}

// shellWords splits a command line as the shell does for the examples'
// use: words between blanks, single quotes keeping a word whole.
func shellWords(line string) ([]string, error) {
	var words []string
	var word strings.Builder
	in, quoted := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				words = append(words, word.String())
				word.Reset()
			}
			in = false
		default:
			word.WriteRune(r)
			in = true
		}
	}
	if quoted {
		return nil, errors.New("unterminated quote")
	}
	if in {
		words = append(words, word.String())
	}
	return words, nil
}

// globArgs expands the arguments with a * as the shell does: to the
// sorted names they match, or left as they are when none does.
func globArgs(args []string) []string {
	var out []string
	for _, a := range args {
		if m, err := filepath.Glob(a); err == nil && len(m) > 0 && strings.Contains(a, "*") {
			out = append(out, m...)
			continue
		}
		out = append(out, a)
	}
	return out
}

// serveOnAnyPort gives serve's --addr the port 0, the system's choice, so
// that the test does not need 8080 free.
func serveOnAnyPort(args []string) []string {
	port := regexp.MustCompile(`:\d+$`)
	out := append([]string(nil), args...)
	for i, a := range out {
		if a == "--addr" && i+1 < len(out) {
			out[i+1] = port.ReplaceAllString(out[i+1], ":0")
			return out
		}
	}
	return append(out, "--addr", "127.0.0.1:0")
}
