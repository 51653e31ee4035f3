package results

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/queue"
	"github.com/graphalloc/graphalloc/study"
)

// queueRun runs trials 0..trials-1 of the queue command line that set
// makes of the defaults (on n = 256 servers, time 10 unless set says
// otherwise), on its graph built as the command builds it, and returns
// its file, with the trials read back from their JSON as a merge reads
// them.
func queueRun(t *testing.T, trials int, set func(*queue.Options)) *QueueFile {
	t.Helper()
	var o queue.Options
	o.Flags()
	o.Bins, o.Time = "256", 10
	set(&o)
	c, err := o.Config()
	if err != nil {
		t.Fatal(err)
	}
	graph := o.Graph
	if c.Sample == queue.Uniform {
		graph = "complete"
	}
	spec, err := graphgen.ParseSpec(graph)
	if err != nil {
		t.Fatal(err)
	}
	b, err := study.NewGraphBuild(spec, o.Bins, true, queue.MaxServers, "test")
	if err != nil {
		t.Fatal(err)
	}
	c.N = b.N
	if c.Sample != queue.Uniform {
		g, _, _, err := b.Build(context.Background(), o.Seed)
		if err != nil {
			t.Fatal(err)
		}
		c.Graph, c.N = g, int64(g.Order())
	}
	var all []queue.Trial
	ts := study.ShardTrials(trials, 0, 1)
	if err := queue.Run(context.Background(), c, ts, 2, func(tr queue.Trial) error { all = append(all, tr); return nil }); err != nil {
		t.Fatal(err)
	}
	j, _ := json.Marshal(all)
	var back []queue.Trial
	if err := json.Unmarshal(j, &back); err != nil {
		t.Fatal(err)
	}
	head := NewQueueConfig(o, &c, o.Graph, trials, "", "test")
	return &QueueFile{Config: head, Trials: back, Summary: QueueSummaryOf(&c, b.Spec, all)}
}

// TestQueueSummaryOfConfig: the summary rebuilt from a file's config
// alone (QueueConfig.SummaryOf, what merge prints) is, byte for byte in
// JSON, the summary the run wrote with its graph built, for uniform
// sampling and for graphs whose spec fixes the degrees; where the draw
// decides them it is still rebuilt when the predictions do not read them,
// and refused with one line when they do.
func TestQueueSummaryOfConfig(t *testing.T) {
	graph := func(spec, sample string, d int) func(*queue.Options) {
		return func(o *queue.Options) { o.Process, o.Graph, o.Sample, o.D = "graph", spec, sample, d }
	}
	for name, set := range map[string]func(*queue.Options){
		"greedy":        func(o *queue.Options) {},
		"greedy d=3":    func(o *queue.Options) { o.D = 3 },
		"one-choice":    func(o *queue.Options) { o.Process = "one-choice" },
		"start fixed":   func(o *queue.Options) { o.Start, o.Warmup = "fixed", "0" },
		"every":         func(o *queue.Options) { o.Every, o.Lambda = 2, 0.7 },
		"servers":       func(o *queue.Options) { o.Engine = "servers" },
		"K_n edge":      graph("complete", "edge", 2),
		"K_n vertex":    graph("complete", "vertex", 3),
		"cycle":         graph("cycle", "edge", 2),
		"torus":         graph("torus:dim=2", "edge", 2),
		"hypercube":     graph("hypercube", "edge", 2),
		"regular 3":     graph("regular:degree=3", "edge", 2),
		"regular 4 v3":  graph("regular:degree=4", "vertex", 3),
		"regular 16":    graph("regular:degree=16", "vertex", 2),
		"regular eps":   graph("regular:eps=0.5", "edge", 2),
		"circulant":     graph("circulant:degree=4", "vertex", 2),
		"gnp p vertex3": graph("gnp:p=0.05", "vertex", 3),
		"nonregular v3": graph("nonregular:mindeg=4,core=32", "vertex", 3),
	} {
		f := queueRun(t, 3, set)
		got, err := f.Config.SummaryOf(f.Trials)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		a, _ := json.Marshal(got)
		b, _ := json.Marshal(f.Summary)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the summary rebuilt from the config differs from the run's:\n%s\n%s", name, a, b)
		}
	}
	for name, set := range map[string]func(*queue.Options){
		"gnp edge":     graph("gnp:p=0.05", "edge", 2),
		"gnp vertex 2": graph("gnp:degree=8", "vertex", 2),
		"gnp degree":   graph("gnp:degree=8", "vertex", 3), // the reason names the min degree drawn
	} {
		f := queueRun(t, 2, set)
		if _, err := f.Config.SummaryOf(f.Trials); err == nil || !strings.Contains(err.Error(), "cannot be rebuilt") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: want one line saying the predictions cannot be rebuilt, got %v", name, err)
		}
	}
}

