package keyset

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// collect returns every set's keys, in order within each chunk and with
// chunks sorted by their first key's position, by running src with workers.
func collect(t *testing.T, src Source, workers int) [][]string {
	t.Helper()
	var mu sync.Mutex
	chunks := make([][][]string, src.Sets())
	err := src.Each(workers, func(w, set int, keys []string) {
		if w < 0 || w >= Workers(workers) {
			t.Errorf("worker %d out of range", w)
		}
		cp := make([]string, len(keys))
		for i, k := range keys {
			cp[i] = strings.Clone(k)
		}
		mu.Lock()
		chunks[set] = append(chunks[set], cp)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]string, len(chunks))
	for s, cs := range chunks {
		for _, c := range cs {
			out[s] = append(out[s], c...)
		}
		slices.Sort(out[s]) // chunk order varies with scheduling; compare as multisets
	}
	return out
}

// Generated keys do not depend on the number of workers, every set has K
// keys of the user:<16 hex> shape, and Chunk returns a set's keys chunk by
// chunk, the last one partial.
func TestGeneratorDeterministic(t *testing.T) {
	g, err := NewGenerator(3*ChunkKeys+17, 3, 42)
	if err != nil {
		t.Fatal(err)
	}
	one := collect(t, g, 1)
	four := collect(t, g, 4)
	if !slices.EqualFunc(one, four, slices.Equal) {
		t.Fatal("keys depend on the number of workers")
	}
	for s, keys := range one {
		if len(keys) != g.Keys() {
			t.Errorf("set %d has %d keys, want %d", s, len(keys), g.Keys())
		}
		if k := keys[0]; len(k) != 21 || !strings.HasPrefix(k, "user:") || strings.Trim(k[5:], "0123456789abcdef") != "" {
			t.Errorf("key %q does not look like user:<16 hex digits>", k)
		}
	}
	// Chunk gives the same keys as Each, and sets differ from each other.
	c0 := g.Chunk(nil, 1, 0)
	if len(c0) != ChunkKeys {
		t.Fatalf("chunk 0 has %d keys, want %d", len(c0), ChunkKeys)
	}
	if i, ok := slices.BinarySearch(one[1], c0[0]); !ok {
		t.Errorf("key %q of Chunk(1, 0) not in set 1 (pos %d)", c0[0], i)
	}
	if slices.Equal(g.Chunk(nil, 0, 0), c0) {
		t.Error("sets 0 and 1 start with the same keys")
	}
	if last := g.Chunk(nil, 0, 3); len(last) != 17 {
		t.Errorf("last chunk has %d keys, want 17", len(last))
	}
	// Another seed gives other keys.
	h, _ := NewGenerator(10, 1, 43)
	if slices.Equal(h.Chunk(nil, 0, 0), g.Chunk(nil, 0, 0)[:10]) {
		t.Error("seeds 42 and 43 give the same keys")
	}
}

// Keys or sets below 1 are errors naming the value.
func TestGeneratorErrors(t *testing.T) {
	for _, c := range []struct {
		keys, sets int
		want       string
	}{{0, 1, "keys 0"}, {-5, 1, "keys -5"}, {10, 0, "sets 0"}, {10, -1, "sets -1"}} {
		if _, err := NewGenerator(c.keys, c.sets, 1); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewGenerator(%d, %d): error %v, want one naming %q", c.keys, c.sets, err, c.want)
		}
	}
}

func writeFile(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "keys.txt")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A key file skips blank lines, accepts CRLF, keeps inner spaces, and
// puts key i in set i mod sets, whatever the number of workers.
func TestKeyFileSplit(t *testing.T) {
	p := writeFile(t, "a\r\n\nb\n c\n   \nd\ne\n\t\n")
	f, err := NewFile(p, 2)
	if err != nil {
		t.Fatal(err)
	}
	if f.Keys() != 5 || f.Sets() != 2 || f.Path() != p {
		t.Fatalf("Keys, Sets, Path = %d, %d, %q; want 5, 2, %q", f.Keys(), f.Sets(), f.Path(), p)
	}
	for _, w := range []int{1, 3} {
		got := collect(t, f, w)
		want := [][]string{{" c", "a", "e"}, {"b", "d"}} // key i -> set i mod 2, sorted
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("workers %d: sets %q, want %q", w, got, want)
		}
	}
	one, err := NewFile(p, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := collect(t, one, 2); !slices.Equal(got[0], []string{" c", "a", "b", "d", "e"}) {
		t.Errorf("sets=1: %q, want the whole file", got[0])
	}
}

