// Package testfs makes, in a test's temporary directory, the kinds of file
// an output may land on: device nodes, FIFOs, a read-only
// or a nearly full file system. Never the real /dev: a test that writes to
// /dev/null as root could destroy the machine's. Each helper skips the
// test, with the reason, where the system does not permit it.
package testfs

import (
	"io"
	"os"
	"testing"
)

// Names lists the names in dir, hidden ones included.
func Names(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// ReadAll opens path for reading and reads it to its end in a goroutine
// (a FIFO's open waits for a writer): the channel gets what was read, nil
// if path could not be opened.
func ReadAll(path string) <-chan []byte {
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- b
	}()
	return got
}
