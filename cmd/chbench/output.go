package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/chbench/chbench/internal/tempfile"
)

// checkOutPrefix returns an error unless files prefix+ext (one per format,
// see formatExt) can be written next to prefix, checked before any work:
// a usage error when prefix names no file (it ends in a separator, is "."
// or "..", or is an existing directory, device, FIFO or socket: -o
// /dev/null used to write /dev/null.table) or when one of the files
// exists as something a rename must not replace (a directory, device,
// FIFO or socket); an *fs.PathError (exit status 1, as for a missing
// input file) when prefix's directory does not exist or no file can be
// created in it. An empty prefix (standard output) is fine.
func checkOutPrefix(prefix string, formats []string) error {
	if prefix == "" {
		return nil
	}
	if base := filepath.Base(prefix); strings.HasSuffix(prefix, string(filepath.Separator)) || base == "." || base == ".." {
		return fmt.Errorf("-o %q: names a directory, not a file name prefix; give DIR/NAME for DIR/NAME.csv and the like", prefix)
	}
	if fi, err := os.Stat(prefix); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("-o %q: is a %s, not a file name prefix; give DIR/NAME for DIR/NAME.csv and the like", prefix, fileKind(fi.Mode()))
	}
	for _, f := range formats {
		if err := checkReplaceable(prefix + formatExt[f]); err != nil {
			return fmt.Errorf("-o %q: %w", prefix, err)
		}
	}
	dir := filepath.Dir(prefix)
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("-o %q: %w", prefix, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("-o %q: %s is a %s, not a directory", prefix, dir, fileKind(fi.Mode()))
	}
	// The only sure test that files can be created there is creating one.
	probe, untrack, err := tempfile.Create(dir, ".chbench-o-check.*.tmp")
	if err != nil {
		return fmt.Errorf("-o %q: no file can be created in %s: %w", prefix, dir, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	untrack()
	return nil
}

// checkReplaceable returns an error naming path when it exists as
// something other than a regular file or a symbolic link, which a rename
// over it must not replace: a directory, or (for root) a device such as
// /dev/null, a FIFO or a socket.
func checkReplaceable(path string) error {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() && fi.Mode()&fs.ModeSymlink == 0 {
		return fmt.Errorf("%s exists and is a %s, which the output must not replace", path, fileKind(fi.Mode()))
	}
	return nil
}

// fileKind names the type of a file mode for error messages.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m.IsRegular():
		return "regular file"
	}
	return "special file (" + m.Type().String() + ")"
}
