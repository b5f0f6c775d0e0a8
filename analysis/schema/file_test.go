package schema

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
