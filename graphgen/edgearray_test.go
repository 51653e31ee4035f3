package graphgen

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// sameAsCSR checks that what ReadEdges returned (g, info) is the graph
// ReadGraph returned (c, ci): the same FileInfo, and an EdgeArray with the
// CSR's edge array, degrees and neighbours, or, for a regular graph or a
// Matrix Market file, the CSR itself.
func sameAsCSR(t *testing.T, name string, g Graph, info *FileInfo, c *CSR, ci *FileInfo) {
	t.Helper()
	if err := diffCSR(g, info, c, ci); err != nil {
		t.Errorf("%s: %v", name, err)
	}
}

func diffCSR(g Graph, info *FileInfo, c *CSR, ci *FileInfo) error {
	if !reflect.DeepEqual(info, ci) {
		return fmt.Errorf("FileInfo %+v, ReadGraph's %+v", info, ci)
	}
	if c.RegularDegree() > 0 || ci.Format == FormatMatrixMarket {
		if gc, ok := g.(*CSR); !ok || !slices.Equal(gc.Adjacency(), c.Adjacency()) || !slices.Equal(gc.Offsets(), c.Offsets()) || gc.RegularDegree() != c.RegularDegree() {
			return fmt.Errorf("a regular graph or a Matrix Market file read as %T, not ReadGraph's CSR", g)
		}
		return nil
	}
	e, ok := g.(*EdgeArray)
	if !ok {
		return fmt.Errorf("got %T, want *EdgeArray", g)
	}
	if e.Order() != c.Order() || e.Size() != c.Size() || !slices.Equal(e.EdgeList(), c.EdgeList()) {
		return fmt.Errorf("edges %v on %d vertices, ReadGraph's %v on %d", e.EdgeList(), e.Order(), c.EdgeList(), c.Order())
	}
	lo, hi := e.DegreeRange()
	wantLo, wantHi := c.Order(), 0
	for v := range c.Order() {
		if e.Degree(v) != c.Degree(v) {
			return fmt.Errorf("degree of %d is %d, want %d", v, e.Degree(v), c.Degree(v))
		}
		wantLo, wantHi = min(wantLo, c.Degree(v)), max(wantHi, c.Degree(v))
		if v < 50 {
			var got []uint32
			e.Visit(v, func(w int, _ int64) bool { got = append(got, uint32(w)); return false })
			if !slices.Equal(got, c.Neighbors(v)) {
				return fmt.Errorf("neighbours of %d %v, want %v", v, got, c.Neighbors(v))
			}
		}
	}
	if lo != wantLo || hi != wantHi {
		return fmt.Errorf("degree range [%d, %d], want [%d, %d]", lo, hi, wantLo, wantHi)
	}
	return nil
}

// TestDiffCSRControl: the comparison fails on an edge array that kept a
// duplicate, or lost one edge, or miscounts a degree.
func TestDiffCSRControl(t *testing.T) {
	text := "0 1\n1 2\n2 0\n2 3\n1 0\n"
	c, ci, _ := ReadGraph(strings.NewReader(text), "g")
	g, info, _ := ReadEdges(strings.NewReader(text), "g")
	if err := diffCSR(g, info, c, ci); err != nil {
		t.Fatal(err)
	}
	e := g.(*EdgeArray)
	dup := *e
	dup.edges = append([]uint32{0, 1}, e.edges...)
	lost := *e
	lost.edges = e.edges[2:]
	deg := *e
	deg.deg = slices.Clone(e.deg)
	deg.deg[3]++
	for name, bad := range map[string]*EdgeArray{"a duplicate": &dup, "an edge lost": &lost, "a degree": &deg} {
		if diffCSR(bad, info, c, ci) == nil {
			t.Errorf("%s: not told apart from ReadGraph's graph", name)
		}
	}
}

func TestReadEdgesFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(ioGraphsDir, "*.*"))
	for _, path := range files {
		if strings.HasSuffix(path, "hyper.txt") {
			continue
		}
		c, ci, err := LoadGraph(path)
		if err != nil {
			t.Fatal(err)
		}
		g, info, err := LoadEdges(path)
		if err != nil {
			t.Fatalf("LoadEdges(%s): %v", path, err)
		}
		sameAsCSR(t, path, g, info, c, ci)
	}
}

// TestReadEdgesRandom reads random edge lists, with self-loops, repeats in
// both orientations, string or integer ids, a header or none, and a hub of
// degree above 255 (the degree table's overflow), both ways.
func TestReadEdgesRandom(t *testing.T) {
	saved := degreeWorkersMin
	defer func() { degreeWorkersMin = saved }()
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 60 {
		degreeWorkersMin = saved
		if trial%2 == 1 {
			degreeWorkersMin = 0 // the degrees counted on every core
		}
		n := 2 + rng.IntN(400)
		m := rng.IntN(3 * n)
		header := trial%3 == 0
		var b bytes.Buffer
		if header {
			fmt.Fprintf(&b, "# graphalloc edge list: n=%d edges=%d\n", n+5, m+300)
		}
		id := func(v int) string {
			if !header && trial%3 == 1 {
				return fmt.Sprintf("v%d", v)
			}
			return fmt.Sprint(v)
		}
		for range m {
			u, v := rng.IntN(n), rng.IntN(n)
			if rng.IntN(10) == 0 {
				v = u
			}
			fmt.Fprintf(&b, "%s %s\n", id(u), id(v))
		}
		for k := range 300 { // vertex 0: a hub, when n allows
			fmt.Fprintf(&b, "%s %s\n", id(0), id(1+k%(n-1)))
		}
		text := b.Bytes()
		c, ci, err := ReadGraph(bytes.NewReader(text), "g")
		if err != nil {
			t.Fatal(err)
		}
		g, info, err := ReadEdges(bytes.NewReader(text), "g")
		if err != nil {
			t.Fatal(err)
		}
		sameAsCSR(t, fmt.Sprintf("trial %d", trial), g, info, c, ci)
	}
}

