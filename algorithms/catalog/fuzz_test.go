package catalog_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/slots"
)

// Fuzz targets over every algorithm the catalog registers, so an algorithm
// added later is covered without touching this file. Run one with e.g.
//
//	go test -run '^$' -fuzz '^FuzzLeave$' -fuzztime 30s ./algorithms/catalog
//
// Without -fuzz, go test runs the seed corpus below (and any failing input
// saved under testdata/fuzz) as ordinary tests.

// seedKeys are the tricky keys every target starts from: the empty key,
// hash tags (empty, nested, unclosed, several), separators, a long key,
// UTF-8, invalid UTF-8 and NUL-free binary bytes.
var seedKeys = []string{
	"", "a", " ", "{", "}", "{}", "}{", "{{}}", "foo{bar}zap", "foo{}{bar}", "foo{{bar}}zap",
	"{user1000}.following", "user:1000", "123456789", "key with spaces", "a#0", "node-0#159",
	"日本語{キー}", "ключ", "\xff\xfe\xfd", "\x01\x02\x7f\x80", "\xc3\x28", strings.Repeat("x", 4096),
	strings.Repeat("{ab}", 300),
}

// maxFuzzNodes bounds the memberships of the join and leave targets. It is
// above 128, where the slot counts of n and n+1 equal nodes start to share
// a floor (16384/n - 16384/(n+1) < 1), so slots' rounding is exercised.
const maxFuzzNodes = 300

// slotKeys returns 16,384 keys, the i-th in Redis hash slot i.
var slotKeys = sync.OnceValue(func() []string {
	keys := make([]string, slots.NumSlots)
	for i, found := 0, 0; found < slots.NumSlots; i++ {
		k := "key:" + strconv.Itoa(i)
		if s := slots.KeySlot(k); keys[s] == "" {
			keys[s] = k
			found++
		}
	}
	return keys
})

// fuzzConfig picks the key hash and the virtual nodes (1..64) from fuzzed
// bytes; eps keeps its default and partitions are 1,024 (more than
// maxFuzzNodes). The sizes are smaller than the defaults so that the
// fuzzer runs tens of inputs a second; the movement promises do not depend
// on them.
func fuzzConfig(hashSel, vnodes uint8) catalog.Config {
	cfg := catalog.DefaultConfig()
	names := algorithms.HashNames()
	cfg.Hash = names[int(hashSel)%len(names)]
	cfg.VNodes = 1 + int(vnodes)%64
	cfg.Partitions = 1024
	return cfg
}

// fuzzWeight maps a fuzzed byte to a weight in 0.5, 1, 1.5, ..., 8. The
// smallest is what every build accepts: a ring gives a node round(V*w) >= 1
// virtual nodes for any V >= 1.
func fuzzWeight(b byte) float64 { return 0.5 * float64(1+b%16) }

// fuzzMembership returns n nodes node-0 ... node-{n-1}; for an algorithm
// that accepts weights, node i weighs fuzzWeight(weights[i mod len]) (all 1
// when weights is empty).
func fuzzMembership(t *testing.T, in catalog.Info, n int, weights []byte) []algorithms.Node {
	t.Helper()
	nodes, err := algorithms.DefaultNodes(n)
	if err != nil {
		t.Fatal(err)
	}
	if in.Weighted && len(weights) > 0 {
		for i := range nodes {
			nodes[i].Weight = fuzzWeight(weights[i%len(weights)])
		}
	}
	return nodes
}

// checkOwner checks the lookup contract of p for key: the owner is a
// member, a second lookup agrees, and Locate is the two-step lookup
// Nodes()[LocateHash(HashKey(key))].ID.
func checkOwner(t *testing.T, p algorithms.Placer, key string) {
	t.Helper()
	nodes := p.Nodes()
	owner := p.Locate(key)
	if !slices.ContainsFunc(nodes, func(n algorithms.Node) bool { return n.ID == owner }) {
		t.Fatalf("%s: Locate(%q) = %q, not a member of %d nodes", p.Algorithm(), key, owner, len(nodes))
	}
	if again := p.Locate(key); again != owner {
		t.Fatalf("%s: Locate(%q) = %q, then %q", p.Algorithm(), key, owner, again)
	}
	i := p.LocateHash(p.HashKey(key))
	if i < 0 || i >= len(nodes) {
		t.Fatalf("%s: LocateHash(HashKey(%q)) = %d, outside 0..%d", p.Algorithm(), key, i, len(nodes)-1)
	}
	if nodes[i].ID != owner {
		t.Fatalf("%s: Locate(%q) = %q, but Nodes()[LocateHash(HashKey(k))] = %q", p.Algorithm(), key, owner, nodes[i].ID)
	}
}

