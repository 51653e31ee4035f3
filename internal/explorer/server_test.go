package explorer

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graphalloc/graphalloc/alloc"
	"github.com/graphalloc/graphalloc/graphgen"
	"github.com/graphalloc/graphalloc/internal/explorer/explorertest"
	"github.com/graphalloc/graphalloc/results"
	"github.com/graphalloc/graphalloc/study"
)

// fakePlanner sets up greedy[2] runs on --bins=N bins (16 if unset), N
// balls, --trials=T trials (1 if unset), without the command line; build,
// if set, replaces the build.
type fakePlanner struct {
	build func(ctx context.Context) (*Run, error)
}

// fakeJob is a run of fakePlanner.
type fakeJob struct {
	n, trials int
	build     func(ctx context.Context) (*Run, error)
}

func (p fakePlanner) Parse(args []string) (Job, error) {
	j := &fakeJob{n: 16, trials: 1, build: p.build}
	for _, a := range args {
		k, v, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		x, err := strconv.Atoi(v)
		switch {
		case k != "bins" && k != "trials":
			return nil, fmt.Errorf("--%s: not a flag of the fake planner", k)
		case err != nil || x < 1:
			return nil, fmt.Errorf("--%s: want a positive count, got %q", k, v)
		case k == "bins":
			j.n = x
		default:
			j.trials = x
		}
	}
	return j, nil
}

func (j *fakeJob) Request() (study.RunRequest, error) {
	p := alloc.Greedy{D: 2}
	return study.RunRequest{Process: alloc.Describe(p), Engine: "auto", Spec: graphgen.Spec{Kind: "complete"}, N: int64(j.n),
		Balls: "n", Workers: 1, Trials: j.trials, Held: int64(j.trials)}, nil
}

func (j *fakeJob) Build(ctx context.Context) (*Run, error) {
	if j.build != nil {
		return j.build(ctx)
	}
	p := alloc.Greedy{D: 2}
	cfg := alloc.Config{Process: p, N: j.n, M: int64(j.n), Seed: 1}
	head := results.NewConfig(study.Setting{Process: alloc.Describe(p), N: int64(j.n), M: int64(j.n)})
	return &Run{Config: cfg, Head: head, Trials: j.trials, Workers: 1}, nil
}

// newFakeServer serves the explorer with fakePlanner p.
func newFakeServer(t *testing.T, p fakePlanner) (*Server, *httptest.Server) {
	t.Helper()
	s := NewServer(Options{MaxBinTrials: 1 << 26, MaxBallTrials: 1 << 31, Keys: []string{"bins", "trials"}, GraphKey: "topology",
		Message: func(err error) string { return "graphalloc: " + err.Error() }}, p)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

// TestServerForeignHost: DNS rebinding. A page on attacker.example whose
// name now resolves to 127.0.0.1 sends same-origin requests, with its own
// name as Host: refused, the page and the runs alike.
func TestServerForeignHost(t *testing.T) {
	_, ts := newFakeServer(t, fakePlanner{})
	for _, host := range []string{"attacker.example", "attacker.example:80", "127.0.0.1.attacker.example", "localhost.attacker.example"} {
		for _, path := range []string{"/", "/api/run?bins=64&trials=1", "/api/download?format=json&bins=64&trials=1"} {
			code, body := explorertest.Request(t, ts.URL+path, map[string]string{"Host": host})
			if code != http.StatusMisdirectedRequest || strings.Count(strings.TrimSpace(body), "\n") != 0 || !strings.Contains(body, "is not this server's") {
				t.Errorf("Host %s, %s: status %d, %q", host, path, code, body)
			}
		}
	}
	// The loopback names and addresses are served.
	_, port, _ := strings.Cut(strings.TrimPrefix(ts.URL, "http://"), ":")
	for _, host := range []string{"localhost:" + port, "127.0.0.1:" + port, "127.1.2.3:" + port, "[::1]:" + port, "LOCALHOST"} {
		if code, body := explorertest.Request(t, ts.URL+"/api/processes", map[string]string{"Host": host}); code != http.StatusOK {
			t.Errorf("Host %s: status %d, %q", host, code, body)
		}
	}
}

// TestServerCrossOrigin: a page of another origin may not start a run
// (nor a download, which runs one); the page's own requests may.
func TestServerCrossOrigin(t *testing.T) {
	_, ts := newFakeServer(t, fakePlanner{})
	host := strings.TrimPrefix(ts.URL, "http://")
	run := ts.URL + "/api/run?bins=64&trials=1"
	for name, h := range map[string]map[string]string{
		"another origin":          {"Origin": "http://attacker.example"},
		"another port":            {"Origin": "http://127.0.0.1:1"},
		"https of the same host":  {"Origin": "https://" + host},
		"null origin":             {"Origin": "null"},
		"cross-site fetch":        {"Sec-Fetch-Site": "cross-site"},
		"same-site, other origin": {"Sec-Fetch-Site": "same-site"},
	} {
		for _, url := range []string{run, ts.URL + "/api/download?format=json&bins=64&trials=1"} {
			code, body := explorertest.Request(t, url, h)
			if code != http.StatusForbidden || !strings.Contains(body, "may not start a run") {
				t.Errorf("%s: %s: status %d, %q", name, url, code, body)
			}
		}
	}
	for name, h := range map[string]map[string]string{
		"same origin":      {"Origin": "http://" + host, "Sec-Fetch-Site": "same-origin"},
		"fetch, no Origin": {"Sec-Fetch-Site": "same-origin"},
		"typed URL":        {"Sec-Fetch-Site": "none"},
		"curl":             {},
	} {
		code, body := explorertest.Request(t, run, h)
		if code != http.StatusOK || !strings.Contains(body, "event: done") {
			t.Errorf("%s: status %d, %.200q", name, code, body)
		}
	}
	// The page itself may be linked to from anywhere.
	if code, _ := explorertest.Request(t, ts.URL+"/", map[string]string{"Sec-Fetch-Site": "cross-site"}); code != http.StatusOK {
		t.Errorf("the page, linked from another site: status %d", code)
	}
}

// TestServerClientLeaves: a client that leaves while its graph is built
// ends the build within a second: the server hands the request's context
// to the build, and the build's bytes go back to the budget when it
// returns.
func TestServerClientLeaves(t *testing.T) {
	started, stopped := make(chan struct{}), make(chan error, 1)
	s, ts := newFakeServer(t, fakePlanner{build: func(ctx context.Context) (*Run, error) {
		close(started)
		select {
		case <-ctx.Done():
			stopped <- ctx.Err()
			return nil, ctx.Err()
		case <-time.After(20 * time.Second):
			stopped <- errors.New("the build was not cancelled")
			return nil, errors.New("the build was not cancelled")
		}
	}})
	cancel := explorertest.StartRun(t, ts.URL+"/api/run?bins=1024&trials=1&page=p&slot=a")
	<-started
	if used := s.Budget().Used(); used == 0 {
		t.Errorf("nothing reserved while the graph is built")
	}
	cancel()
	left := time.Now()
	select {
	case err := <-stopped:
		if !errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
	case <-time.After(time.Second):
		t.Fatal("the build went on for a second after the client left")
	}
	for s.Budget().Used() != 0 || s.Busy("p", "a") {
		if time.Since(left) > time.Second {
			t.Fatalf("a second after the client left: %d bytes reserved, slot busy %v", s.Budget().Used(), s.Busy("p", "a"))
		}
		time.Sleep(5 * time.Millisecond)
	}
}
