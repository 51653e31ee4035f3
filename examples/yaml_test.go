package examples_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A decoder of the YAML subset that the Kubernetes examples use, for
// k8s_test.go: block mappings and sequences indented with spaces, flow
// mappings and sequences on one line, literal block scalars (| and |-),
// plain, double- and single-quoted scalars, comments. Anything else (tabs,
// anchors, tags, folded scalars, several documents) is refused, not guessed.
// Plain scalars resolve as kubectl's YAML-to-JSON step resolves them, YAML
// 1.1 booleans included: an unquoted on is true and an unquoted 16 an
// integer, which a string field then refuses.

type yamlParser struct {
	file  string
	lines []string
	pos   int
}

func parseYAML(file, text string) (any, error) {
	p := &yamlParser{file: file, lines: strings.Split(strings.TrimRight(text, "\n"), "\n")}
	for i, l := range p.lines {
		if strings.HasPrefix(strings.TrimLeft(l, " "), "\t") {
			return nil, fmt.Errorf("%s:%d: tab in indentation", file, i+1)
		}
		if t := strings.TrimSpace(l); t == "---" || t == "..." || strings.HasPrefix(t, "%") {
			return nil, fmt.Errorf("%s:%d: %q: one document per file, no directives", file, i+1, t)
		}
	}
	v, err := p.node(0)
	if err != nil {
		return nil, err
	}
	if p.skip(); p.pos < len(p.lines) {
		return nil, p.errf("unexpected line (indentation?)")
	}
	return v, nil
}

func (p *yamlParser) errf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", p.file, p.pos+1, fmt.Sprintf(format, args...))
}

// skip moves past blank and comment-only lines.
func (p *yamlParser) skip() {
	for p.pos < len(p.lines) {
		t := strings.TrimSpace(p.lines[p.pos])
		if t != "" && !strings.HasPrefix(t, "#") {
			return
		}
		p.pos++
	}
}

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// node parses the node whose lines are indented at least min.
func (p *yamlParser) node(min int) (any, error) {
	p.skip()
	if p.pos >= len(p.lines) || indentOf(p.lines[p.pos]) < min {
		return nil, nil
	}
	l := p.lines[p.pos]
	ind := indentOf(l)
	body := stripComment(l[ind:])
	switch {
	case body == "-" || strings.HasPrefix(body, "- "):
		return p.seq(ind)
	case keyOf(body) != "":
		return p.mapping(ind)
	}
	p.pos++
	return scalarOrFlow(body)
}

func (p *yamlParser) mapping(ind int) (any, error) {
	m := map[string]any{}
	for p.skip(); p.pos < len(p.lines); p.skip() {
		l := p.lines[p.pos]
		if indentOf(l) < ind {
			break
		}
		if indentOf(l) > ind {
			return nil, p.errf("unexpected indentation")
		}
		body := stripComment(l[ind:])
		if body == "-" || strings.HasPrefix(body, "- ") {
			break
		}
		key := keyOf(body)
		if key == "" {
			return nil, p.errf("expected \"key: value\", got %q", body)
		}
		if _, dup := m[key]; dup {
			return nil, p.errf("duplicate key %q", key)
		}
		rest := strings.TrimSpace(body[len(key)+1:])
		key = unquoteKey(key)
		p.pos++
		var v any
		var err error
		switch {
		case rest == "":
			// The value is the block below: indented more, or a sequence
			// at the key's own indentation.
			p.skip()
			if p.pos < len(p.lines) && indentOf(p.lines[p.pos]) == ind {
				if b := strings.TrimSpace(p.lines[p.pos]); b == "-" || strings.HasPrefix(b, "- ") {
					v, err = p.seq(ind)
					break
				}
			}
			v, err = p.node(ind + 1)
		case rest == "|" || rest == "|-":
			v, err = p.literal(ind, rest == "|-")
		default:
			v, err = scalarOrFlow(rest)
		}
		if err != nil {
			return nil, fmtLine(p, err)
		}
		m[key] = v
	}
	return m, nil
}

func (p *yamlParser) seq(ind int) (any, error) {
	var s []any
	for p.skip(); p.pos < len(p.lines); p.skip() {
		l := p.lines[p.pos]
		if indentOf(l) != ind {
			if indentOf(l) > ind {
				return nil, p.errf("unexpected indentation")
			}
			break
		}
		body := stripComment(l[ind:])
		if body != "-" && !strings.HasPrefix(body, "- ") {
			break
		}
		rest := strings.TrimLeft(body[1:], " ")
		var v any
		var err error
		switch {
		case rest == "":
			p.pos++
			v, err = p.node(ind + 1)
		case rest == "|" || rest == "|-":
			p.pos++
			v, err = p.literal(ind, rest == "|-")
		case rest == "-" || strings.HasPrefix(rest, "- "):
			return nil, p.errf("a sequence in a sequence on one line is beyond this decoder")
		case keyOf(rest) != "":
			// "- key: value": a mapping whose keys line up after the dash.
			col := ind + (len(body) - len(rest))
			p.lines[p.pos] = strings.Repeat(" ", col) + l[col:]
			v, err = p.mapping(col)
		default:
			p.pos++
			v, err = scalarOrFlow(rest)
		}
		if err != nil {
			return nil, fmtLine(p, err)
		}
		s = append(s, v)
	}
	return s, nil
}