// TestReadEdgesRegular: a regular graph comes back as ReadGraph's CSR,
// unless its rows would take more than MaxBytes: then as an EdgeArray.
func TestReadEdgesRegular(t *testing.T) {
	var b bytes.Buffer
	const n = 30
	for v := range n {
		fmt.Fprintf(&b, "%d %d\n%d %d\n", v, (v+1)%n, v, (v+7)%n)
	}
	c, ci, _ := ReadGraph(bytes.NewReader(b.Bytes()), "c")
	g, info, err := ReadEdges(bytes.NewReader(b.Bytes()), "c")
	if err != nil || c.RegularDegree() != 4 {
		t.Fatalf("%v; degree %d", err, c.RegularDegree())
	}
	if _, ok := g.(*CSR); !ok {
		t.Fatalf("4-regular graph read as %T", g)
	}
	sameAsCSR(t, "4-regular", g, info, c, ci)
	less := b.Bytes()[len("0 1\n"):]
	if g, _, _ = ReadEdges(bytes.NewReader(less), "c"); reflect.TypeOf(g) != reflect.TypeFor[*EdgeArray]() {
		t.Fatalf("a graph that is not regular read as %T", g)
	}
	g, _, err = (ReadOptions{MaxBytes: 8 << 10}).readEdges(bytes.NewReader(b.Bytes()), "c")
	if e, ok := g.(*EdgeArray); err != nil || !ok || !slices.Equal(e.EdgeList(), c.EdgeList()) {
		t.Errorf("rows beyond MaxBytes: %T, error %v, want the EdgeArray", g, err)
	}
}

// TestPlanLeanBytes: with the graphalloc header, plain or gzip, Plan
// counts 8 bytes an edge and 1 a vertex for BuildEdges, and a file without
// it falls back on BuildBytes (the bound from the file's size).
func TestPlanLeanBytes(t *testing.T) {
	dir := t.TempDir()
	c, _, err := LoadGraph(filepath.Join(ioGraphsDir, "karate.txt"))
	if err != nil {
		t.Fatal(err)
	}
	const buffers = 2*MaxLineBytes + aheadBlocks*aheadSize + 40<<10
	for _, name := range []string{"k.txt", "k.txt.gz"} {
		path := filepath.Join(dir, name)
		var b bytes.Buffer
		var w io.Writer = &b
		gz := strings.HasSuffix(name, ".gz")
		zw := gzip.NewWriter(&b)
		if gz {
			w = zw
		}
		if err := WriteEdgeList(w, c); err != nil {
			t.Fatal(err)
		}
		if gz {
			zw.Close()
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := Spec{Kind: "file", Path: path}.Plan(0)
		if err != nil {
			t.Fatal(err)
		}
		if want := 8*c.Size() + int64(c.Order()) + buffers; p.LeanBytes != want {
			t.Errorf("%s: LeanBytes %d, want %d", name, p.LeanBytes, want)
		}
	}
	p, _ := Spec{Kind: "file", Path: filepath.Join(ioGraphsDir, "karate.txt")}.Plan(0)
	if p.LeanBytes != p.BuildBytes {
		t.Errorf("no header: LeanBytes %d, want BuildBytes %d", p.LeanBytes, p.BuildBytes)
	}
}

// BenchmarkReadEdges reads 2^22 random edges on 2^22 vertices, written
// with the graphalloc header as gen writes them, plain and gzip, with
// ReadEdges (an EdgeArray) and ReadGraph (a CSR), and reports edge lines
// per second.
func BenchmarkReadEdges(b *testing.B) {
	const n, m = 1 << 22, 1 << 22
	rng := rand.New(rand.NewPCG(1, 2))
	var text bytes.Buffer
	fmt.Fprintf(&text, "# graphalloc edge list: n=%d edges=%d\n", n, m)
	for range m {
		fmt.Fprintf(&text, "%d %d\n", rng.IntN(n), rng.IntN(n))
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(text.Bytes())
	zw.Close()
	for _, f := range []struct {
		name string
		data []byte
	}{{"plain", text.Bytes()}, {"gzip", gz.Bytes()}} {
		for _, lean := range []bool{true, false} {
			b.Run(fmt.Sprintf("%s/lean=%v", f.name, lean), func(b *testing.B) {
				for b.Loop() {
					var g Graph
					var err error
					if lean {
						g, _, err = ReadEdges(bytes.NewReader(f.data), "bench")
					} else {
						g, _, err = ReadGraph(bytes.NewReader(f.data), "bench")
					}
					if err != nil || g.Order() != n {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(m)*float64(b.N)/b.Elapsed().Seconds(), "edges/s")
			})
		}
	}
}