// A key file of more than one chunk per set streams every key once, in
// its set, with chunks recycled.
func TestKeyFileChunks(t *testing.T) {
	// More keys than one chunk per set, so chunks are recycled.
	var b strings.Builder
	const n = 5*ChunkKeys + 3
	for i := range n {
		b.WriteString("k")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(strconv.Itoa(i))
		b.WriteByte('\n')
	}
	f, err := NewFile(writeFile(t, b.String()), 2)
	if err != nil {
		t.Fatal(err)
	}
	got := collect(t, f, 3)
	if len(got[0]) != (n+1)/2 || len(got[1]) != n/2 {
		t.Fatalf("set sizes %d, %d; want %d, %d", len(got[0]), len(got[1]), (n+1)/2, n/2)
	}
	const i = 5*ChunkKeys + 1 // odd: set 1
	want := "k" + strings.Repeat("x", i%7) + strconv.Itoa(i)
	if _, ok := slices.BinarySearch(got[1], want); !ok {
		t.Errorf("key %q missing from set 1", want)
	}
}

// A missing file, a file without keys, fewer keys than sets and sets < 1
// are errors naming the path or the value.
func TestKeyFileErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.txt")
	empty := writeFile(t, "\n \n\r\n")
	two := writeFile(t, "a\nb\n")
	for _, c := range []struct {
		path string
		sets int
		want string
	}{
		{missing, 1, missing},
		{empty, 1, empty},
		{two, 3, two},
		{two, 0, "sets 0"},
	} {
		_, err := NewFile(c.path, c.sets)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewFile(%q, %d): error %v, want one naming %q", c.path, c.sets, err, c.want)
		}
	}
}

// Keys is deterministic, distinct keys of the generator's format, and the
// same keys as the one-set stream.
func TestKeys(t *testing.T) {
	a, err := Keys(1000, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Keys(1000, 7)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Keys(1000, 8)
	if err != nil {
		t.Fatal(err)
	}
	seen := make(map[string]bool, len(a))
	for i, k := range a {
		if len(k) != KeyLen || !strings.HasPrefix(k, "user:") || strings.Trim(k[5:], "0123456789abcdef") != "" {
			t.Fatalf("key %d = %q: want \"user:\" and 16 lowercase hex digits", i, k)
		}
		if seen[k] {
			t.Fatalf("key %d = %q repeats", i, k)
		}
		seen[k] = true
		if b[i] != k {
			t.Fatalf("seed 7 key %d: %q then %q, want the same", i, k, b[i])
		}
	}
	same := 0
	for i := range a {
		if a[i] == c[i] {
			same++
		}
	}
	if same != 0 {
		t.Errorf("seeds 7 and 8 share %d of 1000 keys at the same positions, want 0", same)
	}
	// Key i does not depend on n: a longer list extends a shorter one,
	// across chunk boundaries.
	long, err := Keys(2*ChunkKeys+3, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(long[:len(a)], a) {
		t.Error("Keys(1000, 7) is not a prefix of Keys(8195, 7)")
	}
	// The keys are the generator's: set 0 of a one-set stream.
	g, _ := NewGenerator(len(long), 1, 7)
	if got := collect(t, g, 2)[0]; !slices.Equal(got, slices.Sorted(slices.Values(long))) {
		t.Error("Keys differs from the one-set generator stream")
	}
	if _, err := Keys(0, 1); err == nil || !strings.Contains(err.Error(), "0") {
		t.Errorf("Keys(0, 1) error = %v, want one naming 0", err)
	}
}
