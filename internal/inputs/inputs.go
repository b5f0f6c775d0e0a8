// Package inputs is the registry of the files one chbench command reads,
// so that no command writes onto a file it reads. Every reader of a user
// file registers the file where it opens it ([Open], [Add]): key files and
// request logs (package keyset), members files (analysis), profiles and
// the result files of a directory (report), result files read back
// (schema); and the command registers the inputs its flags name before any
// work. Every writer asks [Check] before it creates a file, and again
// before it renames one into place (schema.WriteFiles): a path that is
// the same file as an input ([os.SameFile]: hard links, ./x and other
// spellings, symbolic links to it) is refused with an error naming both.
//
// The registry belongs to the process: one command per process, as
// chbench runs; [Reset] starts it afresh (for a test that runs several
// commands in one process).
package inputs

import (
	"fmt"
	"io/fs"
	"os"
	"sync"
)

var (
	mu    sync.Mutex
	files []entry
)

type entry struct {
	path string
	fi   fs.FileInfo
}

// Reset forgets every registered input.
func Reset() {
	mu.Lock()
	defer mu.Unlock()
	files = nil
}

// Open opens path for reading and registers it as an input.
func Open(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil {
		add(path, fi)
	}
	return f, nil
}

// Add registers the file at path, if it exists, as an input: for a file
// read through a path that Open does not see (a directory's files the
// command will read, standard input). A path that does not exist is no
// input and is ignored.
func Add(path string) {
	if fi, err := os.Stat(path); err == nil {
		add(path, fi)
	}
}

// AddFile registers the open file f, shown as name, as an input
// (standard input: os.Stdin).
func AddFile(f *os.File, name string) {
	if fi, err := f.Stat(); err == nil {
		add(name, fi)
	}
}

func add(path string, fi fs.FileInfo) {
	if !fi.Mode().IsRegular() { // a terminal or pipe is no file a writer can reach by a path
		return
	}
	mu.Lock()
	defer mu.Unlock()
	files = append(files, entry{path, fi})
}

// Check returns an error naming path and the input when the file at path
// exists and is a registered input; a path that does not exist yet is
// nobody's input.
func Check(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	mu.Lock()
	defer mu.Unlock()
	for _, e := range files {
		if os.SameFile(e.fi, fi) {
			if e.path == path {
				return fmt.Errorf("%s is an input of this command; writing it would replace what it reads: write the output elsewhere", path)
			}
			return fmt.Errorf("%s is the input %s (the same file); writing it would replace what the command reads: write the output elsewhere", path, e.path)
		}
	}
	return nil
}
