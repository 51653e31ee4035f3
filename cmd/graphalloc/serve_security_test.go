package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
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
