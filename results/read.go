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
	Config Config
	// Trials are the trials of a run without deletions, Dynamic those of
	// a run with (Config.Delete set): one of the two is used.
	Trials   []alloc.Result
	Dynamic  []alloc.DynamicResult
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

// Parse parses the file b, named name in errors: of a run with deletions
// or without. A JSON-lines file may end in a partial line, left by a run
// killed mid-write: it is ignored, and Valid says where the complete lines
// end. A trial the file's run does not hold (outside its trials or its
// shard), or a trial given twice, is an error: resuming or merging such a
// file would count a trial twice or keep one that is not the run's.
func Parse(name string, b []byte) (*Partial, error) {
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) == 0 {
		return nil, fmt.Errorf("%s: empty file, not the output of graphalloc run", name)
	}
	if err := csvOrTable(name, b); err != nil {
		return nil, err
	}
	if IsQueue(b) {
		return nil, fmt.Errorf("%s is the output of graphalloc queue, not of run (queue --resume and merge with the other shards of its run read it)", name)
	}
	// JSON lines are compact objects whose first key is config, trial or
	// summary; a JSON file is one indented object.
	if !bytes.HasPrefix(trimmed, []byte(`{"`)) {
		return parseJSON(name, b)
	}
	p := &Partial{}
	var tc *trialCheck // set by the config line
	valid, line, err := eachLine(b, func(text []byte, line int) error { return p.addLine(text, line, &tc) })
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line, err)
	}
	if tc == nil {
		return nil, fmt.Errorf("%s: no config line, not the output of graphalloc run", name)
	}
	p.Valid = valid
	return p, nil
}

// eachLine calls add with each complete line of b that is not blank and
// its number (from 1), and returns the bytes up to the end of the last
// complete line: a partial last line, left by a run killed mid-write, is
// not read. An error of add comes back with its line's number.
func eachLine(b []byte, add func(text []byte, line int) error) (valid int64, line int, err error) {
	for text := range bytes.Lines(b) {
		if text[len(text)-1] != '\n' {
			break
		}
		line++
		if len(bytes.TrimSpace(text)) > 0 {
			if err := add(text, line); err != nil {
				return valid, line, err
			}
		}
		valid += int64(len(text))
	}
	return valid, line, nil
}

// addLine adds the line-th line, text, of a run's JSON lines to p; *tc
// checks the trials once the config line is read.
func (p *Partial) addLine(text []byte, line int, tc **trialCheck) error {
	var v struct {
		Config  *Config         `json:"config"`
		Trial   json.RawMessage `json:"trial"`
		Summary json.RawMessage `json:"summary"`
	}
	if err := json.Unmarshal(text, &v); err != nil {
		return fmt.Errorf("not a line of graphalloc run -f jsonl: %v", err)
	}
	v.Trial, v.Summary = nonNull(v.Trial), nonNull(v.Summary)
	switch {
	case v.Config != nil && *tc != nil:
		return errors.New("a second config line")
	case v.Config != nil:
		p.Config = *v.Config
		c := newTrialCheck(p.Config, "line")
		*tc = &c
	case v.Trial != nil && *tc == nil:
		return errors.New("a trial before the config line")
	case v.Trial != nil:
		return p.addTrial(**tc, v.Trial, line)
	case v.Summary != nil:
		p.Complete = true
		var sum struct {
			ByDegree []DegreeStat `json:"by_degree"`
		}
		if err := json.Unmarshal(v.Summary, &sum); err != nil {
			return fmt.Errorf("the summary's by_degree: %v", err)
		}
		p.ByDegree = sum.ByDegree
	default:
		return errors.New("expected a config, trial or summary object")
	}
	return nil
}

// nonNull is m, or nil when it is JSON's null: a key given as null is a
// key not given.
func nonNull(m json.RawMessage) json.RawMessage {
	if string(bytes.TrimSpace(m)) == "null" {
		return nil
	}
	return m
}

