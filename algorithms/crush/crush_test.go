package crush

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/topology"
)

func osds(ws ...float64) []algorithms.Node {
	nodes := make([]algorithms.Node, len(ws))
	for i, w := range ws {
		nodes[i] = algorithms.Node{ID: "osd." + strconv.Itoa(i), Weight: w}
	}
	return nodes
}

func equal(n int) []algorithms.Node {
	ws := make([]float64, n)
	for i := range ws {
		ws[i] = 1
	}
	return osds(ws...)
}

var xxh = algorithms.MustHash("xxhash")

// Ln is within Ceph's table precision of 2^44 log2(u+1) for every 16-bit
// u. The bound: the low table is indexed by 8 bits of the remainder, a
// truncation of up to log2(1 + 2^-15) = 4.4e-5, and Ceph's lnLL entries sit
// up to 2e-5 above their formula (TestLnTablesNearFormula), so 6.5e-5 in
// log2 units. Ln rises with u except at u = 0xffff, where Ceph's table
// holds 0xffff00000000 instead of 2^48 for log2(2).
func TestLnNearFormula(t *testing.T) {
	const tol = 6.5e-5
	for u := uint32(0); u <= 0xffff; u++ {
		exact := math.Log2(float64(u) + 1)
		got := math.Ldexp(float64(Ln(u)), -44)
		if math.Abs(got-exact) > tol {
			t.Fatalf("Ln(%d) = %v (log2 units), want %v within %v", u, got, exact, tol)
		}
		if u > 0 && u < 0xffff && Ln(u) < Ln(u-1) {
			t.Fatalf("Ln(%d) = %#x < Ln(%d) = %#x", u, Ln(u), u-1, Ln(u-1))
		}
	}
	if Ln(0) != 0 {
		t.Errorf("Ln(0) = %#x, want 0 (log2 1)", Ln(0))
	}
	if Ln(0xffff) >= Ln(0xfffe) {
		t.Errorf("Ln(0xffff) = %#x >= Ln(0xfffe) = %#x: Ceph's last table entry is below 2^48", Ln(0xffff), Ln(0xfffe))
	}
}

// The tables are Ceph's, so they differ from their formulas, but only by
// Ceph's rounding: lnRH is 2^48/(1+k/128) rounded up, lnLH is within 1.5
// of 2^48 log2(1+k/128) except its last entry, and every lnLL entry lies
// between its formula 2^48 log2(1+j/2^15) (rounded down: -1e-14
// relative) and 1.952e-5 above it. Of the 256, 212 sit 1.95168e-5 above
// (one constant offset), 21 on the formula, and 23 in between; all are
// pinned bit for bit by the live comparison with libceph-common.
func TestLnTablesNearFormula(t *testing.T) {
	for k := range lnRH {
		want := math.Ceil(math.Ldexp(1, 48) / (1 + float64(k)/128))
		if math.Abs(float64(lnRH[k])-want) > 1 {
			t.Errorf("lnRH[%d] = %#x, formula %#x", k, lnRH[k], uint64(want))
		}
		lh := math.Ldexp(math.Log2(1+float64(k)/128), 48)
		if k < 128 && math.Abs(float64(lnLH[k])-lh) > 1.5 {
			t.Errorf("lnLH[%d] = %#x, formula %#x", k, lnLH[k], uint64(lh))
		}
	}
	if lnLH[128] != 0xffff00000000 {
		t.Errorf("lnLH[128] = %#x, want Ceph's 0xffff00000000", lnLH[128])
	}
	usual, exact := 0, 0
	for j := range lnLL {
		f := math.Ldexp(math.Log2(1+float64(j)/(1<<15)), 48)
		d := math.Ldexp(float64(lnLL[j])-f, -48)
		if d < -1e-14 || d > 1.952e-5 {
			t.Errorf("lnLL[%d] = %#x is %.4g relative from its formula %#x", j, lnLL[j], d, uint64(f))
		}
		switch {
		case math.Abs(d-1.95168e-5) < 1e-9:
			usual++
		case math.Abs(d) < 1e-14:
			exact++
		}
	}
	if usual != 212 || exact != 21 {
		t.Errorf("lnLL: %d entries at Ceph's usual offset, %d on the formula; Ceph's table has 212 and 21", usual, exact)
	}
}

