package results

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
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
	// ByDegree is the summary's by_degree, if the file has one.
	ByDegree []DegreeStat
}

// ReadFile reads a run's file (JSON or JSON lines) from path, within
// InputLimit (ReadInput).
func ReadFile(ctx context.Context, path string) (*Partial, error) {
	b, err := ReadInput(ctx, path, InputLimit())
	if err != nil {
		return nil, err
	}
	return Parse(path, b)
}

// Parse parses the file b, named name in errors. A JSON-lines file may end
// in a partial line, left by a run killed mid-write: it is ignored, and
// Valid says where the complete lines end. A trial the file's run does
// not hold (outside its trials or its shard), or a trial given twice, is
// an error: resuming or merging such a file would count a trial twice or
// keep one that is not the run's.
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
		var v struct {
			File
			Delete *string `json:"delete"` // set in a DynamicFile
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%s: not the JSON output of graphalloc run: %v", name, err)
		}
		if v.Delete != nil {
			return nil, fmt.Errorf("%s: %s", name, errDynamic)
		}
		if dec.More() {
			return nil, fmt.Errorf("%s: more after the JSON object: a run's JSON file holds one (two files joined?)", name)
		}
		if v.Config.Version == "" {
			return nil, fmt.Errorf("%s: no config in the file", name)
		}
		tc := newTrialCheck(v.Config, "entry")
		for i, r := range v.Trials {
			if err := tc.add(r, i+1); err != nil {
				return nil, fmt.Errorf("%s: %v", name, err)
			}
		}
		return &Partial{Config: v.Config, Trials: v.Trials, Complete: true, Valid: int64(len(b)), ByDegree: v.Summary.ByDegree}, nil
	}
	p := &Partial{}
	seenConfig := false
	var tc trialCheck
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
			var dyn struct {
				Trial  json.Number `json:"trial"` // a DynamicResult's trial is a number
				Delete *string     `json:"delete"`
			}
			if json.Unmarshal(text, &dyn) == nil && (dyn.Trial != "" || dyn.Delete != nil) {
				return nil, fmt.Errorf("%s:%d: %s", name, line, errDynamic)
			}
			return nil, fmt.Errorf("%s:%d: not a line of graphalloc run -f jsonl: %v", name, line, err)
		}
		switch {
		case v.Config != nil:
			if seenConfig {
				return nil, fmt.Errorf("%s:%d: a second config line", name, line)
			}
			p.Config, seenConfig = *v.Config, true
			tc = newTrialCheck(p.Config, "line")
		case v.Trial != nil:
			if !seenConfig {
				return nil, fmt.Errorf("%s:%d: a trial before the config line", name, line)
			}
			if err := tc.add(*v.Trial, line); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, line, err)
			}
			p.Trials = append(p.Trials, *v.Trial)
		case v.Summary != nil:
			p.Complete = true
			var sum struct {
				ByDegree []DegreeStat `json:"by_degree"`
			}
			if err := json.Unmarshal(v.Summary, &sum); err != nil {
				return nil, fmt.Errorf("%s:%d: the summary's by_degree: %v", name, line, err)
			}
			p.ByDegree = sum.ByDegree
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

// errDynamic refuses the file of a run with deletions, whose trials
// (alloc.DynamicResult) merge and --resume do not read.
var errDynamic = errors.New("a run with deletions (run --delete): merge and --resume read runs without deletions only")

// trialCheck checks the trial numbers of one run's file as they are read.
type trialCheck struct {
	trials   int         // the run's trials
	n, m     int64       // its bins and balls
	shard, k int         // its shard, I of K (0 of 1 unsharded)
	seen     map[int]int // trial → the line (or entry) it was first at
	unit     string      // "line" or "entry"
}

func newTrialCheck(c Config, unit string) trialCheck {
	i, k, err := shardOf(c.Shard)
	if err != nil {
		i, k = 0, 1 // an unknown shard: check the range alone
	}
	return trialCheck{trials: c.Trials, n: c.N, m: c.M, shard: i, k: k, seen: map[int]int{}, unit: unit}
}

