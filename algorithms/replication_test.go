package algorithms_test

import (
	"cmp"

	"slices"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/rendezvous"
	"github.com/chbench/chbench/keyset"
)

func build(t *testing.T, algo string, nodes []algorithms.Node) algorithms.Placer {
	t.Helper()
	p, err := catalog.New(algo, nodes, catalog.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func keys(t *testing.T, n int) []string {
	t.Helper()
	ks, err := keyset.Keys(n, 5)
	if err != nil {
		t.Fatal(err)
	}
	return ks
}

// Every algorithm's replicas are distinct, min(R, n) of them, the first the
// single owner (R = 1 is the owner), and computed without allocating.
func TestReplicasDistinctAndFirstIsOwner(t *testing.T) {
	ks := keys(t, 2000)
	bits := algorithms.MustHash(catalog.DefaultConfig().Hash).Bits()
	for _, algo := range catalog.Names() {
		for _, n := range []int{1, 3, 10} {
			nodes, _ := algorithms.DefaultNodes(n)
			p := build(t, algo, nodes)
			for _, r := range []int{1, 2, 3, 5} {
				dst := make([]int, r)
				for _, k := range ks {
					h := p.HashKey(k)
					got := algorithms.Replicas(p, h, bits, dst)
					if len(got) != min(r, n) {
						t.Fatalf("%s n=%d R=%d key %q: %d replicas %v, want %d", algo, n, r, k, len(got), got, min(r, n))
					}
					if got[0] != p.LocateHash(h) {
						t.Fatalf("%s n=%d R=%d key %q: first replica %d, owner %d", algo, n, r, k, got[0], p.LocateHash(h))
					}
					s := slices.Clone(got)
					slices.Sort(s)
					if len(slices.Compact(s)) != len(got) || s[0] < 0 || s[len(s)-1] >= n {
						t.Fatalf("%s n=%d R=%d key %q: replicas %v not distinct node indexes", algo, n, r, k, got)
					}
				}
				h := p.HashKey("user:1000")
				if a := testing.AllocsPerRun(100, func() { _ = algorithms.Replicas(p, h, bits, dst) }); a != 0 {
					t.Errorf("%s R=%d: Replicas allocates %v per call", algo, r, a)
				}
			}
		}
	}
}

func sameSet(a, b []int) bool {
	return len(a) == len(b) && !slices.ContainsFunc(a, func(x int) bool { return !slices.Contains(b, x) })
}

// Ring and rendezvous replica sets are stable: after a join every key's
// set is unchanged or is the old set without its last member plus the new
// node; after a leave, sets without the leaving node are unchanged and the
// others lose only it (and gain one node). Node IDs map to the same index
// here because the joining node is appended.
func TestReplicasStableOnJoinAndLeave(t *testing.T) {
	ks := keys(t, 5000)
	for _, algo := range []string{"ring", "rendezvous"} {
		for _, weights := range [][]float64{{1, 1, 1, 1, 1, 1, 1, 1}, {1, 2, 1, 3, 1, 1, 2, 1}} {
			nodes := make([]algorithms.Node, len(weights))
			for i, w := range weights {
				nodes[i] = algorithms.Node{ID: algorithms.NodeID(i), Weight: w}
			}
			before := build(t, algo, nodes)
			after, err := algorithms.Join(before, algorithms.Node{ID: "new", Weight: 1})
			if err != nil {
				t.Fatal(err)
			}
			newIdx := len(nodes)
			for _, r := range []int{1, 3, 5} {
				b, a := make([]int, r), make([]int, r)
				entered := 0
				for _, k := range ks {
					ob := before.(algorithms.Replicator).Replicas(before.HashKey(k), b)
					na := after.(algorithms.Replicator).Replicas(after.HashKey(k), a)
					if sameSet(ob, na) {
						continue
					}
					entered++
					want := append(slices.Clone(ob[:r-1]), newIdx)
					if !sameSet(na, want) {
						t.Fatalf("%s weights %v R=%d key %q: join changed %v to %v, want %v", algo, weights, r, k, ob, na, want)
					}
				}
				// The new node (weight 1 of W+1) enters about R/(W+1) of the sets.
				if entered == 0 {
					t.Errorf("%s R=%d: the new node entered no replica set", algo, r)
				}
				// Leave: node-2 goes; indexes above 2 shift down by one.
				left, err := algorithms.Leave(before, "node-2")
				if err != nil {
					t.Fatal(err)
				}
				for _, k := range ks {
					ob := before.(algorithms.Replicator).Replicas(before.HashKey(k), b)
					nl := left.(algorithms.Replicator).Replicas(left.HashKey(k), a)
					ids := func(p algorithms.Placer, xs []int) []string {
						var out []string
						for _, x := range xs {
							out = append(out, p.Nodes()[x].ID)
						}
						return out
					}
					oid, lid := ids(before, ob), ids(left, nl)
					if !slices.Contains(oid, "node-2") {
						if !slices.Equal(oid, lid) {
							t.Fatalf("%s R=%d key %q: leave of node-2 changed %v to %v", algo, r, k, oid, lid)
						}
						continue
					}
					kept := slices.DeleteFunc(slices.Clone(oid), func(s string) bool { return s == "node-2" })
					if !slices.Equal(kept, lid[:len(kept)]) || slices.Contains(lid, "node-2") {
						t.Fatalf("%s R=%d key %q: leave of node-2 changed %v to %v, want %v then one more", algo, r, k, oid, lid, kept)
					}
				}
			}
		}
	}
}

// Rendezvous replicas are the top R scores, by the definition: score every
// node, sort by score (ties to the smaller ID), take the first R.
func TestRendezvousReplicasAreTopScores(t *testing.T) {
	nodes := []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 3}, {ID: "c", Weight: 0.5}, {ID: "d", Weight: 2}, {ID: "e", Weight: 1}, {ID: "f", Weight: 1}}
	h := algorithms.MustHash("xxhash")
	p, err := rendezvous.New(nodes, h)
	if err != nil {
		t.Fatal(err)
	}
	// The weights are scaled by 2^-2 inside (largest in [0.5, 1)); scaling
	// all scores alike keeps their order.
	for _, k := range keys(t, 1000) {
		kh := p.HashKey(k)
		idx := []int{0, 1, 2, 3, 4, 5}
		score := func(i int) float64 { return rendezvous.Score(nodes[i].Weight, algorithms.Mix64(h.Sum(nodes[i].ID)^kh)) }
		slices.SortFunc(idx, func(x, y int) int {
			return cmp.Or(-cmp.Compare(score(x), score(y)), cmp.Compare(nodes[x].ID, nodes[y].ID))
		})
		got := p.Replicas(kh, make([]int, 4))
		if !slices.Equal(got, idx[:4]) {
			t.Fatalf("key %q: replicas %v, want top scores %v", k, got, idx[:4])
		}
	}
}

