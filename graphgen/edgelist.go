package graphgen

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"
)

// Graph files.
//
// Two text formats are read, plain or gzip-compressed:
//
//   - Edge lists (ReadEdgeList, EdgeScanner): one edge "u v" per line.
//   - Matrix Market coordinate files (ReadMatrixMarket, MatrixMarketScanner).
//
// ReadGraph and LoadGraph tell them apart from the bytes: a stream starting
// with the gzip magic 0x1f 0x8b is decompressed, and a (decompressed) stream
// starting with "%%MatrixMarket" is Matrix Market; anything else is read as
// an edge list. File names are used only in error messages.

// MaxLineBytes is the longest line, terminator included, that the readers
// accept. A longer line is an error naming the file and line: no sensible
// edge list or Matrix Market entry comes near it, so it means the input is
// not what it claims to be.
const MaxLineBytes = 64 << 10

// Formats reported in FileInfo.Format.
const (
	FormatEdgeList     = "edgelist"
	FormatMatrixMarket = "mtx"
)

// edgeListHeader starts the comment line that WriteEdgeList writes first;
// headerMulti is the field that marks a multigraph in it.
const (
	edgeListHeader = "# graphalloc edge list:"
	headerMulti    = "multi"
)

// bom is the UTF-8 byte order mark, skipped at the start of a file.
const bom = "\xef\xbb\xbf"

