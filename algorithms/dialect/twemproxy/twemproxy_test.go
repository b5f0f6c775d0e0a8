package twemproxy

import (
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect"
	"github.com/chbench/chbench/algorithms/dialect/dialecttest"
	"github.com/chbench/chbench/algorithms/placertest"
)

func builders(t *testing.T) map[string]func([]algorithms.Node) (algorithms.Placer, error) {
	b := map[string]func([]algorithms.Node) (algorithms.Placer, error){}
	for _, h := range Hashes {
		k, err := Ketama(h.Name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Modula(h.Name)
		if err != nil {
			t.Fatal(err)
		}
		b[Name("ketama", h.Name)], b[Name("modula", h.Name)] = k, m
	}
	return b
}

// The vectors were recorded from nutcracker 0.5.0 (live.TestDialectVectors
// re-checks them against it).
func TestVectors(t *testing.T) {
	dialecttest.Check(t, "testdata/vectors.tsv", 1000, builders(t))
}

func TestLookupContract(t *testing.T) {
	keys := placertest.Keys(500, 1)
	for name, b := range builders(t) {
		p, err := b(dialecttest.Fleet(dialecttest.Weighted))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		dialecttest.CheckPlacer(t, p, keys)
	}
}

func TestServerName(t *testing.T) {
	for id, want := range map[string]string{
		"10.0.0.1:11211":         "10.0.0.1",
		"10.0.0.1:11212":         "10.0.0.1:11212",
		"10.0.0.1:11211 cache-a": "cache-a",
	} {
		if got, err := ServerName(id); err != nil || got != want {
			t.Errorf("ServerName(%q) = %q, %v; want %q", id, got, err, want)
		}
	}
	for _, id := range []string{"cache-a", "10.0.0.1:11211 ", "10.0.0.1:x"} {
		if _, err := ServerName(id); err == nil || !strings.Contains(err.Error(), "host:port") && !strings.Contains(err.Error(), "empty server name") {
			t.Errorf("ServerName(%q) error %v", id, err)
		}
	}
}

// Modula counts in twemproxy's sorted order (shorter names first), not the
// configuration's: listed as b, aa, a, the table is a, b, aa.
func TestModulaSortsByName(t *testing.T) {
	b, err := Modula("md5")
	if err != nil {
		t.Fatal(err)
	}
	p, err := b([]algorithms.Node{{ID: "10.0.0.1:1 b", Weight: 1}, {ID: "10.0.0.2:1 aa", Weight: 2}, {ID: "10.0.0.3:1 a", Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.(*dialect.Table).Slots; len(got) != 4 || got[0] != 2 || got[1] != 0 || got[2] != 1 || got[3] != 1 {
		t.Errorf("modula table %v, want [2 0 1 1]", got)
	}
	if _, err := b([]algorithms.Node{{ID: "10.0.0.1:1 a", Weight: 1}, {ID: "10.0.0.2:1 a", Weight: 1}}); err == nil || !strings.Contains(err.Error(), `same server name "a"`) {
		t.Errorf("duplicate names: %v", err)
	}
	if _, err := b([]algorithms.Node{{ID: "10.0.0.1:1", Weight: 1.5}}); err == nil || !strings.Contains(err.Error(), "weight 1.5") {
		t.Errorf("fractional weight: %v", err)
	}
}