// literal reads a block scalar below a line indented ind: | keeps one final
// newline, |- none.
func (p *yamlParser) literal(ind int, strip bool) (any, error) {
	var out []string
	block := -1
	for ; p.pos < len(p.lines); p.pos++ {
		l := p.lines[p.pos]
		if strings.TrimSpace(l) == "" {
			out = append(out, "")
			continue
		}
		if indentOf(l) <= ind {
			break
		}
		if block < 0 {
			block = indentOf(l)
		}
		if indentOf(l) < block {
			return nil, p.errf("block scalar line indented less than its first line")
		}
		out = append(out, l[block:])
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	s := strings.Join(out, "\n")
	if !strip && s != "" {
		s += "\n"
	}
	return s, nil
}

func fmtLine(p *yamlParser, err error) error {
	if strings.HasPrefix(err.Error(), p.file+":") {
		return err
	}
	return fmt.Errorf("%s:%d: %v", p.file, p.pos, err)
}

// keyOf returns the key of a "key: value" or "key:" line, or "".
func keyOf(body string) string {
	if body == "" || strings.ContainsRune("[{\"'|>&*!", rune(body[0])) {
		if body != "" && (body[0] == '"' || body[0] == '\'') {
			end := strings.IndexByte(body[1:], body[0])
			if end >= 0 && strings.HasPrefix(body[end+2:], ":") &&
				(len(body) == end+3 || body[end+3] == ' ') {
				return body[:end+2]
			}
		}
		return ""
	}
	i := strings.Index(body, ": ")
	if strings.HasSuffix(body, ":") && (i < 0 || i == len(body)-1) {
		i = len(body) - 1
	}
	if i <= 0 {
		return ""
	}
	return body[:i]
}

func unquoteKey(k string) string {
	if v, err := scalar(k); err == nil {
		if s, ok := v.(string); ok {
			return s
		}
	}
	return k
}

// stripComment removes a trailing comment (a # at the start or after a
// space, outside quotes) and trailing spaces.
func stripComment(s string) string {
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == '\\' && q == '"' {
				i++
			} else if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '#' && (i == 0 || s[i-1] == ' '):
			return strings.TrimRight(s[:i], " ")
		}
	}
	return strings.TrimRight(s, " ")
}

func scalarOrFlow(s string) (any, error) {
	if s != "" && (s[0] == '{' || s[0] == '[') {
		f := &flow{s: s}
		v, err := f.value()
		if err != nil {
			return nil, err
		}
		if f.skipSpace(); f.i != len(f.s) {
			return nil, fmt.Errorf("trailing %q after a flow collection", f.s[f.i:])
		}
		return v, nil
	}
	if strings.Contains(s, ": ") && s[0] != '"' && s[0] != '\'' {
		return nil, fmt.Errorf("%q: a plain scalar cannot hold \": \" (quote it)", s)
	}
	if s != "" && strings.ContainsRune("&*!>%@`", rune(s[0])) {
		return nil, fmt.Errorf("%q: anchors, aliases, tags and folded scalars are beyond this decoder", s)
	}
	return scalar(s)
}

var (
	yamlInt   = regexp.MustCompile(`^[-+]?(0|[1-9][0-9]*)$`)
	yamlFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
)

// scalar resolves one scalar.
func scalar(s string) (any, error) {
	switch {
	case strings.HasPrefix(s, `"`):
		if len(s) < 2 || !strings.HasSuffix(s, `"`) {
			return nil, fmt.Errorf("unterminated string %s", s)
		}
		return strconv.Unquote(s)
	case strings.HasPrefix(s, "'"):
		if len(s) < 2 || !strings.HasSuffix(s, "'") {
			return nil, fmt.Errorf("unterminated string %s", s)
		}
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'"), nil
	}
	switch strings.ToLower(s) {
	case "", "~", "null":
		return nil, nil
	case "true", "yes", "on", "y":
		return true, nil
	case "false", "no", "off", "n":
		return false, nil
	}
	if yamlInt.MatchString(s) {
		return strconv.ParseInt(s, 10, 64)
	}
	if yamlFloat.MatchString(s) && strings.ContainsAny(s, ".eE") {
		return strconv.ParseFloat(s, 64)
	}
	return s, nil
}

// flow parses a one-line flow collection.
type flow struct {
	s string
	i int
}

