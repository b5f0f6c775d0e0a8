package schema

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFile writes path by calling fill on a temporary file in the same
// directory and renaming it over path (mode 0644), so readers see either
// the old file or the complete new one, never a partial one; every results
// file chbench writes itself goes through it. A fill that returns an error
// or panics leaves path untouched, removes the temporary file and returns
// the error.
func WriteFile(path string, fill func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("writing %s failed: %v", path, r)
		}
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = fill(tmp); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
