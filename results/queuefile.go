package results

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/queue"
	"github.com/graphalloc/graphalloc/study"
)

// The file of `graphalloc queue` read back: to continue it (queue
// --resume), to merge the files of its shards (merge) and to draw it
// (plot). Its trials are checked as a run's are (trialCheck); a merge's
// summary is rebuilt from the config alone (QueueConfig.Queue, SummaryOf).

// IsQueue reports whether b is the JSON or JSON-lines file of a queue
// run: its config has lambda.
func IsQueue(b []byte) bool {
	var v struct {
		Config struct {
			Lambda *float64 `json:"lambda"`
		} `json:"config"`
	}
	return readConfig(b, &v) && v.Config.Lambda != nil
}

// QueuePartial is a queue run's file read back: from JSON, or from JSON
// lines, complete or cut short by an interruption.
type QueuePartial struct {
	// File is the config and trials; its summary is the file's, the zero
	// value when the file is cut short.
	File     QueueFile
	Complete bool  // JSON, or JSON lines that end with the summary
	Valid    int64 // bytes up to the end of the last complete line (JSON lines)
}

// at is where p stops, for openLines.
func (p *QueuePartial) at() resumePoint {
	if p == nil {
		return resumePoint{}
	}
	return resumePoint{!p.Complete, p.Valid}
}

// ParseQueue parses the file b of a queue run, named name in errors. A
// JSON-lines file may end in a partial line, left by a run killed
// mid-write: it is ignored, and Valid says where the complete lines end.
// A trial that is not the run's (outside its trials or its shard), given
// twice, or measured outside the run's time is an error.
func ParseQueue(name string, b []byte) (*QueuePartial, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, fmt.Errorf("%s: empty file, not the output of graphalloc queue", name)
	}
	if err := csvOrTable(name, b); err != nil {
		return nil, err
	}
	lines := bytes.HasPrefix(bytes.TrimSpace(b), []byte(`{"`))
	var whole json.RawMessage // a JSON file's object
	if !lines {
		dec := json.NewDecoder(bytes.NewReader(b))
		if err := dec.Decode(&whole); err != nil {
			return nil, fmt.Errorf("%s: not the JSON output of graphalloc queue: %v", name, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("%s: more after the JSON object: a queue run's JSON file holds one (two files joined?)", name)
		}
	}
	if !IsQueue(b) && !IsQueue(whole) {
		return nil, fmt.Errorf("%s: not the json or jsonl output of graphalloc queue (no config with lambda)", name)
	}
	if lines {
		return parseQueueLines(name, b)
	}
	p := &QueuePartial{Complete: true, Valid: int64(len(b))}
	if err := json.Unmarshal(whole, &p.File); err != nil {
		return nil, fmt.Errorf("%s: not the JSON output of graphalloc queue: %v", name, err)
	}
	qc := newQueueCheck(p.File.Config, "entry")
	for i, t := range p.File.Trials {
		if err := qc.add(t, i+1); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	return p, nil
}

// parseQueueLines parses the JSON lines b of a queue run (ParseQueue).
func parseQueueLines(name string, b []byte) (*QueuePartial, error) {
	p := &QueuePartial{}
	var qc *queueCheck // set by the config line
	valid, line, err := eachLine(b, func(text []byte, line int) error { return p.addLine(text, line, &qc) })
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line, err)
	}
	if qc == nil {
		return nil, fmt.Errorf("%s: no config line, not the output of graphalloc queue", name)
	}
	p.Valid = valid
	return p, nil
}

// addLine adds the line-th line, text, to p; *qc checks the trials once
// the config line is read.
func (p *QueuePartial) addLine(text []byte, line int, qc **queueCheck) error {
	var v struct {
		Config  *QueueConfig  `json:"config"`
		Trial   *queue.Trial  `json:"trial"`
		Summary *QueueSummary `json:"summary"`
	}
	if err := json.Unmarshal(text, &v); err != nil {
		return fmt.Errorf("not a line of graphalloc queue -f jsonl: %v", err)
	}
	switch {
	case v.Config != nil && *qc != nil:
		return errors.New("a second config line")
	case v.Config != nil:
		p.File.Config = *v.Config
		c := newQueueCheck(*v.Config, "line")
		*qc = &c
	case *qc == nil:
		return errors.New("a line before the config line")
	case v.Trial != nil:
		if err := (*qc).add(*v.Trial, line); err != nil {
			return err
		}
		p.File.Trials = append(p.File.Trials, *v.Trial)
	case v.Summary != nil:
		p.File.Summary, p.Complete = *v.Summary, true
	default:
		return errors.New("expected a config, trial or summary object")
	}
	return nil
}

