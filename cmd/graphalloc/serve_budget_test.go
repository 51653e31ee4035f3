package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphalloc/graphalloc/internal/explorer"
	"github.com/graphalloc/graphalloc/internal/explorer/explorertest"
)

// TestServeCapsBeforeBuild: n set by the spec itself is held to the caps
// before the graph is built (the audit's regular:degree=4,n=100000000
// built for 8.5 minutes at 2.9 GB).
func TestServeCapsBeforeBuild(t *testing.T) {
	built := 0
	_, ts := newHookedServer(t, "", 0, 0, "1G", func(ctx context.Context, j explorer.Job) (*explorer.Run, error) {
		built++
		return j.Build(ctx)
	})
	for q, want := range map[string]string{
		"process=graph&trials=1&graph=regular:degree%3D4,n%3D100000000":              "n·trials = 100000000·1 is above",
		"process=graph&trials=1&graph=torus:side%3D10000":                            "n·trials = 100000000·1 is above",
		"process=graph&trials=1&graph=gnp:degree%3D4,n%3D134217728":                  "n·trials = 134217728·1 is above",
		"process=graph&trials=1&bins=2%5E20&graph=regular:degree%3D4,n%3D1073741824": "n·trials = 1073741824·1 is above",
		"process=graph&trials=1&bins=4&balls=2%5E32&graph=cycle":                     "m·trials = 4294967296·1 is above",
		"bins=1&balls=2%5E31&trials=1":                                               "needs about 16 GiB, more than --max-memory (1 GiB)",
	} {
		start := time.Now()
		msg := failMessage(t, getEvents(t, ts, q))
		if !strings.Contains(msg, want) {
			t.Errorf("%s: %q, want %q", q, msg, want)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: refused after %v", q, d)
		}
	}
	if built != 0 {
		t.Errorf("%d graphs built for requests above the caps", built)
	}
}

// TestServeSharedBudget: 30 heavy requests at once, each needing some
// 16 MiB of a 64 MiB budget: the bytes reserved at once never exceed the
// budget, and each request either runs to the end or is told, in one
// line, that the server is busy (503 for a download).
func TestServeSharedBudget(t *testing.T) {
	s, ts := newTestServerOf(t, "", 0, 0, "64M")
	s.Wait = 100 * time.Millisecond
	q := "process=one-choice&bins=2%5E24&balls=2%5E16&trials=1"
	d, err := s.Demand(mustQuery(t, q))
	if err != nil {
		t.Fatal(err)
	}
	if d.Bytes < 10<<20 || d.Bytes > 20<<20 {
		t.Fatalf("a request needs %d bytes; the test wants 10 to 20 MiB", d.Bytes)
	}
	var (
		wg         sync.WaitGroup
		mu         sync.Mutex
		done, busy int
		other      []string
	)
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var kind, msg string
			if i%3 == 2 {
				code, body := explorertest.Request(t, ts.URL+"/api/download?format=json&"+q, nil)
				switch {
				case code == http.StatusOK:
					kind = "done"
				case code == http.StatusServiceUnavailable && strings.Contains(body, "the server is busy"):
					kind, msg = "busy", body
				default:
					kind, msg = "other", fmt.Sprintf("download: %d %.200s", code, body)
				}
			} else {
				evs := getEvents(t, ts, q)
				msg = failMessage(t, evs)
				switch {
				case len(evs) == 0:
					kind, msg = "other", "run: no events"
				case msg == "" && evs[len(evs)-1].name == "done":
					kind = "done"
				case strings.Contains(msg, "the server is busy"):
					kind = "busy"
				default:
					kind, msg = "other", fmt.Sprintf("run: %q", msg)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			switch kind {
			case "done":
				done++
			case "busy":
				busy++
				if strings.Count(strings.TrimSpace(msg), "\n") != 0 {
					other = append(other, "a busy message of several lines: "+msg)
				}
			default:
				other = append(other, msg)
			}
		}()
	}
	wg.Wait()
	if peak, total := s.Budget().Peak(), s.Budget().Total(); peak > total || peak < d.Bytes {
		t.Errorf("peak reserved %d bytes, budget %d", peak, total)
	}
	if done == 0 || done+busy != 30 || len(other) > 0 {
		t.Errorf("%d done, %d busy, others: %q", done, busy, other)
	}
	if u := s.Budget().Used(); u != 0 {
		t.Errorf("%d bytes still reserved after every request ended", u)
	}
	t.Logf("%d done, %d refused as busy; peak %d of %d bytes, %d per request", done, busy, s.Budget().Peak(), s.Budget().Total(), d.Bytes)
}

