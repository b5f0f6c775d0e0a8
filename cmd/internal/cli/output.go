package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/chbench/chbench/internal/inputs"
	"github.com/chbench/chbench/internal/tempfile"
)

// CheckPrefix returns an error unless files prefix+ext (one per extension
// of exts) can be written next to prefix, checked before any work:
// a usage error when prefix is "-" (standard output is the default: omit
// -o), names no file (it ends in a separator, is "." or "..", or is an
// existing directory, device, FIFO or socket: -o /dev/null used to write
// /dev/null.table), when one of the files exists as something a rename
// must not replace (see checkOutPaths), when a file or its temporary
// name is too long a name, or when prefix's directory does not exist or
// no file can be created in it. An empty prefix (standard output) is
// fine.
func CheckPrefix(prefix string, exts []string) error {
	if prefix == "" {
		return nil
	}
	if prefix == "-" {
		return fmt.Errorf("-o -: -o takes a file name prefix (PREFIX.csv, ...); omit -o to write to standard output")
	}
	if namesDir(prefix) {
		return fmt.Errorf("-o %q: names a directory, not a file name prefix; give DIR/NAME for DIR/NAME.csv and the like", prefix)
	}
	if fi, err := os.Stat(prefix); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("-o %q: is a %s, not a file name prefix; give DIR/NAME for DIR/NAME.csv and the like", prefix, fileKind(fi.Mode()))
	}
	paths := make([]string, len(exts))
	for i, ext := range exts {
		paths[i] = prefix + ext
	}
	return checkOutPaths(prefix, paths)
}

// CheckFile is CheckPrefix for an -o that names the output file
// itself (report): a usage error when path names a directory (a trailing
// separator, "." or "..") or fails checkOutPaths' checks (its directory
// missing or taking no new file too). "-" (standard output) is the
// caller's to handle.
func CheckFile(path string) error {
	if namesDir(path) {
		return fmt.Errorf("-o %q: names a directory, not a file; give DIR/NAME", path)
	}
	return checkOutPaths(path, []string{path})
}

// namesDir reports whether path can only name a directory: it ends in a
// separator or its last element is "." or "..".
func namesDir(path string) bool {
	base := filepath.Base(path)
	return strings.HasSuffix(path, string(filepath.Separator)) || base == "." || base == ".."
}

// checkOutPaths checks, before any work, that schema.WriteFiles can write
// paths (all in one directory), the files of -o value: an error naming
// value and the path when one is an input of the command (see
// InputFlags and internal/inputs: the same file, by os.SameFile), when one
// exists as something other than a regular file (a symbolic link, which the rename would replace rather than
// write through, or a directory, device, FIFO or socket, which it must
// not replace), or when a path or its temporary name (.NAME.NNNNNNNNNN.tmp,
// longer than NAME) is too long for the file system, or when the
// directory is missing or takes no new file. Every one is a usage error
// (exit status 2), however the caller classifies it: the -o value names
// a place no output can go, found before any work (an input file that
// cannot be read is an error while running, but -o is no input). A
// failure while the output is written (a full disk) stays an error of
// the run.
func checkOutPaths(value string, paths []string) error {
	if err := checkOutPathsOf(value, paths); err != nil {
		return Usage(errors.New(err.Error())) // not an *fs.PathError, which Usage would leave at exit 1
	}
	return nil
}

// checkOutPathsOf is checkOutPaths, its errors unclassified.
func checkOutPathsOf(value string, paths []string) error {
	for _, p := range paths {
		if err := CheckReplaceable(p); err != nil {
			return fmt.Errorf("-o %q: %w", value, err)
		}
		if err := inputs.Check(p); err != nil {
			return fmt.Errorf("-o %q: %w", value, err)
		}
	}
	dir := filepath.Dir(paths[0])
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("-o %q: %w", value, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("-o %q: %s is a %s, not a directory", value, dir, fileKind(fi.Mode()))
	}
	longest := ""
	for _, p := range paths {
		if b := filepath.Base(p); len(b) > len(longest) {
			longest = b
		}
	}
	if err := tempfile.Probe(dir, longest); err != nil {
		if errors.Is(err, syscall.ENAMETOOLONG) {
			return fmt.Errorf("-o %q: %s is written through the temporary file .%s.NNNNNNNNNN.tmp, a name of %d bytes, too long for %s; shorten the -o value",
				value, filepath.Join(dir, longest), longest, len(longest)+tempExtra, dir)
		}
		return fmt.Errorf("-o %q: no file can be created in %s: %w", value, dir, err)
	}
	return nil
}

// tempExtra is how many bytes longer than NAME the temporary name
// schema.WriteFiles writes NAME through can be (tempfile.Longest).
var tempExtra = len(tempfile.Longest(""))

// CheckReplaceable returns an error naming path when it exists as
// something other than a regular file, which a rename over it must not
// replace: a symbolic link (the rename would replace the link, not write
// the file it points to; -o /dev/stdout as root would replace the link in
// /dev), a directory, or (for root) a device such as /dev/null, a FIFO or
// a socket.
func CheckReplaceable(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case err != nil || fi.Mode().IsRegular():
		return nil
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link, which the output would replace by a rename; give the path of the file it points to", path)
	}
	return fmt.Errorf("%s exists and is a %s, which the output must not replace", path, fileKind(fi.Mode()))
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
