package testfs

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Linux's device numbers of the memory devices (Documentation/admin-guide/devices.txt).
const (
	memMajor  = 1
	nullMinor = 3 // /dev/null: takes everything
	fullMinor = 7 // /dev/full: every write fails with ENOSPC
)

// Null makes a character device node like /dev/null at dir/name.
func Null(t testing.TB, dir, name string) string {
	return mknod(t, filepath.Join(dir, name), memMajor, nullMinor)
}

// Full makes a character device node like /dev/full at dir/name.
func Full(t testing.TB, dir, name string) string {
	return mknod(t, filepath.Join(dir, name), memMajor, fullMinor)
}

func mknod(t testing.TB, path string, major, minor int) string {
	t.Helper()
	dev := major<<8 | minor // new_encode_dev for small numbers
	if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, dev); err != nil {
		t.Skipf("mknod %s: %v (device nodes need root, CAP_MKNOD)", path, err)
	}
	return path
}

// IsCharDevice reports whether path is still a character device.
func IsCharDevice(t testing.TB, path string) bool {
	t.Helper()
	st, err := os.Lstat(path)
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// FIFO makes a FIFO at dir/name.
func FIFO(t testing.TB, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := syscall.Mkfifo(path, 0o666); err != nil {
		t.Skipf("mkfifo %s: %v", path, err)
	}
	return path
}

// Tmpfs mounts a tmpfs with options opts (such as "size=64k") on a new
// directory in the test's temporary directory, and unmounts it when the
// test ends. prepare, if not nil, may put files in it; then readOnly
// remounts it read-only.
func Tmpfs(t testing.TB, opts string, readOnly bool, prepare func(dir string)) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, opts); err != nil {
		t.Skipf("mount tmpfs: %v (needs root, CAP_SYS_ADMIN)", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	if prepare != nil {
		prepare(dir)
	}
	if readOnly {
		if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT|syscall.MS_RDONLY, opts); err != nil {
			t.Fatalf("remount %s read-only: %v", dir, err)
		}
	}
	return dir
}
