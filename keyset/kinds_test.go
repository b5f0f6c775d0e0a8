package keyset

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Each key kind has its shape, is a pure function of (seed, set, index),
// keeps the keys of a set distinct, and random is the default generator
// key for key.
func TestKeyKinds(t *testing.T) {
	g, err := NewGenerator(ChunkKeys+5, 2, 7)
	if err != nil {
		t.Fatal(err)
	}
	// The default kind is the original generator, key for key.
	def, _ := g.WithKind(KindRandom)
	if a, b := g.Chunk(nil, 1, 1), def.Chunk(nil, 1, 1); !slices.Equal(a, b) {
		t.Fatal("WithKind(random) changes the keys")
	}
	shapes := map[KeyKind]*regexp.Regexp{
		KindRandom:     regexp.MustCompile(`^user:[0-9a-f]{16}$`),
		KindSequential: regexp.MustCompile(`^user:[1-9][0-9]*$`),
		KindUUID:       regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`),
		KindURL:        regexp.MustCompile(`^/[a-z/0-9]+/[0-9]{1,7}/(view|reviews|edit|comments)$`),
		KindNumeric:    regexp.MustCompile(`^[1-9][0-9]{9}$`),
	}
	for _, k := range KeyKinds() {
		kg, err := g.WithKind(k)
		if err != nil {
			t.Fatal(err)
		}
		for s := range 2 {
			keys := append(kg.Chunk(nil, s, 0), kg.Chunk(nil, s, 1)...)
			if len(keys) != kg.Keys() {
				t.Fatalf("%s: set %d has %d keys, want %d", k, s, len(keys), kg.Keys())
			}
			again := append(kg.Chunk(nil, s, 0), kg.Chunk(nil, s, 1)...)
			if !slices.Equal(keys, again) {
				t.Errorf("%s: keys are not deterministic", k)
			}
			distinct := slices.Compact(slices.Sorted(slices.Values(keys)))
			// URLs draw ids below 10^7 over 8x4 shapes; collisions among
			// 4101 keys are possible but rare, the others are unique.
			if len(distinct) < len(keys)-2 {
				t.Errorf("%s: only %d distinct keys of %d", k, len(distinct), len(keys))
			}
			for _, key := range keys {
				if !shapes[k].MatchString(key) {
					t.Fatalf("%s: key %q has the wrong shape", k, key)
				}
			}
			if k == KindSequential {
				for i, key := range keys {
					if want := "user:" + strconv.Itoa(s*kg.Keys()+i+1); key != want {
						t.Fatalf("sequential key %d of set %d = %q, want %q", i, s, key, want)
					}
				}
			}
		}
	}
	if _, err := g.WithKind("words"); err == nil {
		t.Error("unknown kind accepted")
	}
	if _, err := ParseKeyKind("UUID"); err == nil {
		t.Error("kind names are exact; UUID accepted")
	}
}

// SetKeys is the chunks of a set in order; File.Scan yields the file's
// non-blank lines in order.
func TestSetKeysAndScan(t *testing.T) {
	g, err := NewGenerator(2*ChunkKeys+3, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for c := range 3 {
		want = g.Chunk(want, 1, c)
	}
	if got := g.SetKeys(nil, 1); len(got) != 2*ChunkKeys+3 || !slices.Equal(got, want) {
		t.Errorf("SetKeys: %d keys, equal to the chunks: %v", len(got), slices.Equal(got, want))
	}
	path := filepath.Join(t.TempDir(), "log.txt")
	if err := os.WriteFile(path, []byte("a\n\nb\r\na\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := NewFile(path, 1)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	if err := f.Scan(func(k string) error { lines = append(lines, strings.Clone(k)); return nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lines, []string{"a", "b", "a"}) {
		t.Errorf("Scan: %q, want a, b, a", lines)
	}
}
