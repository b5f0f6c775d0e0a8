package slots

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
	"github.com/chbench/chbench/analysis/reference/published"
)

// Vectors from published.All (Redis Cluster spec, src/crc16.c).
func TestCRC16Vector(t *testing.T) {
	if got, want := CRC16("123456789"), published.All().CRC16; got != want {
		t.Errorf("CRC16(%q) = %#04x, want %#04x", "123456789", got, want)
	}
	if got := CRC16(""); got != 0 {
		t.Errorf("CRC16(\"\") = %#04x, want 0", got)
	}
}

// Key slots of the Redis Cluster specification (published.All), hash
// tags included: "foo{{bar}}zap" hashes "{bar", "foo{}{bar}" (empty first
// tag) the whole key.
func TestKeySlotVectors(t *testing.T) {
	for _, c := range published.All().KeySlots {
		if got := KeySlot(c.Key); got != c.Slot {
			t.Errorf("KeySlot(%q) = %d, want %d", c.Key, got, c.Slot)
		}
	}
	// The tag rules, against the slot of the text that must be hashed.
	tags := []struct{ key, hashed string }{
		{"{a}", "a"},
		{"x{a}y{b}", "a"},
		{"{}", "{}"},
		{"{", "{"},
		{"}{a", "}{a"},
		{"}{a}", "a"},
		{"{{}}", "{"},
		{"a{b", "a{b"},
	}
	for _, c := range tags {
		if got, want := KeySlot(c.key), int(CRC16(c.hashed)&0x3FFF); got != want {
			t.Errorf("KeySlot(%q) = %d, want slot of %q = %d", c.key, got, c.hashed, want)
		}
	}
}

// SpecCRC16 is CRC-16/XMODEM as the Redis Cluster specification
// ("Key distribution model", appendix crc16) defines it, computed one bit
// at a time: polynomial x^16 + x^12 + x^5 + 1 (0x1021), initial value 0,
// bytes fed most significant bit first, no reflection, no final xor. The
// table-driven CRC16 is checked against it here and in fuzz_test.go (it is
// exported for that external test package; test builds only).
func SpecCRC16(key []byte) uint16 {
	var crc uint16
	for _, b := range key {
		crc ^= uint16(b) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// The table-driven CRC16 equals the specification's bitwise CRC-16/XMODEM
// on 2,000 random strings.
func TestCRC16MatchesBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		if got, want := CRC16(string(b)), SpecCRC16(b); got != want {
			t.Fatalf("CRC16(%x) = %#04x, bitwise %#04x", b, got, want)
		}
	}
}

func nodes(n int) []algorithms.Node {
	ns, err := algorithms.DefaultNodes(n)
	if err != nil {
		panic(err)
	}
	return ns
}

func mustNew(t *testing.T, ns []algorithms.Node) *Slots {
	t.Helper()
	p, err := New(ns)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// owners returns the owner ID of every hash slot.
func owners(p algorithms.Placer) []string {
	out := make([]string, NumSlots)
	ns := p.Nodes()
	for s := range out {
		out[s] = ns[p.LocateHash(uint64(s))].ID
	}
	return out
}

// counts returns the number of slots per node ID.
func counts(p algorithms.Placer) map[string]int {
	c := make(map[string]int)
	for _, id := range owners(p) {
		c[id]++
	}
	return c
}

// A new cluster of 3 equal nodes: 16384 = 3*5461 + 1, the extra slot goes
// to the first node, and ranges are contiguous in membership order.
func TestNewContiguousRanges(t *testing.T) {
	p := mustNew(t, nodes(3))
	bounds := []struct{ lo, hi, owner int }{{0, 5461, 0}, {5462, 10922, 1}, {10923, 16383, 2}}
	for _, b := range bounds {
		for s := b.lo; s <= b.hi; s++ {
			if got := p.LocateHash(uint64(s)); got != b.owner {
				t.Fatalf("slot %d owned by %d, want %d", s, got, b.owner)
			}
		}
	}
	if p.SlotCount(0) != 5462 || p.SlotCount(1) != 5461 || p.SlotCount(2) != 5461 {
		t.Errorf("counts %d %d %d, want 5462 5461 5461", p.SlotCount(0), p.SlotCount(1), p.SlotCount(2))
	}
	// Weighted: 1:3 gives 4096 and 12288 exactly.
	w := mustNew(t, []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 3}})
	if w.LocateHash(4095) != 0 || w.LocateHash(4096) != 1 || w.SlotCount(1) != 12288 {
		t.Errorf("weights 1:3: slot 4095 -> %d, 4096 -> %d, count(b) = %d; want 0, 1, 12288",
			w.LocateHash(4095), w.LocateHash(4096), w.SlotCount(1))
	}
}