// locateMemberships are the memberships FuzzLocate chooses from: default
// IDs of several sizes, then IDs with spaces, UTF-8, braces and '#' (ring
// labels are "ID#j"), weighted where the algorithm accepts weights.
var locateMemberships = []struct {
	ids     []string
	weights []float64
}{
	{ids: []string{"node-0"}},
	{ids: []string{"node-0", "node-1"}},
	{ids: []string{"node-0", "node-1", "node-2"}},
	{ids: []string{"node-0", "node-1", "node-2", "node-3", "node-4", "node-5", "node-6"}},
	{ids: []string{"a", "b", "c", "d", "e"}, weights: []float64{1, 1, 2, 4, 0.5}},
	{ids: []string{"ünï", "node #1", "{tag}", "x#1", "x", "日本"}, weights: []float64{3, 0.25, 1, 1, 2, 1}},
}

// placers caches FuzzLocate's placers by algorithm, membership and hash:
// building one per input would make the key the cheap part.
var placers sync.Map

func locatePlacer(t *testing.T, name string, m int, hash string) algorithms.Placer {
	t.Helper()
	id := fmt.Sprintf("%s/%d/%s", name, m, hash)
	if p, ok := placers.Load(id); ok {
		return p.(algorithms.Placer)
	}
	in, err := catalog.Describe(name)
	if err != nil {
		t.Fatal(err)
	}
	mem := locateMemberships[m]
	nodes := make([]algorithms.Node, len(mem.ids))
	for i, id := range mem.ids {
		nodes[i] = algorithms.Node{ID: id, Weight: 1}
		if in.Weighted && mem.weights != nil {
			nodes[i].Weight = mem.weights[i]
		}
	}
	cfg := catalog.DefaultConfig()
	cfg.Hash = hash
	cfg.Partitions = 1024 // bounded: enough for these memberships, cheap to build
	p, err := catalog.New(name, nodes, cfg)
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	got := make([]string, 0, len(nodes))
	for _, n := range p.Nodes() {
		got = append(got, n.ID)
	}
	if want := slices.Sorted(slices.Values(mem.ids)); !slices.Equal(slices.Sorted(slices.Values(got)), want) {
		t.Fatalf("%s: Nodes() = %q, want the members %q", id, got, want)
	}
	placers.Store(id, p)
	return p
}

// FuzzLocate: for every algorithm, every key's owner is a member, stable on
// a second lookup, and the one the two-step lookup finds.
func FuzzLocate(f *testing.F) {
	for i, k := range seedKeys {
		f.Add(k, uint8(i), uint8(i))
	}
	f.Fuzz(func(t *testing.T, key string, membership, hashSel uint8) {
		m := int(membership) % len(locateMemberships)
		names := algorithms.HashNames()
		hash := names[int(hashSel)%len(names)]
		for _, name := range append(catalog.Names(), catalog.Staged()...) {
			checkOwner(t, locatePlacer(t, name, m, hash), key)
		}
	})
}

// movementKeys returns the keys whose owners the join and leave targets
// compare: the fuzzed key, 255 keys derived from it, and 4,096 fixed keys,
// one in every fourth Redis hash slot (so a table of slots or partitions
// cannot hide a block of moved entries), which spread over every other
// algorithm's hash space like any keys.
func movementKeys(key string) []string {
	keys := []string{key}
	for i := range 255 {
		keys = append(keys, key+strconv.Itoa(i))
	}
	for i, k := range slotKeys() {
		if i%4 == 0 {
			keys = append(keys, k)
		}
	}
	return keys
}

// priorLeave optionally gives a stateful algorithm a history: when prior is
// odd, the placement is built with one more node (ID "prior", inserted at
// position prior/2 mod n+1), which then leaves, so the membership is nodes
// but the assignment is a rebalanced one. Stateless algorithms rebuild and
// are unaffected.
func priorLeave(t *testing.T, name string, nodes []algorithms.Node, cfg catalog.Config, prior uint8) algorithms.Placer {
	t.Helper()
	if prior%2 == 0 {
		p, err := catalog.New(name, nodes, cfg)
		if err != nil {
			t.Fatalf("%s, %d nodes: %v", name, len(nodes), err)
		}
		return p
	}
	at := int(prior/2) % (len(nodes) + 1)
	more := slices.Insert(slices.Clone(nodes), at, algorithms.Node{ID: "prior", Weight: 1})
	p, err := catalog.New(name, more, cfg)
	if err != nil {
		t.Fatalf("%s, %d nodes: %v", name, len(more), err)
	}
	if p, err = algorithms.Leave(p, "prior"); err != nil {
		t.Fatalf("%s: prior leave: %v", name, err)
	}
	return p
}