// mustQuery parses a query string.
func mustQuery(t *testing.T, q string) url.Values {
	t.Helper()
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestServeIncrementalSnapshots: each trial's row is streamed once, only
// for the first explorer.ShownTrials trials, and the load distribution
// covers every trial: the stream of a run grows with its length, not
// with its length squared.
func TestServeIncrementalSnapshots(t *testing.T) {
	ts := newTestServer(t, "", 0, 0, "")
	const trials = 3000
	q := fmt.Sprintf("process=greedy&bins=16&balls=4n&seed=3&trials=%d", trials)
	resp, err := http.Get(ts.URL + "/api/run?" + q)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	evs := readEvents(t, bytes.NewReader(body))
	rows := streamedResults(t, evs)
	if len(rows) != explorer.ShownTrials || rows[0].Trial != 0 || rows[len(rows)-1].Trial != explorer.ShownTrials-1 {
		t.Fatalf("%d rows streamed (trials %d..%d), want trials 0..%d once each", len(rows), rows[0].Trial, rows[len(rows)-1].Trial, explorer.ShownTrials-1)
	}
	var done explorer.Snapshot
	if err := json.Unmarshal([]byte(evs[len(evs)-1].data), &done); err != nil {
		t.Fatal(err)
	}
	if !done.Final || done.Done != trials || done.Shown != explorer.ShownTrials || len(done.Loads) != 16 || done.Trial != 0 {
		t.Errorf("final snapshot: %d done, shown %d, %d loads of trial %d", done.Done, done.Shown, len(done.Loads), done.Trial)
	}
	// The tails are the page's old sum over every trial, which the CLI's
	// file gives.
	all := cliTrials(t, "graphalloc run --process=greedy --bins=16 --balls=4n --seed=3 --trials=3000 --every=3 -f json")
	var want []float64
	for _, r := range all {
		var n, acc int64
		for _, c := range r.LoadCounts {
			n += c
		}
		for len(want) < len(r.LoadCounts) {
			want = append(want, 0)
		}
		for i := len(r.LoadCounts) - 1; i >= 0; i-- {
			acc += r.LoadCounts[i]
			want[i] += float64(acc) / float64(n) / trials
		}
	}
	if len(done.Tails) != len(want) {
		t.Fatalf("tails %v, want %v", done.Tails, want)
	}
	for i := range want {
		if math.Abs(done.Tails[i]-want[i]) > 1e-12 {
			t.Errorf("tails[%d] = %v, want %v", i, done.Tails[i], want[i])
		}
	}
	// Loads are resent only when their trial changes.
	loads := 0
	for _, e := range evs {
		if e.name == "snapshot" && strings.Contains(e.data, `"loads":`) {
			loads++
		}
	}
	if loads > 2 {
		t.Errorf("the loads were sent in %d snapshots", loads)
	}
	t.Logf("%d trials: %d events, %d bytes", trials, len(evs), len(body))
}

// TestServeClientLeavesRealBuild: the same with graphgen's own build of a
// random 4-regular graph on 2^19 vertices (a second or two): the request
// ends within a second of the client leaving, and so does the build, which
// hears the request's context: its bytes are back in the budget within a
// second too.
func TestServeClientLeavesRealBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a graph of 2^19 vertices")
	}
	s, ts := newTestServerOf(t, "", 0, 0, "")
	cancel := explorertest.StartRun(t, ts.URL+"/api/run?process=graph&graph=regular:degree%3D4&bins=2%5E19&trials=1&page=p&slot=a")
	for s.Budget().Used() == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	left := time.Now()
	for s.Busy("p", "a") {
		if time.Since(left) > time.Second {
			t.Fatal("the request went on for a second after the client left")
		}
		time.Sleep(5 * time.Millisecond)
	}
	for s.Budget().Used() != 0 {
		if time.Since(left) > time.Second {
			t.Fatalf("the build's %d bytes were not given back within a second", s.Budget().Used())
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("the build stopped and its bytes came back %v after the client left", time.Since(left).Round(time.Millisecond))
}
