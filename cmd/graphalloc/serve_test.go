package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/internal/explorer"
)

// sseEvent is one server-sent event.
type sseEvent struct{ name, data string }

// readEvents reads the events of an SSE stream until it ends.
func readEvents(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var evs []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.data = strings.TrimPrefix(line, "data: ")
		case line == "":
			if cur.name != "" {
				evs = append(evs, cur)
			}
			cur = sseEvent{}
		}
	}
	return evs
}

// newTestServer serves the explorer with data dir data and the given caps
// (0: serve's defaults).
func newTestServer(t *testing.T, data string, binTrials, ballTrials int64, maxMem string) *httptest.Server {
	_, ts := newTestServerOf(t, data, binTrials, ballTrials, maxMem)
	return ts
}

// newTestServerOf is newTestServer, with the server itself.
func newTestServerOf(t *testing.T, data string, binTrials, ballTrials int64, maxMem string) (*explorer.Server, *httptest.Server) {
	return newHookedServer(t, data, binTrials, ballTrials, maxMem, nil)
}

// hookPlanner is run's planner with the build replaced by build, which
// may call the job's own.
type hookPlanner struct {
	runPlanner
	build func(ctx context.Context, j explorer.Job) (*explorer.Run, error)
}

// hookJob is a job of hookPlanner.
type hookJob struct {
	explorer.Job
	build func(ctx context.Context, j explorer.Job) (*explorer.Run, error)
}

func (p hookPlanner) Parse(args []string) (explorer.Job, error) {
	j, err := p.runPlanner.Parse(args)
	if err != nil {
		return nil, err
	}
	return hookJob{j, p.build}, nil
}

func (j hookJob) Build(ctx context.Context) (*explorer.Run, error) { return j.build(ctx, j.Job) }

// newHookedServer is newTestServerOf whose builds go through build (nil:
// run's own).
func newHookedServer(t *testing.T, data string, binTrials, ballTrials int64, maxMem string, build func(ctx context.Context, j explorer.Job) (*explorer.Run, error)) (*explorer.Server, *httptest.Server) {
	t.Helper()
	o := serveOptions{data: data, maxBinTrials: 1 << 26, maxBallTrials: 1 << 31, maxMemory: maxMem}
	if binTrials > 0 {
		o.maxBinTrials = binTrials
	}
	if ballTrials > 0 {
		o.maxBallTrials = ballTrials
	}
	s := newServer(o)
	if build != nil {
		s = explorer.NewServer(o.options(), hookPlanner{runPlanner{o.maxMemory}, build})
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

// getEvents runs a query on /api/run and returns its events.
func getEvents(t *testing.T, ts *httptest.Server, q string) []sseEvent {
	t.Helper()
	resp, err := http.Get(ts.URL + "/api/run?" + q)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	return readEvents(t, resp.Body)
}

// failMessage returns the message of a stream that failed ("" if none).
func failMessage(t *testing.T, evs []sseEvent) string {
	t.Helper()
	for _, e := range evs {
		if e.name == "fail" {
			var m map[string]string
			if err := json.Unmarshal([]byte(e.data), &m); err != nil {
				t.Fatal(err)
			}
			return m["error"]
		}
	}
	return ""
}

// streamedResults gathers the trial rows of a run's snapshots, each sent
// once, in trial order.
func streamedResults(t *testing.T, evs []sseEvent) []alloc.Result {
	t.Helper()
	var rs []alloc.Result
	for _, e := range evs {
		if e.name != "snapshot" && e.name != "done" {
			continue
		}
		var sn explorer.Snapshot
		if err := json.Unmarshal([]byte(e.data), &sn); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, sn.Results...)
	}
	slices.SortFunc(rs, func(a, b alloc.Result) int { return a.Trial - b.Trial })
	return rs
}

// cliRun runs graphalloc with args and returns stdout and the CLI's error
// line ("" on success).
func cliRun(t *testing.T, args ...string) (string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), &out, &errb, args)
	var msg bytes.Buffer
	if err != nil {
		report(&msg, err)
	}
	return out.String(), strings.TrimSpace(msg.String())
}

