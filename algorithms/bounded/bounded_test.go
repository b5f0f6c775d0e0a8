package bounded

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

var xxh = algorithms.MustHash("xxhash")

func nodes(n int) []algorithms.Node {
	ns, err := algorithms.DefaultNodes(n)
	if err != nil {
		panic(err)
	}
	return ns
}

func mustNew(t *testing.T, ns []algorithms.Node, vnodes int, eps float64, parts int, h algorithms.Hash) *Bounded {
	t.Helper()
	b, err := New(ns, vnodes, eps, parts, h)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// exactCap is ceil(c * P * w / W) in exact rational arithmetic, for eps and
// weights that are exact binary fractions.
func exactCap(eps float64, parts int, w, total float64) int {
	x := new(big.Rat).SetFloat64(1 + eps)
	x.Mul(x, new(big.Rat).SetInt64(int64(parts)))
	x.Mul(x, new(big.Rat).SetFloat64(w))
	x.Quo(x, new(big.Rat).SetFloat64(total))
	q, r := new(big.Int).QuoRem(x.Num(), x.Denom(), new(big.Int))
	if r.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return int(min(q.Int64(), int64(parts)))
}

// checkInvariants asserts what must hold of every placement: each partition
// has a member owner, loads are the partition counts, they sum to P, no
// node exceeds its capacity, and capacities are ceil(c*P*w/W).
func checkInvariants(t *testing.T, b *Bounded) {
	t.Helper()
	P := b.Partitions()
	ns := b.Nodes()
	loads := make([]int, len(ns))
	for p := range P {
		o := b.Owner(p)
		if o < 0 || o >= len(ns) {
			t.Fatalf("partition %d has owner index %d of %d nodes", p, o, len(ns))
		}
		loads[o]++
	}
	total := algorithms.TotalWeight(ns)
	sum := 0
	for i, n := range ns {
		if loads[i] != b.Load(i) {
			t.Fatalf("node %q: Load %d, table has %d", n.ID, b.Load(i), loads[i])
		}
		if want := exactCap(b.Eps(), P, n.Weight, total); b.Cap(i) != want {
			t.Fatalf("node %q: capacity %d, want ceil(c*P*w/W) = %d", n.ID, b.Cap(i), want)
		}
		if loads[i] > b.Cap(i) {
			t.Fatalf("node %q: load %d exceeds capacity %d", n.ID, loads[i], b.Cap(i))
		}
		sum += loads[i]
	}
	if sum != P {
		t.Fatalf("loads sum to %d, want %d", sum, P)
	}
	shares := b.ExactShares()
	for i, s := range shares {
		if s != float64(loads[i])/float64(P) {
			t.Fatalf("node %d: ExactShares %v, load %d of %d", i, s, loads[i], P)
		}
	}
}

// checkFreshWalk asserts the bounded-loads rule on a fresh placement: every
// virtual node passed over between a partition's position and its owner's
// virtual node belongs to a full node. (Loads only grow while partitions
// are placed, so a node skipped then is full at the end.)
func checkFreshWalk(t *testing.T, b *Bounded) {
	t.Helper()
	r := b.Ring()
	for p := range b.Partitions() {
		i := r.Search(b.PartitionPos(p))
		for steps := 0; r.At(i).Owner != b.Owner(p); steps++ {
			o := r.At(i).Owner
			if b.Load(o) != b.Cap(o) {
				t.Fatalf("partition %d passed node %d with load %d < capacity %d on its way to node %d",
					p, o, b.Load(o), b.Cap(o), b.Owner(p))
			}
			if steps > r.Len() {
				t.Fatalf("partition %d: owner %d not found on the ring", p, b.Owner(p))
			}
			i = (i + 1) % r.Len()
		}
	}
}

// A fresh placement holds every partition within its node's capacity, for
// default, tight, single-vnode, weighted and one-partition-per-node
// settings.
func TestFreshPlacement(t *testing.T) {
	weighted := []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 2}, {ID: "c", Weight: 0.5}, {ID: "d", Weight: 4}}
	cases := []struct {
		name  string
		nodes []algorithms.Node
		v     int
		eps   float64
		parts int
		hash  string
	}{
		{"defaults", nodes(10), 160, DefaultEps, DefaultPartitions, "xxhash"},
		{"one node", nodes(1), 10, 0.25, 100, "xxhash"},
		{"tight eps", nodes(20), 20, 0.01, 4096, "xxhash"},
		{"one vnode", nodes(16), 1, 0.5, 1024, "fnv1a32"},
		{"nodes = partitions", nodes(64), 4, 0.25, 64, "fnv1a32"},
		{"weighted", weighted, 50, 0.125, 5000, "fnv1a64"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := mustNew(t, c.nodes, c.v, c.eps, c.parts, algorithms.MustHash(c.hash))
			checkInvariants(t, b)
			checkFreshWalk(t, b)
		})
	}
}

