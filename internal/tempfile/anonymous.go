package tempfile

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Anonymous returns a new, empty file in dir ("" for os.TempDir()) that no
// name points to, open for reading and writing: on Linux an O_TMPFILE
// file, elsewhere (or on a file system without O_TMPFILE) a file created
// and removed at once. Its space is freed when it is closed or the process
// dies in any way, SIGKILL included, so it can hold a copy that nothing
// must leave behind (the copy of a streamed key file).
func Anonymous(dir string) (*os.File, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	if f, err := openTmpfile(dir); err == nil {
		return f, nil
	}
	f, untrack, err := Create(dir, ".chbench-*.tmp")
	if err != nil {
		return nil, err
	}
	defer untrack()
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Output is a file being written that replaces path only when committed:
// the temporary file of [Output.Commit]'s rename. Where the system allows
// it the file has no name while it is written (see Anonymous), so that a
// process killed before the commit, even by SIGKILL or a fatal error,
// leaves nothing behind; elsewhere it is the tracked .NAME.NNN.tmp file
// of [Create], removed on SIGINT and SIGTERM.
type Output struct {
	f       *os.File
	path    string
	named   bool   // f has a name (Create's) until Commit renames it
	untrack func() // for a named file
}

// NewOutput starts an output that will replace path (in path's
// directory).
func NewOutput(path string) (*Output, error) {
	dir := filepath.Dir(path)
	if f, err := openTmpfile(dir); err == nil {
		return &Output{f: f, path: path, untrack: func() {}}, nil
	}
	f, untrack, err := Create(dir, Pattern(filepath.Base(path)))
	if err != nil {
		return nil, err
	}
	return &Output{f: f, path: path, named: true, untrack: untrack}, nil
}

// File returns the file to write.
func (o *Output) File() *os.File { return o.f }

// Commit makes the written file path: it sets its mode to 0644, gives an
// anonymous file a temporary name in path's directory and renames it over
// path. The file is closed whatever the outcome; on an error path is as
// it was and no temporary file remains.
func (o *Output) Commit() error {
	defer o.untrack()
	if err := o.f.Chmod(0o644); err != nil {
		o.Abort()
		return err
	}
	if o.named {
		if err := o.f.Close(); err != nil {
			os.Remove(o.f.Name())
			return err
		}
		if err := os.Rename(o.f.Name(), o.path); err != nil {
			os.Remove(o.f.Name())
			return err
		}
		return nil
	}
	defer o.f.Close()
	mu.Lock() // a name exists from the link to the rename: signal cleanup waits
	defer mu.Unlock()
	tmp, err := linkTmpfile(o.f, filepath.Dir(o.path), Pattern(filepath.Base(o.path)))
	if err != nil { // no /proc: copy the content to a named file
		tmp, err = copyOut(o.f, filepath.Dir(o.path), Pattern(filepath.Base(o.path)))
		if err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, o.path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// Abort drops the output: path is left as it was.
func (o *Output) Abort() {
	o.f.Close()
	if o.named {
		os.Remove(o.f.Name())
	}
	o.untrack()
}

// copyOut copies the anonymous file f into a new file of pattern in dir
// and returns its name (called with mu held).
func copyOut(f *os.File, dir, pattern string) (string, error) {
	out, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	_, err = io.Copy(out, io.NewSectionReader(f, 0, 1<<62))
	if err == nil {
		err = out.Chmod(0o644)
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(out.Name())
		return "", fmt.Errorf("copying to %s: %w", out.Name(), err)
	}
	return out.Name(), nil
}

// randomName returns pattern with its "*" replaced by a random number, as
// os.CreateTemp names its files.
func randomName(pattern string) string {
	return strings.Replace(pattern, "*", strconv.FormatUint(uint64(rand.Uint32()), 10), 1)
}
