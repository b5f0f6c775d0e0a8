package algorithms

import (
	"hash/fnv"
	"testing"

	"github.com/chbench/chbench/analysis/reference/published"
)

// Reference vectors from published.All (Go hash/fnv tests, xxHash64 and
// MurmurHash3 reference outputs), plus FNV-1a of "" = its offset basis.
func TestHashVectors(t *testing.T) {
	cases := append(published.All().Hashes,
		published.HashSum{Hash: "fnv1a32", Input: "", Sum: 0x811C9DC5},
		published.HashSum{Hash: "fnv1a64", Input: "", Sum: 0xCBF29CE484222325})
	for _, c := range cases {
		if got := MustHash(c.Hash).Sum(c.Input); got != c.Sum {
			t.Errorf("%s(%q) = %#x, want %#x", c.Hash, c.Input, got, c.Sum)
		}
	}
}

// The inline FNV-1a loops must equal the standard library's.
func TestFNVMatchesStdlib(t *testing.T) {
	for _, s := range []string{"", "a", "foobar", "node-17#159", "\xff\x00\x80"} {
		h32 := fnv.New32a()
		h32.Write([]byte(s))
		if got, want := MustHash("fnv1a32").Sum(s), uint64(h32.Sum32()); got != want {
			t.Errorf("fnv1a32(%q) = %#x, stdlib %#x", s, got, want)
		}
		h64 := fnv.New64a()
		h64.Write([]byte(s))
		if got, want := MustHash("fnv1a64").Sum(s), h64.Sum64(); got != want {
			t.Errorf("fnv1a64(%q) = %#x, stdlib %#x", s, got, want)
		}
	}
}

// Every registered hash reports its name, 32-bit hashes stay below 2^32,
// and an unknown name is an error.
func TestHashBitsAndNames(t *testing.T) {
	for _, name := range HashNames() {
		h := MustHash(name)
		if h.Name() != name {
			t.Errorf("MustHash(%q).Name() = %q", name, h.Name())
		}
		if h.Bits() == 32 {
			for _, s := range []string{"a", "b", "hello", "node-1"} {
				if v := h.Sum(s); v>>32 != 0 {
					t.Errorf("%s(%q) = %#x exceeds 32 bits", name, s, v)
				}
			}
		}
	}
	if _, err := LookupHash("no-such-hash"); err == nil {
		t.Error(`LookupHash("no-such-hash") succeeded, want an error`)
	}
	if h, err := LookupHash(""); err != nil || h.Name() != DefaultHash {
		t.Errorf(`LookupHash("") = %v, %v; want %s`, h.Name(), err, DefaultHash)
	}
}

// Hashing a key allocates nothing, for every registered hash.
func TestHashDoesNotAllocate(t *testing.T) {
	for _, name := range HashNames() {
		h := MustHash(name)
		if a := testing.AllocsPerRun(100, func() { _ = h.Sum("user:1000") }); a != 0 {
			t.Errorf("%s allocates %v per call", name, a)
		}
	}
}

// MD5Words splits the digest into little-endian words in byte order:
// MD5("abc") = 90015098 3cd24fb0 d6963f7d 28e17f72 (RFC 1321 A.5).
func TestMD5Words(t *testing.T) {
	want := [4]uint32{0x98500190, 0xB04FD23C, 0x7D3F96D6, 0x727FE128}
	if got := MD5Words("abc"); got != want {
		t.Errorf("MD5Words(%q) = %#x, want %#x", "abc", got, want)
	}
	if a := testing.AllocsPerRun(100, func() { _ = MD5Words("user:1000") }); a != 0 {
		t.Errorf("MD5Words allocates %v per call", a)
	}
}
