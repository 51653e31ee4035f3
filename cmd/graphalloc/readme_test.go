package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
)

// The README is a test: every block of README.md that shows a command's
// output is marked by the line
//
//	<!-- output of: graphalloc ARGS -->
//
// before its fence, and the test runs ARGS and compares. A block may open
// with the command line ("$ graphalloc ARGS", or "$ go run
// ./cmd/graphalloc ARGS"), which must be the marker's; a line "..." in a
// block stands for any lines of the output, so that a long output is cut
// in the README and the test alike. -update rewrites the blocks that have
// no "...".

// readmeMarker is the comment that marks a block of output.
var readmeMarker = regexp.MustCompile(`^<!-- output of: graphalloc (.*) -->$`)

// readmeBlock is a marked block: its command, the line of its marker,
// the lines of its fence's body and where they are in the file.
type readmeBlock struct {
	args       string
	line       int
	body       []string
	start, end int // body is lines[start:end]
}

// readmeBlocks reads README.md's lines and its marked blocks.
func readmeBlocks(t *testing.T) ([]string, []readmeBlock) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	var blocks []readmeBlock
	for i, l := range lines {
		m := readmeMarker.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if i+1 >= len(lines) || lines[i+1] != "```" {
			t.Fatalf("README.md:%d: the marker is not followed by a fence", i+1)
		}
		end := slices.Index(lines[i+2:], "```")
		if end < 0 {
			t.Fatalf("README.md:%d: the block is not closed", i+1)
		}
		blocks = append(blocks, readmeBlock{args: m[1], line: i + 1, body: lines[i+2 : i+2+end], start: i + 2, end: i + 2 + end})
	}
	return lines, blocks
}