// Straw2's primary shares are proportional to the weights: with weights
// 3,3,3,1 over 200,000 inputs each device's primary count is within 5
// binomial standard deviations (sd = sqrt(K p (1-p)), about 205 for p =
// 0.3) of K w/W; a fixed input range makes the test deterministic.
func TestStraw2PrimaryShares(t *testing.T) {
	tp, err := topology.Flat(osds(3, 3, 3, 1))
	if err != nil {
		t.Fatal(err)
	}
	p, err := FromTopology(tp, DeviceType, xxh)
	if err != nil {
		t.Fatal(err)
	}
	const K = 200000
	counts := make([]int, 4)
	for x := range K {
		counts[p.LocateHash(uint64(x))]++
	}
	for i, w := range []float64{3, 3, 3, 1} {
		pr := w / 10
		sd := math.Sqrt(K * pr * (1 - pr))
		if d := math.Abs(float64(counts[i]) - K*pr); d > 5*sd {
			t.Errorf("osd.%d: %d primaries, want %v within 5 sd (%v)", i, counts[i], K*pr, 5*sd)
		}
	}
}

// Replicas on a topology with racks: three replicas in three racks for
// every input, the first the LocateHash owner, and R distinct nodes even
// when there are fewer racks than replicas.
func TestReplicasOnePerRack(t *testing.T) {
	tp, err := topology.Split(equal(12), []topology.Grouping{{Level: "host", Spec: "6"}, {Level: "rack", Spec: "3"}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := FromTopology(tp, "rack", xxh)
	if err != nil {
		t.Fatal(err)
	}
	rack := tp.DomainOf(1)
	dst := make([]int, 4)
	for x := range uint64(20000) {
		r := p.Replicas(x, dst[:3])
		if r[0] != p.LocateHash(x) {
			t.Fatalf("x=%d: first replica %d, owner %d", x, r[0], p.LocateHash(x))
		}
		if rack[r[0]] == rack[r[1]] || rack[r[0]] == rack[r[2]] || rack[r[1]] == rack[r[2]] {
			t.Fatalf("x=%d: replicas %v share a rack (%d %d %d)", x, r, rack[r[0]], rack[r[1]], rack[r[2]])
		}
		r4 := p.Replicas(x, dst)
		if len(r4) != 4 || r4[0] == r4[3] || r4[1] == r4[3] || r4[2] == r4[3] {
			t.Fatalf("x=%d: 4 replicas over 3 racks: %v, want 4 distinct nodes", x, r4)
		}
	}
}

// Lookups allocate nothing.
func TestLookupsDoNotAllocate(t *testing.T) {
	p, err := New(equal(50), xxh)
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]int, 3)
	h := p.HashKey("user:0123456789abcdef")
	if a := testing.AllocsPerRun(200, func() {
		p.LocateHash(h)
		p.Replicas(h, dst)
		_ = p.Locate("user:0123456789abcdef")
	}); a != 0 {
		t.Errorf("%v allocations per lookup, want 0", a)
	}
}

// Removing a node keeps every other device id, and no primary moves
// except those of the leaving node: in a flat map its host leaves the
// root bucket, the draws of the other hosts are unchanged, and straw2's
// winner among them is the same. A joining node gets the lowest free
// device id, as Ceph numbers a new OSD.
func TestRebalanceKeepsIDsAndMovesOnlyTheLeaver(t *testing.T) {
	p, err := New(equal(20), xxh)
	if err != nil {
		t.Fatal(err)
	}
	nodes := p.Nodes()
	next := append(append([]algorithms.Node(nil), nodes[:7]...), nodes[8:]...)
	q0, err := p.Rebalance(next)
	if err != nil {
		t.Fatal(err)
	}
	q := q0.(*Placer)
	for i, n := range q.Nodes() {
		if want := p.Device(algorithms.IndexOf(nodes, n.ID)); q.Device(i) != want {
			t.Errorf("%s: device %d after rebalance, was %d", n.ID, q.Device(i), want)
		}
	}
	moved := 0
	for x := range uint64(20000) {
		before, after := nodes[p.LocateHash(x)].ID, q.Nodes()[q.LocateHash(x)].ID
		if before != after {
			moved++
			if before != nodes[7].ID {
				t.Fatalf("x=%d moved from %s, which stays", x, before)
			}
		}
	}
	if moved == 0 {
		t.Error("nothing moved off the leaving node")
	}
	joined, err := q.Rebalance(append(q.Nodes(), algorithms.Node{ID: "osd.new", Weight: 1}))
	if err != nil {
		t.Fatal(err)
	}
	if d := joined.(*Placer).Device(19); d != 7 {
		t.Errorf("a joining node got device %d, want the lowest free id 7", d)
	}
}

// MarkOut keeps the map and sends nothing to the marked node.
func TestMarkOut(t *testing.T) {
	p, err := New(equal(8), xxh)
	if err != nil {
		t.Fatal(err)
	}
	q, err := p.MarkOut("osd.2")
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]int, 3)
	for x := range uint64(5000) {
		for _, i := range q.Replicas(x, dst) {
			if i == 2 {
				t.Fatalf("x=%d: replica on the node marked out", x)
			}
		}
		if b, a := p.LocateHash(x), q.LocateHash(x); b != a && b != 2 {
			t.Fatalf("x=%d: primary moved from %d, which is in", x, b)
		}
	}
	if _, err := p.MarkOut("osd.99"); err == nil || !strings.Contains(err.Error(), "osd.99") {
		t.Errorf("unknown node: %v", err)
	}
}