// parseJSON parses b, a run's file in JSON (Parse).
func parseJSON(name string, b []byte) (*Partial, error) {
	var v struct {
		Config  Config            `json:"config"`
		Trials  []json.RawMessage `json:"trials"`
		Summary struct {
			ByDegree []DegreeStat `json:"by_degree"`
		} `json:"summary"`
		Delete *string `json:"delete"` // a run with deletions as version 0.1.0 wrote it
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%s: not the JSON output of graphalloc run: %v", name, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: more after the JSON object: a run's JSON file holds one (two files joined?)", name)
	}
	if v.Delete != nil {
		return nil, fmt.Errorf("%s: a run with deletions written before its config held the model: rerun it", name)
	}
	if v.Config.Version == "" {
		return nil, fmt.Errorf("%s: no config in the file", name)
	}
	p := &Partial{Config: v.Config, Complete: true, Valid: int64(len(b)), ByDegree: v.Summary.ByDegree}
	tc := newTrialCheck(v.Config, "entry")
	for i, raw := range v.Trials {
		if err := p.addTrial(tc, raw, i+1); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	return p, nil
}

// addTrial decodes raw, a trial found at the at-th line or entry, as a
// trial of p's run (with deletions or without), checks it (tc) and keeps
// it.
func (p *Partial) addTrial(tc trialCheck, raw json.RawMessage, at int) error {
	if p.Config.Delete != "" {
		var r alloc.DynamicResult
		if err := strictTrial(raw, &r); err != nil {
			return err
		}
		if err := tc.addDynamic(r, at); err != nil {
			return err
		}
		p.Dynamic = append(p.Dynamic, r)
		return nil
	}
	var r alloc.Result
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("not a trial of this run: %v", err)
	}
	if err := tc.add(r, at); err != nil {
		return err
	}
	p.Trials = append(p.Trials, r)
	return nil
}

// strictTrial decodes a trial into r, refusing a field r does not have
// (a trial of a run without deletions in the file of a run with).
func strictTrial(raw json.RawMessage, r any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(r); err != nil {
		return fmt.Errorf("not a trial of this run: %v", err)
	}
	return nil
}

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
	if err := countsAgree(r); err != nil {
		return fmt.Errorf("trial %d: %v", r.Trial, err)
	}
	return tc.record(r.Trial, r.LoadCounts, at)
}

// addDynamic is add for a trial of a run with deletions: its max load,
// balls and largest values over the window must agree with its load
// counts, which hold the run's n bins.
func (tc trialCheck) addDynamic(r alloc.DynamicResult, at int) error {
	if err := dynamicAgree(r); err != nil {
		return fmt.Errorf("trial %d: %v", r.Trial, err)
	}
	return tc.record(r.Trial, r.LoadCounts, at)
}

