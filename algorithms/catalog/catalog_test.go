package catalog

import (
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

func TestEveryAlgorithmBuildsAndAgreesOnName(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(7)
	for _, name := range Names() {
		p, err := New(name, nodes, DefaultConfig())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p.Algorithm() != name {
			t.Errorf("New(%q).Algorithm() = %q", name, p.Algorithm())
		}
		if _, err := Describe(name); err != nil {
			t.Error(err)
		}
		placertest.CheckNoAllocs(t, p)
		// Locate agrees with the two-step lookup.
		for _, k := range placertest.Keys(100, 1) {
			if got, want := p.Locate(k), p.Nodes()[p.LocateHash(p.HashKey(k))].ID; got != want {
				t.Fatalf("%s: Locate(%q) = %q, two-step %q", name, k, got, want)
			}
		}
	}
}

func TestErrorsReturnNilPlacer(t *testing.T) {
	for _, name := range Names() {
		p, err := New(name, nil, DefaultConfig())
		if err == nil || p != nil {
			t.Errorf("%s on empty membership: placer %v, error %v", name, p, err)
		}
	}
	nodes, _ := algorithms.DefaultNodes(2)
	bad := []Config{
		{Hash: "md5", VNodes: 1, Eps: 1, Partitions: 1},
		{Hash: "xxhash", VNodes: 0, Eps: 1, Partitions: 1},
		{Hash: "xxhash", VNodes: 1, Eps: 0, Partitions: 1},
		{Hash: "xxhash", VNodes: 1, Eps: 1, Partitions: -1},
	}
	for _, c := range bad {
		if _, err := New("ring", nodes, c); err == nil {
			t.Errorf("config %+v accepted", c)
		}
	}
	if _, err := New("maglev", nodes, DefaultConfig()); err == nil {
		t.Error("unknown algorithm accepted")
	}
	if _, err := ParseNames("ring,nope"); err == nil {
		t.Error(`ParseNames("ring,nope") accepted`)
	}
	if got, err := ParseNames("all"); err != nil || len(got) != len(Names()) {
		t.Errorf(`ParseNames("all") = %v, %v`, got, err)
	}
}

func TestLabelAndPartitions(t *testing.T) {
	want := map[[2]string]string{
		{"jump", "inside"}: "jump (swap-last)", {"jump", "last"}: "jump",
		{"bounded", "inside"}: "bounded (partitions)", {"ring", "inside"}: "ring",
	}
	for k, w := range want {
		in, err := Describe(k[0])
		if err != nil {
			t.Fatal(err)
		}
		if got := in.Label(k[1] == "inside"); got != w {
			t.Errorf("%s, leave %s: label %q, want %q", k[0], k[1], got, w)
		}
	}
	auto := DefaultConfig()
	for n, w := range map[int]int{1: 16384, 16: 16384, 17: 17408, 1000: 1024000} {
		if got := auto.PartitionsFor(n); got != w {
			t.Errorf("automatic partitions for %d nodes: %d, want %d", n, got, w)
		}
	}
	if got := (Config{Partitions: 99}).PartitionsFor(1000); got != 99 {
		t.Errorf("explicit partitions 99 became %d", got)
	}
	var random []string
	for _, name := range Names() {
		if in, _ := Describe(name); in.RandomLayout {
			random = append(random, name)
		}
	}
	if strings.Join(random, ",") != "ring,bounded" {
		t.Errorf("random layouts %v, want ring and bounded", random)
	}
}
