package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/graphalloc/graphalloc/alloc"
)

// Partial is a run's file read back: from JSON, or from JSON lines,
// complete or cut short by an interruption.
type Partial struct {
	Config   Config
	Trials   []alloc.Result
	Complete bool  // the file ends with its summary
	Valid    int64 // bytes up to the end of the last complete line (JSON lines)
}

// ReadFile reads a run's file (JSON or JSON lines) from path.
func ReadFile(path string) (*Partial, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, b)
}

// Parse parses the file b, named name in errors. A JSON-lines file may end
// in a partial line, left by a run killed mid-write: it is ignored, and
// Valid says where the complete lines end.
func Parse(name string, b []byte) (*Partial, error) {
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) == 0 {
		return nil, fmt.Errorf("%s: empty file, not the output of graphalloc run", name)
	}
	if err := csvOrTable(name, b); err != nil {
		return nil, err
	}
	// JSON lines are compact objects whose first key is config, trial or
	// summary; a JSON file is one indented object.
	if !bytes.HasPrefix(trimmed, []byte(`{"`)) {
		var v File
		if err := json.NewDecoder(bytes.NewReader(b)).Decode(&v); err != nil {
			return nil, fmt.Errorf("%s: not the JSON output of graphalloc run: %v", name, err)
		}
		if v.Config.Version == "" {
			return nil, fmt.Errorf("%s: no config in the file", name)
		}
		return &Partial{Config: v.Config, Trials: v.Trials, Complete: true, Valid: int64(len(b))}, nil
	}
	p := &Partial{}
	seenConfig := false
	line := 0
	for off := 0; off < len(b); {
		end := bytes.IndexByte(b[off:], '\n')
		if end < 0 {
			break // a partial last line: the run was killed mid-write
		}
		text := b[off : off+end]
		off += end + 1
		line++
		if len(bytes.TrimSpace(text)) == 0 {
			p.Valid = int64(off)
			continue
		}
		var v struct {
			Config  *Config         `json:"config"`
			Trial   *alloc.Result   `json:"trial"`
			Summary json.RawMessage `json:"summary"`
		}
		if err := json.Unmarshal(text, &v); err != nil {
			return nil, fmt.Errorf("%s:%d: not a line of graphalloc run -f jsonl: %v", name, line, err)
		}
		switch {
		case v.Config != nil:
			if seenConfig {
				return nil, fmt.Errorf("%s:%d: a second config line", name, line)
			}
			p.Config, seenConfig = *v.Config, true
		case v.Trial != nil:
			if !seenConfig {
				return nil, fmt.Errorf("%s:%d: a trial before the config line", name, line)
			}
			p.Trials = append(p.Trials, *v.Trial)
		case v.Summary != nil:
			p.Complete = true
		default:
			return nil, fmt.Errorf("%s:%d: expected a config, trial or summary object", name, line)
		}
		p.Valid = int64(off)
	}
	if !seenConfig {
		return nil, fmt.Errorf("%s: no config line, not the output of graphalloc run", name)
	}
	return p, nil
}

// SplitDone returns the results among prev of the given trials, in trial
// order, and the trials prev does not hold.
func SplitDone(trials []int, prev []alloc.Result) (done []alloc.Result, todo []int) {
	have := make(map[int]alloc.Result, len(prev))
	for _, r := range prev {
		have[r.Trial] = r
	}
	for _, t := range trials {
		if r, ok := have[t]; ok {
			done = append(done, r)
		} else {
			todo = append(todo, t)
		}
	}
	return done, todo
}

// Merge merges the files of the shards of one run, named by paths, into
// the file of the whole run, its summary recomputed over every trial. The
// files must hold every trial once, unless partial is set.
func Merge(paths []string, partial bool) (*File, error) {
	var head Config
	byTrial := map[int]alloc.Result{}
	from := map[int]string{}
	for i, p := range paths {
		rf, err := ReadFile(p)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			head = rf.Config
		} else if err := SameRun(head, rf.Config); err != nil {
			return nil, fmt.Errorf("%s and %s are not shards of one run: %v", paths[0], p, err)
		}
		for _, r := range rf.Trials {
			if q, dup := from[r.Trial]; dup {
				return nil, fmt.Errorf("trial %d is in both %s and %s", r.Trial, q, p)
			}
			byTrial[r.Trial], from[r.Trial] = r, p
		}
	}
	head.Shard = ""
	var missing []string
	for t := range head.Trials {
		if _, ok := byTrial[t]; !ok {
			missing = append(missing, fmt.Sprint(t))
		}
	}
	if len(missing) > 0 && !partial {
		if len(missing) > 10 {
			missing = append(missing[:10], "...")
		}
		return nil, fmt.Errorf("the files hold %d of %d trials; missing %s (use --partial to merge anyway)",
			len(byTrial), head.Trials, strings.Join(missing, ","))
	}
	trials := make([]alloc.Result, 0, len(byTrial))
	for _, r := range byTrial {
		if r.Trial < 0 || r.Trial >= head.Trials {
			return nil, fmt.Errorf("%s holds trial %d of a run of %d trials", from[r.Trial], r.Trial, head.Trials)
		}
		trials = append(trials, r)
	}
	slices.SortFunc(trials, func(a, b alloc.Result) int { return a.Trial - b.Trial })
	sum, err := Summarize(head, trials)
	if err != nil {
		return nil, err
	}
	return &File{Config: head, Trials: trials, Summary: sum}, nil
}

// Reopen cuts the file at path to n bytes (Partial.Valid: the end of its
// last complete line) and returns it opened for appending: how an
// interrupted JSON-lines file is continued.
func Reopen(path string, n int64) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(n); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// SameFile reports whether two paths name the same file.
func SameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
