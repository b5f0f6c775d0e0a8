package catalog

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

// Every catalog entry builds with the default configuration, reports its
// own name, is described, allocates nothing on lookup, and Locate agrees
// with HashKey then LocateHash.
func TestEveryAlgorithmBuildsAndAgreesOnName(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(7)
	for _, name := range builtAndStaged() {
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

// Every constructor's error comes with a true nil Placer, and each bad
// field of a configuration is an error naming its value.
func TestErrorsReturnNilPlacer(t *testing.T) {
	for _, name := range builtAndStaged() {
		p, err := New(name, nil, DefaultConfig())
		if err == nil || p != nil {
			t.Errorf("%s on empty membership: placer %v, error %v", name, p, err)
		}
	}
	nodes, _ := algorithms.DefaultNodes(2)
	// Each bad config differs from the defaults in one field, and the error
	// names the bad value.
	for _, tc := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Hash = "no-such-hash" }, `"no-such-hash"`},
		{func(c *Config) { c.VNodes = 0 }, "vnodes 0"},
		{func(c *Config) { c.Eps = 0 }, "eps 0"},
		{func(c *Config) { c.Partitions = -1 }, "partitions -1"},
		{func(c *Config) { c.TableSize = 65536 }, "65536"},
		{func(c *Config) { c.TableSize = 1 }, "table size 1"},
		{func(c *Config) { c.Probes = 0 }, "probes 0"},
		{func(c *Config) { c.Capacity = -1 }, "capacity -1"},
	} {
		c := DefaultConfig()
		tc.edit(&c)
		_, err := New("ring", nodes, c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("config %+v: error %v, want one naming %s", c, err, tc.want)
		}
	}
	if _, err := New("nope", nodes, DefaultConfig()); err == nil {
		t.Error("unknown algorithm accepted")
	}
	if _, err := ParseNames("ring,nope"); err == nil {
		t.Error(`ParseNames("ring,nope") accepted`)
	}
	if got, err := ParseNames("all"); err != nil || len(got) != len(Names()) {
		t.Errorf(`ParseNames("all") = %v, %v`, got, err)
	}
}

// Labels name the variant a result measures (jump's swap-last, bounded's
// partitions); automatic partitions are 1,024 a node, at least 16,384, an
// explicit count is kept; and the catalog says which algorithms have a
// random layout.
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
	for _, name := range builtAndStaged() {
		if in, _ := Describe(name); in.RandomLayout {
			random = append(random, name)
		}
	}
	if strings.Join(random, ",") != "ring,bounded,ketama,maglev,multiprobe" {
		t.Errorf("random layouts %v, want ring, bounded, ketama, maglev, multiprobe", random)
	}
}

// The capacity of anchor and dx defaults to twice the initial membership
// (at least MinAutoCapacity) and an explicit capacity below the membership
// is refused with both numbers named.
func TestCapacity(t *testing.T) {
	c := DefaultConfig()
	if got := c.CapacityFor(5); got != MinAutoCapacity {
		t.Errorf("CapacityFor(5) = %d, want %d", got, MinAutoCapacity)
	}
	if got := c.CapacityFor(100); got != 200 {
		t.Errorf("CapacityFor(100) = %d, want 200", got)
	}
	nodes, _ := algorithms.DefaultNodes(10)
	c.Capacity = 9
	for _, name := range []string{"anchor", "dx"} {
		_, err := New(name, nodes, c)
		if err == nil || !strings.Contains(err.Error(), "capacity 9") || !strings.Contains(err.Error(), "10 nodes") {
			t.Errorf("%s with capacity 9 for 10 nodes: error %v", name, err)
		}
	}
}

