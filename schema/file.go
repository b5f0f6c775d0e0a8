package schema

import (
	"fmt"
	"io"
	"os"

	"github.com/chbench/chbench/internal/inputs"
	"github.com/chbench/chbench/internal/tempfile"
)

// WriteFile writes path by calling fill on a temporary file in the same
// directory and renaming it over path (mode 0644), so readers see either
// the old file or the complete new one, never a partial one; every results
// file chbench writes itself goes through it (or [WriteFiles]). A fill
// that returns an error or panics leaves path untouched, removes the
// temporary file and returns the error. Where the system allows it (Linux)
// the temporary file has no name until the rename, so a process killed in
// any way leaves none behind; elsewhere it is removed on SIGINT or SIGTERM
// in a process whose main called tempfile.RemoveOnSignal (chbench,
// targets). A path that is an input of the command (internal/inputs) is
// refused before anything is written.
func WriteFile(path string, fill func(io.Writer) error) error {
	return WriteFiles([]string{path}, func(_ int, w io.Writer) error { return fill(w) })
}

// WriteFiles writes several files as one, as [WriteFile] writes one:
// fill(i, w) fills paths[i] in a temporary file in its directory, and only
// once every fill has succeeded are the temporary files renamed over their
// paths, in order. A fill that fails or panics leaves every path as it
// was (no file of a failed run replaces an earlier run's) and removes the
// temporary files; so does a path that is a directory or an input of the
// command, checked before the first fill and again before the renames.
// Should a rename still fail, the paths before it hold the new files and
// the others the old ones; the error names the path.
func WriteFiles(paths []string, fill func(i int, w io.Writer) error) (err error) {
	var outs []*tempfile.Output
	committed := 0
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("writing %s failed: %v", paths[max(len(outs)-1, 0)], r)
		}
		if err != nil {
			for _, o := range outs[committed:] {
				o.Abort()
			}
		}
	}()
	if err := checkTargets(paths); err != nil {
		return err
	}
	for i, path := range paths {
		o, err := tempfile.NewOutput(path)
		if err != nil {
			return err
		}
		outs = append(outs, o)
		if err := fill(i, o.File()); err != nil {
			return err
		}
	}
	if err := checkTargets(paths); err != nil {
		return err
	}
	for committed < len(outs) {
		o := outs[committed]
		committed++ // Commit removes its file whatever the outcome
		if err := o.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// checkTargets returns an error naming the first of paths that is a
// directory (its rename would fail after the others had replaced their
// files) or an input of the command.
func checkTargets(paths []string) error {
	for _, path := range paths {
		if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		if err := inputs.Check(path); err != nil {
			return err
		}
	}
	return nil
}

// MaxInputBytes bounds a results file read back (by the plots and the
// report): 256 MiB, far above any run chbench writes (a full `make bench`
// writes a few MiB per file), so a wrong path cannot make the reader hold
// gigabytes. A file of exactly MaxInputBytes is read.
const MaxInputBytes = 256 << 20

// OpenInput opens the results file at path for reading and registers it
// as an input of the command (internal/inputs). It returns an error naming
// the path for anything but a regular file (a FIFO would block the reader
// until some writer appears; a device can be endless) and for a file
// larger than MaxInputBytes. The returned reader also stops with an error
// if the file grows past MaxInputBytes while it is read.
func OpenInput(path string) (io.ReadCloser, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%v); results files are read from disk", path, fi.Mode().Type())
	}
	if fi.Size() > MaxInputBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d a results file may hold", path, fi.Size(), int64(MaxInputBytes))
	}
	f, err := inputs.Open(path)
	if err != nil {
		return nil, err
	}
	return &limitedFile{f: f, left: MaxInputBytes, path: path}, nil
}

// limitedFile reads at most MaxInputBytes of a file. It has only Read and
// Close (no WriteTo, which io.Copy would call instead of Read).
type limitedFile struct {
	f    *os.File
	left int64
	path string
}

func (l *limitedFile) Read(p []byte) (int, error) {
	if l.left == 0 { // the limit is reached: an error only if a byte follows
		var probe [1]byte
		n, err := l.f.Read(probe[:])
		if n > 0 {
			return 0, fmt.Errorf("%s: grew past the %d bytes a results file may hold", l.path, int64(MaxInputBytes))
		}
		return 0, err
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.f.Read(p)
	l.left -= int64(n)
	return n, err
}

func (l *limitedFile) Close() error { return l.f.Close() }
