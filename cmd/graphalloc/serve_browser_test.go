package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/graphalloc/graphalloc/alloc"
)

// The explorer in a real browser: chromedp drives the distribution's
// chromium, headless. It runs only with GRAPHALLOC_BROWSER=1 (.ci/run sets
// it after installing chromium), so that go test ./... stays fast; with
// GRAPHALLOC_EXPLORER_SHOT=FILE it also saves the side-by-side screenshot
// of the README (docs/explorer.png) to FILE.

// findChromium returns the path of a chromium or chrome binary, or "".
func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// trialRows is what the page shows of each trial: trial, max load, load
// counts, as text.
func trialRows(rs []alloc.Result) [][]string {
	var rows [][]string
	for _, r := range rs {
		var counts []string
		for _, c := range r.LoadCounts {
			counts = append(counts, strconv.FormatInt(c, 10))
		}
		rows = append(rows, []string{strconv.Itoa(r.Trial), strconv.FormatFloat(r.MaxLoad, 'f', -1, 64), strings.Join(counts, " ")})
	}
	return rows
}

// cliTrials runs graphalloc with a command line as the page shows it and
// returns its trials.
func cliTrials(t *testing.T, command string) []alloc.Result {
	t.Helper()
	args := strings.Fields(strings.TrimPrefix(command, "graphalloc "))
	out, msg := cliRun(t, args...)
	if msg != "" {
		t.Fatalf("%s: %s", command, msg)
	}
	var f struct{ Trials []alloc.Result }
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatal(err)
	}
	return f.Trials
}

