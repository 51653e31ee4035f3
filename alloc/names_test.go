package alloc_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/alloc"
)

// notYet lists the files that still spell a process name as a literal,
// beside its descriptor: the study presets (which name their processes),
// the table and CSV writers of cmd, flag defaults, and "graph" where it is
// also the name of the -g flag or of a JSON field. The test fails when a
// file is added to these and when one is cleaned, so the list can only
// shrink.
var notYet = map[string][]string{
	"one-choice":    {"study/plot.go", "study/studies_alloc.go"},
	"greedy":        {"cmd/graphalloc/fluidcmd.go", "cmd/graphalloc/format.go", "cmd/graphalloc/runcmd.go", "study/plot.go", "study/studies_alloc.go"},
	"left":          {"cmd/graphalloc/fluidcmd.go", "cmd/graphalloc/format.go", "study/studies_alloc.go"},
	"firstdiff":     {"cmd/graphalloc/format.go", "study/studies_alloc.go"},
	"unbalanced":    {"cmd/graphalloc/fluidcmd.go", "cmd/graphalloc/format.go", "study/studies_alloc.go"},
	"one-plus-beta": {"cmd/graphalloc/fluidcmd.go", "cmd/graphalloc/format.go", "study/plot.go", "study/studies_alloc.go"},
	"rank":          {"cmd/graphalloc/format.go"},
	"grouped":       {"cmd/graphalloc/format.go", "study/studies_alloc.go"},
	"window":        {"cmd/graphalloc/format.go", "study/studies_alloc.go"},
	"weighted":      {"cmd/graphalloc/format.go", "study/studies_alloc.go"},
	"graph": {"cmd/graphalloc/boundscmd.go", "cmd/graphalloc/compare.go", "cmd/graphalloc/fluidcmd.go", "cmd/graphalloc/format.go",
		"cmd/graphalloc/gen.go", "cmd/graphalloc/info.go", "cmd/graphalloc/procflags.go", "cmd/graphalloc/runcmd.go",
		"study/plot.go", "study/studies_graph.go", "study/studies_reach.go"},
}

// TestNamesInOnePlace: each process name appears as a string literal in
// exactly one non-test Go file of the module, the file of its descriptor,
// so that no other package keeps a list or a special case of its own
// (except the files of notYet). The tie rule "left" shares its word with
// Left[d]; its literals in process.go are the tie rule's.
func TestNamesInOnePlace(t *testing.T) {
	where := map[string]map[string]bool{}
	for _, name := range alloc.Names() {
		where[name] = map[string]bool{}
	}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if _, ok := n.(*ast.Field); ok {
				return false // struct tags
			}
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && where[s] != nil {
					where[s][filepath.ToSlash(path)] = true
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, files := range where {
		if name == "left" {
			delete(files, "../alloc/process.go")
		}
		for _, f := range notYet[name] {
			if !files["../"+f] {
				t.Errorf("%q: %s no longer spells it: remove it from notYet", name, f)
			}
			delete(files, "../"+f)
		}
		if len(files) != 1 {
			t.Errorf("%q is a string literal in %d files: %v", name, len(files), files)
		}
	}
}
