// Package testfs makes, in a test's temporary directory, the kinds of file
// an output may land on: device nodes, FIFOs, a read-only
// or a nearly full file system. Never the real /dev: a test that writes to
// /dev/null as root could destroy the machine's. Each helper skips the
// test, with the reason, where the system does not permit it.
package testfs

import (
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