// FuzzJoin: for every algorithm whose catalog Info says JoinMinimal, a node
// appended to the membership (any n, weights, hash, virtual nodes, ID and
// weight of the newcomer) takes keys only for itself: every key that
// changes owner moves to the joining node.
func FuzzJoin(f *testing.F) {
	f.Add("", uint16(4), []byte{}, "new", uint8(0), uint8(0), uint8(0), uint8(0))
	f.Add("{user1000}.x", uint16(1), []byte{0}, "", uint8(3), uint8(1), uint8(9), uint8(1))
	f.Add("foo{bar}zap", uint16(199), []byte{3, 1, 4, 1, 5}, "ünï #7", uint8(31), uint8(2), uint8(199), uint8(5))
	f.Add("\xff\xfe\x80", uint16(299), []byte{0, 7}, "node-3", uint8(7), uint8(4), uint8(159), uint8(0))
	f.Add("", uint16(52), []byte{0, 7}, "new", uint8(0), uint8(0), uint8(0), uint8(0)) // 53 nodes weighted 0.5,4,0.5,... + one of 0.5: refuted JoinMinimal for slots
	f.Fuzz(func(t *testing.T, key string, n uint16, weights []byte, newID string, newWeight, hashSel, vnodes, prior uint8) {
		cfg := fuzzConfig(hashSel, vnodes)
		size := 1 + int(n)%maxFuzzNodes
		for _, name := range append(catalog.Names(), catalog.Staged()...) {
			in, err := catalog.Describe(name)
			if err != nil {
				t.Fatal(err)
			}
			if !in.JoinMinimal {
				continue
			}
			nodes := fuzzMembership(t, in, size, weights)
			joining := algorithms.Node{ID: newID, Weight: 1}
			if in.Weighted {
				joining.Weight = fuzzWeight(newWeight)
			}
			if algorithms.ValidateNodes(append(slices.Clone(nodes), joining)) != nil {
				joining.ID = algorithms.NodeID(size) // an invalid or taken ID: use the next default one
			}
			before := priorLeave(t, name, nodes, cfg, prior)
			after, err := algorithms.Join(before, joining)
			if err != nil {
				t.Fatalf("%s: join %q to %d nodes: %v", name, joining.ID, size, err)
			}
			for _, k := range movementKeys(key) {
				if b, a := before.Locate(k), after.Locate(k); a != b && a != joining.ID {
					t.Fatalf("%s (hash %s, vnodes %d, %d nodes, weights %s): %q joined (weight %v), yet key %q moved from %q to %q",
						name, cfg.Hash, cfg.VNodes, size, weightsOf(nodes), joining.ID, joining.Weight, k, b, a)
				}
			}
		}
	})
}

// FuzzLeave: for every algorithm whose catalog Info says LeaveMinimal,
// when any node leaves (the fuzzer picks n, which node, weights, hash and
// virtual nodes), only the keys of the leaving node move.
func FuzzLeave(f *testing.F) {
	f.Add("", uint16(4), uint16(0), []byte{}, uint8(0), uint8(0), uint8(0))
	f.Add("{user1000}.x", uint16(1), uint16(1), []byte{0}, uint8(1), uint8(9), uint8(1))
	f.Add("foo{bar}zap", uint16(199), uint16(77), []byte{3, 1, 4, 1, 5}, uint8(2), uint8(199), uint8(5))
	f.Add("\xff\xfe\x80", uint16(298), uint16(297), []byte{0, 7}, uint8(4), uint8(159), uint8(0))
	f.Add("", uint16(61), uint16(0), []byte{0, 7}, uint8(0), uint8(0), uint8(0)) // node-0 leaves 63 nodes weighted 0.5,4,0.5,...: refuted LeaveMinimal for slots
	f.Fuzz(func(t *testing.T, key string, n, which uint16, weights []byte, hashSel, vnodes, prior uint8) {
		cfg := fuzzConfig(hashSel, vnodes)
		size := 2 + int(n)%(maxFuzzNodes-1)
		for _, name := range append(catalog.Names(), catalog.Staged()...) {
			in, err := catalog.Describe(name)
			if err != nil {
				t.Fatal(err)
			}
			if !in.LeaveMinimal {
				continue
			}
			nodes := fuzzMembership(t, in, size, weights)
			before := priorLeave(t, name, nodes, cfg, prior)
			leaving := before.Nodes()[int(which)%size].ID
			after, err := algorithms.Leave(before, leaving)
			if err != nil {
				t.Fatalf("%s: %q leaves %d nodes: %v", name, leaving, size, err)
			}
			for _, k := range movementKeys(key) {
				if b, a := before.Locate(k), after.Locate(k); b != leaving && a != b {
					t.Fatalf("%s (hash %s, vnodes %d, %d nodes, weights %s): %q left, yet key %q moved from %q to %q",
						name, cfg.Hash, cfg.VNodes, size, weightsOf(nodes), leaving, k, b, a)
				}
			}
		}
	})
}

// weightsOf returns the nodes' weights for a failure message, the first
// eight and the count beyond them.
func weightsOf(nodes []algorithms.Node) string {
	var b strings.Builder
	for i, n := range nodes {
		if i == 8 {
			fmt.Fprintf(&b, " ... (%d more)", len(nodes)-8)
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprint(&b, n.Weight)
	}
	return b.String()
}
