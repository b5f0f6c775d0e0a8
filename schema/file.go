package schema

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/chbench/chbench/internal/tempfile"
)

// WriteFile writes path by calling fill on a temporary file in the same
// directory and renaming it over path (mode 0644), so readers see either
// the old file or the complete new one, never a partial one; every results
// file chbench writes itself goes through it (or [WriteFiles]). A fill
// that returns an error or panics leaves path untouched, removes the
// temporary file and returns the error. The temporary file is also removed
// on SIGINT or SIGTERM in a process whose main called
// tempfile.RemoveOnSignal (chbench, targets).
func WriteFile(path string, fill func(io.Writer) error) error {
	return WriteFiles([]string{path}, func(_ int, w io.Writer) error { return fill(w) })
}

// WriteFiles writes several files as one, as [WriteFile] writes one:
// fill(i, w) fills paths[i] in a temporary file in its directory, and only
// once every fill has succeeded are the temporary files renamed over their
// paths, in order. A fill that fails or panics leaves every path as it
// was (no file of a failed run replaces an earlier run's) and removes the
// temporary files; so does a path that is a directory. Should a rename
// still fail, the paths before it hold the new files and the others the
// old ones; the error names the path.
func WriteFiles(paths []string, fill func(i int, w io.Writer) error) (err error) {
	type pending struct {
		f       *os.File
		untrack func()
	}
	var tmps []pending
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("writing %s failed: %v", paths[max(len(tmps)-1, 0)], r)
		}
		for _, t := range tmps {
			if err != nil {
				t.f.Close()
				os.Remove(t.f.Name()) // gone already once renamed
			}
			t.untrack()
		}
	}()
	for i, path := range paths {
		tmp, untrack, err := tempfile.Create(filepath.Dir(path), tempfile.Pattern(filepath.Base(path)))
		if err != nil {
			return err
		}
		tmps = append(tmps, pending{tmp, untrack})
		if err := fill(i, tmp); err != nil {
			return err
		}
		if err := tmp.Chmod(0o644); err != nil {
			return err
		}
		if err := tmp.Close(); err != nil {
			return err
		}
	}
	// A directory in the way would fail its rename after the others had
	// replaced their files.
	for _, path := range paths {
		if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
	}
	for i, t := range tmps {
		if err := os.Rename(t.f.Name(), paths[i]); err != nil {
			return err
		}
	}
	return nil
}

// MaxInputBytes bounds a results file read back (by the plots): 256 MiB,
// far above any run chbench writes (a full `make bench` writes a few MiB
// per file), so a wrong path cannot make the reader hold gigabytes.
const MaxInputBytes = 256 << 20

// OpenInput opens the results file at path for reading. It returns an
// error naming the path for anything but a regular file (a FIFO would
// block the reader until some writer appears; a device can be endless)
// and for a file larger than MaxInputBytes. The returned reader also stops
// with an error if the file grows past MaxInputBytes while it is read.
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
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &limitedFile{File: f, left: MaxInputBytes, path: path}, nil
}

// limitedFile reads at most MaxInputBytes of a file.
type limitedFile struct {
	*os.File
	left int64
	path string
}

func (l *limitedFile) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, fmt.Errorf("%s: grew past the %d bytes a results file may hold", l.path, int64(MaxInputBytes))
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.File.Read(p)
	l.left -= int64(n)
	return n, err
}