// record records trial t whose load counts are counts (nil: not given).
func (tc trialCheck) record(t int, counts []int64, at int) error {
	var bins int64
	for _, c := range counts {
		bins += c
	}
	switch first, dup := tc.seen[t]; {
	case counts != nil && bins != tc.n:
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

// dynamicAgree checks a trial of a run with deletions against itself: its
// load counts are non-negative, the highest load they hold is its max
// load and their balls its balls, and the largest values over the window
// are at least the final ones. A trial that fails was edited or damaged.
func dynamicAgree(r alloc.DynamicResult) error {
	var balls int64
	top := -1
	for i, c := range r.LoadCounts {
		if c < 0 {
			return fmt.Errorf("a negative count of bins at load %d", i)
		}
		if c > 0 {
			top = i
		}
		balls += int64(i) * c
	}
	switch {
	case r.LoadCounts == nil:
		return fmt.Errorf("no load_counts")
	case int(r.MaxLoad) != top:
		return fmt.Errorf("max_load %d, but the highest load its counts hold is %d", r.MaxLoad, top)
	case balls != r.Balls:
		return fmt.Errorf("balls %d, but its counts hold %d", r.Balls, balls)
	case r.WindowMaxLoad < r.MaxLoad || r.MaxBalls < r.Balls || r.MaxDiscrepancy < r.Discrepancy || r.MaxOverload < r.Overload:
		return fmt.Errorf("a largest value over the window below its final value")
	}
	for _, v := range []float64{r.Discrepancy, r.Overload, r.MaxDiscrepancy, r.MaxOverload} {
		if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > math.MaxUint32 {
			return fmt.Errorf("a discrepancy or overload of %v, which no run gives", v)
		}
	}
	for i, p := range r.Series {
		if (i > 0 && p.Step <= r.Series[i-1].Step) || p.Balls < 0 || math.IsNaN(p.Discrepancy) || math.IsNaN(p.Overload) ||
			math.Abs(p.Discrepancy) > math.MaxUint32 || math.Abs(p.Overload) > math.MaxUint32 {
			return fmt.Errorf("its series point %d (step %d) is not a run's", i, p.Step)
		}
	}
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

// splitDone returns the trials among prev (num reads a trial's number)
// that are of the given trials, in trial order, and the given trials prev
// does not hold.
func splitDone[T any](trials []int, prev []T, num func(T) int) (done []T, todo []int) {
	have := make(map[int]T, len(prev))
	for _, r := range prev {
		have[num(r)] = r
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

func resultTrial(r alloc.Result) int         { return r.Trial }
func dynamicTrial(r alloc.DynamicResult) int { return r.Trial }

// ResumeRun reads path, an earlier output of the run whose config is head
// (a run with deletions or without), for Execute or ExecuteDynamic to
// keep the trials it holds; nil when path is "". A file of another run is
// an error.
func ResumeRun(ctx context.Context, path string, head Config) (*Partial, error) {
	if path == "" {
		return nil, nil
	}
	prev, err := ReadFile(ctx, path)
	if err != nil {
		return nil, err
	}
	if err := SameRun(prev.Config, head); err != nil {
		return nil, fmt.Errorf("%s is the output of another run: %v", path, err)
	}
	return prev, nil
}

// mergeRun merges the files of the shards of one run, with deletions or
// without, into the file of the whole run, its summary recomputed over
// every trial. The files must hold every trial once, unless partial is
// set.
func mergeRun(in *inputs, partial bool) (*Merged, error) {
	files, shards, cut, err := readShards(in, Parse, func(p *Partial) (Config, string, bool) { return p.Config, p.Config.Shard, p.Complete }, SameRun)
	if err != nil {
		return nil, err
	}
	head := files[0].Config
	var byDegree [][]DegreeStat
	var static [][]alloc.Result
	var dynamic [][]alloc.DynamicResult
	for _, rf := range files {
		if len(rf.ByDegree) > 0 && rf.ByDegree[0].Trials == len(rf.Trials) {
			byDegree = append(byDegree, rf.ByDegree)
		}
		static, dynamic = append(static, rf.Trials), append(dynamic, rf.Dynamic)
	}
	head.Shard = ""
	m := mergeShards{paths: in.paths, head: head, shards: shards, cut: cut, partial: partial}
	if head.Delete != "" {
		trials, err := mergeTrials(m, dynamic, dynamicTrial)
		if err != nil {
			return nil, err
		}
		f, err := NewDynamicFile(head, trials)
		return &Merged{Dynamic: f, Short: m.short(len(trials))}, err
	}
	trials, err := mergeTrials(m, static, resultTrial)
	if err != nil {
		return nil, err
	}
	sum, err := Summarize(head, trials)
	if err != nil {
		return nil, err
	}
	// The load against the degree, if every file has it over its trials.
	if len(byDegree) == len(in.paths) {
		sum.ByDegree, _ = MergeByDegree(byDegree)
	}
	return &Merged{Run: &File{Config: head, Trials: trials, Summary: sum}, Short: m.short(len(trials))}, nil
}

// readShards reads the files of in as the shards of one run (of run or of
// queue): parse reads a file, config gives its config, shard and whether
// it is complete, and same says how two configs differ (nil: one run's,
// but for the shard). It returns the files in order, each file's shard
// and the files cut short.
func readShards[P, C any](in *inputs, parse func(string, []byte) (P, error), config func(P) (C, string, bool), same func(a, b C) error) (files []P, shards, cut []string, err error) {
	var head C
	for i, path := range in.paths {
		b, err := in.read(i)
		if err != nil {
			return nil, nil, nil, err
		}
		f, err := parse(path, b)
		if err != nil {
			return nil, nil, nil, err
		}
		c, shard, complete := config(f)
		shards = append(shards, shard)
		if !complete {
			cut = append(cut, path)
		}
		if i == 0 {
			head = c
		} else if err := same(head, c); err != nil {
			return nil, nil, nil, fmt.Errorf("%s and %s are not shards of one run: %v", in.paths[0], path, err)
		}
		files = append(files, f)
	}
	return files, shards, cut, nil
}

// mergeShards are the shard files of one run read by mergeRun: their
// paths, the run's config, each file's shard, the files cut short, and
// whether a merge of some of the trials is asked for (--partial).
type mergeShards struct {
	paths, shards, cut []string
	head               Config
	partial            bool
}

// short says how many of the run's trials a partial merge of have holds,
// "" when it holds all.
func (m mergeShards) short(have int) string {
	if have < m.head.Trials {
		return fmt.Sprintf("%d of %d trials", have, m.head.Trials)
	}
	return ""
}

// mergeTrials merges the trials of the files (files[i] are those of
// m.paths[i]; num reads a trial's number) in trial order: a trial in two
// files, or outside the run, is an error, and so is a missing trial
// unless m.partial.
func mergeTrials[T any](m mergeShards, files [][]T, num func(T) int) ([]T, error) {
	byTrial := map[int]T{}
	from := map[int]string{}
	for i, rs := range files {
		for _, r := range rs {
			t := num(r)
			if q, dup := from[t]; dup {
				return nil, fmt.Errorf("trial %d is in both %s and %s", t, q, m.paths[i])
			}
			byTrial[t], from[t] = r, m.paths[i]
		}
	}
	// A config may claim any number of trials: name the first ten missing
	// without listing the rest.
	var missing []string
	for t := 0; t < m.head.Trials && len(byTrial)+len(missing) < m.head.Trials; t++ {
		if _, ok := byTrial[t]; ok {
			continue
		}
		if len(missing) == 10 {
			missing = append(missing, "...")
			break
		}
		missing = append(missing, fmt.Sprint(t))
	}
	if len(missing) > 0 && !m.partial {
		return nil, fmt.Errorf("the files hold %d of %d trials; missing %s%s; --partial merges what is there",
			len(byTrial), m.head.Trials, strings.Join(missing, ","), whyMissing(m.shards, m.cut))
	}
	trials := make([]T, 0, len(byTrial))
	for t, r := range byTrial {
		if t < 0 || t >= m.head.Trials {
			return nil, fmt.Errorf("%s holds trial %d of a run of %d trials", from[t], t, m.head.Trials)
		}
		trials = append(trials, r)
	}
	slices.SortFunc(trials, func(a, b T) int { return num(a) - num(b) })
	return trials, nil
}

// Merged is the merge of the files of a sharded run, grid or queue run:
// one of Run, Dynamic (a run with deletions), Grid and Queue is set.
type Merged struct {
	Run     *File
	Dynamic *DynamicFile
	Grid    *Grid
	Queue   *QueueFile
	// Short says how much of the run or grid a partial merge holds ("2
	// of 30 grid points"), "" when it holds all of it.
	Short string
}

// MergeFiles merges the files, named by paths, of the shards of one run,
// one grid or one queue run, as the first file says, reading them all
// within InputLimit: a run's trials in order, its summary recomputed over
// all of them (a queue run's: mergeQueue); a grid's points in the grid's
// order. The files must hold every trial or
// point once, unless partial is set. Reading stops when ctx is done.
func MergeFiles(ctx context.Context, paths []string, partial bool) (*Merged, error) {
	in := &inputs{ctx: ctx, paths: paths, left: InputLimit()}
	first, err := in.read(0)
	if err != nil {
		return nil, err
	}
	in.first = first
	if IsQueue(first) {
		return mergeQueue(in, partial)
	}
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
	return mergeRun(in, partial)
}

// Write writes the merged file in a format of Formats.
func (m *Merged) Write(w io.Writer, format string) error {
	switch {
	case m.Grid != nil:
		return WriteGrid(w, format, m.Grid)
	case m.Dynamic != nil:
		return WriteDynamic(w, format, m.Dynamic)
	case m.Queue != nil:
		return WriteQueue(w, format, m.Queue)
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