// checkFloorCeil asserts every node's slot count is the floor or the
// ceiling of its weighted share and that counts sum to 16384.
func checkFloorCeil(t *testing.T, p algorithms.Placer) {
	t.Helper()
	ns := p.Nodes()
	c := counts(p)
	total := algorithms.TotalWeight(ns)
	sum := 0
	for _, n := range ns {
		share := NumSlots * n.Weight / total
		got := c[n.ID]
		sum += got
		if float64(got) != math.Floor(share) && float64(got) != math.Ceil(share) {
			t.Errorf("node %q weight %v: %d slots, share %.4f", n.ID, n.Weight, got, share)
		}
		if got != p.(*Slots).SlotCount(algorithms.IndexOf(ns, n.ID)) {
			t.Errorf("node %q: SlotCount %d, table has %d", n.ID, p.(*Slots).SlotCount(algorithms.IndexOf(ns, n.ID)), got)
		}
	}
	if sum != NumSlots {
		t.Errorf("counts sum to %d, want %d", sum, NumSlots)
	}
	if len(c) != len(ns) {
		t.Errorf("%d owners in the table, %d nodes", len(c), len(ns))
	}
}

// Every node's slot count is the floor or the ceiling of its weighted
// share of 16,384, for weighted fleets and for 1 to 16,384 equal nodes.
func TestTargetsFloorCeil(t *testing.T) {
	for _, ws := range [][]float64{{1}, {1, 1, 1}, {1, 2, 3, 4}, {0.1, 0.7, 1e3}, {5, 5, 5, 5, 5, 5, 5}} {
		ns := make([]algorithms.Node, len(ws))
		for i, w := range ws {
			ns[i] = algorithms.Node{ID: fmt.Sprint("n", i), Weight: w}
		}
		checkFloorCeil(t, mustNew(t, ns))
	}
	for _, n := range []int{1, 2, 3, 7, 10, 1000, 16383, 16384} {
		checkFloorCeil(t, mustNew(t, nodes(n)))
	}
}

// moves counts slots whose owner ID differs between a and b.
func moves(a, b algorithms.Placer) int {
	oa, ob := owners(a), owners(b)
	m := 0
	for s := range oa {
		if oa[s] != ob[s] {
			m++
		}
	}
	return m
}

// requiredMoves is the least number of slots any reassignment from a to the
// counts of b must move: each node must receive the slots it gains.
func requiredMoves(a, b algorithms.Placer) int {
	ca, cb := counts(a), counts(b)
	need := 0
	for id, n := range cb {
		need += max(0, n-ca[id])
	}
	return need
}

// bestMoves is the least number of moves over every choice of floor/ceil
// targets for equal-weight nodes (all shares have the same fractional part,
// so any k of them may take the ceiling): a node gets its ceiling for free
// if it already holds that many slots.
func bestMoves(a algorithms.Placer, next []algorithms.Node) int {
	ca := counts(a)
	n := len(next)
	fl := NumSlots / n
	k := NumSlots - fl*n
	free := 0
	cost := 0
	for _, nd := range next {
		c := ca[nd.ID]
		cost += max(0, fl-c)
		if c > fl {
			free++
		}
	}
	return cost + max(0, k-free)
}