// TestReadme runs the command of every marked block of README.md and
// compares its output with the block.
func TestReadme(t *testing.T) {
	lines, blocks := readmeBlocks(t)
	if len(blocks) < 6 {
		t.Fatalf("README.md: %d marked blocks of output; the README shows more", len(blocks))
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(abs, "testdata"), filepath.Join(dir, "testdata")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	updated := false
	for i := len(blocks) - 1; i >= 0; i-- { // from the end, so that an update keeps the earlier indices
		bl := blocks[i]
		args, err := shellWords(bl.args)
		if err != nil {
			t.Fatalf("README.md:%d: %v", bl.line, err)
		}
		out, errs, code := invoke(args...)
		if code != 0 {
			t.Errorf("README.md:%d: graphalloc %s: exit %d: %s", bl.line, bl.args, code, errs)
			continue
		}
		body := bl.body
		var prompt []string
		if len(body) > 0 && strings.HasPrefix(body[0], "$ ") {
			if cmd := strings.TrimPrefix(strings.TrimPrefix(body[0], "$ go run ./cmd/graphalloc "), "$ graphalloc "); cmd != bl.args {
				t.Errorf("README.md:%d: the block shows the command %q, its marker %q", bl.line, body[0], bl.args)
			}
			prompt, body = body[:1], body[1:]
		}
		got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if matchLines(body, got) {
			continue
		}
		if *update && !slices.ContainsFunc(body, isCut) {
			lines = slices.Replace(lines, bl.start, bl.end, append(slices.Clone(prompt), got...)...)
			updated = true
			continue
		}
		t.Errorf("README.md:%d: the block differs from what graphalloc %s prints now:\n%s", bl.line, bl.args, out)
	}
	if updated {
		if err := os.WriteFile(filepath.Join(abs, "README.md"), []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// isCut reports whether a line of a block stands for lines left out.
func isCut(l string) bool { return strings.TrimSpace(l) == "..." }

// matchLines reports whether got matches the block's lines want, a cut
// matching any run of lines (trailing blanks aside).
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if isCut(want[0]) {
		for i := 0; i <= len(got); i++ {
			if matchLines(want[1:], got[i:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && strings.TrimRight(want[0], " ") == strings.TrimRight(got[0], " ") && matchLines(want[1:], got[1:])
}

// TestReadmeProcesses holds the README's table of processes to alloc's
// descriptors: every process, in their order, with the flags of the
// parameters it reads; and the table of run's flags to run's flags.
func TestReadmeProcesses(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	_, table, ok := strings.Cut(readme, "**Processes**")
	if !ok {
		t.Fatal("README.md: no **Processes** table")
	}
	row := regexp.MustCompile("(?m)^\\| `([a-z][a-z0-9-]*)` \\|.*\\|([^|]*)\\|$")
	flag := regexp.MustCompile("`(-[-a-z]+)`")
	table, _, _ = strings.Cut(table, "\n\n**")
	var names []string
	rows := map[string][]string{}
	for _, m := range row.FindAllStringSubmatch(table, -1) {
		names = append(names, m[1])
		for _, f := range flag.FindAllStringSubmatch(m[2], -1) {
			rows[m[1]] = append(rows[m[1]], f[1])
		}
	}
	var want []string
	for _, d := range alloc.Descriptors() {
		want = append(want, d.Name)
		flags := processFlagsOf(d)
		if got := rows[d.Name]; !slices.Equal(sorted(got), sorted(flags)) {
			t.Errorf("README.md, process %s: parameters %v, its descriptor reads %v", d.Name, got, flags)
		}
	}
	if !slices.Equal(names, want) {
		t.Errorf("README.md's processes:\n%v\nthe descriptors':\n%v", names, want)
	}
	// Every flag of run is in the README's table of run's flags, but the
	// figure's, which plot's section documents.
	flagNames := regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([a-z-]+)`)
	help, _, _ := invoke("run", "--help")
	plotHelp, _, _ := invoke("plot", "--help")
	_, runTable, _ := strings.Cut(readme, "### `graphalloc run`\n\n")
	runTable, _, _ = strings.Cut(runTable, "\n\n")
	for _, m := range flagNames.FindAllStringSubmatch(help, -1) {
		if m[1] != "plot" && strings.Contains(plotHelp, "--"+m[1]+" ") {
			continue
		}
		if !strings.Contains(runTable, "`--"+m[1]+" ") && !strings.Contains(runTable, "`--"+m[1]+"`") && !strings.Contains(runTable, ", --"+m[1]) {
			t.Errorf("README.md's table of run's flags lacks --%s", m[1])
		}
	}
}

// processFlagsOf lists the flags of the parameters descriptor d reads.
func processFlagsOf(d *alloc.Descriptor) []string {
	var flags []string
	if d.Uses&alloc.ParamGraph != 0 {
		flags = append(flags, "-g")
	}
	for _, s := range alloc.ParamTable {
		switch {
		case s.Bit == 0 || d.Uses&s.Bit == 0:
		case s.Name == "choices":
			flags = append(flags, "-d")
		default:
			flags = append(flags, "--"+s.Name)
		}
	}
	return flags
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestReadmeJSONKeys holds the README's excerpts of JSON output, marked
// "<!-- keys of: graphalloc ARGS -->", to the output of ARGS: every key an
// excerpt shows is one the output has.
func TestReadmeJSONKeys(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	marker := regexp.MustCompile("(?s)<!-- keys of: graphalloc (.*?) -->\n```\n(.*?)```")
	key := regexp.MustCompile(`"([a-z_0-9]+)":`)
	found := marker.FindAllStringSubmatch(string(b), -1)
	if len(found) == 0 {
		t.Fatal("README.md: no excerpt of JSON output marked")
	}
	for _, m := range found {
		args, err := shellWords(m[1])
		if err != nil {
			t.Fatal(err)
		}
		out, errs, code := invoke(args...)
		if code != 0 {
			t.Fatalf("graphalloc %s: exit %d: %s", m[1], code, errs)
		}
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("graphalloc %s: %v", m[1], err)
		}
		keys := map[string]bool{}
		jsonKeys(v, keys)
		for _, k := range key.FindAllStringSubmatch(m[2], -1) {
			if !keys[k[1]] {
				t.Errorf("README.md's excerpt of graphalloc %s shows the key %q, which the output lacks", m[1], k[1])
			}
		}
	}
}

// jsonKeys adds the keys of every object in v to keys.
func jsonKeys(v any, keys map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			keys[k] = true
			jsonKeys(e, keys)
		}
	case []any:
		for _, e := range v {
			jsonKeys(e, keys)
		}
	}
}
