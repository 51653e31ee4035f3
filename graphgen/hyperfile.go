package graphgen

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// Hypergraph files.
//
// One hyperedge per line: whitespace-separated vertex ids, as many as the
// hyperedge has. Ids are arbitrary tokens relabelled as ReadEdgeList
// relabels them (integers in numeric order, otherwise in order of first
// appearance), '#' and '%' start comments (a whole line, or the rest of
// one), blank lines are skipped, and gzip is detected from the bytes. A
// first comment "# graphalloc hypergraph: n=N edges=K", as
// WriteHypergraph writes it, declares the vertex count and the number of
// hyperedge lines: ids are then the integers 0..N-1 as they are, and
// vertices no line names are kept.

// FormatHyper is FileInfo.Format for a hypergraph file.
const FormatHyper = "hyperedges"

// hyperHeader starts the comment line that WriteHypergraph writes first.
const hyperHeader = "# graphalloc hypergraph:"

// ReadHypergraph reads a hypergraph file (plain or gzip) and returns the
// hypergraph with a FileInfo whose Edges counts the hyperedges and
// Repeats the vertex ids repeated within a line, which are dropped (a
// hyperedge is a set). Each line is one hyperedge, however many times the
// same set appears. Errors are *ParseError naming the file and line; on
// error the hypergraph and the FileInfo are nil.
//
// It reads the input once in O(L + I log s + k' log k') time for L bytes,
// I vertex ids, hyperedges of at most s vertices and k' distinct ids, and
// what it holds grows with the text read, never with a declared size (see
// ReadOptions; the default rule bounds a declared N as for edge lists).
func ReadHypergraph(r io.Reader, name string) (*Hypergraph, *FileInfo, error) {
	return ReadOptions{}.ReadHypergraph(r, name)
}

// LoadHypergraph opens the file at path and reads it with ReadHypergraph.
func LoadHypergraph(path string) (*Hypergraph, *FileInfo, error) {
	return ReadOptions{}.LoadHypergraph(path)
}

// LoadHypergraph is the package's LoadHypergraph under these options.
func (o ReadOptions) LoadHypergraph(path string) (*Hypergraph, *FileInfo, error) {
	return load(o, path, o.ReadHypergraph)
}

// hyperBuf is the flat vertex array and the offsets a reader fills,
// doubling their capacities as lines are read, within the limit.
type hyperBuf struct {
	verts []uint32
	off   []int
	limit int64
}

func (b *hyperBuf) bytes() int64 { return 4*int64(cap(b.verts)) + 8*int64(cap(b.off)) }

// room makes room for one more vertex, or returns an error message.
func (b *hyperBuf) room() string {
	var ok bool
	if b.verts, ok = growWithin(b, b.verts, 4); !ok {
		return b.full()
	}
	return ""
}

// endLine closes the hyperedge that started at off[len(off)-1].
func (b *hyperBuf) endLine() string {
	var ok bool
	if b.off, ok = growWithin(b, b.off, 8); !ok {
		return b.full()
	}
	b.off = append(b.off, len(b.verts))
	return ""
}

// full is the message of a buffer at its limit.
func (b *hyperBuf) full() string {
	return fmt.Sprintf("the %d hyperedge lines read so far take more than the limit of %s", len(b.off)-1, FormatBytes(b.limit))
}

// growWithin returns s with room for one more element of size bytes,
// its capacity doubled (at least 64) when full, or false if that would
// take the bytes b holds past its limit.
func growWithin[T any](b *hyperBuf, s []T, size int64) ([]T, bool) {
	if len(s) < cap(s) {
		return s, true
	}
	c := max(2*cap(s), 64)
	if b.limit > 0 && b.bytes()+size*int64(c-cap(s)) > b.limit {
		return s, false
	}
	t := make([]T, len(s), c)
	copy(t, s)
	return t, true
}

// ReadHypergraph is the package's ReadHypergraph under these options.
func (o ReadOptions) ReadHypergraph(r io.Reader, name string) (*Hypergraph, *FileInfo, error) {
	br := bufio.NewReaderSize(r, MaxLineBytes)
	zr, compressed, err := gunzip(br, name)
	if err != nil {
		return nil, nil, err
	}
	var text io.Reader = br
	if compressed {
		defer zr.Close()
		text = zr
	}
	h, info, err := o.readHyper(text, name)
	if err != nil {
		return nil, nil, err
	}
	info.Gzip = compressed
	return h, info, nil
}