func TestServeRunEqualsRun(t *testing.T) {
	ts := newTestServer(t, "", 0, 0, "")
	q := "process=graph&graph=torus:dim=2&bins=256&balls=8n&seed=5&trials=4"
	evs := getEvents(t, ts, q)
	if len(evs) < 2 || evs[0].name != "config" || evs[len(evs)-1].name != "done" {
		t.Fatalf("events: %v", evs)
	}
	var cfg struct {
		Command string `json:"command"`
		Graph   struct {
			Kind string `json:"kind"`
			Side int    `json:"side"`
		} `json:"graph"`
	}
	if err := json.Unmarshal([]byte(evs[0].data), &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Graph.Kind != "torus" || cfg.Graph.Side != 16 {
		t.Errorf("graph picture: %+v", cfg.Graph)
	}
	var done explorer.Snapshot
	if err := json.Unmarshal([]byte(evs[len(evs)-1].data), &done); err != nil {
		t.Fatal(err)
	}
	if !done.Final || done.Done != 4 || len(done.Loads) != 256 {
		t.Fatalf("final snapshot: done %d final %v loads %d", done.Done, done.Final, len(done.Loads))
	}
	args := strings.Fields(strings.TrimPrefix(cfg.Command, "graphalloc "))
	out, msg := cliRun(t, args...)
	if msg != "" {
		t.Fatal(msg)
	}
	var f struct{ Trials []alloc.Result }
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(f.Trials)
	b, _ := json.Marshal(streamedResults(t, evs))
	if !bytes.Equal(a, b) {
		t.Errorf("served trials differ from %s:\n%s\n%s", cfg.Command, b, a)
	}
	// The downloads are run's own output.
	for _, format := range []string{"json", "csv"} {
		resp, err := http.Get(ts.URL + "/api/download?format=" + format + "&" + q)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		want, msg := cliRun(t, append(args[:len(args)-2], "-f", format)...)
		if msg != "" || string(got) != want {
			t.Errorf("download %s differs from run (%s):\n%s\n%s", format, msg, got, want)
		}
	}
	resp, err := http.Get(ts.URL + "/api/download?format=png&" + q)
	if err != nil {
		t.Fatal(err)
	}
	png, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	plot := filepath.Join(t.TempDir(), "run.png")
	if _, msg := cliRun(t, append(args, "-o", filepath.Join(t.TempDir(), "run.json"), "--plot", plot)...); msg != "" {
		t.Fatal(msg)
	}
	if want, _ := os.ReadFile(plot); !bytes.Equal(png, want) {
		t.Errorf("PNG download (%d bytes) differs from run --plot (%d bytes)", len(png), len(want))
	}
}

func TestServeBadInputIsTheCLIMessage(t *testing.T) {
	ts := newTestServer(t, "", 0, 0, "")
	for _, c := range [][]string{
		{"process=graph&graph=bogus:x", "--process=graph", "--graph=bogus:x"},
		{"process=graph&graph=torus:dim=0&bins=64", "--process=graph", "--graph=torus:dim=0", "--bins=64"},
		{"process=nope", "--process=nope"},
		{"bins=-3", "--bins=-3"},
		{"trials=0", "--trials=0"},
	} {
		msg := failMessage(t, getEvents(t, ts, c[0]))
		_, want := cliRun(t, append([]string{"run"}, c[1:]...)...)
		if msg == "" || msg != want {
			t.Errorf("%s: page shows %q, run says %q", c[0], msg, want)
		}
	}
	if msg := failMessage(t, getEvents(t, ts, "output=/tmp/x")); !strings.Contains(msg, `unknown parameter "output"`) {
		t.Errorf("a flag outside the page's: %q", msg)
	}
	resp, err := http.Get(ts.URL + "/api/download?format=exe")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("download format exe: status %d", resp.StatusCode)
	}
}

