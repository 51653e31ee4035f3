package graphgen

import (
	"bytes"
	"fmt"
	"io"
)

// matrixMarketBanner starts the first line of a Matrix Market file.
const matrixMarketBanner = "%%MatrixMarket"

// isMatrixMarketBanner reports whether b starts with the banner, in any case.
func isMatrixMarketBanner(b []byte) bool {
	n := len(matrixMarketBanner)
	return len(b) >= n && bytes.EqualFold(b[:n], []byte(matrixMarketBanner))
}

// MatrixMarketHeader is what the banner and the size line of a Matrix
// Market coordinate file declare.
type MatrixMarketHeader struct {
	Field      string // "pattern", "real", "integer" or "complex"
	Symmetry   string // "general", "symmetric", "skew-symmetric" or "hermitian"
	Rows, Cols int    // the matrix is Rows×Cols; the graph has max(Rows, Cols) vertices
	Entries    int64  // nnz: the number of entry lines that follow
	SizeLine   int    // the line number of the size line
}

// MatrixMarketScanner reads a Matrix Market coordinate file one entry at a
// time, in the manner of bufio.Scanner, without holding it in memory.
//
// The format (NIST Matrix Market exchange format, as used for the SuiteSparse
// and web-graph collections): a banner line
//
//	%%MatrixMarket matrix coordinate FIELD SYMMETRY
//
// with FIELD one of pattern, real, integer, complex and SYMMETRY one of
// general, symmetric, skew-symmetric, hermitian (words in any case), then
// comment lines starting with '%', then the size line "rows cols nnz", then
// nnz entry lines "i j [value ...]" with 1-based indices i ≤ rows, j ≤ cols
// and as many values as the field has (none, one, or two for complex),
// which are ignored; a further field is an error. Blank lines and '%'
// comment lines are accepted anywhere after the banner. The dense "array" format is not supported.
//
// The scanner checks the banner, the size line, every index against the
// declared size, and the number of entries against nnz: fewer or more entry
// lines than declared are errors. Lines are at most MaxLineBytes long.
type MatrixMarketScanner struct {
	lr      lineReader
	hdr     MatrixMarketHeader
	hdrDone bool
	err     error
	i, j    int
	count   int64
}

// NewMatrixMarketScanner returns a scanner reading a Matrix Market file
// from r. The name, usually the file name, prefixes every error.
func NewMatrixMarketScanner(r io.Reader, name string) *MatrixMarketScanner {
	return &MatrixMarketScanner{lr: newLineReader(r, name)}
}

// Header reads the banner, the comments and the size line, unless that is
// done already, and returns what they declare. The first Scan calls it. On
// error it returns the zero header and a *ParseError, which Err reports too.
func (s *MatrixMarketScanner) Header() (MatrixMarketHeader, error) {
	if !s.hdrDone && s.err == nil {
		s.hdrDone = true
		s.err = s.readHeader()
	}
	if s.err != nil && s.hdr.SizeLine == 0 {
		return MatrixMarketHeader{}, s.err
	}
	return s.hdr, nil
}

