package graphgen

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadMatrixMarket(t *testing.T) {
	const banner = "%%MatrixMarket matrix coordinate "
	tests := []struct {
		name  string
		input string
		want  ioWant // format "mtx" and labels "1".."n" are implied
	}{
		{"general real with values",
			banner + "real general\n% comment\n3 3 4\n1 2 0.5\n2 1 -1e3\n2 3 7\n3 3 1\n",
			// 2 1 repeats 1 2 reversed, 3 3 is a self-loop: 4 = 2 + 1 + 1.
			ioWant{lines: 7, vertices: 3, edges: 2, selfLoops: 1, duplicates: 1,
				edgeList: ioEdges([2]uint32{0, 1}, [2]uint32{1, 2})}},
		{"rectangular: max(rows, cols) vertices",
			banner + "integer general\n2 5 2\n1 5 3\n2 4 1\n",
			// rows 1..2 and columns 1..5 share the vertices 1..5.
			ioWant{lines: 4, vertices: 5, edges: 2, edgeList: ioEdges([2]uint32{0, 4}, [2]uint32{1, 3})}},
		{"complex hermitian, comments and blanks among entries",
			banner + "complex hermitian\n\n4 4 2\n2 1 1.0 -2.0\n% between\n\n4 3 0 1\n\n",
			ioWant{lines: 8, vertices: 4, edges: 2, edgeList: ioEdges([2]uint32{0, 1}, [2]uint32{2, 3})}},
		{"skew-symmetric, upper-case words",
			"%%MatrixMarket MATRIX COORDINATE PATTERN SKEW-SYMMETRIC\n3 3 1\n3 1\n",
			ioWant{lines: 3, vertices: 3, edges: 1, edgeList: ioEdges([2]uint32{0, 2})}},
		{"isolated vertices only", banner + "pattern symmetric\n3 3 0\n", ioWant{lines: 2, vertices: 3}},
		{"empty matrix", banner + "pattern general\n0 0 0\n", ioWant{lines: 2}},
		{"CRLF and no final newline", banner + "pattern general\r\n2 2 1\r\n1 2", ioWant{lines: 3, vertices: 2, edges: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, info, err := ReadMatrixMarket(strings.NewReader(tt.input), "m.mtx")
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			want.format = FormatMatrixMarket
			want.labels = decimalLabels(want.vertices, 1)
			ioCheckWant(t, g, info, want)
		})
	}
}

func TestReadMatrixMarketErrors(t *testing.T) {
	const banner = "%%MatrixMarket matrix coordinate pattern general\n"
	tests := []struct {
		name  string
		input string
		want  string // the whole message
	}{
		{"empty", "", `m.mtx: empty input, want "%%MatrixMarket matrix coordinate FIELD SYMMETRY"`},
		{"no banner", "1 2\n", `m.mtx:1: missing Matrix Market banner: want "%%MatrixMarket matrix coordinate FIELD SYMMETRY"`},
		{"short banner", "%%MatrixMarket matrix coordinate\n", `m.mtx:1: banner has 3 words, want "%%MatrixMarket matrix coordinate FIELD SYMMETRY"`},
		{"array format", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
			"m.mtx:1: Matrix Market array (dense) format not supported: want coordinate"},
		{"vector", "%%MatrixMarket vector coordinate real general\n", `m.mtx:1: Matrix Market object "vector" not supported: want matrix`},
		{"unknown format", "%%MatrixMarket matrix sparse real general\n", `m.mtx:1: unknown Matrix Market format "sparse": want coordinate`},
		{"unknown field", "%%MatrixMarket matrix coordinate boolean general\n",
			`m.mtx:1: unknown Matrix Market field "boolean": want pattern, real, integer or complex`},
		{"unknown symmetry", "%%MatrixMarket matrix coordinate real upper\n",
			`m.mtx:1: unknown Matrix Market symmetry "upper": want general, symmetric, skew-symmetric or hermitian`},
		{"a value in a pattern file", banner + "3 3 2\n1 2\n2 3 1.5\n",
			`m.mtx:4: extra field "1.5": a pattern entry is "i j" and 0 values`},
		{"two values in a real file", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1.5 % ok\n2 3 1.5 2\n",
			`m.mtx:4: extra field "2": a real entry is "i j" and 1 value`},
		{"three values in a complex file", "%%MatrixMarket matrix coordinate complex general\n3 3 1\n1 2 1 2 3\n",
			`m.mtx:3: extra field "3": a complex entry is "i j" and 2 values`},
		{"a value not a number", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 x\n",
			`m.mtx:3: value "x" is not a number`},
		{"no size line", banner + "% only a comment\n", `m.mtx:2: missing size line "rows cols nnz" (file truncated?)`},
		{"size line with two numbers", banner + "3 3\n",
			`m.mtx:2: malformed size line "3 3": want "rows cols nnz", three non-negative integers`},
		{"size line with four numbers", banner + "3 3 1 1\n1 2\n",
			`m.mtx:2: malformed size line "3 3 1 1": want "rows cols nnz", three non-negative integers`},
		{"negative size", banner + "-3 3 1\n",
			`m.mtx:2: malformed size line "-3 3 1": want "rows cols nnz", three non-negative integers`},
		{"size beyond a CSR", banner + "4294967296 1 0\n",
			"m.mtx:2: matrix size 4294967296x1: more than the 4294967295 vertices a graph can have"},
		{"symmetric not square", "%%MatrixMarket matrix coordinate pattern symmetric\n3 4 0\n",
			"m.mtx:2: symmetric matrix must be square, got 3x4"},
		{"index beyond size", banner + "10 10 2\n1 2\n12 3\n", "m.mtx:4: vertex 12 beyond declared size 10"},
		{"index beyond uint64", banner + "10 10 1\n1 99999999999999999999999\n",
			"m.mtx:3: vertex 99999999999999999999999 beyond declared size 10"},
		{"column beyond a rectangular size", banner + "3 2 1\n3 3\n", "m.mtx:3: column 3 beyond declared size 3x2"},
		{"index zero", banner + "3 3 1\n0 1\n", "m.mtx:3: row index 0: Matrix Market indices start at 1"},
		{"malformed index", banner + "3 3 1\n1 2.0\n", `m.mtx:3: malformed column index "2.0": want a positive integer`},
		{"one field", banner + "3 3 1\n1\n", "m.mtx:3: expected row and column indices, got 1 field"},
		{"fewer entries", banner + "3 3 3\n1 2\n% end\n", "m.mtx:4: found 1 of the 3 entries declared on line 2 (file truncated?)"},
		{"more entries", banner + "3 3 1\n1 2\n2 3\n", "m.mtx:4: more entries than the 1 declared on line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, info, err := ReadMatrixMarket(strings.NewReader(tt.input), "m.mtx")
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error %v,\nwant %s", err, tt.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Errorf("error %T is not a *ParseError", err)
			}
			if g != nil || info != nil {
				t.Errorf("got graph %v and info %v with the error", g, info)
			}
		})
	}
}