// Over a seeded sequence of joins, leaves and reorderings, each Rebalance
// moves no more slots than the new counts require (a reordering moves
// none), and after weight changes still the fewest for the counts
// reached.
func TestRebalanceMinimalMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var p algorithms.Placer = mustNew(t, nodes(5))
	nextID := 5
	steps := 200
	if testing.Short() {
		steps = 50
	}
	for step := range steps {
		cur := p.Nodes()
		next := append([]algorithms.Node(nil), cur...)
		switch op := rng.IntN(3); {
		case op == 0 || len(next) == 1: // join at a random position
			nd := algorithms.Node{ID: algorithms.NodeID(nextID), Weight: 1}
			nextID++
			i := rng.IntN(len(next) + 1)
			next = append(next[:i], append([]algorithms.Node{nd}, next[i:]...)...)
		case op == 1: // leave
			i := rng.IntN(len(next))
			next = append(next[:i], next[i+1:]...)
		default: // reorder: targets keep their owners, nothing may move
			rng.Shuffle(len(next), func(i, j int) { next[i], next[j] = next[j], next[i] })
		}
		q, err := p.Rebalance(next)
		if err != nil {
			t.Fatal(err)
		}
		checkFloorCeil(t, q)
		got, need, best := moves(p, q), requiredMoves(p, q), bestMoves(p, next)
		if got != need || got != best {
			t.Fatalf("step %d (%d -> %d nodes): moved %d slots, counts require %d, best floor/ceil choice %d",
				step, len(cur), len(next), got, need, best)
		}
		for i, nd := range q.Nodes() {
			if nd != next[i] {
				t.Fatalf("step %d: Nodes()[%d] = %v, want %v", step, i, nd, next[i])
			}
		}
		p = q
	}
}

// Weight changes: still minimal for the counts reached.
func TestRebalanceWeighted(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	ns := nodes(8)
	var p algorithms.Placer = mustNew(t, ns)
	for step := range 50 {
		next := append([]algorithms.Node(nil), p.Nodes()...)
		next[rng.IntN(len(next))].Weight = float64(1 + rng.IntN(8))
		q, err := p.Rebalance(next)
		if err != nil {
			t.Fatal(err)
		}
		checkFloorCeil(t, q)
		if got, need := moves(p, q), requiredMoves(p, q); got != need {
			t.Fatalf("step %d: moved %d slots, counts require %d", step, got, need)
		}
		p = q
	}
}

// Adding a node to n equal nodes moves floor or ceil of 16384/(n+1) slots,
// all of them to the new node.
func TestJoinMovesOnlyToNewNode(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 9, 10, 100} {
		p := mustNew(t, nodes(n))
		q, err := algorithms.Join(p, algorithms.Node{ID: "new", Weight: 1})
		if err != nil {
			t.Fatal(err)
		}
		oa, ob := owners(p), owners(q)
		moved := 0
		for s := range oa {
			if oa[s] != ob[s] {
				moved++
				if ob[s] != "new" {
					t.Fatalf("n=%d: slot %d moved %s -> %s, not to the new node", n, s, oa[s], ob[s])
				}
			}
		}
		ideal := float64(NumSlots) / float64(n+1)
		if float64(moved) != math.Floor(ideal) && float64(moved) != math.Ceil(ideal) {
			t.Errorf("n=%d: join moved %d slots, want floor/ceil of %.2f", n, moved, ideal)
		}
	}
}

// Removing a node moves exactly its slots, whichever node it is.
func TestLeaveMovesOnlyItsSlots(t *testing.T) {
	for _, n := range []int{2, 3, 5, 10, 101} {
		for _, gone := range []int{0, n / 2, n - 1} {
			p := mustNew(t, nodes(n))
			id := algorithms.NodeID(gone)
			q, err := algorithms.Leave(p, id)
			if err != nil {
				t.Fatal(err)
			}
			oa, ob := owners(p), owners(q)
			moved := 0
			for s := range oa {
				if (oa[s] == id) != (oa[s] != ob[s]) {
					t.Fatalf("n=%d leave %s: slot %d %s -> %s", n, id, s, oa[s], ob[s])
				}
				if oa[s] != ob[s] {
					moved++
				}
			}
			if moved != p.SlotCount(gone) {
				t.Errorf("n=%d leave %s: moved %d, it owned %d", n, id, moved, p.SlotCount(gone))
			}
		}
	}
}