func TestServePathTraversal(t *testing.T) {
	root := t.TempDir()
	data := filepath.Join(root, "data")
	if err := os.MkdirAll(filepath.Join(data, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	edges := "0 1\n1 2\n2 3\n3 0\n"
	for _, p := range []string{filepath.Join(data, "sub", "ring.txt"), filepath.Join(root, "secret.txt")} {
		if err := os.WriteFile(p, []byte(edges), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "secret.txt"), filepath.Join(data, "link.txt")); err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, data, 0, 0, "")
	for spec, want := range map[string]string{
		"file:../secret.txt":           "'..' is refused",
		"file:sub/../../secret.txt":    "'..' is refused",
		"../secret.txt":                "'..' is refused",
		"file:" + root + "/secret.txt": "an absolute path is refused",
		"/etc/passwd":                  "an absolute path is refused",
		"file:link.txt":                "leads out of --data",
		"file:missing.txt":             "no such file under --data",
		"hyper:../secret.txt":          "'..' is refused",
	} {
		msg := failMessage(t, getEvents(t, ts, "process=graph&trials=1&graph="+url.QueryEscape(spec)))
		if !strings.Contains(msg, want) {
			t.Errorf("%s: %q, want it to say %q", spec, msg, want)
		}
	}
	evs := getEvents(t, ts, "process=graph&trials=2&graph=file:sub/ring.txt")
	if msg := failMessage(t, evs); msg != "" || evs[len(evs)-1].name != "done" {
		t.Fatalf("a file under --data: %q %v", msg, evs)
	}
	if !strings.Contains(evs[0].data, `"graph":"file:sub/ring.txt"`) {
		t.Errorf("config names the file as the page did: %s", evs[0].data)
	}
	// Without --data no file is read.
	ts2 := newTestServer(t, "", 0, 0, "")
	if msg := failMessage(t, getEvents(t, ts2, "process=graph&graph=file:sub/ring.txt")); !strings.Contains(msg, "no --data directory") {
		t.Errorf("no --data: %q", msg)
	}
	// The static files are the embedded ones only.
	for _, p := range []string{"/../go.mod", "/%2e%2e/go.mod", "/app.js/../../serve.go"} {
		resp, err := http.Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(body), "module github.com") || strings.Contains(string(body), "package main") {
			t.Errorf("%s served a file outside the page", p)
		}
	}
}

func TestServeCaps(t *testing.T) {
	ts := newTestServer(t, "", 1<<16, 1<<20, "")
	if msg := failMessage(t, getEvents(t, ts, "bins=2^14&trials=5")); !strings.Contains(msg, "n·trials = 16384·5 is above this server's cap of 65536") {
		t.Errorf("n·trials cap: %q", msg)
	}
	// n from the graph (a torus rounds n up) is checked after setup too.
	if msg := failMessage(t, getEvents(t, ts, "process=graph&graph=torus:side=300&bins=4&trials=1")); !strings.Contains(msg, "n·trials = 90000·1") {
		t.Errorf("n·trials cap of a graph's n: %q", msg)
	}
	if msg := failMessage(t, getEvents(t, ts, "bins=1024&balls=1000n&trials=2")); !strings.Contains(msg, "m·trials = 1024000·2 is above") {
		t.Errorf("m·trials cap: %q", msg)
	}
	tsMem := newTestServer(t, "", 0, 0, "1K")
	if msg := failMessage(t, getEvents(t, tsMem, "bins=2^20&trials=4")); !strings.Contains(msg, "more than --max-memory") {
		t.Errorf("memory guard: %q", msg)
	}
}

func TestServeNewRunCancelsOld(t *testing.T) {
	ts := newTestServer(t, "", 0, 1<<40, "")
	long := "bins=2^16&balls=200n&trials=64&page=p1&slot=a"
	resp, err := http.Get(ts.URL + "/api/run?" + long)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	if line, _ := br.ReadString('\n'); line != "event: config\n" {
		t.Fatalf("first line %q", line)
	}
	start := time.Now()
	evs := getEvents(t, ts, "bins=64&trials=1&page=p1&slot=a")
	if evs[len(evs)-1].name != "done" {
		t.Fatalf("the new run: %v", evs)
	}
	rest, _ := io.ReadAll(br)
	if strings.Contains(string(rest), "event: done") || strings.Contains(string(rest), "event: fail") {
		t.Errorf("the old run of the slot finished or failed: it should have been cancelled: %.300s", rest)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the old run took %v to stop", d)
	}
}

func TestServePage(t *testing.T) {
	ts := newTestServer(t, "", 0, 0, "")
	for _, p := range []string{"/", "/app.js", "/style.css", "/api/processes"} {
		resp, err := http.Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || len(body) == 0 || strings.Contains(string(body), "http://") || strings.Contains(string(body), "https://") {
			t.Errorf("%s: status %d, %d bytes (no external URL allowed)", p, resp.StatusCode, len(body))
		}
	}
}

func TestServeFlags(t *testing.T) {
	if _, msg := cliRun(t, "serve", "--data", "/nonexistent-dir"); !strings.Contains(msg, "--data: /nonexistent-dir is not a directory") {
		t.Errorf("--data: %q", msg)
	}
	if _, msg := cliRun(t, "serve", "--addr", "256.0.0.1:x"); !strings.Contains(msg, "--addr") {
		t.Errorf("--addr: %q", msg)
	}
	// Serves until the context ends.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var errb bytes.Buffer
	go func() { done <- run(ctx, io.Discard, &errb, []string{"serve", "--addr", "127.0.0.1:0"}) }()
	time.Sleep(200 * time.Millisecond)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errb.String(), "serving the explorer on http://127.0.0.1:") {
		t.Errorf("stderr: %q", errb.String())
	}
}

