package spymemcached

import (
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect/dialecttest"
	"github.com/chbench/chbench/algorithms/placertest"
)

// The vectors were recorded from spymemcached 2.12.3's locators
// (live.TestDialectVectors re-checks them against the jar).
func TestVectors(t *testing.T) {
	dialecttest.Check(t, "testdata/vectors.tsv", 60, map[string]func([]algorithms.Node) (algorithms.Placer, error){
		KetamaSpyName: KetamaSpy, ArrayModName: ArrayMod})
}

func TestLookupContract(t *testing.T) {
	for _, b := range []func([]algorithms.Node) (algorithms.Placer, error){KetamaSpy, KetamaLibmemcached, ArrayMod} {
		p, err := b(dialecttest.Fleet(dialecttest.Equal))
		if err != nil {
			t.Fatal(err)
		}
		dialecttest.CheckPlacer(t, p, placertest.Keys(500, 1))
	}
}

// String.hashCode: s[0]*31^(n-1) + ... over UTF-16 units, so a character
// outside the BMP counts as its two surrogates.
func TestNativeHash(t *testing.T) {
	for k, want := range map[string]int32{"": 0, "a": 97, "foo": 101574, "hello": 99162322, "\u00e9": 233, "\U0001F600": 0xD83D*31 + 0xDE00} {
		if got := NativeHash(k); got != uint32(want) {
			t.Errorf("NativeHash(%q) = %d, want %d", k, got, uint32(want))
		}
	}
}

func TestLabels(t *testing.T) {
	for id, want := range map[string]string{"127.0.0.1:11211": "127.0.0.1:11211", "localhost/127.0.0.1:11212": "localhost/127.0.0.1:11212"} {
		if got, err := SpyLabel(id); err != nil || got != want {
			t.Errorf("SpyLabel(%q) = %q, %v", id, got, err)
		}
	}
	for _, id := range []string{"localhost:11211", "/127.0.0.1:1", "x"} {
		if _, err := SpyLabel(id); err == nil || !strings.Contains(err.Error(), "ip:port or name/ip:port") {
			t.Errorf("SpyLabel(%q) error %v", id, err)
		}
	}
	for id, want := range map[string]string{"cache-a:11211": "cache-a", "cache-a:11212": "cache-a:11212"} {
		if got, err := LibLabel(id); err != nil || got != want {
			t.Errorf("LibLabel(%q) = %q, %v", id, got, err)
		}
	}
}