func TestExplorerInBrowser(t *testing.T) {
	if os.Getenv("GRAPHALLOC_BROWSER") == "" {
		t.Skip("browser test: set GRAPHALLOC_BROWSER=1 to run it (needs chromium; .ci/run does)")
	}
	if testing.Short() {
		t.Skip("browser test: skipped in -short mode")
	}
	bin := findChromium()
	if bin == "" {
		t.Skip("browser test: no chromium found (apt-get install -y chromium)")
	}
	ts := httptest.NewServer(newServer(serveOptions{maxBinTrials: 1 << 26, maxBallTrials: 1 << 31}))
	defer ts.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1500, 1250))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancelC := chromedp.NewContext(actx, chromedp.WithBrowserOption(chromedp.WithConsolef(func(f string, a ...any) { t.Logf("console: "+f, a...) })))
	defer cancelC()
	ctx, cancelT := context.WithTimeout(ctx, 30*time.Second)
	defer cancelT()

	// rows reads the trial table of panel slot.
	rows := func(slot string) [][]string {
		js := `Array.from(document.querySelectorAll("#` + slot + `-trials tbody tr")).map(tr => Array.from(tr.cells).map(td => td.textContent))`
		rs, err := chromedp.Run(ctx, chromedp.Evaluate[[][]string](js))
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}
	// check compares panel slot, once done, with graphalloc run.
	check := func(slot, wantCommand string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#`+slot+`-status[data-state="done"]`))); err != nil {
			body, _ := chromedp.Run(context.WithoutCancel(ctx), chromedp.Evaluate[string](`document.body.innerText`))
			t.Fatalf("panel %s: waiting for the final snapshot: %v\n%s", slot, err, body)
		}
		command, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#`+slot+`-command`)))
		if err != nil {
			t.Fatal(err)
		}
		if wantCommand != "" && command != wantCommand {
			t.Errorf("panel %s: command %q, want %q", slot, command, wantCommand)
		}
		want := trialRows(cliTrials(t, command))
		got := rows(slot)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("panel %s: the page shows\n%v\nbut %s gives\n%v", slot, got, command, want)
		}
	}

	// The default configuration, which runs when the page opens.
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatal(err)
	}
	check("a", "graphalloc run --process=graph --graph=cycle --bins=1024 --balls=16n --seed=1 --trials=10 --every=819 -f json")
	check("b", "graphalloc run --process=graph --graph=regular:degree=4 --bins=1024 --balls=16n --seed=1 --trials=10 --every=819 -f json")
	if err := chromedp.Do(ctx, chromedp.Sleep(2500*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if p := os.Getenv("GRAPHALLOC_SCREENSHOT_DIR"); p != "" {
		dir = p // kept after the test (a CI artifact)
	}
	path := filepath.Join(dir, "explorer.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "browser test: screenshot of the explorer in %s\n", path)
	if p := os.Getenv("GRAPHALLOC_EXPLORER_SHOT"); p != "" {
		if err := os.WriteFile(p, shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// A permalink: both panels run from the URL alone.
	attr, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(`#permalink`), "href"))
	if err != nil {
		t.Fatal(err)
	}
	link := attr.Value
	if !strings.Contains(link, "a.graph=cycle") || !strings.Contains(link, "b.graph=regular%3Adegree%3D4") {
		t.Errorf("permalink %q", link)
	}
	perma := ts.URL + "/?a.process=graph&a.graph=torus%3Adim%3D2&a.bins=256&a.balls=4n&a.seed=3&a.trials=3&b.process=greedy&b.bins=1000&b.seed=9&b.trials=2"
	if err := chromedp.Do(ctx, chromedp.Navigate(perma)); err != nil {
		t.Fatal(err)
	}
	check("a", "graphalloc run --process=graph --graph=torus:dim=2 --bins=256 --balls=4n --seed=3 --trials=3 --every=51 -f json")
	check("b", "graphalloc run --process=greedy --bins=1000 --seed=9 --trials=2 --every=50 -f json")

	// A bad spec: the page shows the CLI's message.
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`#panel-a input[name="graph"]`), "torus:dimension=2"),
		chromedp.Click(chromedp.CSS(`#panel-a button.run`)),
		chromedp.WaitVisible(chromedp.CSS(`#a-status[data-state="failed"]`))); err != nil {
		t.Fatal(err)
	}
	msg, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#a-error`)))
	if err != nil {
		t.Fatal(err)
	}
	_, want := cliRun(t, "run", "--process=graph", "--graph=torus:dimension=2", "--bins=256", "--balls=4n", "--seed=3", "--trials=3")
	if want == "" || msg != want {
		t.Errorf("bad spec: the page shows %q, run says %q", msg, want)
	}

	// The parameters of threshold, quantile, memory and kd-choice: fields
	// the page builds from /api/params.
	for _, q := range []string{
		"a.process=threshold&a.threshold=2&a.bins=256&a.trials=2&b.process=quantile&b.delta=0.25&b.bins=256&b.trials=2",
		"a.process=memory&a.memory=2&a.bins=256&a.trials=2&b.process=kd-choice&b.choices=3&b.k=2&b.bins=256&b.trials=2",
	} {
		if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?"+q)); err != nil {
			t.Fatal(err)
		}
		for _, slot := range []string{"a", "b"} {
			check(slot, "")
			command, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#`+slot+`-command`)))
			if err != nil {
				t.Fatal(err)
			}
			for kv := range strings.SplitSeq(q, "&") {
				if k, v, _ := strings.Cut(kv, "="); strings.HasPrefix(k, slot+".") && !strings.Contains(command, "--"+k[2:]+"="+v) {
					t.Errorf("panel %s: command %q lacks --%s=%s", slot, command, k[2:], v)
				}
			}
		}
	}
	formRuns(t, ctx, check, dir)
	queueRun(t, ctx, dir)
}