// TestQueueConfigRefused: a config that no queue run writes is refused,
// the message naming the field.
func TestQueueConfigRefused(t *testing.T) {
	good := queueRun(t, 1, func(o *queue.Options) { o.Process, o.Graph, o.Sample = "graph", "cycle", "edge" }).Config
	if _, _, err := good.Queue(); err != nil {
		t.Fatalf("the run's own config: %v", err)
	}
	for want, edit := range map[string]func(*QueueConfig){
		"--lambda":    func(h *QueueConfig) { h.Lambda = 1 },
		"--time":      func(h *QueueConfig) { h.Time = -1 },
		"--warmup":    func(h *QueueConfig) { h.Warmup = "soon" },
		"--process":   func(h *QueueConfig) { h.Process = "left" },
		"--sample":    func(h *QueueConfig) { h.Sample = "uniform" },
		"d must be 2": func(h *QueueConfig) { h.D = 3 },
		"n <=":        func(h *QueueConfig) { h.N = 0 },
		"graph:":      func(h *QueueConfig) { h.Graph = "moon" },
		"engine":      func(h *QueueConfig) { h.Engine = "levels" },
		"batches":     func(h *QueueConfig) { h.Batches = 0 },
		"--every":     func(h *QueueConfig) { h.Every = -1 },
		"warm-up 20":  func(h *QueueConfig) { h.Warmup = "20" },
	} {
		h := good
		edit(&h)
		if _, _, err := h.Queue(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v", want, err)
		}
	}
}

// TestParseQueue: a queue file reads back as written, JSON or JSON lines;
// JSON lines cut anywhere read back to their complete lines, complete only
// with the summary; a trial twice, outside the run or its shard, or
// measured beyond the run's time is refused.
func TestParseQueue(t *testing.T) {
	f := queueRun(t, 4, func(o *queue.Options) { o.Every = 2 })
	var lines bytes.Buffer
	if err := WriteQueue(&lines, "jsonl", f); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"json", "jsonl"} {
		var b bytes.Buffer
		WriteQueue(&b, format, f)
		p, err := ParseQueue(format, b.Bytes())
		if err != nil || !p.Complete || len(p.File.Trials) != 4 || p.File.Config != f.Config {
			t.Fatalf("%s: %v, %+v", format, err, p)
		}
	}
	b := lines.Bytes()
	for cut := range len(b) {
		p, err := ParseQueue("cut", b[:cut])
		if cut < bytes.IndexByte(b, '\n')+1 {
			if err == nil {
				t.Errorf("cut at %d, before the config line's end: no error", cut)
			}
			continue
		}
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		whole := bytes.Count(b[:cut], []byte("\n"))
		if p.Valid != int64(bytes.LastIndexByte(b[:cut], '\n')+1) || len(p.File.Trials) != min(whole-1, 4) || p.Complete != (whole == 6) {
			t.Errorf("cut at %d: valid %d, %d trials, complete %v", cut, p.Valid, len(p.File.Trials), p.Complete)
		}
	}
	text := lines.String()
	config, rest, _ := strings.Cut(text, "\n")
	trial0, _, _ := strings.Cut(rest, "\n")
	for want, file := range map[string]string{
		"a second time":        config + "\n" + trial0 + "\n" + trial0 + "\n",
		"not of shard 1/2":     strings.Replace(config, `"trials":4`, `"trials":4,"shard":"1/2"`, 1) + "\n" + trial0 + "\n",
		"in a run of 1 trials": strings.Replace(config, `"trials":4`, `"trials":1`, 1) + "\n" + strings.Replace(trial0, `"trial":0`, `"trial":3`, 1) + "\n",
		"warm-up 1e+06":        config + "\n" + strings.Replace(trial0, `"warmup":`, `"warmup":1e6,"x":`, 1) + "\n",
		"outside the run's":    config + "\n" + strings.Replace(trial0, `"t":2,`, `"t":1e300,`, 1) + "\n",
		"a second config":      config + "\n" + config + "\n",
		"graphalloc queue":     `{"config":{"process":"greedy","n":10}}` + "\n",
		"not JSON":             "trial,process\n0,greedy\n",
		"empty":                "  \n",
		"more after":           strings.TrimSuffix(jsonOf(t, f), "\n") + "{}",
	} {
		if _, err := ParseQueue("f", []byte(file)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v", want, err)
		}
	}
}

// jsonOf is f's JSON file.
func jsonOf(t *testing.T, f *QueueFile) string {
	var b bytes.Buffer
	if err := WriteQueue(&b, "json", f); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestQueueFigure: the figure of a queue file draws the tails with their
// intervals beside each prediction that applies, named with its kind and
// regime, and with --every the mean queue over time with its intervals
// across trials beside the ODE.
func TestQueueFigure(t *testing.T) {
	f := queueRun(t, 3, func(o *queue.Options) { o.Every, o.Lambda, o.Time = 1, 0.5, 30 })
	fig, err := ReadFigure("q.json", []byte(jsonOf(t, f)))
	if err != nil {
		t.Fatal(err)
	}
	if len(fig.Panels) != 2 {
		t.Fatalf("%d panels, want the tails and the series", len(fig.Panels))
	}
	tails, series := fig.Panels[0], fig.Panels[1]
	if len(tails.Series) < 2 || !strings.Contains(tails.Series[0].Name, "95%") || tails.Series[0].Points[0].Hi == 0 {
		t.Errorf("tails: want the measured tails with their intervals and a prediction, got %d series", len(tails.Series))
	}
	for _, s := range tails.Series[1:] {
		if !strings.Contains(s.Name, "[limit") && !strings.Contains(s.Name, "[exact") {
			t.Errorf("prediction %q does not say its kind", s.Name)
		}
	}
	if len(series.Series) != 2 || !strings.Contains(series.Series[1].Name, "ODE") || series.Series[0].Points[1].Hi == 0 {
		t.Errorf("series: want the mean queue with intervals beside the ODE, got %+v", series.Series)
	}
	if _, err := ReadFigure("empty.json", []byte(`{"config":{"lambda":0.5,"trials":1,"time":1},"trials":[]}`+"\n")); err == nil || !strings.Contains(err.Error(), "no finished trial") {
		t.Errorf("a file without trials: %v", err)
	}
}
