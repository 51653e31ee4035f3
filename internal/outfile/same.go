package outfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// File is a file a command names on its command line: one it writes
// (an output) or one it reads (an input).
type File struct {
	Flag  string // what names it, for the error: "--output", "--graph"
	Path  string // as given; "" or "-" is stdout for an output, stdin (never in conflict) for an input
	Input bool
}

// Distinct refuses, before any work, two files of which at least one is
// written and which are the same file: the write would destroy the input,
// or one output the other. The same file is the same inode, however it is
// named (links, symlinks, ./ and ../), or, for outputs not created yet, the
// same resolved path; and two outputs to stdout. A device is never in
// conflict: /dev/null takes any number of outputs, and a terminal is both
// read and written.
func Distinct(files ...File) error {
	ids := make([]identity, len(files))
	for i, f := range files {
		ids[i] = identify(f)
	}
	for i, a := range files {
		for j := i + 1; j < len(files); j++ {
			b := files[j]
			if (a.Input && b.Input) || !ids[i].same(ids[j]) {
				continue
			}
			switch {
			case a.Input:
				return overwrites(b, a)
			case b.Input:
				return overwrites(a, b)
			case ids[i].stdout || ids[j].stdout:
				return fmt.Errorf("%s and %s both write to stdout: give one of them a file", a.Flag, b.Flag)
			}
			return fmt.Errorf("%s and %s both name %s: one output would replace the other; give each its own file", a.Flag, b.Flag, b.Path)
		}
	}
	return nil
}

// overwrites is the error of an output out over the input in.
func overwrites(out, in File) error {
	name := out.Path
	if IsStdout(name) {
		name = "stdout"
	}
	return fmt.Errorf("%s: %s is the file %s reads: writing it would destroy the input; name another file", out.Flag, name, in.Flag)
}

// identity is what tells two files apart.
type identity struct {
	none   bool        // stdin, or a file that cannot be told (its error comes later)
	stdout bool        // an output to stdout
	device bool        // a character or block device
	st     os.FileInfo // the file, if it exists
	path   string      // the resolved absolute path, if it does not
}

func identify(f File) identity {
	var id identity
	var err error
	switch {
	case IsStdout(f.Path) && f.Input:
		return identity{none: true}
	case IsStdout(f.Path):
		id.stdout = true
		id.st, err = os.Stdout.Stat()
	default:
		var t target
		if t, err = resolve(f.Path); err == nil && t.exists {
			id.st, err = os.Stat(t.path)
		} else if err == nil {
			id.path = absPath(t.path)
		}
	}
	if err != nil && !id.stdout {
		return identity{none: true}
	}
	if id.st != nil {
		id.device = id.st.Mode()&os.ModeDevice != 0
	}
	return id
}

// absPath is path made absolute through its directory's real path.
func absPath(path string) string {
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		dir = filepath.Dir(path)
	}
	if abs, err := filepath.Abs(filepath.Join(dir, filepath.Base(path))); err == nil {
		return abs
	}
	return path
}

func (a identity) same(b identity) bool {
	switch {
	case a.none || b.none:
		return false
	case a.stdout && b.stdout:
		return true
	case a.device || b.device:
		return false
	case a.st != nil && b.st != nil:
		return os.SameFile(a.st, b.st)
	}
	return a.path != "" && a.path == b.path
}

// Outputs are the files a command writes: its results (-o FILE, or
// stdout) and those of more that are set (--plot FILE).
func Outputs(output string, more ...File) []File {
	res := File{Flag: "--output", Path: output}
	if output == "" {
		res.Flag = "the results"
	}
	files := []File{res}
	for _, f := range more {
		if f.Path != "" {
			files = append(files, f)
		}
	}
	return files
}

// Inputs are the files a command reads, named by flag.
func Inputs(flag string, paths ...string) []File {
	files := make([]File, len(paths))
	for i, p := range paths {
		files[i] = File{Flag: flag, Path: p, Input: true}
	}
	return files
}