// queueRun runs the supermarket model from the page's queue form (its
// defaults: edge sampling on a random 3-regular graph, where Gast's pair
// approximation applies) and checks every number of its table, the
// measured tails and their intervals and the prediction beside them,
// against graphalloc queue with the command the page shows; then ABKU's
// infinite process from a run panel (--delete abku) against run --delete.
// The queue panel is photographed into dir.
func queueRun(t *testing.T, ctx context.Context, dir string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(strings.Split(chromedpURL(t, ctx), "?")[0]),
		chromedp.WaitVisible(chromedp.CSS(`#a-status[data-state="done"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#b-status[data-state="done"]`))); err != nil {
		t.Fatal(err)
	}
	// The button's own click (the panels above may still move the page
	// under a click at its coordinates).
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(b => { b.click(); return true })(document.querySelector("#queue-form button.run"))`)); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(wctx, chromedp.WaitVisible(chromedp.CSS(`#q-status[data-state="done"]`))); err != nil {
		body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + "\n" + document.getElementById("queue-panel").innerText`))
		t.Fatalf("queue panel: %v\n%s", err, body)
	}
	if shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
		path := filepath.Join(dir, "explorer-queue.png")
		if err := os.WriteFile(path, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(os.Stderr, "browser test: screenshot of the queue panel in %s\n", path)
	}
	command, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#q-command`)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(command, "graphalloc queue ") || !strings.Contains(command, "--lambda=0.8") {
		t.Fatalf("queue panel: command %q", command)
	}
	out, msg := cliRun(t, strings.Fields(strings.TrimPrefix(command, "graphalloc "))...)
	if msg != "" {
		t.Fatalf("%s: %s", command, msg)
	}
	var f struct {
		Summary struct {
			Tails []struct {
				Mean float64
				CI95 [2]float64 `json:"ci95"`
			}
			Predictions []struct {
				Name    string
				Applies bool
				Tails   []float64
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatal(err)
	}
	js := `Array.from(document.querySelectorAll("#q-tails tr")).map(tr => Array.from(tr.cells).map(td => td.textContent))`
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[[][]string](js))
	if err != nil {
		t.Fatal(err)
	}
	var pair []float64
	for _, p := range f.Summary.Predictions {
		if p.Applies && p.Name == "pair approximation" {
			pair = p.Tails
		}
	}
	if len(pair) == 0 || len(rows) < 3 || !strings.Contains(strings.Join(rows[0], "|"), "pair approximation [approximation]") {
		t.Fatalf("queue panel: the CLI's pair approximation (%v) is not the page's column: %v", pair, rows)
	}
	near := func(cell string, want float64) bool {
		got, err := strconv.ParseFloat(strings.Trim(cell, "[], "), 64)
		return err == nil && math.Abs(got-want) <= 1e-4*math.Abs(want)+1e-12
	}
	for i, tail := range f.Summary.Tails {
		r := rows[3+i] // the head, the mean queue and the sojourn first
		lo, hi, _ := strings.Cut(r[2], ", ")
		if r[0] != "s_"+strconv.Itoa(i+1) || !near(r[1], tail.Mean) || !near(lo, tail.CI95[0]) || !near(hi, tail.CI95[1]) ||
			(i+1 < len(pair) && !near(r[3], pair[i+1])) {
			t.Errorf("queue panel: row %v; %s gives s_%d = %g %v, pair approximation %v", r, command, i+1, tail.Mean, tail.CI95, pair)
		}
	}

	// run --delete abku in panel A.
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`#panel-a input[name="graph"]`), "regular:degree=4"),
		chromedp.SetValue(chromedp.CSS(`#panel-a input[name="balls"]`), "n"),
		chromedp.SetValue(chromedp.CSS(`#panel-a input[name="delete"]`), "abku"),
		chromedp.SetValue(chromedp.CSS(`#panel-a input[name="steps"]`), "20n"),
		chromedp.Click(chromedp.CSS(`#panel-a button.run`)),
		chromedp.WaitVisible(chromedp.CSS(`#a-status[data-state="done"]`))); err != nil {
		t.Fatal(err)
	}
	command, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#a-command`)))
	if err != nil {
		t.Fatal(err)
	}
	out, msg = cliRun(t, strings.Fields(strings.TrimPrefix(command, "graphalloc "))...)
	var d struct {
		Trials []struct {
			Trial   int `json:"trial"`
			MaxLoad int `json:"max_load"`
		}
	}
	if err := json.Unmarshal([]byte(out), &d); msg != "" || err != nil || !strings.Contains(command, "--delete=abku") {
		t.Fatalf("%s: %s %v", command, msg, err)
	}
	js = `Array.from(document.querySelectorAll("#a-trials tbody tr")).map(tr => tr.cells[0].textContent + " " + tr.cells[1].textContent)`
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](js))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range d.Trials {
		want = append(want, fmt.Sprintf("%d %d", r.Trial, r.MaxLoad))
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("delete abku: the page shows %v, %s gives %v", got, command, want)
	}
	js = `Array.from(document.querySelectorAll("#panel-a .dynamic tbody tr")).map(tr => tr.cells[0].textContent + " " + tr.cells[2].textContent)`
	stats, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](js))
	if err != nil || len(stats) == 0 || !strings.Contains(strings.Join(stats, ";"), "max_load [") {
		t.Errorf("delete abku: the statistics read %q (%v), want each with its interval", stats, err)
	}
	status, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#a-status`)))
	if err != nil || !strings.Contains(status, "with deletions abku, ") || strings.Contains(status, "undefined") {
		t.Errorf("delete abku: the status reads %q (%v)", status, err)
	}
}