// constPlacer owns every key with node 0: the salted probes never find a
// second node, so SaltedReplicas completes the set in Nodes() order.
type constPlacer struct{ nodes []algorithms.Node }

func (c constPlacer) Algorithm() string         { return "const" }
func (c constPlacer) Nodes() []algorithms.Node  { return c.nodes }
func (c constPlacer) HashKey(key string) uint64 { return 0 }
func (c constPlacer) LocateHash(h uint64) int   { return 0 }
func (c constPlacer) Locate(key string) string  { return c.nodes[0].ID }
func (c constPlacer) Rebalance(n []algorithms.Node) (algorithms.Placer, error) {
	return constPlacer{n}, nil
}

// SaltedReplicas falls back to the nodes in index order when the salted
// probes keep hitting chosen nodes, returns every node when more replicas
// are asked than exist, and keeps 32-bit probes below 2^32.
func TestSaltedReplicasFallback(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(4)
	got := algorithms.SaltedReplicas(constPlacer{nodes}, 7, 64, make([]int, 3))
	if !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("replicas %v, want [0 1 2]", got)
	}
	if got := algorithms.SaltedReplicas(constPlacer{nodes}, 7, 64, make([]int, 20)); len(got) != 4 {
		t.Errorf("20 wanted of 4 nodes: %v, want all 4", got)
	}
	// The 32-bit probes stay below 2^32.
	var seen []uint64
	p := recordPlacer{constPlacer{nodes}, &seen}
	algorithms.SaltedReplicas(p, 1, 32, make([]int, 3))
	for _, h := range seen {
		if h >= 1<<32 {
			t.Errorf("32-bit probe %#x", h)
		}
	}
	if len(seen) < 2 {
		t.Errorf("probes %v, want several", seen)
	}
}

type recordPlacer struct {
	constPlacer
	seen *[]uint64
}

func (r recordPlacer) LocateHash(h uint64) int { *r.seen = append(*r.seen, h); return 0 }