// The facts of the catalog agree with what the placers do: an algorithm
// marked JoinMinimal moves keys only to a joining node, one marked
// LeaveMinimal moves only the keys of a leaving (middle) node.
func TestMovementFactsHold(t *testing.T) {
	keys := placertest.Keys(5000, 7)
	nodes, _ := algorithms.DefaultNodes(12)
	for _, name := range builtAndStaged() {
		in, _ := Describe(name)
		p, err := New(name, nodes, DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		if in.JoinMinimal {
			q, err := algorithms.Join(p, algorithms.Node{ID: "new", Weight: 1})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			placertest.CheckJoin(t, p, q, keys, "new")
		}
		if in.LeaveMinimal {
			q, err := algorithms.Leave(p, "node-4")
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			placertest.CheckLeave(t, p, q, keys, "node-4")
		}
	}
}

// FuzzMovementFacts runs a seeded history of single joins and leaves (any
// node may leave) from n initial nodes on every algorithm and asserts, at
// each step, the movement facts the catalog states: JoinMinimal
// algorithms move keys only to the joining node, LeaveMinimal ones only
// the leaving node's keys. The stateful algorithms carry their state
// through the history, so a join may reuse a departed node's bucket.
// `go test` runs the seed corpus; `go test -fuzz MovementFacts` explores.
func FuzzMovementFacts(f *testing.F) {
	f.Add(uint64(1), uint8(5))
	f.Add(uint64(2), uint8(1))
	f.Add(uint64(3), uint8(17))
	keys := placertest.Keys(2000, 11)
	f.Fuzz(func(t *testing.T, seed uint64, n8 uint8) {
		n := int(n8%24) + 1
		nodes, _ := algorithms.DefaultNodes(n)
		for _, name := range builtAndStaged() {
			in, _ := Describe(name)
			cfg := DefaultConfig()
			cfg.Capacity = 2*n + 8 // room for every join of the history
			p, err := New(name, nodes, cfg)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			r := rand.New(rand.NewPCG(seed, uint64(n)))
			next := n
			for range 8 {
				cur := p.Nodes()
				if len(cur) > 1 && r.IntN(2) == 0 {
					id := cur[r.IntN(len(cur))].ID
					q, err := algorithms.Leave(p, id)
					if err != nil {
						t.Fatalf("%s: leave %s: %v", name, id, err)
					}
					if in.LeaveMinimal {
						placertest.CheckLeave(t, p, q, keys, id)
					}
					p = q
					continue
				}
				nd := algorithms.Node{ID: algorithms.NodeID(next), Weight: 1}
				next++
				q, err := algorithms.Join(p, nd)
				if err != nil {
					t.Fatalf("%s: join %s: %v", name, nd.ID, err)
				}
				if in.JoinMinimal {
					placertest.CheckJoin(t, p, q, keys, nd.ID)
				}
				p = q
			}
		}
	})
}

// builtAndStaged is every algorithm New builds: the listed ones and the
// staged ones, which the tests of the catalog's facts cover alike.
func builtAndStaged() []string { return append(Names(), Staged()...) }

// A staged algorithm is known by name but not listed: "all" and Names()
// stay the listed set, ParseNames and Describe accept it, and the
// unknown-name error lists it.
func TestStagedByNameOnly(t *testing.T) {
	for _, name := range Staged() {
		if strings.Contains(strings.Join(Names(), ","), name) {
			t.Errorf("%s is both listed and staged", name)
		}
		if got, err := ParseNames(name); err != nil || len(got) != 1 || got[0] != name {
			t.Errorf("ParseNames(%q) = %v, %v", name, got, err)
		}
	}
	if _, err := Describe("nope"); err == nil || !strings.Contains(err.Error(), "crush") || !slices.Contains(Names(), "crush") {
		t.Errorf("unknown name: %v, want crush listed and named in the known list", err)
	}
}

// Info.Domains names each algorithm's domain scheme, and the algorithms
// said to have their own implement algorithms.DomainReplicator (crush
// keeps domains by its rule, through Replicas).
func TestDomainSchemes(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(5)
	for _, name := range builtAndStaged() {
		in, _ := Describe(name)
		if in.Domains == "" {
			t.Errorf("%s: no domain scheme", name)
		}
		p, err := New(name, nodes, DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		_, own := p.(algorithms.DomainReplicator)
		if own != (in.Domains != saltedDomains && name != "crush") {
			t.Errorf("%s: DomainReplicator %v, but Domains says %q", name, own, in.Domains)
		}
	}
}
