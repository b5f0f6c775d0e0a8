package keyset

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/chbench/chbench/memory"
)

// keyLines returns "1\n2\n...n\n", what `seq 1 n` prints.
func keyLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

// countKeys streams src twice and returns the keys of each pass.
func countKeys(t *testing.T, src Source) [2]int64 {
	t.Helper()
	var out [2]int64
	for pass := range out {
		var n atomic.Int64
		if err := src.Each(2, func(_, _ int, keys []string) { n.Add(int64(len(keys))) }); err != nil {
			t.Fatal(err)
		}
		out[pass] = n.Load()
	}
	return out
}

// A key file that cannot be read twice (standard input, /dev/stdin,
// process substitution, a FIFO) is read once into a copy that its File
// owns, so its keys are counted and streamed as often as needed, and
// Close deletes the copy (and nothing of a regular file).
func TestStreamedKeyFiles(t *testing.T) {
	const n = 10000
	data := keyLines(n)

	// A FIFO, written once.
	fifo := filepath.Join(t.TempDir(), "keys.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	go func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.WriteString(data)
			w.Close()
		}
	}()
	// A pipe named by /dev/fd/N, as process substitution gives.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() { w.WriteString(data); w.Close() }()
	procSub := fmt.Sprintf("/dev/fd/%d", r.Fd())
	// Standard input, as "-".
	sr, sw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { sw.WriteString(data); sw.Close() }()
	stdin := os.Stdin
	os.Stdin = sr
	defer func() { os.Stdin = stdin; sr.Close() }()

	tmp := t.TempDir() // the copies go to $TMPDIR: a directory of this test's own
	t.Setenv("TMPDIR", tmp)
	for _, path := range []string{fifo, procSub, "-"} {
		f, err := NewFile(path, 2)
		if err != nil {
			t.Fatalf("NewFile(%s): %v", path, err)
		}
		if f.Keys() != n || f.Path() != path {
			t.Errorf("NewFile(%s): %d keys, path %q; want %d, %q", path, f.Keys(), f.Path(), n, path)
		}
		if got := countKeys(t, f); got != [2]int64{n, n} {
			t.Errorf("%s: two passes streamed %v keys, want %d each", path, got, n)
		}
		if f.copy == nil {
			t.Errorf("%s: read in place, want a copy", path)
		}
		// The copy has no name, so no way of ending the process (SIGKILL
		// included) can leave it behind.
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("%s: the copy has a name in $TMPDIR: %v", path, left)
		}
		f.Close()
	}
	regular := filepath.Join(t.TempDir(), "keys.txt")
	if err := os.WriteFile(regular, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := NewFile(regular, 2)
	if err != nil || f.copy != nil {
		t.Fatalf("regular file: %v, copied %v", err, f.copy != nil)
	}
	f.Close()
	if _, err := os.Stat(regular); err != nil {
		t.Errorf("Close removed the regular key file: %v", err)
	}
	if _, err := NewFile(t.TempDir(), 1); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("a directory as key file: %v", err)
	}
}

// The part-filled chunks of a key file's sets stay within PendingBytes
// whatever the number of sets: room for ChunkKeys keys (96 KiB) per set
// would take 480 MB for 5,000 sets before the first key.
func TestManySetsStayInsidePendingBytes(t *testing.T) {
	const sets = 5000
	path := filepath.Join(t.TempDir(), "keys.txt")
	if err := os.WriteFile(path, []byte(keyLines(2*sets)), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := NewFile(path, sets)
	if err != nil {
		t.Fatal(err)
	}
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	got := countKeys(t, f)
	runtime.ReadMemStats(&b)
	if got[0] != 2*sets {
		t.Errorf("streamed %d keys, want %d", got[0], 2*sets)
	}
	if alloc := b.TotalAlloc - a.TotalAlloc; alloc > 2*PendingBytes {
		t.Errorf("two passes over %d sets allocated %d bytes, more than 2 x PendingBytes", sets, alloc)
	}
}

// A stream that is no key file fails at once, not after copying
// MaxStreamBytes (/dev/zero is one endless line of NUL bytes), and leaves
// no copy.
func TestEndlessStreamFailsAtOnce(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	tmp := t.TempDir() // the copy goes to $TMPDIR: a directory of this test's own
	t.Setenv("TMPDIR", tmp)
	_, err := NewFile("/dev/zero", 1)
	if err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("NewFile(/dev/zero): %v, want a line-length error", err)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("a failed copy was kept: %v", left)
	}
}

// A stream whose whole content the run holds (a request log) is copied
// at most up to the memory budget: 3 MiB of lines from a FIFO under a
// 1 MiB budget end with an error naming the limit, and leave no copy,
// where OpenFile would keep copying up to the temporary directory's free
// space.
func TestHeldStreamBoundedByTheBudget(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	fifo := filepath.Join(t.TempDir(), "log")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		line := []byte(strings.Repeat("k", 1023) + "\n")
		for i := 0; i < 3<<10; i++ {
			if _, err := w.Write(line); err != nil {
				return // the reader gave up: the test's point
			}
		}
	}()
	_, err := OpenHeld(fifo, 1, memory.New(1<<20))
	if err == nil || !strings.Contains(err.Error(), "would exceed 1 MiB") {
		t.Errorf("OpenHeld of a 3 MiB stream under a 1 MiB budget: %v, want an error naming 1 MiB", err)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("a failed copy was kept: %v", left)
	}
}
