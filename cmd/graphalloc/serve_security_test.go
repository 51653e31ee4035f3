package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/graphalloc/graphalloc/internal/explorer/explorertest"
)

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
		code, body := explorertest.Request(t, ts.URL+"/api/download?format=json&"+q, nil)
		if strings.Contains(body, data) {
			t.Errorf("download %s: status %d shows the data directory: %.300s", q, code, body)
		}
	}
}