// add records trial r, found at the at-th line (JSON lines) or entry
// (JSON), refusing a trial outside the run or its shard, seen before, or
// whose load counts are not over the run's n bins (a trial of another
// run).
func (tc trialCheck) add(r alloc.Result, at int) error {
	t := r.Trial
	if err := countsAgree(r); err != nil {
		return fmt.Errorf("trial %d: %v", t, err)
	}
	var bins int64
	for _, c := range r.LoadCounts {
		bins += c
	}
	switch first, dup := tc.seen[t]; {
	case r.LoadCounts != nil && bins != tc.n:
		return fmt.Errorf("trial %d counts %d bins, the run has n=%d: a trial of another run", t, bins, tc.n)
	case t < 0 || t >= tc.trials:
		return fmt.Errorf("trial %d, in a run of %d trials (0..%d)", t, tc.trials, tc.trials-1)
	case t%tc.k != tc.shard:
		return fmt.Errorf("trial %d is not of shard %d/%d, whose file this is", t, tc.shard, tc.k)
	case dup:
		return fmt.Errorf("trial %d a second time (first at %s %d): a run's file holds each trial once", t, tc.unit, first)
	}
	tc.seen[t] = at
	return nil
}

// countsAgree checks a trial's scalars against themselves and its load
// counts: no negative load or count, min ≤ max, and where the counts are
// given, max and min the highest and lowest loads they hold. A trial that
// fails was edited or damaged, and merging it would print a wrong figure.
func countsAgree(r alloc.Result) error {
	if !(r.MinLoad >= 0 && r.MinLoad <= r.MaxLoad) || math.IsInf(r.MaxLoad, 0) {
		return fmt.Errorf("max load %v and min load %v: want 0 <= min <= max", r.MaxLoad, r.MinLoad)
	}
	if r.LoadCounts == nil {
		return nil
	}
	lo, hi := -1, -1
	for i, c := range r.LoadCounts {
		if c < 0 {
			return fmt.Errorf("load_counts[%d] = %d is negative", i, c)
		}
		if c > 0 {
			if lo < 0 {
				lo = i
			}
			hi = i
		}
	}
	if float64(hi) != r.MaxLoad || float64(lo) != r.MinLoad {
		return fmt.Errorf("max load %v and min load %v, but its load counts hold loads %d to %d", r.MaxLoad, r.MinLoad, lo, hi)
	}
	return nil
}

