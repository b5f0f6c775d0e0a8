package keyset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chbench/chbench/internal/tempfile"
	"github.com/chbench/chbench/memory"
)

// keysOf returns the keys of the key file with content data, in order.
func keysOf(t *testing.T, data string) []string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "keys.txt")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := NewFile(path, 1)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	if err := f.Scan(func(k string) error { keys = append(keys, strings.Clone(k)); return nil }); err != nil {
		t.Fatal(err)
	}
	return keys
}

// A UTF-8 byte-order mark at the start of a key file is not part of the
// first key (an editor's, not the user's); one further on is part of its
// key, as every other byte of a line is, and "#" starts no comment.
func TestKeyFileRule(t *testing.T) {
	got := keysOf(t, "\xef\xbb\xbfkey1\r\n \tkey 2 \n\n#key3\n\xef\xbb\xbfkey4\nk\xff")
	want := []string{"key1", " \tkey 2 ", "#key3", "\xef\xbb\xbfkey4", "k\xff"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("keys %q, want %q", got, want)
	}
}

// A key of exactly MaxKeyBytes is read, as the last line or not; one byte
// more is an error naming the file, the line and the limit.
func TestKeyLengthLimit(t *testing.T) {
	long := strings.Repeat("k", MaxKeyBytes)
	for _, data := range []string{long, long + "\n", "a\n" + long + "\r\nb\n"} {
		keys := keysOf(t, data)
		n := 0
		for _, k := range keys {
			if len(k) == MaxKeyBytes {
				n++
			}
		}
		if n != 1 {
			t.Errorf("a key of exactly %d bytes in a file of %d bytes: read %d such keys", MaxKeyBytes, len(data), n)
		}
	}
	path := filepath.Join(t.TempDir(), "long.txt")
	if err := os.WriteFile(path, []byte("a\n"+long+"k\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := NewFile(path, 1)
	if err == nil || !strings.Contains(err.Error(), "line 2 is longer than 1048576 bytes") {
		t.Errorf("a key of %d bytes: %v", MaxKeyBytes+1, err)
	}
}

// NewGenerator takes up to ChunkKeys x 2^40 keys per set (2^52), exactly:
// the limit itself is accepted, one more key is refused naming it.
func TestGeneratorKeyLimit(t *testing.T) {
	const limit = ChunkKeys << 40
	if _, err := NewGenerator(limit, 1, 1); err != nil {
		t.Errorf("NewGenerator(%d keys): %v", limit, err)
	}
	if _, err := NewGenerator(limit+1, 1, 1); err == nil || !strings.Contains(err.Error(), "at most 4503599627370496 keys") {
		t.Errorf("NewGenerator(%d keys): %v", limit+1, err)
	}
}

// The copy of a stream on a file system in memory (tmpfs) is reserved
// from the memory budget as it grows: a stream larger than the budget is
// an error naming the budget, and the reservation is returned when the
// copy fails or is closed.
func TestStreamCopyInMemoryIsBudgeted(t *testing.T) {
	shm := "/dev/shm"
	if _, inMemory, err := tempfile.Space(shm); err != nil || !inMemory {
		t.Skip("no tmpfs at /dev/shm")
	}
	tmp, err := os.MkdirTemp(shm, "keyset-test-")
	if err != nil {
		t.Skip(err)
	}
	defer os.RemoveAll(tmp)
	t.Setenv("TMPDIR", tmp)
	line := strings.Repeat("k", 1000) + "\n"
	for _, c := range []struct {
		bytes int
		fits  bool
	}{{4 << 20, true}, {20 << 20, false}} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			for n := 0; n < c.bytes; n += len(line) {
				if _, err := w.WriteString(line); err != nil {
					break
				}
			}
			w.Close()
		}()
		stdin := os.Stdin
		os.Stdin = r
		mem := memory.New(8 << 20)
		f, err := OpenFile("-", 1, mem)
		os.Stdin = stdin
		r.Close()
		var ee *memory.ExceededError
		switch {
		case c.fits && err != nil:
			t.Errorf("a %d-byte stream within an 8 MiB budget: %v", c.bytes, err)
		case c.fits:
			if mem.Held() == 0 {
				t.Errorf("a %d-byte copy in tmpfs reserved nothing", c.bytes)
			}
			f.Close()
		case !errors.As(err, &ee) || !strings.Contains(err.Error(), "memory budget of 8 MiB"):
			t.Errorf("a %d-byte stream with an 8 MiB budget: %v, want the budget's error", c.bytes, err)
		}
		if mem.Held() != 0 {
			t.Errorf("%d bytes still reserved after the copy is gone", mem.Held())
		}
	}
}