func (s *MatrixMarketScanner) readHeader() error {
	const want = `want "%%MatrixMarket matrix coordinate FIELD SYMMETRY"`
	line, ok := s.lr.next()
	if !ok {
		if s.lr.err != nil {
			return s.lr.err
		}
		return s.lr.errorf(0, "empty input, %s", want)
	}
	f, rest := nextField(line)
	if !bytes.EqualFold(f, []byte(matrixMarketBanner)) {
		return s.lr.errorf(1, "missing Matrix Market banner: %s", want)
	}
	var words [4]string // object, format, field, symmetry
	for k := range words {
		f, rest = nextField(rest)
		if len(f) == 0 {
			return s.lr.errorf(1, "banner has %s, %s", plural(k+1, "word"), want)
		}
		words[k] = string(bytes.ToLower(f))
	}
	switch {
	case words[0] != "matrix":
		return s.lr.errorf(1, "Matrix Market object %q not supported: want matrix", words[0])
	case words[1] == "array":
		return s.lr.errorf(1, "Matrix Market array (dense) format not supported: want coordinate")
	case words[1] != "coordinate":
		return s.lr.errorf(1, "unknown Matrix Market format %q: want coordinate", words[1])
	}
	switch words[2] {
	case "pattern", "real", "integer", "complex":
	default:
		return s.lr.errorf(1, "unknown Matrix Market field %q: want pattern, real, integer or complex", words[2])
	}
	switch words[3] {
	case "general", "symmetric", "skew-symmetric", "hermitian":
	default:
		return s.lr.errorf(1, "unknown Matrix Market symmetry %q: want general, symmetric, skew-symmetric or hermitian", words[3])
	}
	for {
		line, ok = s.lr.next()
		if !ok {
			if s.lr.err != nil {
				return s.lr.err
			}
			return s.lr.errorf(s.lr.line, "missing size line \"rows cols nnz\" (file truncated?)")
		}
		if f, _ := nextField(line); len(f) > 0 && f[0] != '%' {
			break
		}
	}
	const wantSize = `want "rows cols nnz", three non-negative integers`
	var size [3]uint64
	rest = line
	for k := range size {
		f, rest = nextField(rest)
		x, digits, fits := parseUint(f)
		if !digits || !fits {
			return s.lr.errorf(s.lr.line, "malformed size line %q: %s", clip(line), wantSize)
		}
		size[k] = x
	}
	if f, _ := nextField(rest); len(f) > 0 {
		return s.lr.errorf(s.lr.line, "malformed size line %q: %s", clip(line), wantSize)
	}
	if size[0] > MaxOrder || size[1] > MaxOrder {
		return s.lr.errorf(s.lr.line, "matrix size %dx%d: more than the %d vertices a graph can have", size[0], size[1], uint64(MaxOrder))
	}
	if size[2] > 1<<62 {
		return s.lr.errorf(s.lr.line, "nnz %d out of range", size[2])
	}
	if words[3] != "general" && size[0] != size[1] {
		return s.lr.errorf(s.lr.line, "%s matrix must be square, got %dx%d", words[3], size[0], size[1])
	}
	s.hdr = MatrixMarketHeader{
		Field:    words[2],
		Symmetry: words[3],
		Rows:     int(size[0]),
		Cols:     int(size[1]),
		Entries:  int64(size[2]),
		SizeLine: s.lr.line,
	}
	return nil
}

// clip shortens a line for an error message.
func clip(b []byte) []byte {
	if len(b) > 60 {
		return append(b[:57:57], "..."...)
	}
	return b
}

// Scan advances to the next entry. It returns false at the end of input or
// at the first error, which Err then reports; reaching the end before nnz
// entries were read is an error. Each call costs O(length of the lines read).
func (s *MatrixMarketScanner) Scan() bool {
	if _, err := s.Header(); err != nil || s.err != nil {
		return false
	}
	for {
		line, ok := s.lr.next()
		if !ok {
			s.err = s.lr.err
			if s.err == nil && s.count < s.hdr.Entries {
				s.err = s.lr.errorf(s.lr.line, "found %d of the %d entries declared on line %d (file truncated?)", s.count, s.hdr.Entries, s.hdr.SizeLine)
			}
			return false
		}
		f, rest := nextField(line)
		if len(f) == 0 || f[0] == '%' {
			continue
		}
		if s.count == s.hdr.Entries {
			s.err = s.lr.errorf(s.lr.line, "more entries than the %d declared on line %d", s.hdr.Entries, s.hdr.SizeLine)
			return false
		}
		g, rest := nextField(rest)
		if len(g) == 0 || g[0] == '%' {
			s.err = s.lr.errorf(s.lr.line, "expected row and column indices, got 1 field")
			return false
		}
		if msg := s.checkValues(rest); msg != "" {
			s.err = s.lr.errorf(s.lr.line, "%s", msg)
			return false
		}
		var ok1, ok2 bool
		s.i, ok1 = s.index(f, "row", s.hdr.Rows)
		s.j, ok2 = s.index(g, "column", s.hdr.Cols)
		if !ok1 || !ok2 {
			return false
		}
		s.count++
		return true
	}
}

