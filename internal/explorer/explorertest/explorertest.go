// Package explorertest holds the requests the explorer's tests send, in
// the server's own package and in the command's, which serves it with
// run's planner.
//
// It imports only the standard library.
package explorertest

import (
	"context"
	"io"
	"net/http"
	"testing"
)

// Request sends a GET for url with the given headers (Host among them)
// and returns the status and the body (its first MiB).
func Request(t testing.TB, url string, headers map[string]string) (int, string) {
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

// StartRun sends a GET for url in the background and returns the
// function that makes its client leave.
func StartRun(t testing.TB, url string) context.CancelFunc {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	return cancel
}