func TestServeHelp(t *testing.T) {
	out, _, code := invoke("serve", "--help")
	if code != 0 || !strings.Contains(out, "Usage: graphalloc serve") || !strings.Contains(out, "Examples:") || !strings.Contains(out, "--max-bin-trials") {
		t.Errorf("serve --help: exit %d, output %.200q", code, out)
	}
	if out, _, _ := invoke("help"); !strings.Contains(out, "serve    serve the web explorer") {
		t.Errorf("graphalloc's usage does not list serve: %.300q", out)
	}
}

// TestServeEveryProcess: each kind of rule streams to the end, with the
// picture's loads where the engine has per-bin loads.
func TestServeEveryProcess(t *testing.T) {
	ts := newTestServer(t, "../../testdata/graphs", 0, 0, "")
	for q, loads := range map[string]bool{
		"process=weighted&bins=500&trials=2":                                    false,
		"process=hyper&graph=hypergraph:rank%3D3,edges%3D300&bins=200&trials=2": true,
		"process=hyper&graph=hyper:hyper.txt&trials=2":                          true,
		"process=local-search&graph=torus&bins=400&trials=2":                    true,
		"process=graph&graph=file:karate.txt&batch=4&trials=2":                  true,
		"process=greedy&bins=100&engine=levels&trials=2":                        false,
	} {
		evs := getEvents(t, ts, q)
		if msg := failMessage(t, evs); msg != "" || evs[len(evs)-1].name != "done" {
			t.Errorf("%s: %q %v", q, msg, evs)
			continue
		}
		var done explorer.Snapshot
		if err := json.Unmarshal([]byte(evs[len(evs)-1].data), &done); err != nil {
			t.Fatal(err)
		}
		var cfg explorer.ConfigEvent
		if err := json.Unmarshal([]byte(evs[0].data), &cfg); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(q, "karate") && (cfg.Graph == nil || len(cfg.Graph.Edges) != 78) {
			t.Errorf("%s: the picture has not the graph's 78 edges: %+v", q, cfg.Graph)
		}
		if (len(done.Loads) > 0) != loads || done.Done != 2 {
			t.Errorf("%s: %d loads, %d trials done", q, len(done.Loads), done.Done)
		}
	}
}

// TestServeFrames: the picture's frames are trial 0 after k·m/20 balls,
// what run -m k·m/20 gives for trial 0.
func TestServeFrames(t *testing.T) {
	ts := newTestServer(t, "", 0, 0, "")
	evs := getEvents(t, ts, "process=graph&graph=cycle&bins=300&balls=8n&seed=4&trials=2")
	var frames []explorer.Frame
	for _, e := range evs {
		if e.name == "frame" {
			var f explorer.Frame
			if err := json.Unmarshal([]byte(e.data), &f); err != nil {
				t.Fatal(err)
			}
			frames = append(frames, f)
		}
	}
	if len(frames) != 20 || frames[19].Balls != 2400 {
		t.Fatalf("%d frames", len(frames))
	}
	for _, k := range []int{0, 9, 19} {
		f := frames[k]
		out, msg := cliRun(t, "run", "-p", "graph", "-g", "cycle", "-n", "300", "-m", strconv.FormatInt(f.Balls, 10), "-s", "4", "-t", "1", "-f", "json")
		if msg != "" {
			t.Fatal(msg)
		}
		var file struct{ Trials []alloc.Result }
		if err := json.Unmarshal([]byte(out), &file); err != nil {
			t.Fatal(err)
		}
		counts := make([]int64, len(file.Trials[0].LoadCounts))
		for _, l := range f.Loads {
			if int(l) >= len(counts) {
				t.Fatalf("frame %d: load %d above run's max", k, l)
			}
			counts[l]++
		}
		if fmt.Sprint(counts) != fmt.Sprint(file.Trials[0].LoadCounts) {
			t.Errorf("frame %d (%d balls): counts %v, run -m %d gives %v", k, f.Balls, counts, f.Balls, file.Trials[0].LoadCounts)
		}
	}
}
