package schema

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// A fill that fails or panics leaves the old file as it was and no
// temporary file behind.
func TestWriteFileKeepsOldFileOnError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.svg")
	os.WriteFile(path, []byte("old"), 0o644)
	boom := errors.New("boom")
	err := WriteFile(path, func(w io.Writer) error {
		w.Write([]byte("half"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("file = %q after failed write, want old content", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files left, want 1 (temporary file removed)", len(ents))
	}
}

// WriteFiles renames nothing until every file is written: a run whose
// third format fails (or panics) leaves all three earlier files as they
// were (WriteFile per format had already replaced the first two) and no
// temporary file; a run that succeeds replaces all three.
func TestWriteFilesAllOrNothing(t *testing.T) {
	for _, failure := range []string{"error", "panic"} {
		dir := t.TempDir()
		var paths []string
		for _, ext := range []string{".csv", ".txt", ".json"} {
			p := filepath.Join(dir, "run"+ext)
			os.WriteFile(p, []byte("old"+ext), 0o644)
			paths = append(paths, p)
		}
		err := WriteFiles(paths, func(i int, w io.Writer) error {
			if i == 2 {
				if failure == "panic" {
					panic("boom")
				}
				return errors.New("boom")
			}
			_, err := w.Write([]byte("new"))
			return err
		})
		if err == nil || !strings.Contains(err.Error(), "boom") {
			t.Fatalf("%s: error %v, want boom", failure, err)
		}
		for _, p := range paths {
			if b, _ := os.ReadFile(p); string(b) != "old"+filepath.Ext(p) {
				t.Errorf("%s: %s = %q after a failed run, want the old content", failure, filepath.Base(p), b)
			}
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 3 {
			t.Errorf("%s: %d files left, want 3 (temporary files removed)", failure, len(ents))
		}
	}
	// A directory in the way of the last file: nothing is replaced.
	dir := t.TempDir()
	paths := []string{filepath.Join(dir, "b.csv"), filepath.Join(dir, "b.json")}
	os.WriteFile(paths[0], []byte("old"), 0o644)
	os.Mkdir(paths[1], 0o755)
	if err := WriteFiles(paths, func(int, io.Writer) error { return nil }); err == nil || !strings.Contains(err.Error(), "b.json is a directory") {
		t.Errorf("directory in the way: error %v", err)
	}
	if b, _ := os.ReadFile(paths[0]); string(b) != "old" {
		t.Errorf("b.csv = %q with b.json a directory, want the old content", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("%d files left, want 2 (temporary files removed)", len(ents))
	}
	dir = t.TempDir()
	paths = []string{filepath.Join(dir, "a.csv"), filepath.Join(dir, "a.txt")}
	os.WriteFile(paths[0], []byte("old"), 0o644)
	if err := WriteFiles(paths, func(i int, w io.Writer) error { _, err := w.Write([]byte(strconv.Itoa(i))); return err }); err != nil {
		t.Fatal(err)
	}
	for i, p := range paths {
		if b, _ := os.ReadFile(p); string(b) != strconv.Itoa(i) {
			t.Errorf("%s = %q, want %d", p, b, i)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("%d files, want 2", len(ents))
	}
}

// A fill that panics is an error naming the path, and the old file stays.
func TestWriteFilePanic(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.csv")
	os.WriteFile(path, []byte("old"), 0o644)
	err := WriteFile(path, func(io.Writer) error { panic("boom") })
	if err == nil || !strings.Contains(err.Error(), "x.csv") {
		t.Errorf("error %v, want one naming x.csv", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("file = %q after a panic, want old content", b)
	}
}

// Results files are read back only from regular files of at most
// MaxInputBytes: a FIFO would block the reader (chbench plot) until a
// writer appears, and a huge file would be read whole into memory.
func TestOpenInputRefusesStreamsAndHugeFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "movement.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if _, err := MovementFile.Read(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("read a FIFO: %v", err)
	}
	big := filepath.Join(dir, "spread.csv")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: no disk is used.
	if err := f.Truncate(MaxInputBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = SpreadFile.Read(dir)
	if err == nil || !strings.Contains(err.Error(), strconv.Itoa(MaxInputBytes)) {
		t.Errorf("read a %d-byte file: %v, want an error naming the limit", MaxInputBytes+1, err)
	}
}
