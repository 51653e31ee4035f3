package results

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"
)

// results reads and writes files: it links the figure model, never its
// drawing. The walk follows the module's own imports (non-test files of
// this platform) from results, and fails on an import of gonum/plot or of
// figure/render on the way.
func TestNoPlotting(t *testing.T) {
	const module = "github.com/graphalloc/graphalloc"
	seen := map[string]bool{}
	var walk func(path string, via []string)
	walk = func(path string, via []string) {
		if seen[path] {
			return
		}
		seen[path] = true
		dir := filepath.Join("..", filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(path, module), "/")))
		pkg, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, imp := range pkg.Imports {
			chain := append(via[:len(via):len(via)], imp)
			switch {
			case strings.HasPrefix(imp, "gonum.org/v1/plot"), imp == module+"/figure/render":
				t.Errorf("results links %s: %s", imp, strings.Join(chain, " → "))
			case strings.HasPrefix(imp, module):
				walk(imp, chain)
			}
		}
	}
	walk(module+"/results", []string{module + "/results"})
	if !seen[module+"/figure"] {
		t.Error("results does not import figure: the walk followed nothing")
	}
}
