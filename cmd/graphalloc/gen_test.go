package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/graph/encoding/graph6"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
)

// runTrials runs the command line and returns the "trials" array of its
// JSON output, re-encoded, or fails t.
func runTrials(t *testing.T, args ...string) string {
	t.Helper()
	out, errs, code := invoke(append(args, "-f", "json")...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var res struct {
		Trials json.RawMessage `json:"trials"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return string(res.Trials)
}

// TestGenReproducesRun: gen writes the graph run would build from the same
// spec, n and seed, so a run on the file gives the same trials, in every
// file format gen writes that run reads.
func TestGenReproducesRun(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		spec, n, file string
	}{
		{"regular:degree=4", "300", "reg.txt"},
		{"regular:eps=0.5", "101", "eps.txt.gz"}, // degree ⌈√101⌉ = 11 adjusted to 12
		{"gnp:degree=5", "400", "gnp.mtx"},
		{"torus:dim=2", "256", "torus.edges"},
		{"hypercube", "128", "cube.mtx.gz"},
		{"nonregular:mindeg=3,core=12", "200", "core.txt"},
		{"cycle", "100", "cycle.txt"},
		{"regular:degree=6,implicit", "300", "implicit.el.gz"}, // the multigraph, in the permutations' order
	}
	for _, tc := range tests {
		t.Run(tc.spec, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			_, errs, code := invoke("gen", "-g", tc.spec, "-n", tc.n, "--seed", "7", "-o", path)
			if code != 0 {
				t.Fatalf("gen: exit %d: %s", code, errs)
			}
			if !strings.Contains(errs, "wrote "+path) {
				t.Errorf("gen said %q", errs)
			}
			direct := runTrials(t, "run", "-p", "graph", "-g", tc.spec, "-n", tc.n, "--seed", "7", "-t", "3", "-m", "4n")
			viaFile := runTrials(t, "run", "-p", "graph", "-g", "file:"+path, "--seed", "7", "-t", "3", "-m", "4n")
			if direct != viaFile {
				t.Errorf("run on the file differs from run on the spec:\n%s\n%s", direct, viaFile)
			}
		})
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(tests) {
		t.Errorf("%d files in the output directory, want %d (temporary files left?)", len(entries), len(tests))
	}
}

// TestGenFormats: every format decodes to the graph the spec builds.
func TestGenFormats(t *testing.T) {
	spec, _ := graphgen.ParseSpec("nonregular:mindeg=2,core=5")
	g, _, err := spec.Build(30, alloc.NewRand(alloc.DeriveSeed(1, alloc.StreamGraph, 0)))
	if err != nil {
		t.Fatal(err)
	}
	want := g.(*graphgen.CSR)
	for _, format := range []string{"edgelist", "mtx", "graph6", "dot"} {
		t.Run(format, func(t *testing.T) {
			out, errs, code := invoke("gen", "-g", spec.String(), "-n", "30", "--format", format)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var got *graphgen.CSR
			switch format {
			case "edgelist", "mtx":
				got, _, err = graphgen.ReadGraph(strings.NewReader(out), format)
			case "graph6":
				got, _, err = graphgen.FromGonum(graph6.Graph(strings.TrimSpace(out)))
			case "dot":
				if !strings.HasPrefix(out, "strict graph {") || strings.Count(out, " -- ") != int(want.Size()) {
					t.Fatalf("DOT output:\n%s", out)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Order() != want.Order() || !slices.Equal(got.EdgeList(), want.EdgeList()) {
				t.Errorf("%s output is a different graph", format)
			}
		})
	}
}

// TestGenImplicit: gen lists the implicit graphs, the circulant exactly as
// the spec builds it.
func TestGenImplicit(t *testing.T) {
	out, errs, code := invoke("gen", "-g", "complete", "-n", "50")
	if code != 0 {
		t.Fatal(errs)
	}
	k, _, err := graphgen.ReadGraph(strings.NewReader(out), "K50")
	if err != nil || k.Order() != 50 || k.Size() != 50*49/2 {
		t.Fatalf("K_50: %v, %d vertices, %d edges", err, k.Order(), k.Size())
	}
	spec, _ := graphgen.ParseSpec("circulant:degree=7")
	g, _, err := spec.Build(100, alloc.NewRand(alloc.DeriveSeed(3, alloc.StreamGraph, 0)))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := g.(graphgen.Circulant).CSR()
	out, errs, code = invoke("gen", "-g", "circulant:degree=7", "-n", "100", "-s", "3", "--format", "mtx", "--gzip")
	if code != 0 {
		t.Fatal(errs)
	}
	got, info, err := graphgen.ReadGraph(strings.NewReader(out), "circ")
	if err != nil || !info.Gzip || !slices.Equal(got.EdgeList(), want.EdgeList()) {
		t.Errorf("circulant: %v, gzip %v, same graph %v", err, info != nil && info.Gzip, err == nil && slices.Equal(got.EdgeList(), want.EdgeList()))
	}
}

// genNames reads a names file: one "index name" line per vertex, the
// indices 1..n in order.
func genNames(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		idx, name, ok := strings.Cut(line, " ")
		if !ok || idx != strconv.Itoa(i+1) || name == "" || strings.ContainsAny(name, " \t") {
			t.Fatalf("%s:%d: %q is not \"%d name\"", path, i+1, line, i+1)
		}
		names = append(names, name)
	}
	return names
}

// TestGenNames: gen converting a file whose ids are names writes them
// back: an edge list that reads back as the same graph with the same names
// and numbering (so run on it gives the same trials), or a Matrix Market
// file and FILE.names beside it; formats without names say so.
func TestGenNames(t *testing.T) {
	dir := t.TempDir()
	in := root + "/testdata/graphs/strings.txt"
	orig, origInfo, err := graphgen.LoadGraph(in)
	if err != nil {
		t.Fatal(err)
	}
	gen := func(t *testing.T, args ...string) string {
		t.Helper()
		stdout, errs, code := invoke(append([]string{"gen", "-g", "file:" + in}, args...)...)
		if code != 0 {
			t.Fatalf("gen %v: exit %d: %s", args, code, errs)
		}
		return stdout + errs
	}

	for _, file := range []string{"s.txt", "s.txt.gz"} {
		t.Run(file, func(t *testing.T) {
			path := filepath.Join(dir, file)
			if msg := gen(t, "-o", path); !strings.Contains(msg, "by the file's vertex names") {
				t.Errorf("gen said %q", msg)
			}
			g, info, err := graphgen.LoadGraph(path)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(g.EdgeList(), orig.EdgeList()) || !slices.Equal(info.Labels, origInfo.Labels) || info.SelfLoops != 0 {
				t.Errorf("read back edges %v labels %q (%d self-loops), want %v %q",
					g.EdgeList(), info.Labels, info.SelfLoops, orig.EdgeList(), origInfo.Labels)
			}
			direct := runTrials(t, "run", "-p", "graph", "-g", "file:"+in, "--seed", "5", "-t", "2", "-m", "8n")
			viaFile := runTrials(t, "run", "-p", "graph", "-g", "file:"+path, "--seed", "5", "-t", "2", "-m", "8n")
			if direct != viaFile {
				t.Errorf("run on the converted file differs:\n%s\n%s", direct, viaFile)
			}
		})
	}

	for _, file := range []string{"s.mtx", "s.mtx.gz"} {
		t.Run(file, func(t *testing.T) {
			path := filepath.Join(dir, file)
			names := strings.TrimSuffix(path, ".gz") + ".names"
			if msg := gen(t, "-o", path); !strings.Contains(msg, "wrote "+names) {
				t.Errorf("gen said %q", msg)
			}
			g, info, err := graphgen.LoadGraph(path)
			if err != nil {
				t.Fatal(err)
			}
			if info.Format != graphgen.FormatMatrixMarket || !slices.Equal(g.EdgeList(), orig.EdgeList()) {
				t.Errorf("%s: %s, edges %v, want %v", path, info.Format, g.EdgeList(), orig.EdgeList())
			}
			if got := genNames(t, names); !slices.Equal(got, origInfo.Labels) {
				t.Errorf("%s: names %q, want %q", names, got, origInfo.Labels)
			}
		})
	}

	// Ids 1..n are Matrix Market's own indices: no names file; an edge
	// list keeps them.
	karate := root + "/testdata/graphs/karate.txt"
	if _, errs, code := invoke("gen", "-g", karate, "-o", filepath.Join(dir, "k.mtx")); code != 0 || strings.Contains(errs, ".names") {
		t.Errorf("karate to mtx: exit %d, %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "k.mtx.names")); err == nil {
		t.Error("k.mtx.names written for ids 1..34")
	}
	kpath := filepath.Join(dir, "k.txt")
	if _, errs, code := invoke("gen", "-g", karate, "-o", kpath); code != 0 {
		t.Fatalf("karate to edgelist: exit %d, %s", code, errs)
	}
	if _, info, err := graphgen.LoadGraph(kpath); err != nil || !graphgen.IsIndices(info.Labels, 1) || info.Vertices != 34 {
		t.Errorf("karate read back: %v, labels %q", err, info.Labels)
	}

	// No room for names: a warning, and the numbered graph.
	for _, tc := range []struct{ format, want string }{
		{"dot", "dot numbers the vertices 0..n-1 and drops the file's vertex names"},
		{"graph6", "graph6 numbers the vertices"},
		{"mtx", "give -o FILE to get FILE.names"},
	} {
		stdout, errs, code := invoke("gen", "-g", in, "--format", tc.format)
		if code != 0 || stdout == "" || !strings.Contains(errs, "warning: "+in) || !strings.Contains(errs, tc.want) {
			t.Errorf("--format %s to stdout: exit %d, stderr %q; want a warning %q", tc.format, code, errs, tc.want)
		}
	}
	// A names file left beside a Matrix Market file is not the new graph's.
	if _, errs, code := invoke("gen", "-g", "cycle", "-n", "5", "-o", filepath.Join(dir, "s.mtx")); code != 0 || !strings.Contains(errs, "s.mtx.names is left from another graph") {
		t.Errorf("over s.mtx: exit %d, stderr %q", code, errs)
	}
}

func TestGenErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "g.txt")
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no graph", []string{"gen", "-o", out}, 2, "--graph is required"},
		{"unknown format", []string{"gen", "-g", "cycle", "--format", "xml", "-o", out}, 2, "--format"},
		{"implicit too big", []string{"gen", "-g", "complete", "-n", "1e6", "-o", out}, 2, "implicit"},
		{"implicit too big to list", []string{"gen", "-g", "circulant:degree=4", "-n", "1e8", "-o", filepath.Join(dir, "r.mtx")}, 2, "gen lists as mtx (an edge list it writes as it goes"},
		{"implicit beyond the readers' order", []string{"gen", "-g", "regular:degree=2,implicit,n=4294967296", "-o", out}, 2, "need n <= 4294967295"},
		{"graph6 too big", []string{"gen", "-g", "cycle", "-n", "70000", "-o", filepath.Join(dir, "c.g6")}, 2, "graph6 needs n <= 65536"},
		{"unknown kind", []string{"gen", "-g", "moebius", "-o", out}, 2, "unknown graph kind"},
		{"bad parameter", []string{"gen", "-g", "hypercube", "-n", "1000", "-o", out}, 2, "power of two"},
		{"missing file", []string{"gen", "-g", "file:" + filepath.Join(dir, "nope.txt"), "-o", out}, 2, "nope.txt"},
		{"n mismatch with file", []string{"gen", "-g", root + "/testdata/graphs/star.txt", "-n", "100", "-o", out}, 2, "vertices"},
		{"extra argument", []string{"gen", "-g", "cycle", "extra"}, 2, "unexpected argument"},
		{"no such directory", []string{"gen", "-g", "cycle", "-n", "10", "-o", filepath.Join(dir, "no", "g.txt")}, 2, "--output: cannot write"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stdout, errs, code := invoke(tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d (stderr %q)", code, tc.code, errs)
			}
			lines := strings.Split(strings.TrimRight(errs, "\n"), "\n")
			if stdout != "" || len(lines) != 1 || !strings.HasPrefix(lines[0], "graphalloc: ") || !strings.Contains(errs, tc.want) {
				t.Errorf("stdout %q, stderr %q; want one line mentioning %q", stdout, errs, tc.want)
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files left behind: %v", entries)
	}
}

// TestRunEveryTestdataGraph: run -p graph works on every graph file in
// testdata/graphs (bad/ holds the malformed ones), and info describes it
// with the vertex and edge counts the reader finds.
func TestRunEveryTestdataGraph(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(root, "testdata", "graphs", "*"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range files {
		if st, err := os.Stat(path); err != nil || st.IsDir() {
			continue
		}
		n++
		t.Run(filepath.Base(path), func(t *testing.T) {
			g, _, err := graphgen.LoadGraph(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, errs, code := invoke("run", "-p", "graph", "-g", "file:"+path, "-t", "2", "-m", "10n"); code != 0 {
				t.Fatalf("run: exit %d: %s", code, errs)
			}
			out, errs, code := invoke("info", "-g", path, "-f", "json")
			if code != 0 {
				t.Fatalf("info: exit %d: %s", code, errs)
			}
			var st struct {
				N     int   `json:"n"`
				Edges int64 `json:"edges"`
			}
			if err := json.Unmarshal([]byte(out), &st); err != nil || st.N != g.Order() || st.Edges != g.Size() {
				t.Errorf("info: %v, n=%d edges=%d; the reader finds %d and %d", err, st.N, st.Edges, g.Order(), g.Size())
			}
		})
	}
	if n < 5 {
		t.Errorf("only %d graph files found under testdata/graphs", n)
	}
}

func TestGenHelp(t *testing.T) {
	for _, cmd := range []string{"gen", "info"} {
		out, _, code := invoke(cmd, "--help")
		if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "--graph") {
			t.Errorf("%s --help: exit %d, %q", cmd, code, out)
		}
	}
	out, _, _ := invoke("help")
	for _, cmd := range []string{"gen ", "info "} {
		if !strings.Contains(out, "\n  "+cmd) {
			t.Errorf("usage does not list %s", cmd)
		}
	}
	if !strings.Contains(helpText("gen"), "Examples:") {
		t.Error("no examples")
	}
}

// TestGenImplicitMultigraph: gen writes the permutation model's multigraph
// whole — all n·Δ/2 edges, loops and parallel edges kept, the header
// marked multi, the lines "u π_j(u)" in the order of the permutations —
// so info on the file describes the graph info describes from the spec,
// byte for byte but the made line, and run on the file gives the trials
// of run on the spec, byte for byte, the graph process drawing the file's
// lines as it draws the permutations (alloc's linesDraw and permDraw):
// two-choice and graphical (1+β), both tie and sampling rules, batches.
// Before, gen wrote the 8185 distinct non-loop edges of the 8192, and the
// file's run drew from its rows.
func TestGenImplicitMultigraph(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.el")
	_, errs, code := invoke("gen", "-g", "regular:degree=4,implicit", "-n", "4096", "-s", "21", "-o", path)
	if code != 0 {
		t.Fatalf("gen: exit %d: %s", code, errs)
	}
	text, _ := os.ReadFile(path)
	if first, _, _ := strings.Cut(string(text), "\n"); first != "# graphalloc edge list: n=4096 edges=8192 multi" || strings.Count(string(text), "\n") != 8193 {
		t.Errorf("gen wrote %q and %d lines, want all 8192 edges, marked multi", first, strings.Count(string(text), "\n")-1)
	}
	if _, errs, code := invoke("gen", "-g", "regular:degree=4,implicit", "-n", "64", "-o", filepath.Join(t.TempDir(), "x.mtx")); code != 2 || !strings.Contains(errs, "multigraph") {
		t.Errorf("gen of the multigraph as Matrix Market: exit %d: %s", code, errs)
	}
	spec, _, code1 := invoke("info", "-g", "regular:degree=4,implicit", "-n", "4096", "-s", "21", "-f", "json")
	file, _, code2 := invoke("info", "-g", "file:"+path+",multi", "-f", "json")
	if code1 != 0 || code2 != 0 {
		t.Fatalf("info: exit %d, %d", code1, code2)
	}
	stats := func(out string) string {
		var v map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		delete(v, "graph")
		delete(v, "made")
		delete(v, "seed")
		b, _ := json.Marshal(v)
		return string(b)
	}
	if a, b := stats(spec), stats(file); a != b || !strings.Contains(a, `"regular":true`) || !strings.Contains(a, `"loops":`) {
		t.Errorf("info on the file and on the spec differ:\n%s\n%s", a, b)
	}
	for _, extra := range [][]string{
		nil,
		{"--ties", "left", "--sample", "vertex", "-m", "4n"},
		{"--beta", "0.5", "--ties", "left"},
		{"--batch", "16", "--sample", "vertex"},
	} {
		direct := runTrials(t, append([]string{"run", "-p", "graph", "-g", "regular:degree=4,implicit", "-n", "4096", "-s", "21", "-t", "3"}, extra...)...)
		for _, g := range []string{"file:" + path, "file:" + path + ",multi"} {
			if viaFile := runTrials(t, append([]string{"run", "-p", "graph", "-g", g, "-s", "21", "-t", "3"}, extra...)...); viaFile != direct {
				t.Errorf("%s %v: the trials differ from the implicit graph's:\n%s\n%s", g, extra, viaFile, direct)
			}
		}
	}
}
