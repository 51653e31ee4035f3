package graphgen

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// ioSlackMTX returns a Matrix Market file of one entry whose size line
// declares the most vertices its own length backs under the default rule,
// plus extra.
func ioSlackMTX(extra int) string {
	file := func(n int) string {
		return fmt.Sprintf("%%%%MatrixMarket matrix coordinate pattern general\n%d %d 1\n1 2\n", n, n)
	}
	n := DeclaredOrderSlack + DeclaredOrderPerByte*len(file(DeclaredOrderSlack))
	if len(file(n)) != len(file(DeclaredOrderSlack)) {
		panic("the size line's length changed") // both have 5 digits
	}
	return file(n + extra)
}

// TestReadDeclaredOrder: a declared order is accepted up to what the
// file's bytes back (65536 + 2 per byte) or, with ReadOptions.MaxBytes, up
// to what fits; beyond, the error names the declaration's line and says
// why, before anything that grows with the order is allocated.
func TestReadDeclaredOrder(t *testing.T) {
	var lines strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&lines, "%d %d\n", i, i+1)
	}
	tests := []struct {
		name  string
		opts  ReadOptions
		input string
		n     int    // vertices read, if no error
		err   string // the whole message
	}{
		{"size line at the limit", ReadOptions{}, ioSlackMTX(0), DeclaredOrderSlack + 2*len(ioSlackMTX(0)), ""},
		{"size line one beyond", ReadOptions{}, ioSlackMTX(1), 0,
			"g:2: size line declares 65671 vertices, but 67 bytes of text back at most 65670 (65536 + 2 per byte): building that graph would take about 2.31 MiB, mostly for isolated vertices"},
		{"the 77-byte file", ReadOptions{}, ioHugeMTX, 0,
			"g:2: size line declares 2000000000 vertices, but 77 bytes of text back at most 65690 (65536 + 2 per byte): building that graph would take about 77.2 GiB, mostly for isolated vertices"},
		{"gzip: the text counts, not the file", ReadOptions{}, ioGzip(ioHugeMTX), 0,
			"g:2: size line declares 2000000000 vertices, but 77 bytes of text back at most 65690 (65536 + 2 per byte): building that graph would take about 77.2 GiB, mostly for isolated vertices"},
		{"edge list header", ReadOptions{}, "# graphalloc edge list: n=4294967295 edges=1\n0 1\n", 0,
			"g:1: graphalloc header declares 4294967295 vertices, but 49 bytes of text back at most 65634 (65536 + 2 per byte): building that graph would take about 167 GiB, mostly for isolated vertices; delete the header line to read only the vertices that have edges"},
		{"edge list without the header", ReadOptions{}, "0 4294967294\n", 2, ""},
		{"a limit admits a sparse graph", ReadOptions{MaxBytes: 8 << 20}, "# graphalloc edge list: n=131072 edges=1\n0 1\n", 1 << 17, ""},
		{"a limit refuses a large one", ReadOptions{MaxBytes: 1 << 20}, ioSlackMTX(0), 0,
			"g:2: size line declares 65670 vertices: the graph would take about 2.31 MiB, more than the limit of 1 MiB"},
		{"a limit stops the reading", ReadOptions{MaxBytes: 1 << 10}, lines.String(), 0,
			"g:129: the 128 edge lines read so far take more than the limit of 1 KiB"},
		{"a limit on ids read", ReadOptions{MaxBytes: 16 << 10}, lines.String(), 0,
			"g: the graph on 1001 vertices would take about 57.7 KiB, more than the limit of 16 KiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, info, err := tt.opts.ReadGraph(strings.NewReader(tt.input), "g")
			if tt.err != "" {
				var pe *ParseError
				if err == nil || err.Error() != tt.err || !errors.As(err, &pe) || g != nil || info != nil {
					t.Fatalf("got %v, error %v,\nwant only the error %s", g, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			ioConsistent(t, g, info)
			if g.Order() != tt.n {
				t.Errorf("n=%d, want %d", g.Order(), tt.n)
			}
		})
	}
}

// TestReadAllocation holds the readers to ioAllocBound on the inputs that
// come nearest to it and on the ones that declare sizes far beyond their
// content, the fuzz targets' bound on known cases.
func TestReadAllocation(t *testing.T) {
	var twoChar, seq, sparse strings.Builder
	// 6000 lines of two ids of one character each (2 or 3 bytes of
	// UTF-8): the most ids per byte of text, each a map entry.
	k := 0
	for r := rune(0x21); k < 6000; r++ {
		if r == '#' || r == '%' || r >= 0x7f && r < 0xa1 || r >= 0xd800 && r < 0xe000 {
			continue
		}
		fmt.Fprintf(&twoChar, "%c %c\n", r, r+100000)
		k++
	}
	for i := range 20000 {
		fmt.Fprintf(&seq, "%d %d\n", 2*i, 2*i+1)
		fmt.Fprintf(&sparse, "%d %d\n", 1000003*i, 1000003*i+999999)
	}
	tests := []struct {
		name  string
		input string
		fails bool
	}{
		{"one-character ids", twoChar.String(), false},
		{"a matching", seq.String(), false},
		{"sparse integer ids", sparse.String(), false},
		{"gzip", ioGzip(seq.String()), false},
		{"order at the limit", ioSlackMTX(0), false},
		{"4 bytes of gzip", ioGzip("1 2\n"), false},
		{"an id a dense table would span", "4000000000 1\n", false},
		{"2·10^9 vertices in 77 bytes", ioHugeMTX, true},
		{"the same, gzip", ioGzip(ioHugeMTX), true},
		{"2^62 entries declared", "%%MatrixMarket matrix coordinate pattern general\n3 3 4611686018427387904\n1 2\n", true},
		{"2^62 edge lines declared", "# graphalloc edge list: n=3 edges=4611686018427387904\n0 1\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _, alloc, err := ioReadMeasured(func() (*CSR, *FileInfo, error) {
				return ReadGraph(strings.NewReader(tt.input), "g")
			})
			if (err != nil) != tt.fails {
				t.Fatalf("error %v, want one: %v", err, tt.fails)
			}
			text := ioTextLen([]byte(tt.input))
			ioCheckAlloc(t, alloc, text, g)
			n := 0
			if g != nil {
				n = g.Order()
			}
			t.Logf("%d bytes of text, %d vertices: allocated %d of the bound %d", text, n, alloc, ioAllocBound(text, n))
		})
	}
	// Negative controls: the check catches what the reader once did, a
	// capacity of 2^20 entries reserved for a declared nnz (8 MiB for
	// 77 bytes), and a declared order beyond the default rule, read here
	// under a memory limit.
	if ioAllocProblem(8<<20, 77, nil) == "" {
		t.Error("8 MiB for 77 bytes passes the check")
	}
	in := "# graphalloc edge list: n=131072 edges=1\n0 1\n"
	g, _, alloc, err := ioReadMeasured(func() (*CSR, *FileInfo, error) {
		return ReadOptions{MaxBytes: 8 << 20}.ReadGraph(strings.NewReader(in), "g")
	})
	if err != nil || ioAllocProblem(alloc, int64(len(in)), g) == "" {
		t.Errorf("a declared order beyond the rule passes the check (error %v)", err)
	}
}

func TestDecimalLabels(t *testing.T) {
	for _, first := range []int{0, 1, 7, 99, 100} {
		for _, n := range []int{0, 1, 9, 10, 11, 1000, 1234} {
			labels := decimalLabels(n, first)
			total := 0
			for v, l := range labels {
				if want := fmt.Sprint(first + v); l != want {
					t.Fatalf("decimalLabels(%d, %d)[%d] = %q, want %q", n, first, v, l, want)
				}
				total += len(l)
			}
			if len(labels) != n || decimalLen(first, n) != total {
				t.Errorf("decimalLabels(%d, %d): %d labels, decimalLen %d, want %d", n, first, len(labels), decimalLen(first, n), total)
			}
		}
	}
}
