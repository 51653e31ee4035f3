//go:build !(linux && (amd64 || 386 || arm64 || riscv64 || loong64 || s390x))

package outfile

import "os"

// openUnnamed: this system has no unnamed files (or this package does not
// know its O_TMPFILE), so the temporary file is a named one.
func openUnnamed(string) (*os.File, error) { return nil, errNoUnnamed }

func linkUnnamed(*os.File, string) (string, error) { return "", errNoUnnamed }
