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

// Results files are read back only from regular files of at most
// MaxInputBytes: a FIFO used to block the reader (chbench plot) forever
// and a huge file to be read whole into memory.
func TestOpenInputRefusesStreamsAndHugeFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "movement.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if _, err := ReadTable(fifo, nil); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("ReadTable(FIFO): %v", err)
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
	_, err = ReadTable(big, nil)
	if err == nil || !strings.Contains(err.Error(), strconv.Itoa(MaxInputBytes)) {
		t.Errorf("ReadTable(%d-byte file): %v, want an error naming the limit", MaxInputBytes+1, err)
	}
}
