package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// request sends a GET for path to the test server with the given headers
// (Host among them) and returns the status and the body.
func request(t *testing.T, url string, headers map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, string(body)
}

// TestServeForeignHost: DNS rebinding. A page on attacker.example whose
// name now resolves to 127.0.0.1 sends same-origin requests, with its own
// name as Host: refused, the page and the runs alike.
func TestServeForeignHost(t *testing.T) {
	ts := newTestServer(t, "", 0, 0, "")
	for _, host := range []string{"attacker.example", "attacker.example:80", "127.0.0.1.attacker.example", "localhost.attacker.example"} {
		for _, path := range []string{"/", "/api/run?bins=64&trials=1", "/api/download?format=json&bins=64&trials=1"} {
			code, body := request(t, ts.URL+path, map[string]string{"Host": host})
			if code != http.StatusMisdirectedRequest || strings.Count(strings.TrimSpace(body), "\n") != 0 || !strings.Contains(body, "is not this server's") {
				t.Errorf("Host %s, %s: status %d, %q", host, path, code, body)
			}
		}
	}
	// The loopback names and addresses are served.
	_, port, _ := strings.Cut(strings.TrimPrefix(ts.URL, "http://"), ":")
	for _, host := range []string{"localhost:" + port, "127.0.0.1:" + port, "127.1.2.3:" + port, "[::1]:" + port, "LOCALHOST"} {
		if code, body := request(t, ts.URL+"/api/processes", map[string]string{"Host": host}); code != http.StatusOK {
			t.Errorf("Host %s: status %d, %q", host, code, body)
		}
	}
}

// TestServeCrossOrigin: a page of another origin may not start a run
// (nor a download, which runs one); the page's own requests may.
func TestServeCrossOrigin(t *testing.T) {
	ts := newTestServer(t, "", 0, 0, "")
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
			code, body := request(t, url, h)
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
		code, body := request(t, run, h)
		if code != http.StatusOK || !strings.Contains(body, "event: done") {
			t.Errorf("%s: status %d, %.200q", name, code, body)
		}
	}
	// The page itself may be linked to from anywhere.
	if code, _ := request(t, ts.URL+"/", map[string]string{"Sec-Fetch-Site": "cross-site"}); code != http.StatusOK {
		t.Errorf("the page, linked from another site: status %d", code)
	}
}

// TestServePublic: an --addr beyond loopback needs --public.
func TestServePublic(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:0", "example.com:0"} {
		_, msg, code := invoke("serve", "--addr", addr)
		if code != 2 || !strings.Contains(msg, "listens beyond this machine") || !strings.Contains(msg, "--public") || strings.Count(strings.TrimSpace(msg), "\n") != 0 {
			t.Errorf("--addr %s: exit %d, %q", addr, code, msg)
		}
	}
	var o serveOptions
	o.addr, o.public = "0.0.0.0:0", true
	var warn strings.Builder
	if err := o.checkAddr(&warn); err != nil || !strings.Contains(warn.String(), "warning: --public") {
		t.Errorf("--public: %v, %q", err, warn.String())
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0", "[::1]:0", "127.0.0.2:0"} {
		o := serveOptions{addr: addr}
		if err := o.checkAddr(io.Discard); err != nil {
			t.Errorf("--addr %s: %v", addr, err)
		}
	}
}

// TestServeDataRegularFiles: under --data only regular files are read; a
// FIFO with no writer, a device, or a link to one is refused at once
// instead of blocking the request.
func TestServeDataRegularFiles(t *testing.T) {
	data := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(data, "fifo.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("fifo.txt", filepath.Join(data, "to-fifo.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(data, "dir.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	names := []string{"fifo.txt", "to-fifo.txt", "dir.txt"}
	// A character device of our own (as root, as CI runs; the real /dev
	// is never touched): the null device's numbers, 1:3.
	if err := syscall.Mknod(filepath.Join(data, "null.txt"), syscall.S_IFCHR|0o644, 1<<8|3); err == nil {
		names = append(names, "null.txt")
	} else {
		t.Logf("no device node (%v): checking the FIFO only", err)
	}
	ts := newTestServer(t, data, 0, 0, "")
	for _, name := range names {
		for _, process := range []string{"graph", "hyper"} {
			kind := map[string]string{"graph": "file", "hyper": "hyper"}[process]
			start := time.Now()
			msg := failMessage(t, getEvents(t, ts, "process="+process+"&trials=1&graph="+kind+":"+name))
			if want := "--graph: " + name + ": not a regular file; refused"; !strings.Contains(msg, want) {
				t.Errorf("%s:%s: %q, want %q", kind, name, msg, want)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("%s:%s: refused after %v", kind, name, d)
			}
		}
	}
}

// TestServeErrorsHideData: a message about a file under --data names it
// as the page did, never by the server's absolute path.
func TestServeErrorsHideData(t *testing.T) {
	data := t.TempDir()
	if err := os.Mkdir(filepath.Join(data, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"sub/bad.mtx":   "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n9 9\n",
		"ring.txt":      "0 1\n1 2\n2 3\n3 0\n",
		"loops.txt":     "0 0\n0 1\n1 2\n2 0\n0 1\n",
		"empty.txt":     "# nothing\n",
		"sub/hyper.txt": "0 1 oops\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(data, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ts := newTestServer(t, data, 0, 0, "")
	for _, q := range []string{
		"process=graph&trials=1&graph=file:sub/bad.mtx",
		"process=graph&trials=1&bins=5&graph=file:ring.txt",
		"process=graph&trials=1&graph=file:empty.txt",
		"process=hyper&trials=1&graph=hyper:sub/hyper.txt",
		"process=graph&trials=1&graph=file:loops.txt",
		"process=graph&trials=1&graph=file:nothere.txt",
	} {
		evs := getEvents(t, ts, q)
		for _, e := range evs {
			if strings.Contains(e.data, data) || strings.Contains(e.data, os.TempDir()) {
				t.Errorf("%s: %s event shows the data directory: %.300s", q, e.name, e.data)
			}
		}
		if msg := failMessage(t, evs); msg == "" && !strings.Contains(q, "loops") && !strings.Contains(q, "hyper") {
			t.Errorf("%s: no failure: %v", q, evs)
		}
		code, body := request(t, ts.URL+"/api/download?format=json&"+q, nil)
		if strings.Contains(body, data) {
			t.Errorf("download %s: status %d shows the data directory: %.300s", q, code, body)
		}
	}
}