// checkValues returns an error message unless rest, an entry line after
// its indices, holds at most the values its field has (none for pattern,
// one for real and integer, two for complex), each a number.
func (s *MatrixMarketScanner) checkValues(rest []byte) string {
	values := 1
	switch s.hdr.Field {
	case "pattern":
		values = 0
	case "complex":
		values = 2
	}
	for k := 0; ; k++ {
		f, r := nextField(rest)
		switch {
		case len(f) == 0 || f[0] == '%':
			return ""
		case k == values:
			return fmt.Sprintf("extra field %q: a %s entry is \"i j\" and %s", clip(f), s.hdr.Field, plural(values, "value"))
		case !isNumber(f):
			return fmt.Sprintf("value %q is not a number", clip(f))
		}
		rest = r
	}
}

// index parses a 1-based index below size and returns it 0-based; on
// failure it sets s.err.
func (s *MatrixMarketScanner) index(tok []byte, what string, size int) (int, bool) {
	x, digits, fits := parseUint(tok)
	switch {
	case !digits:
		s.err = s.lr.errorf(s.lr.line, "malformed %s index %q: want a positive integer", what, clip(tok))
	case fits && x == 0:
		s.err = s.lr.errorf(s.lr.line, "%s index 0: Matrix Market indices start at 1", what)
	case !fits || x > uint64(size):
		if s.hdr.Rows == s.hdr.Cols {
			s.err = s.lr.errorf(s.lr.line, "vertex %s beyond declared size %d", clip(tok), size)
		} else {
			s.err = s.lr.errorf(s.lr.line, "%s %s beyond declared size %dx%d", what, clip(tok), s.hdr.Rows, s.hdr.Cols)
		}
	default:
		return int(x - 1), true
	}
	return 0, false
}

// Entry returns the row and column of the current entry, 0-based (the file's
// indices minus one).
func (s *MatrixMarketScanner) Entry() (i, j int) { return s.i, s.j }

// Line returns the number of lines read so far: after a successful Scan,
// the line of the current entry.
func (s *MatrixMarketScanner) Line() int { return s.lr.line }

// Err returns the first error met, as a *ParseError, or nil if the input
// was read to its end and held exactly the declared number of entries.
func (s *MatrixMarketScanner) Err() error { return s.err }

// ReadMatrixMarket reads a Matrix Market coordinate file (the format is
// described at MatrixMarketScanner) and returns its graph with a FileInfo.
//
// The graph has max(rows, cols) vertices, isolated ones included since the
// file declares them; entry (i, j) becomes the undirected edge {i-1, j-1}
// whatever the field and symmetry, so the pattern of a general matrix is
// symmetrised. Values are ignored. Diagonal entries are self-loops and
// repeated entries (either orientation) duplicates: both are dropped and
// counted in the FileInfo. Labels are "1".."n", the file's indices.
//
// The declared sizes are checked against the file before anything that
// grows with them is allocated: nnz against the entries read, which the
// edge array follows, and the order against the file's size (see
// ReadOptions: at most 65536 vertices plus 2 per byte of text).
//
// It reads the input once in O(L + n + nnz log Δ) time for L bytes, holding
// O(n + nnz) memory. On error it returns a nil graph, a nil FileInfo and a
// *ParseError naming the file and line.
func ReadMatrixMarket(r io.Reader, name string) (*CSR, *FileInfo, error) {
	return ReadOptions{}.ReadMatrixMarket(r, name)
}

// ReadMatrixMarket is the package's ReadMatrixMarket under these options.
func (o ReadOptions) ReadMatrixMarket(r io.Reader, name string) (*CSR, *FileInfo, error) {
	s := NewMatrixMarketScanner(r, name)
	s.lr.stop = newStopper(o.Context)
	h, err := s.Header()
	if err != nil {
		return nil, nil, err
	}
	buf := edgeBuf{limit: o.MaxBytes}
	for s.Scan() {
		i, j := s.Entry()
		if msg := buf.add(uint32(i), uint32(j)); msg != "" {
			return nil, nil, s.lr.errorf(s.Line(), "%s", msg)
		}
	}
	if err := s.Err(); err != nil {
		return nil, nil, err
	}
	n := max(h.Rows, h.Cols)
	if err := o.checkOrder(&s.lr, n, h.Entries, buf.bytes(), "size line", h.SizeLine, ""); err != nil {
		return nil, nil, err
	}
	return buf.graph(name, FormatMatrixMarket, s.Line(), n, decimalLabels(n, 1), o.Multi, s.lr.stop)
}
