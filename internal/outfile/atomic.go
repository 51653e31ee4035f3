package outfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// atomicFile is the temporary file of an atomic write to final.
type atomicFile struct {
	f     *os.File
	final string
	named bool // f has a name (f.Name()) to rename or remove; else it is unnamed
}

// createAtomic creates the temporary file of a write to final, in final's
// directory (a rename does not cross file systems), with the permissions
// os.Create gives (0666 less the umask; os.CreateTemp's are 0600): an
// unnamed one where the system has them, else a hidden named one.
func createAtomic(final string) (*atomicFile, error) {
	f, err := openTemp(filepath.Dir(final))
	if err == nil {
		return &atomicFile{f: f, final: final}, nil
	}
	if !errors.Is(err, errNoUnnamed) {
		return nil, err
	}
	for try := 0; ; try++ {
		f, err := os.OpenFile(tempName(final, try), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil {
			return &atomicFile{f: f, final: final, named: true}, nil
		}
		if !os.IsExist(err) || try == maxTries {
			return nil, err
		}
	}
}

// openTemp opens an unnamed temporary file in a directory: openUnnamed,
// which the tests replace to try the named files other systems get.
var openTemp = openUnnamed

// maxTries bounds the temporary names tried beside one file.
const maxTries = 100

// tempName is the try'th hidden temporary name beside final.
func tempName(final string, try int) string {
	return filepath.Join(filepath.Dir(final), fmt.Sprintf(".%s.tmp%d-%d", filepath.Base(final), os.Getpid(), try))
}

// commit puts the complete file in place of final.
func (a *atomicFile) commit() error {
	if !a.named {
		name, err := linkUnnamed(a.f, a.final)
		if err != nil {
			a.f.Close()
			return err
		}
		if err := a.f.Close(); err != nil {
			os.Remove(name)
			return err
		}
		return renameOrRemove(name, a.final)
	}
	if err := a.f.Close(); err != nil {
		os.Remove(a.f.Name())
		return err
	}
	return renameOrRemove(a.f.Name(), a.final)
}

func renameOrRemove(name, final string) error {
	if err := os.Rename(name, final); err != nil {
		os.Remove(name)
		return err
	}
	return nil
}

// abort drops the temporary file: final keeps its content.
func (a *atomicFile) abort() {
	a.f.Close()
	if a.named {
		os.Remove(a.f.Name())
	}
}

// errNoUnnamed: no unnamed temporary file here; a named one is used.
var errNoUnnamed = errors.New("no unnamed temporary files")