func (f *flow) skipSpace() {
	for f.i < len(f.s) && f.s[f.i] == ' ' {
		f.i++
	}
}

func (f *flow) value() (any, error) {
	f.skipSpace()
	if f.i >= len(f.s) {
		return nil, fmt.Errorf("%q: flow collection cut short", f.s)
	}
	switch f.s[f.i] {
	case '[':
		f.i++
		var out []any
		for {
			if f.skipSpace(); f.i < len(f.s) && f.s[f.i] == ']' {
				f.i++
				return out, nil
			}
			v, err := f.value()
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			if err := f.sep(']'); err != nil {
				return nil, err
			}
		}
	case '{':
		f.i++
		out := map[string]any{}
		for {
			if f.skipSpace(); f.i < len(f.s) && f.s[f.i] == '}' {
				f.i++
				return out, nil
			}
			key, err := f.key()
			if err != nil {
				return nil, err
			}
			if f.skipSpace(); f.i >= len(f.s) || f.s[f.i] != ':' {
				return nil, fmt.Errorf("%q: expected \":\" after key %q", f.s, key)
			}
			f.i++
			v, err := f.value()
			if err != nil {
				return nil, err
			}
			if _, dup := out[key]; dup {
				return nil, fmt.Errorf("%q: duplicate key %q", f.s, key)
			}
			out[key] = v
			if err := f.sep('}'); err != nil {
				return nil, err
			}
		}
	case '"', '\'':
		q := f.s[f.i]
		j := f.i + 1
		for ; j < len(f.s); j++ {
			if f.s[j] == '\\' && q == '"' {
				j++
			} else if f.s[j] == q {
				if q == '\'' && j+1 < len(f.s) && f.s[j+1] == '\'' {
					j++
					continue
				}
				break
			}
		}
		if j >= len(f.s) {
			return nil, fmt.Errorf("%q: unterminated string", f.s)
		}
		v, err := scalar(f.s[f.i : j+1])
		f.i = j + 1
		return v, err
	}
	j := f.i
	for j < len(f.s) && !strings.ContainsRune(",]}", rune(f.s[j])) &&
		!(f.s[j] == ':' && (j+1 == len(f.s) || f.s[j+1] == ' ')) {
		j++
	}
	v, err := scalar(strings.TrimSpace(f.s[f.i:j]))
	f.i = j
	return v, err
}

// key reads a flow mapping's key: a quoted string, or plain text taken as
// it is (a key is a name: "y" stays "y").
func (f *flow) key() (string, error) {
	f.skipSpace()
	if f.i < len(f.s) && (f.s[f.i] == '"' || f.s[f.i] == '\'') {
		v, err := f.value()
		if err != nil {
			return "", err
		}
		return v.(string), nil
	}
	j := f.i
	for j < len(f.s) && !strings.ContainsRune(",:[]{}", rune(f.s[j])) {
		j++
	}
	k := strings.TrimSpace(f.s[f.i:j])
	if k == "" {
		return "", fmt.Errorf("%q: empty key at column %d", f.s, f.i+1)
	}
	f.i = j
	return k, nil
}

// sep consumes a "," or the closing bracket (left for the caller).
func (f *flow) sep(closing byte) error {
	f.skipSpace()
	switch {
	case f.i < len(f.s) && f.s[f.i] == ',':
		f.i++
		return nil
	case f.i < len(f.s) && f.s[f.i] == closing:
		return nil
	}
	return fmt.Errorf("%q: expected \",\" or %q at column %d", f.s, closing, f.i+1)
}

func TestYAMLSubset(t *testing.T) {
	doc := `# c
a: 1   # int
b: "1"
c: on
d: {x: [1, "two", 'thr''ee'], y: 8Gi}
e:
  - name: nm
    v: |
      line one
        two # kept
    w: |-
      x
  - [3]
  - plain words
f:
- g
`
	v, err := parseYAML("doc", doc)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"a": int64(1), "b": "1", "c": true,
		"d": map[string]any{"x": []any{int64(1), "two", "thr'ee"}, "y": "8Gi"},
		"e": []any{
			map[string]any{"name": "nm", "v": "line one\n  two # kept\n", "w": "x"},
			[]any{int64(3)},
			"plain words",
		},
		"f": []any{"g"},
	}
	if fmt.Sprint(v) != fmt.Sprint(want) {
		t.Fatalf("got  %v\nwant %v", v, want)
	}
	for _, bad := range []string{"a: 1\na: 2\n", "a:\n\tb: 1\n", "a: b: c\n", "a: [1, 2\n", "a: &x 1\n", "a: 1\n---\nb: 2\n", "a:\n  b: 1\n c: 2\n", "a:\n  - - 1\n"} {
		if _, err := parseYAML("bad", bad); err == nil {
			t.Errorf("%q parsed without an error", bad)
		}
	}
}