// Peak-to-mean ratio of n equal nodes is ceil(S/n)/(S/n), S = 16384
// (REFERENCES.md: n=10 1.0004, n=1000 1.0376, n=10000 1.22).
func TestPeakToMean(t *testing.T) {
	for _, c := range []struct {
		n       int
		rounded float64
		digits  float64
	}{{10, 1.0004, 1e4}, {1000, 1.0376, 1e4}, {10000, 1.22, 1e2}} {
		p := mustNew(t, nodes(c.n))
		shares := p.ExactShares()
		peak, sum := 0.0, 0.0
		for _, s := range shares {
			peak = max(peak, s)
			sum += s
		}
		mean := sum / float64(c.n)
		got := peak / mean
		want := math.Ceil(NumSlots/float64(c.n)) / (NumSlots / float64(c.n))
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("n=%d: peak/mean %v, want %v", c.n, got, want)
		}
		if r := math.Round(got*c.digits) / c.digits; r != c.rounded {
			t.Errorf("n=%d: peak/mean %v rounds to %v, reference %v", c.n, got, r, c.rounded)
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("n=%d: shares sum to %v", c.n, sum)
		}
	}
}

// Bad memberships (empty, empty or duplicate IDs, bad weights, more nodes
// than slots, a weight that rounds to no slot) are errors naming the
// value.
func TestErrors(t *testing.T) {
	many := nodes(NumSlots + 1)
	cases := []struct {
		name  string
		nodes []algorithms.Node
		want  string
	}{
		{"empty", nil, "empty"},
		{"empty id", []algorithms.Node{{ID: "", Weight: 1}}, "empty node ID"},
		{"duplicate", []algorithms.Node{{ID: "a", Weight: 1}, {ID: "a", Weight: 1}}, `duplicate node ID "a"`},
		{"zero weight", []algorithms.Node{{ID: "a", Weight: 0}}, "weight 0"},
		{"nan weight", []algorithms.Node{{ID: "a", Weight: math.NaN()}}, "weight NaN"},
		{"inf weight", []algorithms.Node{{ID: "a", Weight: math.Inf(1)}}, "weight +Inf"},
		{"too many", many, "16385 nodes exceed the 16384"},
		{"rounds to zero", []algorithms.Node{{ID: "big", Weight: 1e6}, {ID: "tiny", Weight: 1}}, `node "tiny" (weight 1 of total 1.000001e+06) rounds to 0`},
		{"total overflows", []algorithms.Node{{ID: "a", Weight: math.MaxFloat64}, {ID: "b", Weight: math.MaxFloat64}}, "weights sum to +Inf"},
	}
	base := mustNew(t, nodes(3))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := New(c.nodes)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("New: error %v, want one containing %q", err, c.want)
			}
			if p != nil {
				t.Errorf("New returned a placement with the error")
			}
			q, err := base.Rebalance(c.nodes)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Rebalance: error %v, want one containing %q", err, c.want)
			}
			if q != nil {
				t.Errorf("Rebalance returned a placement with the error")
			}
		})
	}
}

// Rebalance returns a new placement and leaves the one it was called on as
// it was.
func TestRebalanceLeavesReceiverUnchanged(t *testing.T) {
	p := mustNew(t, nodes(4))
	before := owners(p)
	if _, err := algorithms.Join(p, algorithms.Node{ID: "x", Weight: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := algorithms.Leave(p, "node-1"); err != nil {
		t.Fatal(err)
	}
	after := owners(p)
	for s := range before {
		if before[s] != after[s] {
			t.Fatalf("slot %d changed owner in the receiver: %s -> %s", s, before[s], after[s])
		}
	}
}

// HashKey, LocateHash, Locate and KeySlot allocate nothing.
func TestLookupsAllocateNothing(t *testing.T) {
	p := mustNew(t, nodes(10))
	key := "user:{1000}:profile"
	var sink int
	if a := testing.AllocsPerRun(1000, func() { sink += p.LocateHash(p.HashKey(key)) }); a != 0 {
		t.Errorf("HashKey+LocateHash: %v allocations per run", a)
	}
	if a := testing.AllocsPerRun(1000, func() { sink += len(p.Locate(key)) }); a != 0 {
		t.Errorf("Locate: %v allocations per run", a)
	}
	if a := testing.AllocsPerRun(1000, func() { sink += KeySlot(key) }); a != 0 {
		t.Errorf("KeySlot: %v allocations per run", a)
	}
	_ = sink
}

// Locate is the owner of the key's slot, HashKey is the slot, and
// LocateHash reduces any hash mod 16,384.
func TestLocateMatchesLocateHash(t *testing.T) {
	p := mustNew(t, []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 2}, {ID: "c", Weight: 1}})
	for i := range 1000 {
		key := fmt.Sprint("key-", i)
		if got, want := p.Locate(key), p.Nodes()[p.LocateHash(uint64(KeySlot(key)))].ID; got != want {
			t.Fatalf("Locate(%q) = %s, LocateHash of its slot says %s", key, got, want)
		}
		if p.HashKey(key) != uint64(KeySlot(key)) {
			t.Fatalf("HashKey(%q) = %d, KeySlot %d", key, p.HashKey(key), KeySlot(key))
		}
	}
	// Hashes beyond 16383 use their low 14 bits.
	if p.LocateHash(NumSlots+5) != p.LocateHash(5) || p.LocateHash(math.MaxUint64) != p.LocateHash(NumSlots-1) {
		t.Error("LocateHash does not reduce h mod 16384")
	}
}