// queueCheck checks the trials of one queue run's file as they are read.
type queueCheck struct {
	numbers trialCheck
	time    float64
}

func newQueueCheck(h QueueConfig, unit string) queueCheck {
	return queueCheck{newTrialCheck(Config{Trials: h.Trials, Shard: h.Shard}, unit), h.Time}
}

// add checks trial t, found at the at-th line (JSON lines) or entry
// (JSON): its number as a run's trial's (trialCheck; it has no load
// counts), and its warm-up and series within the run's time, up to which
// the summary's ODE integrates.
func (qc queueCheck) add(t queue.Trial, at int) error {
	if err := qc.numbers.record(t.Trial, nil, at); err != nil {
		return err
	}
	if !(t.Warmup >= 0 && t.Warmup < qc.time) { // a run's window is never empty
		return fmt.Errorf("trial %d: warm-up %g outside the run's time [0, %g)", t.Trial, t.Warmup, qc.time)
	}
	for _, p := range t.Series {
		if !(p.T >= 0 && p.T <= qc.time) {
			return fmt.Errorf("trial %d: a series point at t=%g, outside the run's time [0, %g]", t.Trial, p.T, qc.time)
		}
	}
	return nil
}

// SameQueue reports how the configs of two queue runs differ, nil when
// they are one run's (and any of its shards).
func SameQueue(a, b QueueConfig) error {
	a.Shard, b.Shard = "", ""
	return sameConfig(a, b)
}

