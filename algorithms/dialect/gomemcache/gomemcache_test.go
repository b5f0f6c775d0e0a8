package gomemcache

import (
	"hash/crc32"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect/dialecttest"
	"github.com/chbench/chbench/algorithms/placertest"
)

// The vectors were recorded from the real module (peers.TestDialectVectors
// re-checks them against it).
func TestVectors(t *testing.T) {
	dialecttest.Check(t, "testdata/vectors.tsv", 30, map[string]func([]algorithms.Node) (algorithms.Placer, error){Name: New})
}

func TestLookupContract(t *testing.T) {
	p, err := New(dialecttest.Fleet(dialecttest.Equal))
	if err != nil {
		t.Fatal(err)
	}
	dialecttest.CheckPlacer(t, p, placertest.Keys(500, 1))
}

// Keys longer than the 256-byte buffer hash by their first 256 bytes.
func TestLongKeysTruncate(t *testing.T) {
	long := strings.Repeat("k", 300)
	if Hash(long) != crc32.ChecksumIEEE([]byte(long[:256])) || Hash(long) == crc32.ChecksumIEEE([]byte(long)) {
		t.Error("a 300-byte key is not hashed by its first 256 bytes")
	}
	if Hash("foo") != crc32.ChecksumIEEE([]byte("foo")) {
		t.Error("short key")
	}
}