// With one virtual node per node and loose capacities, partitions land on
// the first virtual node clockwise, as on a plain ring; the bound only
// bites when nodes fill up.
func TestLooseCapacityIsPlainRing(t *testing.T) {
	b := mustNew(t, nodes(3), 1, 3, 300, xxh) // capacity ceil(4*300/3) = 400 >= P
	r := b.Ring()
	for p := range b.Partitions() {
		if want := r.At(r.Search(b.PartitionPos(p))).Owner; b.Owner(p) != want {
			t.Fatalf("partition %d owned by %d, first node clockwise is %d", p, b.Owner(p), want)
		}
	}
}

// A fresh placement depends on the member set only, not the listing order.
func TestFreshOrderFree(t *testing.T) {
	ns := nodes(12)
	a := mustNew(t, ns, 40, 0.25, 2048, xxh)
	rev := slices.Clone(ns)
	slices.Reverse(rev)
	b := mustNew(t, rev, 40, 0.25, 2048, xxh)
	for p := range a.Partitions() {
		if a.Nodes()[a.Owner(p)].ID != b.Nodes()[b.Owner(p)].ID {
			t.Fatalf("partition %d: owner %s, reversed membership %s", p, a.Nodes()[a.Owner(p)].ID, b.Nodes()[b.Owner(p)].ID)
		}
	}
}

// Partition(h) = floor(h * P / 2^bits), checked with big integers.
func TestPartition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, parts := range []int{1, 7, 1000, 16384, 1 << 20} {
		for _, hn := range []string{"xxhash", "fnv1a32"} {
			h := algorithms.MustHash(hn)
			b := mustNew(t, nodes(1), 1, 0.25, parts, h)
			bitsN := uint(h.Bits())
			max := uint64(math.MaxUint64) >> (64 - bitsN)
			hs := []uint64{0, 1, max, max - 1}
			for range 1000 {
				hs = append(hs, rng.Uint64()&max)
			}
			for _, x := range hs {
				want := new(big.Int).SetUint64(x)
				want.Mul(want, big.NewInt(int64(parts)))
				want.Rsh(want, bitsN)
				if got := b.Partition(x); int64(got) != want.Int64() {
					t.Fatalf("%s P=%d: Partition(%#x) = %d, want %d", hn, parts, x, got, want.Int64())
				}
			}
			if b.Partition(0) != 0 || b.Partition(max) != parts-1 {
				t.Errorf("%s P=%d: Partition(0) = %d, Partition(max) = %d", hn, parts, b.Partition(0), b.Partition(max))
			}
		}
	}
}

