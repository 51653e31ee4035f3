package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// queueEvents runs a query on /api/queue and returns its events.
func queueEvents(t *testing.T, url, q string) []sseEvent {
	t.Helper()
	resp, err := http.Get(url + "/api/queue?" + q)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return readEvents(t, resp.Body)
}

// lastData is the data of the stream's event name ("" if none).
func lastData(evs []sseEvent, name string) string {
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].name == name {
			return evs[i].data
		}
	}
	return ""
}

// TestServeQueueEqualsQueue: /api/queue sends the file of graphalloc queue
// -f json with the command it shows (its trials and summary, byte for
// byte but the version), and refuses, with the CLI's message, an unknown
// key, a bad λ and a run above the server's caps.
func TestServeQueueEqualsQueue(t *testing.T) {
	ts := newTestServer(t, "", 1<<20, 1<<24, "")
	evs := queueEvents(t, ts.URL, "process=graph&graph=cycle&bins=256&lambda=0.7&time=50&trials=2&seed=3")
	if msg := failMessage(t, evs); msg != "" {
		t.Fatal(msg)
	}
	var cfg struct{ Command string }
	if err := json.Unmarshal([]byte(lastData(evs, "config")), &cfg); err != nil {
		t.Fatal(err)
	}
	want := "graphalloc queue --process=graph --graph=cycle --bins=256 --lambda=0.7 --time=50 --trials=2 --seed=3 -f json"
	if cfg.Command != want {
		t.Fatalf("command %q, want %q", cfg.Command, want)
	}
	out, msg := cliRun(t, strings.Fields(strings.TrimPrefix(want, "graphalloc "))...)
	if msg != "" {
		t.Fatal(msg)
	}
	var page, cli struct {
		Trials, Summary json.RawMessage
	}
	if err := json.Unmarshal([]byte(lastData(evs, "done")), &page); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out), &cli); err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(t, page.Trials, cli.Trials) || !jsonEqual(t, page.Summary, cli.Summary) {
		t.Errorf("/api/queue differs from %s:\n%s\n%s", want, page.Summary, cli.Summary)
	}
	for q, wantMsg := range map[string]string{
		"colour=red":                  `unknown parameter "colour"`,
		"lambda=1.5":                  "--lambda: need 0 < λ < 1",
		"bins=2^20&trials=4&time=1":   "n·trials = 1048576·4 is above this server's cap",
		"bins=4096&trials=2&time=1e4": "m·trials",
	} {
		if msg := failMessage(t, queueEvents(t, ts.URL, q)); !strings.Contains(msg, wantMsg) {
			t.Errorf("%s: %q, want %q", q, msg, wantMsg)
		}
	}
}

// TestServeDelete: a run panel's --delete abku runs run --delete's
// trials; a sequence file, which would read the server's files, is
// refused.
func TestServeDelete(t *testing.T) {
	ts := newTestServer(t, "", 0, 0, "")
	evs := getEvents(t, ts, "process=greedy&bins=512&trials=3&delete=abku&steps=10n")
	if msg := failMessage(t, evs); msg != "" {
		t.Fatal(msg)
	}
	out, msg := cliRun(t, "run", "--process=greedy", "--bins=512", "--trials=3", "--delete=abku", "--steps=10n", "-f", "json")
	if msg != "" {
		t.Fatal(msg)
	}
	var page, cli struct{ Trials, Summary json.RawMessage }
	if err := json.Unmarshal([]byte(lastData(evs, "dynamic")), &page); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out), &cli); err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(t, page.Trials, cli.Trials) || !jsonEqual(t, page.Summary, cli.Summary) {
		t.Errorf("the explorer's run --delete abku differs from run's:\n%s\n%s", page.Summary, cli.Summary)
	}
	// Its PNG download is run --delete --plot's figure, byte for byte.
	resp, err := http.Get(ts.URL + "/api/download?format=png&process=greedy&bins=512&trials=3&delete=abku&steps=10n")
	if err != nil {
		t.Fatal(err)
	}
	png, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	plot := filepath.Join(t.TempDir(), "run.png")
	if _, msg := cliRun(t, "run", "--process=greedy", "--bins=512", "--trials=3", "--delete=abku", "--steps=10n", "-o", filepath.Join(t.TempDir(), "run.json"), "--plot", plot); msg != "" {
		t.Fatal(msg)
	}
	if want, _ := os.ReadFile(plot); resp.StatusCode != http.StatusOK || len(want) == 0 || !bytes.Equal(png, want) {
		t.Errorf("the PNG of a run with deletions (status %d, %d bytes) differs from run --delete --plot (%d bytes)", resp.StatusCode, len(png), len(want))
	}
	if msg := failMessage(t, getEvents(t, ts, "process=greedy&bins=64&delete=file:/etc/hostname")); !strings.Contains(msg, "a sequence is run's") {
		t.Errorf("delete=file: %q", msg)
	}
	if msg := failMessage(t, getEvents(t, ts, "process=greedy&bins=4&delete=masking:survivors=64")); !strings.Contains(msg, "a sequence is run's") {
		t.Errorf("delete=masking: %q", msg)
	}
}

// jsonEqual reports whether two JSON texts hold the same value.
func jsonEqual(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	if len(a) < 3 {
		t.Errorf("empty JSON: %q", a)
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}
