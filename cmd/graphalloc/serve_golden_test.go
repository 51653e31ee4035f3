package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/graphalloc/graphalloc/internal/explorer"
)

// goldenServeQueries are the explorer requests whose output is recorded
// under testdata/golden/explorer: a graph process with a picture (config,
// frames, snapshots), a process without a graph, and a file under --data.
var goldenServeQueries = []struct{ name, query string }{
	{"torus", "process=graph&graph=torus:dim=2&bins=256&balls=8n&seed=5&trials=4"},
	{"greedy", "process=greedy&choices=3&bins=1000&balls=4n&seed=2&trials=3&every=n"},
	{"file", "process=graph&graph=file:karate.txt&balls=4n&seed=1&trials=2"},
	{"weighted", "process=weighted&bins=500&seed=3&trials=2"},
}

// normalizedEvents is the stream of /api/run?q with what depends on
// timing fixed: the snapshots sent while trials finish (their number
// depends on how fast the trials run) are gathered into one list of
// trial rows, in trial order, which with the final event's own rows is
// every trial; the final event is recorded without its rows.
func normalizedEvents(t *testing.T, evs []sseEvent) string {
	t.Helper()
	var b strings.Builder
	for _, e := range evs {
		switch e.name {
		case "snapshot":
			continue
		case "done":
			var sn explorer.Snapshot
			if err := json.Unmarshal([]byte(e.data), &sn); err != nil {
				t.Fatal(err)
			}
			rows, err := json.Marshal(streamedResults(t, evs))
			if err != nil {
				t.Fatal(err)
			}
			b.WriteString("event: trials\ndata: " + string(rows) + "\n\n")
			sn.Results = nil
			data, err := json.Marshal(sn)
			if err != nil {
				t.Fatal(err)
			}
			e.data = string(data)
		}
		b.WriteString("event: " + e.name + "\ndata: " + e.data + "\n\n")
	}
	return b.String()
}

// getBody gets url and reads the whole response.
func getBody(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// TestServeGolden records the explorer's events for a fixed request and
// its JSON and CSV downloads, byte for byte.
func TestServeGolden(t *testing.T) {
	ts := newTestServer(t, "../../testdata/graphs", 0, 0, "")
	for _, c := range goldenServeQueries {
		t.Run(c.name, func(t *testing.T) {
			golden(t, "explorer/"+c.name+".events", normalizedEvents(t, getEvents(t, ts, c.query)))
			for _, format := range []string{"json", "csv"} {
				resp, body := getBody(t, ts.URL+"/api/download?format="+format+"&"+c.query)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("download %s: %s: %s", format, resp.Status, body)
				}
				head := "Content-Type: " + resp.Header.Get("Content-Type") + "\nContent-Disposition: " + resp.Header.Get("Content-Disposition") + "\n\n"
				golden(t, "explorer/"+c.name+"."+format, head+string(body))
			}
		})
	}
}

// TestServeGoldenErrors records the explorer's refusals: the event of a
// stream and the status and body of a download.
func TestServeGoldenErrors(t *testing.T) {
	ts := newTestServer(t, "../../testdata/graphs", 1<<20, 0, "")
	var b strings.Builder
	for _, q := range []string{
		"process=graph&graph=file:nope.txt&trials=2",
		"process=greedy&bins=2^20&trials=2",
		"process=greedy&colour=red",
		"process=greedy&bins=-4",
		"process=graph&graph=file:../secret.txt",
		"process=nope",
		"format=xml&process=greedy&bins=16&trials=1",
	} {
		b.WriteString("run?" + q + "\n" + normalizedEvents(t, getEvents(t, ts, q)))
		u := ts.URL + "/api/download?format=json&" + q
		if strings.HasPrefix(q, "format=") {
			u = ts.URL + "/api/download?" + q
		}
		resp, body := getBody(t, u)
		b.WriteString("download: " + resp.Status + " " + resp.Header.Get("Content-Type") + "\n" + string(body) + "\n")
	}
	golden(t, "explorer/errors", b.String())
}
