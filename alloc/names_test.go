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

// otherMeanings lists the files where a process name is a literal in
// another sense: the -g flag's long name (run's and queue's), and columns of tables and CSV
// files (the graph of a row, the rank of a profile level), and graph
// specs (the hypergraph file kind hyper:PATH, the rank=s key of a random
// hypergraph), and the parameters memory and threshold of ParamTable.
var otherMeanings = map[string][]string{
	"graph": {"cmd/graphalloc/cli.go", "queue/flags.go", "study/studies_reach.go", "results/write.go"},
	"rank":  {"results/write.go", "graphgen/spec.go", "graphgen/plan.go"},
	"hyper": {"graphgen/spec.go"},
	// K of the process memory: its flag, JSON key and CSV column.
	"memory": {"alloc/paramtable.go"},
	// L of -p threshold (as g is g of g-bounded): its flag, JSON key and
	// CSV column.
	"threshold": {"alloc/paramtable.go"},
}

// TestNamesInOnePlace: each process name appears as a string literal in
// exactly one non-test Go file of the module, the file of its descriptor,
// so that no other package keeps a list or a special case of its own
// (except where otherMeanings says the word means something else). The tie rule "left" shares its word with
// Left[d]; its literals in process.go are the tie rule's.
func TestNamesInOnePlace(t *testing.T) {
	where := map[string]map[string]bool{}
	for _, d := range alloc.Descriptors() {
		name := d.Name
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
		for _, f := range otherMeanings[name] {
			if !files["../"+f] {
				t.Errorf("%q: %s no longer spells it: remove it from otherMeanings", name, f)
			}
			delete(files, "../"+f)
		}
		if len(files) != 1 {
			t.Errorf("%q is a string literal in %d files: %v", name, len(files), files)
		}
	}
}
