package explorer

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/graphalloc/graphalloc/graphgen"
)

// DataDir is the directory of graph files a server may read (--data; ""
// for none). The page names a file relative to it, and learns nothing of
// where it is on the server's disk.
type DataDir string

// Resolve checks a --graph value that names a file: only a relative name
// under the directory, no "..", no absolute path, no link out of it, and
// a regular file. It returns the value to run with, which names the file
// by its absolute path. A value that names no file is returned as it is.
func (d DataDir) Resolve(arg string) (string, error) {
	sp, err := graphgen.ParseSpec(arg)
	if err != nil || sp.Path == "" {
		return arg, nil // run's parser reports a bad spec
	}
	if d == "" {
		return "", fmt.Errorf("--graph: %s: this server has no --data directory; it reads no files", sp.Path)
	}
	p := sp.Path
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) {
		return "", fmt.Errorf("--graph: %s: an absolute path is refused; name a file under --data", p)
	}
	if slices.Contains(strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }), "..") {
		return "", fmt.Errorf("--graph: %s: '..' is refused; name a file under --data", p)
	}
	root, err := d.root()
	if err != nil {
		return "", fmt.Errorf("--graph: the --data directory cannot be read")
	}
	full, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(p)))
	if err != nil {
		return "", fmt.Errorf("--graph: %s: no such file under --data", p)
	}
	if rel, err := filepath.Rel(root, full); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("--graph: %s: leads out of --data; refused", p)
	}
	// A FIFO with no writer would block the read forever, a device may
	// never end: only regular files are graphs.
	if st, err := os.Stat(full); err != nil || !st.Mode().IsRegular() {
		return "", fmt.Errorf("--graph: %s: not a regular file; refused", p)
	}
	sp.Path = full
	return sp.String(), nil
}

// root is the directory as an absolute path with its links resolved: the
// prefix of every file the server reads.
func (d DataDir) root() (string, error) {
	abs, err := filepath.Abs(string(d))
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// Hide rewrites msg, an error or a note of a run on a file under the
// directory, to name the file as the page named it: relative to the
// directory, whose place on the server's disk is not the page's business.
func (d DataDir) Hide(msg string) string {
	if d == "" {
		return msg
	}
	var dirs []string
	if root, err := d.root(); err == nil {
		dirs = append(dirs, root)
	}
	if abs, err := filepath.Abs(string(d)); err == nil {
		dirs = append(dirs, abs)
	}
	for _, dir := range dirs {
		msg = strings.ReplaceAll(msg, dir+string(filepath.Separator), "")
		msg = strings.ReplaceAll(msg, dir, "--data")
	}
	return msg
}