// shardOf reads the shard "I/K" a file's config records (0 <= I < K);
// "" is the whole run, 0 of 1.
func shardOf(s string) (i, k int, err error) {
	if s == "" {
		return 0, 1, nil
	}
	var rest string
	if n, _ := fmt.Sscanf(s, "%d/%d%s", &i, &k, &rest); n != 2 || k < 1 || i < 0 || i >= k {
		return 0, 0, fmt.Errorf("want a shard I/K with 0 <= I < K, got %q", s)
	}
	return i, k, nil
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

// ResumeRun reads path, an earlier output of the run whose config is
// head, and splits trials into the results it holds (done) and the trials
// to run (todo); prev is the file read, nil when path is "" (then every
// trial is to run). A file of another run is an error.
func ResumeRun(ctx context.Context, path string, head Config, trials []int) (prev *Partial, done []alloc.Result, todo []int, err error) {
	if path == "" {
		return nil, nil, trials, nil
	}
	if prev, err = ReadFile(ctx, path); err != nil {
		return nil, nil, nil, err
	}
	if err := SameRun(prev.Config, head); err != nil {
		return nil, nil, nil, fmt.Errorf("%s is the output of another run: %v", path, err)
	}
	done, todo = SplitDone(trials, prev.Trials)
	return prev, done, todo, nil
}

// mergeRun merges the files of the shards of one run into the file of the
// whole run, its summary recomputed over every trial. The files must hold
// every trial once, unless partial is set.
func mergeRun(in *inputs, partial bool) (*File, error) {
	var head Config
	byTrial := map[int]alloc.Result{}
	from := map[int]string{}
	var shards, cut []string
	var byDegree [][]DegreeStat
	for i, p := range in.paths {
		b, err := in.read(i)
		if err != nil {
			return nil, err
		}
		rf, err := Parse(p, b)
		if err != nil {
			return nil, err
		}
		shards = append(shards, rf.Config.Shard)
		if len(rf.ByDegree) > 0 && rf.ByDegree[0].Trials == len(rf.Trials) {
			byDegree = append(byDegree, rf.ByDegree)
		}
		if !rf.Complete {
			cut = append(cut, p)
		}
		if i == 0 {
			head = rf.Config
		} else if err := SameRun(head, rf.Config); err != nil {
			return nil, fmt.Errorf("%s and %s are not shards of one run: %v", in.paths[0], p, err)
		}
		for _, r := range rf.Trials {
			if q, dup := from[r.Trial]; dup {
				return nil, fmt.Errorf("trial %d is in both %s and %s", r.Trial, q, p)
			}
			byTrial[r.Trial], from[r.Trial] = r, p
		}
	}
	head.Shard = ""
	// A config may claim any number of trials: name the first ten missing
	// without listing the rest.
	var missing []string
	for t := 0; t < head.Trials && len(byTrial)+len(missing) < head.Trials; t++ {
		if _, ok := byTrial[t]; ok {
			continue
		}
		if len(missing) == 10 {
			missing = append(missing, "...")
			break
		}
		missing = append(missing, fmt.Sprint(t))
	}
	if len(missing) > 0 && !partial {
		return nil, fmt.Errorf("the files hold %d of %d trials; missing %s%s; --partial merges what is there",
			len(byTrial), head.Trials, strings.Join(missing, ","), whyMissing(shards, cut))
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
	// The load against the degree, if every file has it over its trials.
	if len(byDegree) == len(in.paths) {
		sum.ByDegree, _ = MergeByDegree(byDegree)
	}
	return &File{Config: head, Trials: trials, Summary: sum}, nil
}

// Merged is the merge of the files of a sharded run or grid: one of Run
// and Grid is set.
type Merged struct {
	Run  *File
	Grid *Grid
	// Short says how much of the run or grid a partial merge holds ("2
	// of 30 grid points"), "" when it holds all of it.
	Short string
}

// MergeFiles merges the files, named by paths, of the shards of one run or
// one grid, as the first file says, reading them all within InputLimit:
// a run's trials in order, its summary recomputed over all of them; a
// grid's points in the grid's order. The files must hold every trial or
// point once, unless partial is set. Reading stops when ctx is done.
func MergeFiles(ctx context.Context, paths []string, partial bool) (*Merged, error) {
	in := &inputs{ctx: ctx, paths: paths, left: InputLimit()}
	first, err := in.read(0)
	if err != nil {
		return nil, err
	}
	in.first = first
	if IsGrid(first) {
		g, err := mergeGrid(in, partial)
		if err != nil {
			return nil, err
		}
		m := &Merged{Grid: g}
		pts, _ := gridPoints(g.Config) // mergeGrid parsed its graphs
		if have, want := len(g.Points)+len(g.Skipped), len(pts); have < want {
			m.Short = fmt.Sprintf("%d of %d grid points", have, want)
		}
		return m, nil
	}
	f, err := mergeRun(in, partial)
	if err != nil {
		return nil, err
	}
	m := &Merged{Run: f}
	if len(f.Trials) < f.Config.Trials {
		m.Short = fmt.Sprintf("%d of %d trials", len(f.Trials), f.Config.Trials)
	}
	return m, nil
}

// Write writes the merged file in a format of Formats.
func (m *Merged) Write(w io.Writer, format string) error {
	if m.Grid != nil {
		return WriteGrid(w, format, m.Grid)
	}
	return Write(w, format, m.Run)
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