// ResumeQueue reads path, an earlier output of the queue run whose config
// is head, and splits the trials of head's shard (all of them if it has
// none) into those the file holds (done, in order) and those to run
// (todo); prev is the file read, nil when path is "" (then every trial is
// to run). The file is read within InputLimit (ReadInput). A file of
// another run (its config differs but for the shard) is an error.
func ResumeQueue(ctx context.Context, path string, head QueueConfig) (prev *QueuePartial, done []queue.Trial, todo []int, err error) {
	i, k, err := shardOf(head.Shard)
	if err != nil {
		return nil, nil, nil, err
	}
	trials := study.ShardTrials(head.Trials, i, k)
	if path == "" {
		return nil, nil, trials, nil
	}
	b, err := ReadInput(ctx, path, InputLimit())
	if err == nil {
		prev, err = ParseQueue(path, b)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	if err := SameQueue(prev.File.Config, head); err != nil {
		return nil, nil, nil, fmt.Errorf("%s is the output of another queue run: %v", path, err)
	}
	done, todo = splitDone(trials, prev.File.Trials, queueTrial)
	return prev, done, todo, nil
}

// Queue rebuilds the run that h, a queue file's config, describes: its
// queue.Config, without the graph but for K_n (implicit, as the run has
// it), and the spec of its graph (the zero Spec under uniform sampling,
// which has none). A config that no queue run writes (a field that does
// not parse, or that disagrees with the others) is an error naming the
// field.
func (h QueueConfig) Queue() (queue.Config, graphgen.Spec, error) {
	o := queue.Options{Process: h.Process, D: h.D, Sample: h.Sample, Lambda: h.Lambda, Time: h.Time, Warmup: h.Warmup,
		Engine: h.Engine, Start: h.Start, Batches: h.Batches, Every: h.Every, Seed: h.Seed}
	var spec graphgen.Spec
	c, err := o.Config()
	if err != nil {
		return c, spec, fmt.Errorf("config: %v", err)
	}
	if h.N < 1 || h.N > queue.MaxLevelServers {
		return c, spec, fmt.Errorf("config: need 1 <= n <= 2^62, got %d", h.N)
	}
	c.N = h.N
	probe := c // Check's stand-in for a graph the file does not hold
	if c.Sample != queue.Uniform {
		if spec, err = graphgen.ParseSpec(h.Graph); err != nil {
			return c, spec, fmt.Errorf("config: graph: %v", err)
		}
		if spec.Kind == "complete" {
			c.Graph = graphgen.Complete(int(h.N))
		}
		probe.Graph = graphgen.Complete(int(h.N))
	}
	if err := probe.Check(); err != nil {
		return c, spec, fmt.Errorf("config: %v", err)
	}
	if err := sameConfig(NewQueueConfig(o, &c, h.Graph, h.Trials, h.Shard, h.Version), h); err != nil {
		return c, spec, fmt.Errorf("config: not one that graphalloc queue writes: %v", err)
	}
	return c, spec, nil
}

// degreeProbes are stand-in degrees (min, max) of a graph whose degrees
// the file does not fix: irregular and regular, of degree 2 to 4 and
// beyond, the cases the predictions tell apart.
var degreeProbes = [][2]int{{1, 2}, {5, 9}, {3, 3}, {64, 64}}

// SummaryOf summarises trials of the run h describes, rebuilt from h
// alone (Queue), as the run summarised them (QueueSummaryOf): the degrees
// its predictions read are those its graph's spec fixes (graphgen's
// Plan), the graph's own. Where the draw or a file decides them, the
// predictions must be the same whatever they are (degreeProbes), else
// they cannot be rebuilt from the file: an error says so.
func (h QueueConfig) SummaryOf(trials []queue.Trial) (QueueSummary, error) {
	c, spec, err := h.Queue()
	if err != nil {
		return QueueSummary{}, err
	}
	if c.Sample == queue.Uniform || c.Graph != nil {
		return QueueSummaryOf(&c, spec, trials), nil
	}
	if !spec.FromFile() {
		if plan, err := spec.Plan(int(c.N)); err == nil && plan.MinDegree >= 0 && plan.MaxDegree >= 0 {
			g := queue.Graph{Spec: spec, MinDeg: plan.MinDegree, MaxDeg: plan.MaxDegree}
			return summarizeQueue(&c, queue.Predictions(&c, g, trials), trials), nil
		}
	}
	var preds []queue.Prediction
	for i, d := range degreeProbes {
		p := queue.Predictions(&c, queue.Graph{Spec: spec, MinDeg: d[0], MaxDeg: d[1]}, trials)
		if i > 0 && !reflect.DeepEqual(p, preds) {
			return QueueSummary{}, fmt.Errorf("the predictions for -g %s with %s sampling (d=%d) read the degrees of the graph the run built, which the file does not record: they cannot be rebuilt from it (run unsharded)",
				h.Graph, h.Sample, h.D)
		}
		preds = p
	}
	return summarizeQueue(&c, preds, trials), nil
}

// queueTrial is a queue trial's number.
func queueTrial(t queue.Trial) int { return t.Trial }

// mergeQueue merges the files of the shards of one queue run
// (MergeFiles): their configs are one run's but for the shard, and their
// trials are merged as a run's (mergeTrials); the summary is rebuilt over
// them from the config (SummaryOf).
func mergeQueue(in *inputs, partial bool) (*Merged, error) {
	read, shards, cut, err := readShards(in, ParseQueue, func(p *QueuePartial) (QueueConfig, string, bool) {
		return p.File.Config, p.File.Config.Shard, p.Complete
	}, SameQueue)
	if err != nil {
		return nil, err
	}
	head := read[0].File.Config
	files := make([][]queue.Trial, len(read))
	for i, p := range read {
		files[i] = p.File.Trials
	}
	head.Shard = ""
	m := mergeShards{paths: in.paths, shards: shards, cut: cut, head: Config{Trials: head.Trials}, partial: partial}
	trials, err := mergeTrials(m, files, queueTrial)
	if err != nil {
		return nil, err
	}
	sum, err := head.SummaryOf(trials)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", in.paths[0], err)
	}
	return &Merged{Queue: &QueueFile{Config: head, Trials: trials, Summary: sum}, Short: m.short(len(trials))}, nil
}