// ParseError is the error the readers return for input they cannot read: a
// malformed line, an id out of range, a truncated or unreadable stream. It
// prints as "name:line: what is wrong", or "name: what is wrong" when no line
// applies (Line == 0). Err may wrap an I/O error, such as io.ErrUnexpectedEOF
// from a truncated gzip stream, for errors.Is.
type ParseError struct {
	Name string // the file name given to the reader
	Line int    // 1-based line number, 0 if none applies
	Err  error
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.Name, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Name, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// FileInfo describes a graph file that was read: what was in it and what was
// dropped to make the graph simple. For every file read without error,
// Edges + SelfLoops + Duplicates is the number of edge lines (entries),
// unless Multi, when Edges is.
type FileInfo struct {
	Name       string // the name given to the reader
	Format     string // FormatEdgeList or FormatMatrixMarket
	Gzip       bool   // the bytes were gzip-compressed (ReadGraph, LoadGraph)
	Lines      int    // lines read, comments and blank lines included
	Vertices   int    // vertices of the graph, isolated ones included
	Edges      int64  // undirected edges of the graph
	SelfLoops  int64  // edge lines {v, v}, dropped unless Multi
	Duplicates int64  // edge lines repeating an edge already read (either orientation), dropped unless Multi
	// Multi says that the graph was read as a multigraph (ReadOptions.Multi,
	// or the header's multi flag): its loops and repeated edges are kept,
	// counted in Edges as well as in SelfLoops and Duplicates.
	Multi bool
	// Repeats counts, in a hypergraph file (FormatHyper), the vertex ids
	// repeated within a hyperedge line, dropped; Edges counts its
	// hyperedges, one per line that names a vertex.
	Repeats int64
	// Labels[v] is the id vertex v had in the file: the token for string
	// ids, the decimal number without leading zeros for integer ids, and
	// "1".."n" for Matrix Market. It is nil for an edge list with the
	// graphalloc header, whose ids are the vertex numbers 0..n-1: n
	// strings would cost about 25 bytes a vertex, more than the graph's
	// offsets and loads together.
	Labels []string
}

// Names returns the vertex ids of the file where they say more than the
// vertex numbers: Labels, unless the file is Matrix Market (whose ids are
// the indices 1..n that WriteMatrixMarket writes back) or its ids are
// exactly 0..n-1 (Labels[v] is v, or Labels is nil, as with a graphalloc
// header), and then nil. WriteEdgeListNamed writes a graph back by these names.
func (fi *FileInfo) Names() []string {
	if fi == nil || fi.Format == FormatMatrixMarket {
		return nil
	}
	for v, l := range fi.Labels {
		if l != strconv.Itoa(v) {
			return fi.Labels
		}
	}
	return nil
}

// lineReader reads lines of at most MaxLineBytes bytes, counting them.
type lineReader struct {
	br    *bufio.Reader
	name  string
	line  int
	bytes int64 // bytes read, terminators included
	err   error // a *ParseError, the context's error, or nil at a clean end of input
	stop  *stopper
}

func newLineReader(r io.Reader, name string) lineReader {
	return lineReader{br: bufio.NewReaderSize(r, MaxLineBytes), name: name}
}

func (lr *lineReader) errorf(line int, format string, a ...any) *ParseError {
	return &ParseError{Name: lr.name, Line: line, Err: fmt.Errorf(format, a...)}
}

// next returns the next line without its "\n" or "\r\n", or false at the end
// of input or on an error (then lr.err is set). The line is valid until the
// next call. A partial last line is returned only if the input ended cleanly:
// after a read error nothing more is delivered.
func (lr *lineReader) next() ([]byte, bool) {
	if lr.err != nil {
		return nil, false
	}
	if lr.stop.stop() {
		lr.err = lr.stop.err()
		return nil, false
	}
	b, err := lr.br.ReadSlice('\n')
	lr.bytes += int64(len(b))
	switch {
	case err == bufio.ErrBufferFull:
		lr.err = lr.errorf(lr.line+1, "line longer than %d bytes", MaxLineBytes)
		return nil, false
	case err == io.EOF:
		if len(b) == 0 {
			return nil, false
		}
	case err != nil:
		msg := "read error"
		if errors.Is(err, io.ErrUnexpectedEOF) {
			msg = "read error (file truncated?)"
		}
		lr.err = &ParseError{Name: lr.name, Line: lr.line + 1, Err: fmt.Errorf("%s: %w", msg, err)}
		return nil, false
	}
	lr.line++
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	if lr.line == 1 {
		b = bytes.TrimPrefix(b, []byte(bom))
	}
	return b, true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// nextField returns the first whitespace-separated field of b and the rest of b.
func nextField(b []byte) (field, rest []byte) {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	j := i
	for j < len(b) && !isSpace(b[j]) {
		j++
	}
	return b[i:j], b[j:]
}

func isComment(field []byte) bool { return len(field) > 0 && (field[0] == '#' || field[0] == '%') }

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// parseUint reports whether tok is a non-empty string of ASCII digits and,
// if so, its value and whether that value fits in a uint64.
func parseUint(tok []byte) (val uint64, digits, fits bool) {
	if len(tok) == 0 {
		return 0, false, false
	}
	fits = true
	for _, c := range tok {
		if c < '0' || c > '9' {
			return 0, false, false
		}
		d := uint64(c - '0')
		if val > (1<<64-1-d)/10 {
			fits = false
		}
		val = val*10 + d
	}
	if !fits {
		val = 0
	}
	return val, true, fits
}

// checkText returns an error message if tok holds control bytes or invalid
// UTF-8, which in practice means the input is binary, not text.
func checkText(tok []byte) string {
	ascii := true
	for _, c := range tok {
		if c < 0x20 || c == 0x7f {
			return fmt.Sprintf("control byte %#02x in vertex id: binary data, not a text edge list", c)
		}
		if c >= 0x80 {
			ascii = false
		}
	}
	if !ascii && !utf8.Valid(tok) {
		return "vertex id is not valid UTF-8: binary data, not a text edge list"
	}
	return ""
}

// EdgeScanner reads an edge list one edge at a time, in the manner of
// bufio.Scanner, without holding the file in memory.
//
// The format: one edge per line, two vertex ids separated by spaces or tabs,
// then at most two numbers (a weight, a timestamp), which are ignored; any
// other field is an error naming the line. Lines whose first
// non-blank character is '#' or '%' are comments, and a field starting with
// '#' or '%' ends the line, so "1 2 # note" is the edge {1, 2}. Blank lines
// are skipped, "\r\n" line ends and a leading UTF-8 byte order mark are
// accepted. Ids are arbitrary tokens of printable UTF-8 text; a line holding
// control bytes (NUL, …) or invalid UTF-8 in an id is an error, since it
// means the input is binary. Lines are at most MaxLineBytes long.
//
// A comment of the form "# graphalloc edge list: n=N edges=M" before the
// first edge, as WriteEdgeList writes it, declares the vertex count and the
// number of edge lines; Declared reports it. A further field "multi" marks
// a multigraph, whose loops and repeated lines are edges (DeclaredMulti);
// other fields are ignored. A line that starts with that prefix but does
// not parse is an error.
//
// The scanner only splits lines: it does not relabel ids, symmetrise or drop
// anything; ReadEdgeList does that.
type EdgeScanner struct {
	lr      lineReader
	u, v    []byte
	err     error
	edges   int64
	hasDecl bool
	declN   int
	declM   int64
	declAt  int
	multi   bool
}

// NewEdgeScanner returns a scanner reading an edge list from r. The name,
// usually the file name, prefixes every error. If r is a *bufio.Reader with a
// buffer of at least MaxLineBytes it is used as it is.
func NewEdgeScanner(r io.Reader, name string) *EdgeScanner {
	return &EdgeScanner{lr: newLineReader(r, name)}
}

// Scan advances to the next edge, skipping comments and blank lines. It
// returns false at the end of input or at the first error, which Err then
// reports. Each call costs O(length of the lines read).
func (s *EdgeScanner) Scan() bool {
	if s.err != nil {
		return false
	}
	for {
		line, ok := s.lr.next()
		if !ok {
			s.err = s.lr.err
			return false
		}
		if f, g, ok := twoNumbers(line); ok {
			// The usual line, "u v" in digits (as WriteEdgeList writes
			// it): none of the checks below can fail on it.
			s.u, s.v = f, g
			s.edges++
			return true
		}
		f, rest := nextField(line)
		if len(f) == 0 {
			continue
		}
		if isComment(f) {
			if err := s.comment(line, f); err != nil {
				s.err = err
				return false
			}
			continue
		}
		if bytes.IndexByte(line, 0) >= 0 {
			s.err = s.lr.errorf(s.lr.line, "NUL byte: binary data, not a text edge list")
			return false
		}
		g, rest := nextField(rest)
		if len(g) == 0 || isComment(g) {
			hint := ""
			if bytes.IndexByte(f, ',') >= 0 {
				hint = " (ids are separated by spaces or tabs, not commas)"
			}
			s.err = s.lr.errorf(s.lr.line, "expected two vertex ids, got 1 field%s", hint)
			return false
		}
		for _, tok := range [2][]byte{f, g} {
			if msg := checkText(tok); msg != "" {
				s.err = s.lr.errorf(s.lr.line, "%s", msg)
				return false
			}
		}
		if msg := checkColumns(rest); msg != "" {
			s.err = s.lr.errorf(s.lr.line, "%s", msg)
			return false
		}
		s.u, s.v = f, g
		s.edges++
		return true
	}
}

// edgeColumns is how many columns an edge line may have after its two
// ids: a weight and a timestamp, as KONECT and SNAP's temporal networks
// write them. Any other field means the line is not what the reader
// takes it for (a CSV row, prose, ids with spaces), and dropping
// it silently would change the graph.
const edgeColumns = 2

// checkColumns returns an error message unless rest, the line after its
// two ids, holds at most edgeColumns numbers, then perhaps a comment.
func checkColumns(rest []byte) string {
	const allowed = `an edge line is "u v", then at most a weight and a timestamp (numbers) and a # comment`
	for k := 0; ; k++ {
		f, r := nextField(rest)
		switch {
		case len(f) == 0 || isComment(f):
			return ""
		case k == edgeColumns:
			return fmt.Sprintf("extra field %q after the weight and timestamp: %s", clip(f), allowed)
		case !isNumber(f):
			return fmt.Sprintf("extra field %q is not a number: %s", clip(f), allowed)
		}
		rest = r
	}
}

// isNumber reports whether b is a decimal number as a weight or a
// timestamp is written: an optional sign, digits with an optional point,
// an optional exponent; or nan or inf, in any case, as strconv writes
// them.
func isNumber(b []byte) bool {
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		b = b[1:]
	}
	for _, word := range []string{"nan", "inf", "infinity"} {
		if bytes.EqualFold(b, []byte(word)) {
			return true
		}
	}
	digits, i := 0, 0
	for ; i < len(b) && b[i]-'0' < 10; i++ {
		digits++
	}
	if i < len(b) && b[i] == '.' {
		for i++; i < len(b) && b[i]-'0' < 10; i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		start := i
		for i < len(b) && b[i]-'0' < 10 {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(b)
}

// twoNumbers splits a line of two runs of ASCII digits separated by one
// space, and reports whether the line is one.
func twoNumbers(line []byte) (u, v []byte, ok bool) {
	i := 0
	for i < len(line) && line[i]-'0' < 10 {
		i++
	}
	if i == 0 || i == len(line) || line[i] != ' ' {
		return nil, nil, false
	}
	j := i + 1
	for j < len(line) && line[j]-'0' < 10 {
		j++
	}
	if j == i+1 || j != len(line) {
		return nil, nil, false
	}
	return line[:i], line[i+1:], true
}

// comment handles a comment line: the Matrix Market banner (an error here)
// and the graphalloc header.
func (s *EdgeScanner) comment(line, first []byte) error {
	if s.lr.line == 1 && isMatrixMarketBanner(first) {
		return s.lr.errorf(1, "this is a Matrix Market file, not an edge list: read it with ReadMatrixMarket or ReadGraph")
	}
	text := bytes.TrimLeft(line, " \t\v\f")
	if s.edges > 0 || s.hasDecl || !bytes.HasPrefix(text, []byte(edgeListHeader)) {
		return nil
	}
	const want = `want "` + edgeListHeader + ` n=N edges=M"`
	var haveN, haveM bool
	for f, rest := nextField(text[len(edgeListHeader):]); len(f) > 0; f, rest = nextField(rest) {
		key, val, _ := bytes.Cut(f, []byte{'='})
		if string(f) == headerMulti {
			s.multi = true
			continue
		}
		if string(key) != "n" && string(key) != "edges" {
			continue // other fields are ignored, for later versions of the header
		}
		x, digits, fits := parseUint(val)
		if !digits || !fits {
			return s.lr.errorf(s.lr.line, "malformed graphalloc header field %q: %s", f, want)
		}
		switch string(key) {
		case "n":
			if x > MaxOrder {
				return s.lr.errorf(s.lr.line, "graphalloc header declares n=%d, more than the %d vertices a graph can have", x, uint64(MaxOrder))
			}
			s.declN, haveN = int(x), true
		case "edges":
			if x > 1<<62 {
				return s.lr.errorf(s.lr.line, "graphalloc header declares edges=%d, out of range", x)
			}
			s.declM, haveM = int64(x), true
		}
	}
	if !haveN || !haveM {
		return s.lr.errorf(s.lr.line, "malformed graphalloc header: %s", want)
	}
	s.hasDecl, s.declAt = true, s.lr.line
	return nil
}

// DeclaredMulti reports whether a graphalloc header marked the input a
// multigraph (the field "multi").
func (s *EdgeScanner) DeclaredMulti() bool { return s.multi }

// Edge returns the two vertex ids of the current edge as read. The slices
// are valid only until the next call to Scan.
func (s *EdgeScanner) Edge() (u, v []byte) { return s.u, s.v }

// Line returns the number of lines read so far: after a successful Scan,
// the line of the current edge.
func (s *EdgeScanner) Line() int { return s.lr.line }

// Err returns the first error met, as a *ParseError, or nil if the input
// ended cleanly.
func (s *EdgeScanner) Err() error { return s.err }

// Declared reports the vertex count n and edge-line count declared by a
// graphalloc header comment, and whether the input had one (so far).
func (s *EdgeScanner) Declared() (n int, edges int64, ok bool) {
	return s.declN, s.declM, s.hasDecl
}

// idKey is a vertex id as idTable keeps it: an integer that fits in a
// uint64 is num, with s empty; any other id is s, the canonical digits of
// an integer beyond uint64 (which sorts after every num) or the token
// itself (then idTable.strings is set and the order is that of first
// appearance, so the two kinds of s need not be told apart).
type idKey struct {
	s   string
	num uint64
}

// idTable assigns provisional vertex numbers to ids in order of first
// appearance and remembers each id; finish relabels to the final order.
//
// Integer ids are the common case, and usually nearly dense, so small values
// are looked up in a slice rather than the map: dense[x] is 1 + the number
// of id x. A value goes to dense if it is below denseLimit when first seen,
// and to the map otherwise; lookups try both. dense never exceeds
// denseLimit(k) entries for k distinct ids, so memory stays O(k).
type idTable struct {
	dense   []uint32
	small   map[uint64]uint32
	strs    map[string]uint32 // the canonical digits of integers beyond uint64 and the other ids, which never collide
	keys    []idKey
	strings bool  // some id is not an integer
	bytes   int64 // about what the table holds: idBytes an id and its text
}

// idBytes bounds what the id table holds for each id beside its text:
// its key (24 bytes, in a slice of at most twice their size), its entry
// in the dense table (16 bytes an id, denseLimit) or in a map (about 40
// with the map's overhead).
const idBytes = 2*24 + 16 + 40

// idCheckEvery is how many new ids pass between two checks of the id
// table against a reader's limit.
const idCheckEvery = 1 << 10

func newIDTable() *idTable {
	return &idTable{small: make(map[uint64]uint32), strs: make(map[string]uint32)}
}

// id returns the provisional number of tok, or false if there are already
// MaxOrder distinct ids.
func (t *idTable) id(tok []byte) (uint32, bool) {
	val, digits, fits := parseUint(tok)
	if digits && fits {
		if val < uint64(len(t.dense)) && t.dense[val] != 0 {
			return t.dense[val] - 1, true
		}
		if v, ok := t.small[val]; ok {
			return v, true
		}
		if len(t.keys) >= MaxOrder {
			return 0, false
		}
		v := uint32(len(t.keys))
		if limit := uint64(denseLimit(len(t.keys))); val < limit {
			if val >= uint64(len(t.dense)) {
				t.dense = slices.Grow(t.dense, int(min(2*val+1, limit))-len(t.dense))
				t.dense = t.dense[:cap(t.dense)]
			}
			t.dense[val] = v + 1
		} else {
			t.small[val] = v
		}
		t.addKey(idKey{num: val})
		return v, true
	}
	if digits {
		tok = bytes.TrimLeft(tok, "0") // beyond uint64, so not all zeros
	} else {
		t.strings = true
	}
	if v, ok := t.strs[string(tok)]; ok {
		return v, true
	}
	if len(t.keys) >= MaxOrder {
		return 0, false
	}
	v := uint32(len(t.keys))
	s := string(tok)
	t.bytes += int64(len(s))
	t.strs[s] = v
	t.addKey(idKey{s: s})
	return v, true
}

// addKey appends k to t.keys, doubling the capacity when it is full (where
// append would grow a large slice by a quarter, copying five times its
// final size in all), so that the keys cost at most twice their size.
func (t *idTable) addKey(k idKey) {
	if len(t.keys) == cap(t.keys) {
		t.keys = slices.Grow(t.keys, max(len(t.keys), 16))
	}
	t.keys = append(t.keys, k)
	t.bytes += idBytes
}

// check returns the error for an id table that, with held bytes of
// edges, holds more than limit (if positive), looking only when a new id
// made the count of ids, k before, cross a multiple of idCheckEvery.
func (t *idTable) check(lr *lineReader, k int, limit int64, held func() int64) error {
	if limit <= 0 || k/idCheckEvery == len(t.keys)/idCheckEvery {
		return nil
	}
	if t.bytes+held() > limit {
		return lr.errorf(lr.line, "the %d vertex ids and the edges read so far take more than the limit of %s", len(t.keys), FormatBytes(limit))
	}
	return nil
}

// denseLimit bounds the values kept in idTable.dense when k ids are known:
// 4 KiB of table at first, then 16 bytes per id, so that the table grows
// with the ids read, not with their values. Ids 0..k-1 in any order end
// up mostly in the table: a new id below 4k, as one of k random ids out of
// n is with probability 4k/n, goes there, so at most n/8 go to the map.
func denseLimit(k int) int { return 1<<10 + 4*k }

func (k idKey) label() string {
	if k.s == "" {
		return strconv.FormatUint(k.num, 10)
	}
	return k.s
}

// compareNumeric orders integer ids by value: small ones by number, big ones
// (all larger than any small one) by length, then digit by digit.
func compareNumeric(a, b idKey) int {
	if (a.s == "") != (b.s == "") {
		if a.s == "" {
			return -1
		}
		return 1
	}
	if a.s == "" {
		switch {
		case a.num < b.num:
			return -1
		case a.num > b.num:
			return 1
		}
		return 0
	}
	if len(a.s) != len(b.s) {
		return len(a.s) - len(b.s)
	}
	return strings.Compare(a.s, b.s)
}

// finish relabels the provisional numbers in the chunks to the final ones and returns
// the labels. If every id is an integer the final order is numeric, else it
// is the order of first appearance (the provisional order itself).
func (t *idTable) finish(chunks [][]uint32) []string {
	labels := make([]string, len(t.keys))
	if t.strings {
		for v, k := range t.keys {
			labels[v] = k.label()
		}
		return labels
	}
	order := make([]uint32, len(t.keys)) // order[final] = provisional
	for v := range order {
		order[v] = uint32(v)
	}
	slices.SortFunc(order, func(a, b uint32) int { return compareNumeric(t.keys[a], t.keys[b]) })
	final := make([]uint32, len(t.keys)) // final[provisional]
	for f, p := range order {
		final[p] = uint32(f)
		labels[f] = t.keys[p].label()
	}
	for _, e := range chunks {
		for k, p := range e {
			e[k] = final[p]
		}
	}
	return labels
}

// ReadEdgeList reads an edge list (the format is described at EdgeScanner)
// and returns the simple undirected graph it describes with a FileInfo.
//
// Vertex ids are relabelled 0..n-1: if every id is a non-negative integer
// (a string of ASCII digits, of any length), in increasing numeric order, so
// ids 5, 1000000000000, 7 become 0, 2, 1; otherwise in order of first
// appearance. An integer id names one vertex however it is written ("007"
// and "7" are the same vertex), in either case. FileInfo.Labels maps the
// new numbers back to the ids. Edges are undirected: "u v" and "v u" are the
// same edge. Self-loops and repeated edges are dropped and counted in the
// FileInfo, unless o.Multi is set or the graphalloc header (below) says
// "multi": then they are kept, and the graph is a multigraph (see
// FromEdgesMulti).
//
// If the input starts with the header comment that WriteEdgeList writes,
// "# graphalloc edge list: n=N edges=M", ids are taken as they are instead:
// the graph has exactly N vertices 0..N-1, isolated ones included, so a
// written graph reads back identical, and FileInfo.Labels is nil (the ids
// are the vertex numbers). Such a file must then hold only
// integer ids below N and exactly M edge lines (fewer means it was cut
// short), and N must be backed by the file's size (see ReadOptions: at most
// 65536 vertices plus 2 per byte of text); anything else is an error.
// Delete the header line to read an edited file by the general rules.
//
// It reads the input once, line by line, in O(L + m log Δ + k log k) time
// for L bytes, m edge lines, k distinct ids and maximum degree Δ, holding
// O(m + k) memory, O(m + N) with a header: never the text itself, and
// never more than what it has read calls for (ReadOptions). On error it
// returns a nil graph, a nil FileInfo and a *ParseError naming the file
// and line.
func ReadEdgeList(r io.Reader, name string) (*CSR, *FileInfo, error) {
	return ReadOptions{}.ReadEdgeList(r, name)
}

// ReadEdgeList is the package's ReadEdgeList under these options.
func (o ReadOptions) ReadEdgeList(r io.Reader, name string) (*CSR, *FileInfo, error) {
	s := NewEdgeScanner(r, name)
	s.lr.stop = newStopper(o.Context)
	buf := edgeBuf{limit: o.MaxBytes}
	sc, err := scanEdges(s, buf.add, o.MaxBytes, buf.bytes)
	if err != nil {
		return nil, nil, err
	}
	n, labels, err := o.finishScan(s, sc, buf.bytes(), buf.chunks)
	if err != nil {
		return nil, nil, err
	}
	return buf.graph(name, FormatEdgeList, s.Line(), n, labels, o.Multi || s.multi, s.lr.stop)
}

// scanned is what scanEdges learnt of a file besides its edges.
type scanned struct {
	ids    *idTable // the provisional ids; nil with a header
	declN  int      // the header's n and edges, if header
	declM  int64
	header bool
	lines  int64 // edge lines read, self-loops included
}

// scanEdges reads the edge lines of s and passes each edge to add, its
// ends numbered by the header (which it checks them against) or, without
// one, by provisional numbers of an id table (see ReadEdgeList); add
// returns an error message to stop. held is what the edges read take: with
// the id table, it must stay within limit if that is positive. It is the
// one loop of ReadEdgeList and ReadEdges.
func scanEdges(s *EdgeScanner, add func(u, v uint32) string, limit int64, held func() int64) (scanned, error) {
	var sc scanned
	for s.Scan() {
		u, v := s.Edge()
		if sc.lines == 0 {
			sc.declN, sc.declM, sc.header = s.Declared()
			if !sc.header {
				sc.ids = newIDTable()
			}
		}
		sc.lines++
		var pair [2]uint32
		if sc.header {
			for i, tok := range [2][]byte{u, v} {
				x, digits, fits := parseUint(tok)
				if !digits || !fits || x >= uint64(sc.declN) {
					return sc, s.lr.errorf(s.Line(), "vertex %q is not an integer below n=%d declared by the graphalloc header on line %d", tok, sc.declN, s.declAt)
				}
				pair[i] = uint32(x)
			}
		} else {
			k := len(sc.ids.keys)
			a, okA := sc.ids.id(u)
			b, okB := sc.ids.id(v)
			if !okA || !okB {
				return sc, s.lr.errorf(s.Line(), "more than %d distinct vertex ids", uint64(MaxOrder))
			}
			if limit > 0 && len(sc.ids.keys) != k {
				if err := sc.ids.check(&s.lr, k, limit, held); err != nil {
					return sc, err
				}
			}
			pair = [2]uint32{a, b}
		}
		if msg := add(pair[0], pair[1]); msg != "" {
			return sc, s.lr.errorf(s.Line(), "%s", msg)
		}
	}
	if err := s.Err(); err != nil {
		return sc, err
	}
	if sc.lines == 0 {
		// No edge: the header, if any, is final now.
		sc.declN, sc.declM, sc.header = s.Declared()
		sc.ids = newIDTable()
	}
	return sc, nil
}

// finishScan checks what scanEdges read (the header's count of edge lines,
// the order against the file's size or the limit, with held bytes held,
// and for a multigraph 8 bytes an edge line more, the copy of its lines
// that it keeps in order: CSR.Lines), relabels the provisional ids in
// chunks to their final numbers, and returns the order and the labels
// (nil with a header).
func (o ReadOptions) finishScan(s *EdgeScanner, sc scanned, held int64, chunks [][]uint32) (int, []string, error) {
	if o.Multi || s.multi {
		held += 8 * sc.lines
	}
	if sc.header {
		if sc.lines != sc.declM {
			return 0, nil, s.lr.errorf(s.Line(), "found %d edge lines, the graphalloc header on line %d declares %d (file truncated or edited?)", sc.lines, s.declAt, sc.declM)
		}
		if err := o.checkOrder(&s.lr, sc.declN, sc.lines, held, "graphalloc header", s.declAt,
			"; delete the header line to read only the vertices that have edges"); err != nil {
			return 0, nil, err
		}
		return sc.declN, nil, nil
	}
	n := len(sc.ids.keys)
	if err := o.checkOrder(&s.lr, n, sc.lines, held, "", 0, ""); err != nil {
		return 0, nil, err
	}
	return n, sc.ids.finish(chunks), nil
}

// ReadGraph reads a graph file of either format, plain or gzip-compressed,
// deciding from the bytes alone: gzip by its magic number 0x1f 0x8b, Matrix
// Market by a first line starting with "%%MatrixMarket" (in any case), an
// edge list otherwise. The formats, costs and results are those of
// ReadEdgeList and ReadMatrixMarket; FileInfo.Gzip reports compression.
// A corrupt or truncated gzip stream is a *ParseError naming the file. On
// error it returns a nil graph and a nil FileInfo.
//
// What it allocates grows with the text it reads (decompressed), not with
// the sizes a file declares: see ReadOptions, whose zero value it uses.
func ReadGraph(r io.Reader, name string) (*CSR, *FileInfo, error) {
	return ReadOptions{}.readCSR(r, name)
}

// readCSR is readGraph for a graph held whole.
func (o ReadOptions) readCSR(r io.Reader, name string) (*CSR, *FileInfo, error) {
	g, info, err := o.readGraph(r, name, false)
	if err != nil {
		return nil, nil, err
	}
	return g.(*CSR), info, nil
}

// gunzip returns a gzip reader of br if its bytes start with gzip's
// magic, and whether they do; gzip is told from the bytes, not the name.
// Its errors are ParseErrors of the file name.
func gunzip(br *bufio.Reader, name string) (*gzip.Reader, bool, error) {
	magic, err := br.Peek(2)
	if err != nil && err != io.EOF {
		return nil, false, &ParseError{Name: name, Err: fmt.Errorf("read error: %w", err)}
	}
	if len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return nil, false, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		msg := "bad gzip header"
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			msg, err = "gzip header cut short (file truncated?)", io.ErrUnexpectedEOF
		}
		return nil, true, &ParseError{Name: name, Err: fmt.Errorf("%s: %w", msg, err)}
	}
	return zr, true, nil
}

// readGraph is ReadGraph, or, if lean, ReadEdges: the two differ only in
// how an edge list is read.
func (o ReadOptions) readGraph(r io.Reader, name string, lean bool) (Graph, *FileInfo, error) {
	br := bufio.NewReaderSize(r, MaxLineBytes)
	zr, compressed, err := gunzip(br, name)
	if err != nil {
		return nil, nil, err
	}
	text := br
	if compressed {
		defer zr.Close()
		ahead := newReadAhead(zr)
		defer ahead.Close()
		text = bufio.NewReaderSize(ahead, MaxLineBytes)
	}
	// The banner may follow a byte order mark.
	head, err := text.Peek(len(bom) + len(matrixMarketBanner))
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		msg := "read error"
		if compressed {
			msg = "gzip read error"
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			msg += " (file truncated?)"
		}
		return nil, nil, &ParseError{Name: name, Line: 1, Err: fmt.Errorf("%s: %w", msg, err)}
	}
	var (
		g    Graph
		info *FileInfo
	)
	switch {
	case isMatrixMarketBanner(bytes.TrimPrefix(head, []byte(bom))):
		g, info, err = o.ReadMatrixMarket(text, name)
	case lean && !o.Multi:
		g, info, err = o.readEdges(text, name)
	default:
		g, info, err = o.ReadEdgeList(text, name)
	}
	if err != nil {
		return nil, nil, err
	}
	info.Gzip = compressed
	return g, info, nil
}

// LoadGraph opens the file at path and reads it with ReadGraph: gzip and
// the format are detected from the bytes, not the name. Errors name the
// path; on error it returns a nil graph and a nil FileInfo.
func LoadGraph(path string) (*CSR, *FileInfo, error) {
	return ReadOptions{}.LoadGraph(path)
}