// chromedpURL is the page's URL.
func chromedpURL(t *testing.T, ctx context.Context) string {
	t.Helper()
	u, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// formRuns fills the form as a reader does, typing into its fields:
// threshold in panel A and kd-choice in panel B, whose fields show once
// the process is named; each run is checked against graphalloc run, and
// the page is photographed at two window sizes. Then a typo in the
// process name with n beyond the server's cap: the typo is reported.
func formRuns(t *testing.T, ctx context.Context, check func(slot, wantCommand string), dir string) {
	t.Helper()
	// typeIn types the fields (slot, name, value, ...) as a reader does.
	typeIn := func(fields ...string) []chromedp.Action[chromedp.Void] {
		var steps []chromedp.Action[chromedp.Void]
		for i := 0; i+2 < len(fields); i += 3 {
			css := `#panel-` + fields[i] + ` input[name="` + fields[i+1] + `"]`
			clear := chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(e => { e.value = ""; return true })(document.querySelector('`+css+`'))`))
				return err
			})
			steps = append(steps, clear, chromedp.SendKeys(chromedp.CSS(css), fields[i+2]))
		}
		return steps
	}
	steps := typeIn("a", "process", "threshold", "a", "threshold", "2", "a", "bins", "4096", "a", "balls", "n", "a", "seed", "1", "a", "trials", "3",
		"b", "process", "kd-choice", "b", "choices", "3", "b", "k", "2", "b", "bins", "999", "b", "balls", "4n", "b", "seed", "1", "b", "trials", "3")
	if err := chromedp.Do(ctx, append(steps, chromedp.Click(chromedp.CSS(`#run-both`)))...); err != nil {
		t.Fatal(err)
	}
	check("a", "graphalloc run --process=threshold --bins=4096 --balls=n --seed=1 --trials=3 --threshold=2 --every=204 -f json")
	check("b", "graphalloc run --process=kd-choice --bins=999 --balls=4n --seed=1 --trials=3 --choices=3 --k=2 --every=199 -f json")
	for _, size := range [][2]int64{{1500, 1100}, {700, 1300}} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1]), chromedp.Sleep(300*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, fmt.Sprintf("explorer-form-%dx%d.png", size[0], size[1]))
		if err := os.WriteFile(path, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(os.Stderr, "browser test: screenshot at %dx%d in %s\n", size[0], size[1], path)
	}
	steps = append(typeIn("a", "process", "greedyy", "a", "bins", "2^40"),
		chromedp.Click(chromedp.CSS(`#panel-a button.run`)),
		chromedp.WaitVisible(chromedp.CSS(`#a-status[data-state="failed"]`)))
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
	if msg, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#a-error`))); err != nil || !strings.Contains(msg, `unknown process "greedyy"`) {
		t.Errorf("a typo with n beyond the cap: the page shows %q (%v), want the typo", msg, err)
	}
}