func (o ReadOptions) readHyper(r io.Reader, name string) (*Hypergraph, *FileInfo, error) {
	lr := newLineReader(r, name)
	lr.stop = newStopper(o.Context)
	buf := hyperBuf{limit: o.MaxBytes, off: make([]int, 1, 64)}
	ids := newIDTable()
	var (
		header  bool
		declN   int
		declK   int64
		declAt  int
		repeats int64
	)
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		start := len(buf.verts)
		for f, rest := nextField(line); len(f) > 0; f, rest = nextField(rest) {
			if isComment(f) {
				if start == len(buf.verts) && len(buf.off) == 1 && !header && f[0] == '#' {
					text := bytes.TrimLeft(line, " \t\v\f")
					if bytes.HasPrefix(text, []byte(hyperHeader)) {
						var err error
						if declN, declK, err = parseHyperHeader(&lr, text[len(hyperHeader):]); err != nil {
							return nil, nil, err
						}
						header, declAt = true, lr.line
					}
				}
				break
			}
			if msg := checkText(f); msg != "" {
				return nil, nil, lr.errorf(lr.line, "%s", msg)
			}
			var v uint32
			if header {
				x, digits, fits := parseUint(f)
				if !digits || !fits || x >= uint64(declN) {
					return nil, nil, lr.errorf(lr.line, "vertex %q is not an integer below n=%d declared by the graphalloc header on line %d", f, declN, declAt)
				}
				v = uint32(x)
			} else {
				k := len(ids.keys)
				var ok bool
				if v, ok = ids.id(f); !ok {
					return nil, nil, lr.errorf(lr.line, "more than %d distinct vertex ids", uint64(MaxOrder))
				}
				if err := ids.check(&lr, k, o.MaxBytes, buf.bytes); err != nil {
					return nil, nil, err
				}
			}
			if msg := buf.room(); msg != "" {
				return nil, nil, lr.errorf(lr.line, "%s", msg)
			}
			buf.verts = append(buf.verts, v)
		}
		if len(buf.verts) == start {
			continue // blank or comment
		}
		if int64(len(buf.off)) > MaxHyperedges {
			return nil, nil, lr.errorf(lr.line, "more than %d hyperedges", int64(MaxHyperedges))
		}
		// A hyperedge is a set: sort the line's ids and drop repeats.
		he := buf.verts[start:]
		slices.Sort(he)
		kept := len(slices.Compact(he))
		repeats += int64(len(he) - kept)
		buf.verts = buf.verts[:start+kept]
		if msg := buf.endLine(); msg != "" {
			return nil, nil, lr.errorf(lr.line, "%s", msg)
		}
	}
	if lr.err != nil {
		return nil, nil, lr.err
	}
	k := int64(len(buf.off) - 1)
	var (
		n      int
		labels []string
	)
	if header {
		if k != declK {
			return nil, nil, lr.errorf(lr.line, "found %d hyperedge lines, the graphalloc header on line %d declares %d (file truncated or edited?)", k, declAt, declK)
		}
		n = declN
		// The default rule of ReadOptions, with what building costs:
		// the degrees and the labels, about 24 bytes a vertex.
		allowed := DeclaredOrderSlack + DeclaredOrderPerByte*lr.bytes
		need := buf.bytes() + 24*int64(n)
		switch {
		case o.MaxBytes > 0 && need > o.MaxBytes:
			return nil, nil, lr.errorf(declAt, "graphalloc header declares %d vertices: the hypergraph would take about %s, more than the limit of %s", n, FormatBytes(need), FormatBytes(o.MaxBytes))
		case o.MaxBytes == 0 && int64(n) > allowed:
			return nil, nil, lr.errorf(declAt, "graphalloc header declares %d vertices, but %d bytes of text back at most %d (%d + %d per byte); delete the header line to read only the vertices that hyperedges name",
				n, lr.bytes, allowed, DeclaredOrderSlack, DeclaredOrderPerByte)
		}
		labels = decimalLabels(n, 0)
	} else {
		n = len(ids.keys)
		// The hypergraph, its labels (about 16 bytes a vertex and the
		// text the table holds already) beside what was read.
		if need := buf.bytes() + ids.bytes + hyperBytes(n, k, int64(len(buf.verts)), false) + 16*int64(n); o.MaxBytes > 0 && need > o.MaxBytes {
			return nil, nil, lr.errorf(0, "the hypergraph on %d vertices would take about %s, more than the limit of %s", n, FormatBytes(need), FormatBytes(o.MaxBytes))
		}
		labels = ids.finish([][]uint32{buf.verts}) // relabelled: FromHyperedges sorts again
	}
	h, err := FromHyperedges(n, buf.off, buf.verts)
	if err != nil {
		return nil, nil, &ParseError{Name: name, Err: err}
	}
	return h, &FileInfo{Name: name, Format: FormatHyper, Lines: lr.line, Vertices: n, Edges: k, Repeats: repeats, Labels: labels}, nil
}

// parseHyperHeader parses the fields after the graphalloc hypergraph
// header's prefix.
func parseHyperHeader(lr *lineReader, text []byte) (n int, k int64, err error) {
	const want = `want "` + hyperHeader + ` n=N edges=K"`
	var haveN, haveK bool
	for f, rest := nextField(text); len(f) > 0; f, rest = nextField(rest) {
		key, val, _ := bytes.Cut(f, []byte{'='})
		if string(key) != "n" && string(key) != "edges" {
			continue // other fields are ignored, for later versions
		}
		x, digits, fits := parseUint(val)
		if !digits || !fits {
			return 0, 0, lr.errorf(lr.line, "malformed graphalloc header field %q: %s", f, want)
		}
		if string(key) == "n" {
			if x > MaxOrder {
				return 0, 0, lr.errorf(lr.line, "graphalloc header declares n=%d, more than the %d vertices a hypergraph can have", x, uint64(MaxOrder))
			}
			n, haveN = int(x), true
		} else {
			if x > MaxHyperedges {
				return 0, 0, lr.errorf(lr.line, "graphalloc header declares edges=%d, more than %d", x, int64(MaxHyperedges))
			}
			k, haveK = int64(x), true
		}
	}
	if !haveN || !haveK {
		return 0, 0, lr.errorf(lr.line, "malformed graphalloc header: %s", want)
	}
	return n, k, nil
}

// WriteHypergraph writes h in the format ReadHypergraph reads: the header
// "# graphalloc hypergraph: n=N edges=K", then each hyperedge on a line,
// its vertex numbers ascending, so that the file reads back as h itself.
func WriteHypergraph(w io.Writer, h *Hypergraph) error {
	if h == nil {
		return errNilGraph
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "%s n=%d edges=%d\n", hyperHeader, h.Order(), h.Size())
	var digits []byte
	for e := range h.k {
		digits = digits[:0]
		for i, v := range h.Hyperedge(e) {
			if i > 0 {
				digits = append(digits, ' ')
			}
			digits = strconv.AppendUint(digits, uint64(v), 10)
		}
		digits = append(digits, '\n')
		bw.Write(digits)
	}
	return bw.Flush()
}