func TestMatrixMarketScanner(t *testing.T) {
	input := "%%MatrixMarket matrix coordinate real symmetric\n% c\n%\n4 4 2\n2 1 0.5\n\n4 4 1\n"
	s := NewMatrixMarketScanner(strings.NewReader(input), "m.mtx")
	h, err := s.Header()
	if err != nil {
		t.Fatal(err)
	}
	// The size line is line 4.
	want := MatrixMarketHeader{Field: "real", Symmetry: "symmetric", Rows: 4, Cols: 4, Entries: 2, SizeLine: 4}
	if h != want {
		t.Errorf("header %+v, want %+v", h, want)
	}
	type entry struct{ i, j, line int }
	var got []entry
	for s.Scan() {
		i, j := s.Entry()
		got = append(got, entry{i, j, s.Line()})
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	// Entries 2 1 (line 5) and 4 4 (line 7), 0-based.
	if len(got) != 2 || got[0] != (entry{1, 0, 5}) || got[1] != (entry{3, 3, 7}) {
		t.Errorf("entries %v, want [{1 0 5} {3 3 7}]", got)
	}
	if h2, err := s.Header(); h2 != want || err != nil {
		t.Errorf("Header() after the scan = %+v, %v", h2, err)
	}
}

// FuzzReadMatrixMarket reads arbitrary bytes as a Matrix Market file. It
// must never panic; an error must be a *ParseError naming the input; a graph
// must be consistent, account for every entry, and survive a
// WriteMatrixMarket round trip unchanged. Whatever the size line declares,
// the reader must stay within ioAllocBound of the bytes it read and the
// graph it made, and the order within the default rule.
func FuzzReadMatrixMarket(f *testing.F) {
	for _, s := range []string{
		"%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n",
		"%%MatrixMarket matrix coordinate real general\n% c\n2 3 2\n1 3 0.5\n2 1 1e9\n",
		"%%MatrixMarket matrix coordinate complex hermitian\n2 2 1\n2 1 1 -1\n",
		"%%MatrixMarket matrix array real general\n1 1\n1\n",
		"%%MatrixMarket matrix coordinate pattern general\n10 10 1\n12 3\n",
		"%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n",
		ioHugeMTX,
		"%%MatrixMarket matrix coordinate pattern general\n4294967295 1 0\n",
		"%%MatrixMarket matrix coordinate pattern general\n65536 65536 4611686018427387904\n1 2\n",
	} {
		f.Add([]byte(s))
	}
	b, err := os.ReadFile(filepath.Join(ioGraphsDir, "small.mtx"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		g, info, alloc, err := ioReadMeasured(func() (*CSR, *FileInfo, error) {
			return ReadMatrixMarket(bytes.NewReader(data), "fuzz")
		})
		ioCheckAlloc(t, alloc, int64(len(data)), g)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "fuzz") || g != nil || info != nil {
				t.Fatalf("error %v (%T) with graph %v", err, err, g)
			}
			return
		}
		ioConsistent(t, g, info)
		h, _ := NewMatrixMarketScanner(bytes.NewReader(data), "fuzz").Header()
		if info.Edges+info.SelfLoops+info.Duplicates != h.Entries {
			t.Fatalf("%d edges + %d self-loops + %d duplicates, but %d entries",
				info.Edges, info.SelfLoops, info.Duplicates, h.Entries)
		}
		var buf bytes.Buffer
		if err := WriteMatrixMarket(&buf, g); err != nil {
			t.Fatal(err)
		}
		g2, _, err := ioRoundTrip.ReadMatrixMarket(&buf, "round trip")
		if err != nil {
			t.Fatal(err)
		}
		ioSameGraph(t, g, g2)
	})
}