// Bad memberships and settings (vnodes, eps, partitions, more nodes than
// partitions) are errors naming the value, from New and from Rebalance.
func TestErrors(t *testing.T) {
	ok := nodes(3)
	cases := []struct {
		name  string
		nodes []algorithms.Node
		v     int
		eps   float64
		parts int
		want  string
	}{
		{"empty", nil, 10, 0.25, 100, "empty"},
		{"duplicate", []algorithms.Node{{ID: "a", Weight: 1}, {ID: "a", Weight: 1}}, 10, 0.25, 100, `duplicate node ID "a"`},
		{"bad weight", []algorithms.Node{{ID: "a", Weight: -1}}, 10, 0.25, 100, "weight -1"},
		{"vnodes 0", ok, 0, 0.25, 100, "vnodes 0"},
		{"vnodes negative", ok, -3, 0.25, 100, "vnodes -3"},
		{"eps 0", ok, 10, 0, 100, "eps 0"},
		{"eps negative", ok, 10, -0.5, 100, "eps -0.5"},
		{"eps NaN", ok, 10, math.NaN(), 100, "eps NaN"},
		{"eps Inf", ok, 10, math.Inf(1), 100, "eps +Inf"},
		{"eps too small", ok, 10, 1e-17, 100, "eps 1e-17: too small"},
		{"partitions 0", ok, 10, 0.25, 0, "partitions 0"},
		{"partitions too many", ok, 10, 0.25, MaxPartitions + 1, fmt.Sprintf("partitions %d", MaxPartitions+1)},
		{"more nodes than partitions", ok, 10, 0.25, 2, "3 nodes exceed the 2 partitions"},
		{"weight gives no vnode", []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 0.01}}, 10, 0.25, 100, `node "b"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := New(c.nodes, c.v, c.eps, c.parts, xxh)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
			if b != nil {
				t.Error("New returned a placement with the error")
			}
		})
	}
	// Rebalance rejects bad memberships with the same errors.
	base := mustNew(t, ok, 10, 0.25, 3, xxh)
	for _, c := range []struct {
		name  string
		nodes []algorithms.Node
		want  string
	}{
		{"empty", nil, "empty"},
		{"empty id", []algorithms.Node{{ID: "", Weight: 1}}, "empty node ID"},
		{"more nodes than partitions", nodes(4), "4 nodes exceed the 3 partitions"},
		{"weight gives no vnode", []algorithms.Node{{ID: "x", Weight: 0.001}}, `node "x"`},
	} {
		t.Run("rebalance "+c.name, func(t *testing.T) {
			q, err := base.Rebalance(c.nodes)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
			if q != nil {
				t.Error("Rebalance returned a placement with the error")
			}
		})
	}
}

// ownerIDs returns the owner ID of every partition.
func ownerIDs(b *Bounded) []string {
	out := make([]string, b.Partitions())
	for p := range out {
		out[p] = b.Nodes()[b.Owner(p)].ID
	}
	return out
}

func rebalance(t *testing.T, b *Bounded, next []algorithms.Node) *Bounded {
	t.Helper()
	q, err := b.Rebalance(next)
	if err != nil {
		t.Fatal(err)
	}
	return q.(*Bounded)
}

// checkLeave asserts that a leave moves exactly the departed nodes'
// partitions: capacities only grow when nodes leave, so no survivor sheds.
func checkLeave(t *testing.T, a, b *Bounded, gone map[string]bool) {
	t.Helper()
	oa, ob := ownerIDs(a), ownerIDs(b)
	for p := range oa {
		if moved := oa[p] != ob[p]; moved != gone[oa[p]] {
			t.Fatalf("leave of %v: partition %d %s -> %s", gone, p, oa[p], ob[p])
		}
	}
}

// checkJoin asserts the join rule and returns the number of partitions
// moved. A partition may move only to the joined node or away from a node
// whose load exceeds its new capacity, and each old node loses to others at
// most its excess max(0, load - new capacity). So the partitions moved are
// at most the joiner's capacity plus the total excess; for n equal nodes
// that is at most ceil(c*P/(n+1)) + n*(ceil(c*P/n) - ceil(c*P/(n+1))),
// which is below 2c*P/(n+1) + n + 1: about 2c times the ideal P/(n+1).
func checkJoin(t *testing.T, a, b *Bounded, joined string) int {
	t.Helper()
	oa, ob := ownerIDs(a), ownerIDs(b)
	excess := map[string]int{}
	for i, n := range a.Nodes() {
		excess[n.ID] = max(0, a.Load(i)-b.Cap(algorithms.IndexOf(b.Nodes(), n.ID)))
	}
	lostToOthers := map[string]int{}
	moved, bound := 0, b.Cap(algorithms.IndexOf(b.Nodes(), joined))
	for _, e := range excess {
		bound += e
	}
	for p := range oa {
		if oa[p] == ob[p] {
			continue
		}
		moved++
		if ob[p] != joined {
			lostToOthers[oa[p]]++
			if lostToOthers[oa[p]] > excess[oa[p]] {
				t.Fatalf("join of %s: %s lost %d partitions to other survivors, its excess is %d",
					joined, oa[p], lostToOthers[oa[p]], excess[oa[p]])
			}
		}
	}
	if moved > bound {
		t.Fatalf("join of %s: moved %d partitions, bound %d", joined, moved, bound)
	}
	// The joiner takes every partition whose first virtual node clockwise
	// is its own, unless it is full.
	r, j := b.Ring(), algorithms.IndexOf(b.Nodes(), joined)
	if b.Load(j) < b.Cap(j) {
		for p := range ob {
			if r.At(r.Search(b.PartitionPos(p))).Owner == j && ob[p] != joined {
				t.Fatalf("join of %s (load %d < capacity %d): partition %d starts at its virtual node but stays on %s",
					joined, b.Load(j), b.Cap(j), p, ob[p])
			}
		}
	}
	return moved
}

// One join and one leave on n equal nodes, against the bounds derived in
// checkJoin, for several eps.
func TestJoinLeaveMoves(t *testing.T) {
	const P = 8192
	for _, eps := range []float64{0.03125, 0.25, 1} {
		for _, n := range []int{4, 10, 50} {
			t.Run(fmt.Sprintf("eps=%v/n=%d", eps, n), func(t *testing.T) {
				a := mustNew(t, nodes(n), 160, eps, P, xxh)
				b := rebalance(t, a, append(nodes(n), algorithms.Node{ID: "new", Weight: 1}))
				checkInvariants(t, b)
				moved := checkJoin(t, a, b, "new")
				c := 1 + eps
				ideal := float64(P) / float64(n+1)
				if limit := 2*c*ideal + float64(n) + 1; float64(moved) > limit {
					t.Errorf("join moved %d partitions, more than 2c*P/(n+1)+n+1 = %.0f", moved, limit)
				}
				// The joiner takes the partitions whose first virtual node
				// is its own: with 160 virtual nodes its arc is 1/(n+1)
				// within about 8% (1/sqrt(160)), so half the ideal is a
				// > 6 sigma lower bound.
				if got := b.Load(n); float64(got) < ideal/2 {
					t.Errorf("joiner holds %d partitions, ideal %.0f", got, ideal)
				}
				// Leave of the joiner and of a middle node.
				for _, id := range []string{"new", algorithms.NodeID(n / 2)} {
					l, err := algorithms.Leave(b, id)
					if err != nil {
						t.Fatal(err)
					}
					lb := l.(*Bounded)
					checkInvariants(t, lb)
					checkLeave(t, b, lb, map[string]bool{id: true})
				}
			})
		}
	}
}

// Many joins and leaves, random and LIFO, with a fixed seed: the invariants
// hold after every step and each step obeys the join or leave rule.
func TestChurn(t *testing.T) {
	steps := 120
	if testing.Short() {
		steps = 40
	}
	for _, mode := range []string{"random", "lifo"} {
		t.Run(mode, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(42, uint64(len(mode))))
			b := mustNew(t, nodes(8), 40, 0.2, 4096, xxh)
			nextID := 8
			var stack []string
			for step := range steps {
				cur := b.Nodes()
				join := len(cur) == 1 || (len(cur) < 40 && rng.IntN(2) == 0)
				if mode == "lifo" {
					join = len(cur) == 1 || (len(stack) == 0 && rng.IntN(2) == 0) || (len(stack) > 0 && rng.IntN(3) == 0)
					if len(stack) == 0 && !join && len(cur) > 1 {
						join = rng.IntN(2) == 0
					}
				}
				if join {
					id := fmt.Sprint("j", nextID)
					nextID++
					w := float64(1 + rng.IntN(3))
					next := append(slices.Clone(cur), algorithms.Node{ID: id, Weight: w})
					nb := rebalance(t, b, next)
					checkInvariants(t, nb)
					checkJoin(t, b, nb, id)
					stack = append(stack, id)
					b = nb
					continue
				}
				var id string
				if mode == "lifo" && len(stack) > 0 {
					id, stack = stack[len(stack)-1], stack[:len(stack)-1]
				} else {
					id = cur[rng.IntN(len(cur))].ID
					if i := slices.Index(stack, id); i >= 0 {
						stack = slices.Delete(stack, i, i+1)
					}
				}
				l, err := algorithms.Leave(b, id)
				if err != nil {
					t.Fatalf("step %d: %v", step, err)
				}
				nb := l.(*Bounded)
				checkInvariants(t, nb)
				checkLeave(t, b, nb, map[string]bool{id: true})
				b = nb
			}
		})
	}
}

// LIFO round trip: after a join and the joiner's leave, every partition the
// joiner did not take is where it was.
func TestJoinThenLeave(t *testing.T) {
	a := mustNew(t, nodes(10), 100, 0.25, 4096, xxh)
	b := rebalance(t, a, append(nodes(10), algorithms.Node{ID: "x", Weight: 1}))
	c := rebalance(t, b, nodes(10))
	oa, ob, oc := ownerIDs(a), ownerIDs(b), ownerIDs(c)
	for p := range oa {
		if ob[p] == oa[p] && oc[p] != oa[p] {
			t.Fatalf("partition %d stayed on %s through the join but moved to %s on the leave", p, oa[p], oc[p])
		}
	}
}

// Rebalancing to the same member set, in any order, moves nothing; the
// receiver is unchanged by a rebalance.
func TestRebalanceSameMembers(t *testing.T) {
	a := mustNew(t, nodes(9), 50, 0.25, 3000, xxh)
	before := ownerIDs(a)
	rev := slices.Clone(a.Nodes())
	slices.Reverse(rev)
	b := rebalance(t, a, rev)
	if !slices.Equal(ownerIDs(b), before) {
		t.Error("rebalance to a reordered membership moved partitions")
	}
	if _, err := algorithms.Leave(a, "node-3"); err != nil {
		t.Fatal(err)
	}
	if _, err := algorithms.Join(a, algorithms.Node{ID: "x", Weight: 1}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ownerIDs(a), before) {
		t.Error("Rebalance changed the receiver")
	}
	// Deterministic: the same rebalance twice gives the same placement.
	x, _ := algorithms.Join(a, algorithms.Node{ID: "x", Weight: 2})
	y, _ := algorithms.Join(a, algorithms.Node{ID: "x", Weight: 2})
	if !slices.Equal(ownerIDs(x.(*Bounded)), ownerIDs(y.(*Bounded))) {
		t.Error("the same rebalance gave two placements")
	}
}

// A weight change is a rebalance too: loads stay within the new capacities.
func TestWeightChange(t *testing.T) {
	a := mustNew(t, nodes(6), 60, 0.1, 4096, xxh)
	next := nodes(6)
	next[2].Weight = 4
	b := rebalance(t, a, next)
	checkInvariants(t, b)
	next[2].Weight = 0.5
	checkInvariants(t, rebalance(t, b, next))
}

// HashKey is the configured hash, LocateHash the owner of the key's
// partition, and Locate agrees with both, under three hashes.
func TestLookups(t *testing.T) {
	for _, hn := range []string{"xxhash", "fnv1a32", "murmur3-64"} {
		h := algorithms.MustHash(hn)
		b := mustNew(t, nodes(5), 40, 0.25, 1000, h)
		for i := range 1000 {
			key := fmt.Sprint("key-", i)
			hk := h.Sum(key)
			if b.HashKey(key) != hk {
				t.Fatalf("HashKey(%q) = %#x, hash %#x", key, b.HashKey(key), hk)
			}
			if got, want := b.LocateHash(hk), b.Owner(b.Partition(hk)); got != want {
				t.Fatalf("LocateHash(%#x) = %d, owner of its partition %d", hk, got, want)
			}
			if b.Locate(key) != b.Nodes()[b.LocateHash(hk)].ID {
				t.Fatalf("Locate(%q) disagrees with LocateHash", key)
			}
		}
	}
}

// HashKey, LocateHash and Locate allocate nothing.
func TestLookupsAllocateNothing(t *testing.T) {
	b := mustNew(t, nodes(10), 40, 0.25, 4096, xxh)
	var sink int
	if a := testing.AllocsPerRun(1000, func() { sink += b.LocateHash(b.HashKey("some key")) }); a != 0 {
		t.Errorf("HashKey+LocateHash: %v allocations per run", a)
	}
	if a := testing.AllocsPerRun(1000, func() { sink += len(b.Locate("some key")) }); a != 0 {
		t.Errorf("Locate: %v allocations per run", a)
	}
	_ = sink
}

// The shared key-level properties: a leave moves only the leaver's keys, a
// fresh placement is order-free, lookups allocate nothing and agree across
// goroutines.
func TestSharedProperties(t *testing.T) {
	keys := placertest.Keys(20000, 2)
	ns := nodes(8)
	p := mustNew(t, ns, 80, 0.25, 4096, xxh)
	placertest.CheckOrderIndependent(t, p, mustNew(t, placertest.Reversed(ns), 80, 0.25, 4096, xxh), keys)
	q, err := algorithms.Leave(p, "node-5")
	if err != nil {
		t.Fatal(err)
	}
	// The leaver held Load/P of the hash space (about 1/8), so the moved
	// fraction of K = 20000 keys has sd sqrt(f(1-f)/K) = 0.0023; 0.015 is
	// over 6 sd.
	f := placertest.CheckLeave(t, p, q, keys, "node-5")
	if want := float64(p.Load(5)) / 4096; math.Abs(f-want) > 0.015 {
		t.Errorf("leave moved %.4f of keys, its partitions hold %.4f of the hash space", f, want)
	}
	placertest.CheckNoAllocs(t, q)
	placertest.CheckConcurrent(t, q, keys[:2000])
}