// Which slots move: an over-target node gives away its highest-numbered
// slots, and nodes below target take the lowest free slots in membership
// order. From 3 contiguous ranges to 5 nodes (3277 or 3276 slots each),
// every survivor keeps a prefix of its range, and the first joiner's slots
// all lie below the second's.
func TestRebalanceSlotChoice(t *testing.T) {
	p := mustNew(t, nodes(3))
	q, err := algorithms.Join(p, algorithms.Node{ID: "x", Weight: 1}, algorithms.Node{ID: "y", Weight: 1})
	if err != nil {
		t.Fatal(err)
	}
	oa, ob := owners(p), owners(q)
	lastKept := map[string]int{}
	firstGiven := map[string]int{}
	for s := range oa {
		if oa[s] == ob[s] {
			lastKept[oa[s]] = s
		} else if _, ok := firstGiven[oa[s]]; !ok {
			firstGiven[oa[s]] = s
		}
	}
	for _, id := range []string{"node-0", "node-1", "node-2"} {
		g, ok := firstGiven[id]
		if !ok || lastKept[id] > g {
			t.Errorf("%s kept slot %d but gave away slot %d (given any: %v)", id, lastKept[id], g, ok)
		}
	}
	maxX, minY := -1, NumSlots
	for s, id := range ob {
		if id == "x" {
			maxX = max(maxX, s)
		}
		if id == "y" {
			minY = min(minY, s)
		}
	}
	if maxX > minY {
		t.Errorf("joiner x holds slot %d above joiner y's slot %d", maxX, minY)
	}
	if c := counts(q); c["node-0"] != 3277 || c["node-1"] != 3277 || c["node-2"] != 3277 || c["x"] != 3277 || c["y"] != 3276 {
		t.Errorf("counts %v, want 3277 for the three holders and x (ties: more held, then earlier), 3276 for y", c)
	}
}

// The shared key-level properties: a join moves keys only to the joiner, a
// leave only the leaver's keys; lookups allocate nothing and agree across
// goroutines.
func TestSharedProperties(t *testing.T) {
	keys := placertest.Keys(20000, 1)
	p := mustNew(t, nodes(6))
	q, err := algorithms.Join(p, algorithms.Node{ID: "x", Weight: 1})
	if err != nil {
		t.Fatal(err)
	}
	// 1/7 of the slots move, so 1/7 of the keys up to sampling noise
	// (sd sqrt(K*f*(1-f)) = 49 keys; 5 sd = 0.012).
	if f := placertest.CheckJoin(t, p, q, keys, "x"); math.Abs(f-1.0/7) > 0.012 {
		t.Errorf("join moved %.4f of keys, want 1/7 = %.4f", f, 1.0/7)
	}
	r, err := algorithms.Leave(q, "node-2")
	if err != nil {
		t.Fatal(err)
	}
	placertest.CheckLeave(t, q, r, keys, "node-2")
	placertest.CheckNoAllocs(t, r)
	placertest.CheckConcurrent(t, r, keys[:2000])
}
