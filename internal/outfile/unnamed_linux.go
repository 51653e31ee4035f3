//go:build linux && (amd64 || 386 || arm64 || riscv64 || loong64 || s390x)

package outfile

import (
	"errors"
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// oTmpfile is Linux's O_TMPFILE (__O_TMPFILE | O_DIRECTORY) on these
// architectures, which syscall does not define on all of them.
const oTmpfile = 0x410000

// atSymlinkFollow is linkat's AT_SYMLINK_FOLLOW: link the file the
// /proc/self/fd link stands for, not the link.
const atSymlinkFollow = 0x400

// openUnnamed opens an unnamed file in dir (O_TMPFILE): it vanishes if it
// is never linked, whatever ends the process. errNoUnnamed if the file
// system or kernel has none, or /proc (which linking it needs) is not
// mounted.
func openUnnamed(dir string) (*os.File, error) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		return nil, errNoUnnamed
	}
	f, err := os.OpenFile(dir, os.O_WRONLY|oTmpfile, 0o666)
	if err != nil {
		var errno syscall.Errno
		// EISDIR: a kernel without O_TMPFILE saw only O_DIRECTORY.
		if errors.As(err, &errno) && (errno == syscall.EOPNOTSUPP || errno == syscall.EISDIR || errno == syscall.EINVAL) {
			return nil, errNoUnnamed
		}
		return nil, err
	}
	return f, nil
}

// linkUnnamed gives the unnamed file f a hidden name beside final, for
// the rename, and returns it.
func linkUnnamed(f *os.File, final string) (string, error) {
	from := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
	for try := 0; ; try++ {
		name := tempName(final, try)
		err := linkat(from, name)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, syscall.EEXIST) || try == maxTries {
			return "", &os.LinkError{Op: "link", Old: from, New: name, Err: err}
		}
	}
}

func linkat(from, to string) error {
	p0, err := syscall.BytePtrFromString(from)
	if err != nil {
		return err
	}
	p1, err := syscall.BytePtrFromString(to)
	if err != nil {
		return err
	}
	cwd := atFDCWD
	_, _, e := syscall.Syscall6(syscall.SYS_LINKAT, uintptr(cwd), uintptr(unsafe.Pointer(p0)),
		uintptr(cwd), uintptr(unsafe.Pointer(p1)), atSymlinkFollow, 0)
	if e != 0 {
		return e
	}
	return nil
}

// atFDCWD is AT_FDCWD: paths relative to the working directory.
const atFDCWD = -100
