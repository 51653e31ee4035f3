package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/graphalloc/graphalloc/alloc"
)

// renderRun renders a whole run in one of the formats of run: the output
// of an uninterrupted run, of a resumed one and of merge all come from here.
func renderRun(format string, head runConfig, results []alloc.Result, sum runSummary) ([]byte, error) {
	var buf bytes.Buffer
	switch format {
	case "jsonl":
		w := bufio.NewWriter(&buf)
		if err := writeJSONLine(w, map[string]any{"config": head}); err != nil {
			return nil, err
		}
		for _, r := range results {
			if err := writeJSONLine(w, map[string]any{"trial": r}); err != nil {
				return nil, err
			}
		}
		if err := writeJSONLine(w, map[string]any{"summary": sum}); err != nil {
			return nil, err
		}
	case "json":
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		if err := enc.Encode(runJSON{Config: head, Trials: results, Summary: sum}); err != nil {
			return nil, err
		}
	case "csv":
		writeRunCSV(&buf, results)
	default:
		writeRunTable(&buf, head, results, sum)
	}
	return buf.Bytes(), nil
}

// runFile is a run's output read back: from -f json, or from -f jsonl,
// complete or cut short by an interruption.
type runFile struct {
	Config   runConfig
	Trials   []alloc.Result
	Complete bool  // the file ends with its summary
	Valid    int64 // bytes up to the end of the last complete line (jsonl)
}

// readRunFile reads the output of run (json or jsonl) from path. A jsonl
// file may end in a partial line, left by a run killed mid-write: it is
// ignored, and Valid says where the complete lines end.
func readRunFile(path string) (*runFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseRunFile(path, b)
}

func parseRunFile(name string, b []byte) (*runFile, error) {
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) == 0 {
		return nil, fmt.Errorf("%s: empty file, not the output of graphalloc run", name)
	}
	// jsonl lines are compact objects whose first key is config, trial or
	// summary; a -f json file is one indented object.
	if !bytes.HasPrefix(trimmed, []byte(`{"`)) {
		var v runJSON
		dec := json.NewDecoder(bytes.NewReader(b))
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%s: not the JSON output of graphalloc run: %v", name, err)
		}
		if v.Config.Version == "" {
			return nil, fmt.Errorf("%s: no config in the file", name)
		}
		return &runFile{Config: v.Config, Trials: v.Trials, Complete: true, Valid: int64(len(b))}, nil
	}
	rf := &runFile{}
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
			rf.Valid = int64(off)
			continue
		}
		var v struct {
			Config  *runConfig      `json:"config"`
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
			rf.Config, seenConfig = *v.Config, true
		case v.Trial != nil:
			if !seenConfig {
				return nil, fmt.Errorf("%s:%d: a trial before the config line", name, line)
			}
			rf.Trials = append(rf.Trials, *v.Trial)
		case v.Summary != nil:
			rf.Complete = true
		default:
			return nil, fmt.Errorf("%s:%d: expected a config, trial or summary object", name, line)
		}
		rf.Valid = int64(off)
	}
	if !seenConfig {
		return nil, fmt.Errorf("%s: no config line, not the output of graphalloc run", name)
	}
	return rf, nil
}

// sameRun reports, as an error naming the first difference, whether two
// configs describe the same run up to the shard.
func sameRun(a, b runConfig) error {
	a.Shard, b.Shard = "", ""
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if bytes.Equal(ja, jb) {
		return nil
	}
	var ma, mb map[string]any
	json.Unmarshal(ja, &ma)
	json.Unmarshal(jb, &mb)
	for k, va := range ma {
		if fmt.Sprint(va) != fmt.Sprint(mb[k]) {
			return fmt.Errorf("%s differs (%v against %v)", k, va, mb[k])
		}
	}
	for k, vb := range mb {
		if _, ok := ma[k]; !ok {
			return fmt.Errorf("%s differs (unset against %v)", k, vb)
		}
	}
	return errors.New("configs differ")
}

// truncateTo cuts the file at path to n bytes and returns it opened for
// appending.
func truncateTo(path string, n int64) (*os.File, error) {
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

// splitDone returns the results among prev of the given trials, in trial
// order, and the trials prev does not hold.
func splitDone(trials []int, prev []alloc.Result) (done []alloc.Result, todo []int) {
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

// sameFile reports whether two paths name the same file.
func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
