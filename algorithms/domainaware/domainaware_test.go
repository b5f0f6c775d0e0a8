package domainaware_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/crush"
	"github.com/chbench/chbench/algorithms/domainaware"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/topology"
)

var xxh = algorithms.MustHash("xxhash")

// racks returns 12 nodes (node 5 of weight 3) in racks of 4,4,2,2 nodes
// (two racks with half the nodes of the others) in 2 zones of 2 racks.
func racks(t *testing.T) *topology.Topology {
	t.Helper()
	nodes, _ := algorithms.DefaultNodes(12)
	nodes[5].Weight = 3
	tp, err := topology.Split(nodes, []topology.Grouping{{Level: "rack", Spec: "4,4,2,2"}, {Level: "zone", Spec: "2"}})
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

// locators returns every domain-aware placement of tp over racks; the
// algorithms without weights place tp's nodes at weight 1 (the wrapper
// matches nodes to domains by ID).
func locators(t *testing.T, tp *topology.Topology) []algorithms.Locator {
	t.Helper()
	var out []algorithms.Locator
	for _, name := range []string{"ring", "rendezvous", "slots", "jump", "maglev"} {
		nodes := tp.Nodes()
		if in, _ := catalog.Describe(name); !in.Weighted {
			nodes = uniformNodes(tp)
		}
		p, err := catalog.New(name, nodes, catalog.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		l, err := domainaware.New(p, 64, tp, "rack")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	c, err := crush.FromTopology(tp, "rack", xxh)
	if err != nil {
		t.Fatal(err)
	}
	h, err := domainaware.NewHierarchy(tp, "rack", xxh)
	if err != nil {
		t.Fatal(err)
	}
	return append(out, algorithms.AsLocator(c, 64), algorithms.AsLocator(h, 64))
}

func keys(n int) []string {
	ks, err := keyset.Keys(n, 1)
	if err != nil {
		panic(err)
	}
	return ks
}

// Every domain-aware placement keeps R = 3 replicas in 3 distinct racks
// for every key (four racks are available), its first replica is the
// placement's own owner, and R = 4 fills all four racks. CRUSH is the
// exception at R = 4, as in Ceph: its rule draws racks by weight and gives
// up after choose_total_tries + 1 = 51 draws, so with racks weighing 4, 6,
// 2, 2 a key whose last free rack weighs 2 misses it with probability
// (12/14)^51 = 3.8e-4 and gets a replica in a used rack instead: about 2
// of 5,000 keys; the bound 10 is a Poisson tail of 3e-4.
func TestReplicasInDistinctRacks(t *testing.T) {
	tp := racks(t)
	ks := keys(5000)
	for _, l := range locators(t, tp) {
		t.Run(l.Algorithm(), func(t *testing.T) {
			dom, err := tp.DomainsOf(1, l.Nodes())
			if err != nil {
				t.Fatal(err)
			}
			owners := make([]int, len(ks))
			if err := l.LocateKeys(ks, owners); err != nil {
				t.Fatal(err)
			}
			for _, r := range []int{3, 4} {
				reps := make([]int, r*len(ks))
				if err := l.ReplicateKeys(ks, r, reps); err != nil {
					t.Fatal(err)
				}
				short := 0
				for i := range ks {
					set := reps[i*r : (i+1)*r]
					if set[0] != owners[i] {
						t.Fatalf("R=%d key %d: first replica %d, owner %d", r, i, set[0], owners[i])
					}
					seen := map[int32]bool{}
					distinct := map[int]bool{}
					for _, n := range set {
						seen[dom[n]] = true
						distinct[n] = true
					}
					if len(distinct) != r {
						t.Fatalf("R=%d key %q: replicas %v not distinct", r, ks[i], set)
					}
					if len(seen) != r {
						short++
						if r == 3 || l.Algorithm() != crush.Name {
							t.Fatalf("R=%d key %q: replicas %v in racks %v", r, ks[i], set, racksOf(set, dom))
						}
					}
				}
				if short > 10 {
					t.Errorf("R=%d: %d of %d keys without %d racks, want at most 10", r, short, len(ks), r)
				}
			}
		})
	}
}

func racksOf(set []int, dom []int32) []int32 {
	out := make([]int32, len(set))
	for i, n := range set {
		out[i] = dom[n]
	}
	return out
}

// With more replicas than racks (R = 3 over 2 zones) every placement
// still returns 3 distinct nodes, both zones used.
func TestMoreReplicasThanDomains(t *testing.T) {
	tp := racks(t)
	ks := keys(5000)
	for _, name := range []string{"ring", "rendezvous", "slots", "jump"} {
		p, err := catalog.New(name, uniformNodes(tp), catalog.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		l, err := domainaware.New(p, 64, tp, "zone")
		if err != nil {
			t.Fatal(err)
		}
		reps := make([]int, 3*len(ks))
		if err := l.ReplicateKeys(ks, 3, reps); err != nil {
			t.Fatal(err)
		}
		zone := l.Domains()
		for i := range ks {
			set := reps[3*i : 3*i+3]
			if set[0] == set[1] || set[0] == set[2] || set[1] == set[2] || !slices.Contains(racksOf(set, zone), 0) || !slices.Contains(racksOf(set, zone), 1) {
				t.Fatalf("%s key %d: %v in zones %v", name, i, set, racksOf(set, zone))
			}
		}
	}
}

func uniformNodes(tp *topology.Topology) []algorithms.Node {
	nodes := slices.Clone(tp.Nodes())
	for i := range nodes {
		nodes[i].Weight = 1
	}
	return nodes
}

// The plain placements, without the wrapper, do put replicas of some
// keys in one rack: what the domain-aware schemes fix.
func TestPlainRingSharesRacks(t *testing.T) {
	tp := racks(t)
	p, err := catalog.New("ring", tp.Nodes(), catalog.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	l := algorithms.AsLocator(p, 64)
	ks := keys(5000)
	reps := make([]int, 3*len(ks))
	if err := l.ReplicateKeys(ks, 3, reps); err != nil {
		t.Fatal(err)
	}
	rack := tp.DomainOf(1)
	shared := 0
	for i := range ks {
		s := reps[3*i : 3*i+3]
		if rack[s[0]] == rack[s[1]] || rack[s[0]] == rack[s[2]] || rack[s[1]] == rack[s[2]] {
			shared++
		}
	}
	// With racks of 4,4,2,2 nodes a random 3-set avoids a shared rack only
	// about a quarter of the time, so thousands of keys share.
	if shared < len(ks)/2 {
		t.Errorf("plain ring: %d of %d keys share a rack; expected most", shared, len(ks))
	}
}

// Replica lookups allocate nothing.
func TestReplicateKeysDoesNotAllocate(t *testing.T) {
	tp := racks(t)
	ks := keys(64)
	reps := make([]int, 3*len(ks))
	for _, l := range locators(t, tp) {
		if a := testing.AllocsPerRun(20, func() { l.ReplicateKeys(ks, 3, reps) }); a != 0 {
			t.Errorf("%s: %v allocations per batch, want 0", l.Algorithm(), a)
		}
	}
}

// The hierarchy's primary shares follow the weights: a rack's share of
// primaries is its weight share, within 5 binomial standard deviations
// over 40,000 keys (racks weigh 4, 6, 2, 2 of 14: node 5 weighs 3).
func TestHierarchyShares(t *testing.T) {
	tp := racks(t)
	h, err := domainaware.NewHierarchy(tp, "rack", xxh)
	if err != nil {
		t.Fatal(err)
	}
	const K = 40000
	counts := make([]float64, 4)
	for _, k := range keys(K) {
		counts[tp.DomainOf(1)[h.LocateHash(h.HashKey(k))]]++
	}
	w := tp.DomainWeights(1)
	for d, c := range counts {
		p := w[d] / 14
		if sd := math.Sqrt(K * p * (1 - p)); math.Abs(c-K*p) > 5*sd {
			t.Errorf("rack %d: %v primaries, want %v within %v", d, c, K*p, 5*sd)
		}
	}
	if _, err := domainaware.NewHierarchy(tp, "row", xxh); err == nil || !strings.Contains(err.Error(), `"row"`) {
		t.Errorf("unknown level: %v", err)
	}
}

// Rebalance restricts the domains with the membership and refuses a node
// the topology does not place.
func TestRebalance(t *testing.T) {
	tp := racks(t)
	p, _ := catalog.New("ring", tp.Nodes(), catalog.DefaultConfig())
	l, err := domainaware.New(p, 64, tp, "rack")
	if err != nil {
		t.Fatal(err)
	}
	next, err := l.Rebalance(tp.Nodes()[:8])
	if err != nil {
		t.Fatal(err)
	}
	if len(next.Nodes()) != 8 {
		t.Errorf("%d nodes after rebalance", len(next.Nodes()))
	}
	if _, err := l.Rebalance(append(slices.Clone(tp.Nodes()), algorithms.Node{ID: "stranger", Weight: 1})); err == nil || !strings.Contains(err.Error(), "stranger") {
		t.Errorf("stranger: %v", err)
	}
}

// greedy is the definition of the domain-aware schemes of ring,
// rendezvous and slots in terms of their plain preference order: take the
// nodes of order whose domain is unused, then the rest of order.
func greedy(order []int, dom []int32, r int) []int {
	var out []int
	for _, n := range order {
		if len(out) < r && !algorithms.DomainUsed(out, dom, dom[n]) {
			out = append(out, n)
		}
	}
	for _, n := range order {
		if len(out) < r && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// On 8 nodes in racks of 3, 3, 2 the plain Replicas of ring, rendezvous
// (weighted and not) and slots give each key's whole preference order;
// DomainReplicas must be exactly that order filtered to one node per
// rack, then the skipped nodes in order, for R = 1..5.
func TestDomainReplicasFollowPreferenceOrder(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(8)
	weighted := slices.Clone(nodes)
	weighted[2].Weight, weighted[6].Weight = 4, 0.5
	tp, err := topology.Split(nodes, []topology.Grouping{{Level: "rack", Spec: "3,3,2"}})
	if err != nil {
		t.Fatal(err)
	}
	dom := tp.DomainOf(0)
	for _, c := range []struct {
		name  string
		nodes []algorithms.Node
	}{{"ring", weighted}, {"rendezvous", nodes}, {"rendezvous", weighted}, {"slots", weighted}} {
		p, err := catalog.New(c.name, c.nodes, catalog.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		dr := p.(algorithms.DomainReplicator)
		order := make([]int, 8)
		dst := make([]int, 5)
		for _, k := range keys(3000) {
			h := p.HashKey(k)
			algorithms.Replicas(p, h, 64, order)
			for r := 1; r <= 5; r++ {
				got := dr.DomainReplicas(h, dom, dst[:r])
				if want := greedy(order, dom, r); !slices.Equal(got, want) {
					t.Fatalf("%s %v R=%d key %q: %v, want %v (order %v, racks %v)", c.name, algorithms.Uniform(c.nodes), r, k, got, want, order, dom)
				}
			}
		}
	}
}