// Bad inputs are errors naming the value.
func TestErrors(t *testing.T) {
	if _, err := New(osds(1, 1e-6), xxh); err == nil || !strings.Contains(err.Error(), "1e-06") {
		t.Errorf("weight below 1/65536: %v", err)
	}
	if _, err := New(osds(1, 70000), xxh); err == nil || !strings.Contains(err.Error(), "70000") {
		t.Errorf("weight over 16.16: %v", err)
	}
	if _, err := New(nil, xxh); err == nil {
		t.Error("no nodes: no error")
	}
	tp, _ := topology.Split(equal(4), []topology.Grouping{{Level: "rack", Spec: "2"}})
	if _, err := FromTopology(tp, "zone", xxh); err == nil || !strings.Contains(err.Error(), `"zone"`) {
		t.Errorf("unknown failure domain: %v", err)
	}
	p, _ := FromTopology(tp, "rack", xxh)
	if _, err := p.Rebalance(append(tp.Nodes(), algorithms.Node{ID: "x", Weight: 1})); err == nil || !strings.Contains(err.Error(), `"x"`) {
		t.Errorf("joiner outside the topology: %v", err)
	}
	bad := &Map{Devices: 2, Types: []string{"osd", "root"},
		Buckets: []*Bucket{{ID: -1, Name: "root", Type: 1, Items: []Item{{ID: 0, Weight: WeightOne}, {ID: 5, Weight: WeightOne}}}},
		Rules:   []Rule{{Steps: []Step{{Op: OpTake, Arg1: -1}, {Op: OpEmit}}}}, Tunables: OptimalTunables()}
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "device 5") {
		t.Errorf("device beyond the map: %v", err)
	}
}

// FixedWeight converts as crushtool does (float32 times 0x10000,
// truncated): the values crushtool --reweight-item writes in its dump.
func TestFixedWeight(t *testing.T) {
	for _, c := range []struct {
		w    float64
		want Weight
	}{{1, 0x10000}, {3.5, 229376}, {0.25, 16384}, {0.1, 6553}, {0.3, 19660}, {0.123456, 8090}, {2.2, 144179}} {
		if got, err := FixedWeight(c.w); err != nil || got != c.want {
			t.Errorf("FixedWeight(%v) = %d, %v; want %d", c.w, got, err, c.want)
		}
	}
}

// A failure marks the nodes out, as Ceph does: they leave Nodes(), hold no
// replica, and every replica on a node still in stays where it was (the
// map's weights are unchanged, so only the failed nodes' replicas are
// drawn again), on a flat map and on racks.
func TestFailMarksOut(t *testing.T) {
	tp, err := topology.Split(equal(12), []topology.Grouping{{Level: "rack", Spec: "4"}})
	if err != nil {
		t.Fatal(err)
	}
	flat, err := New(equal(12), xxh)
	if err != nil {
		t.Fatal(err)
	}
	racks, err := FromTopology(tp, "rack", xxh)
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 5000)
	for i := range keys {
		keys[i] = "user:" + strconv.Itoa(i)
	}
	for _, p := range []*Placer{flat, racks} {
		before := p.Locator(64)
		after, err := before.Fail("osd.4", "osd.5")
		if err != nil {
			t.Fatal(err)
		}
		if len(after.Nodes()) != 10 || algorithms.IndexOf(after.Nodes(), "osd.4") >= 0 {
			t.Fatalf("nodes after the failure: %v", after.Nodes())
		}
		rb, ra := make([]int, 3*len(keys)), make([]int, 3*len(keys))
		if err := before.ReplicateKeys(keys, 3, rb); err != nil {
			t.Fatal(err)
		}
		if err := after.ReplicateKeys(keys, 3, ra); err != nil {
			t.Fatal(err)
		}
		for k := range keys {
			var now []string
			for _, x := range ra[3*k : 3*k+3] {
				now = append(now, after.Nodes()[x].ID)
			}
			for _, x := range rb[3*k : 3*k+3] {
				if id := before.Nodes()[x].ID; id != "osd.4" && id != "osd.5" && !slices.Contains(now, id) {
					t.Fatalf("%s: key %q lost its replica on %s, which did not fail: %v", p.FailureDomain(), keys[k], id, now)
				}
			}
		}
	}
	if _, err := flat.Locator(64).Fail("osd.99"); err == nil {
		t.Error("unknown node: no error")
	}
}
