package domains_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/crush"
	"github.com/chbench/chbench/algorithms/domainaware"
	"github.com/chbench/chbench/analysis/domains"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/topology"
)

var xxh = algorithms.MustHash("xxhash")

// Sizes of the key sets: 5 sets of 20,000 keys (seed 1), 100,000 keys in
// all; the statistical bounds below use that total.
const (
	sets    = 5
	perSet  = 20000
	allKeys = sets * perSet
)

func source(t *testing.T) keyset.Source { return sized(t, perSet, sets) }

// sized is a source of sets key sets of n keys, for checks that hold for
// every key (no statistics) and need fewer.
func sized(t *testing.T, n, sets int) keyset.Source {
	t.Helper()
	g, err := keyset.NewGenerator(n, sets, 1)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// racks12 is 12 equal nodes in 4 racks of 3 in 2 zones.
func racks12(t *testing.T) *topology.Topology {
	t.Helper()
	nodes, _ := algorithms.DefaultNodes(12)
	tp, err := topology.Split(nodes, []topology.Grouping{{Level: "rack", Spec: "4"}, {Level: "zone", Spec: "2"}})
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

func aware(t *testing.T, name string, tp *topology.Topology, level string) algorithms.Locator {
	t.Helper()
	p, err := catalog.New(name, tp.Nodes(), catalog.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	l, err := domainaware.New(p, 64, tp, level)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func plain(t *testing.T, name string, nodes []algorithms.Node) algorithms.Locator {
	t.Helper()
	p, err := catalog.New(name, nodes, catalog.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return algorithms.AsLocator(p, 64)
}

func crushRack(t *testing.T, tp *topology.Topology, level string) algorithms.Locator {
	t.Helper()
	p, err := crush.FromTopology(tp, level, xxh)
	if err != nil {
		t.Fatal(err)
	}
	return p.Locator(64)
}

func hierarchy(t *testing.T, tp *topology.Topology, level string) algorithms.Locator {
	t.Helper()
	h, err := domainaware.NewHierarchy(tp, level, xxh)
	if err != nil {
		t.Fatal(err)
	}
	return h.Locator(64)
}

// promised are the placements that promise one replica per rack.
func promised(t *testing.T, tp *topology.Topology) []algorithms.Locator {
	return []algorithms.Locator{aware(t, "ring", tp, "rack"), aware(t, "rendezvous", tp, "rack"), aware(t, "slots", tp, "rack"),
		aware(t, "jump", tp, "rack"), crushRack(t, tp, "rack"), hierarchy(t, tp, "rack")}
}

// Where a placement promises one replica per rack (R = 3 <= 4 racks) no
// key of any set has two replicas in a rack: violations are exactly 0.
func TestViolationsZeroWherePromised(t *testing.T) {
	tp := racks12(t)
	for _, l := range promised(t, tp) {
		v, err := domains.CountViolations(sized(t, 4000, 3), l, tp, "rack", 3, 0)
		if err != nil {
			t.Fatal(err)
		}
		for s, c := range v.Sets {
			if c.KeysShared != 0 || c.PairsShared != 0 || c.Keys != 4000 {
				t.Errorf("%s set %d: %+v, want no shared rack", l.Algorithm(), s, c)
			}
		}
		if v.Unavoidable || v.Domains != 4 {
			t.Errorf("%s: %+v", l.Algorithm(), v)
		}
	}
}

// A plain placement ignores racks. Rendezvous at equal weights makes
// each key's replica set a uniform random 3-set of the 12 nodes, so the
// fraction of keys with two replicas in one rack is RandomSetShared =
// 1 - 4*27/C(12,3) = 0.50909; over 100,000 keys the sample fraction is
// within 5 binomial standard deviations (sqrt(p(1-p)/100000) = 0.0016)
// of it. Replicas all in one rack: 4/220 = 0.01818.
func TestViolationsPlainMatchTheory(t *testing.T) {
	tp := racks12(t)
	want, err := domains.RandomSetShared([]int{3, 3, 3, 3}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(want-(1-108.0/220)) > 1e-12 {
		t.Fatalf("RandomSetShared = %v, want %v", want, 1-108.0/220)
	}
	v, err := domains.CountViolations(source(t), plain(t, "rendezvous", tp.Nodes()), tp, "rack", 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		got  domains.Estimate
		want float64
	}{{v.KeysShared, want}, {v.KeysOneDomain, 4.0 / 220}} {
		sd := math.Sqrt(c.want * (1 - c.want) / allKeys)
		if math.Abs(c.got.Mean-c.want) > 5*sd {
			t.Errorf("plain rendezvous: %v, theory %v within %v", c.got.Mean, c.want, 5*sd)
		}
		if !c.got.HasInterval() || *c.got.Lo > c.got.Mean || *c.got.Hi < c.got.Mean {
			t.Errorf("interval %+v", c.got)
		}
	}
	// More replicas than zones: sharing is unavoidable and said so.
	z, err := domains.CountViolations(sized(t, 1000, 2), aware(t, "ring", tp, "zone"), tp, "zone", 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !z.Unavoidable || z.KeysShared.Mean != 1 {
		t.Errorf("3 replicas over 2 zones: %+v", z)
	}
}

// SuccessiveSampling has the closed forms of successive sampling: with
// weights 3,3,3,1 the light node is second with probability 0.9/7 (the
// sum over first draws i of w_i/W * 1/(W - w_i)) and third with
// probability 3*(0.3 * 3/7 * 1/4) + ...; every rank's shares sum to 1.
func TestSuccessiveSampling(t *testing.T) {
	th, err := domains.SuccessiveSampling([]float64{3, 3, 3, 1}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(th[0][3]-0.1) > 1e-12 || math.Abs(th[1][3]-0.9/7) > 1e-12 {
		t.Errorf("light node ranks 1, 2: %v %v, want 0.1 and %v", th[0][3], th[1][3], 0.9/7)
	}
	// Third: the first two are heavy (prob 0.3*3/7*2... each ordered pair
	// of heavy nodes 0.3 * 3/7), then the light node with 1/4: 6 pairs *
	// 0.3*3/7*1/4; or one of the first two is light, then it is not third.
	if want := 6 * 0.3 * 3.0 / 7 * 0.25; math.Abs(th[2][3]-want) > 1e-12 {
		t.Errorf("light node third: %v, want %v", th[2][3], want)
	}
	for k, row := range th {
		s := 0.0
		for _, p := range row {
			s += p
		}
		if math.Abs(s-1) > 1e-12 {
			t.Errorf("rank %d shares sum to %v", k, s)
		}
	}
	if _, err := domains.SuccessiveSampling([]float64{1, 0}, 1); err == nil {
		t.Error("weight 0: no error")
	}
}

// The rank loads of weighted rendezvous and of straw2 (a flat CRUSH map
// of devices weighted 3,3,3,1) follow successive sampling: every node's
// share at every rank is within 5 binomial standard deviations
// (sqrt(p(1-p)/100000)) of the theory. Their unevenness is the theory's:
// the light node holds 0.1 of the primaries but 0.2 of the third
// replicas, twice its weight share.
func TestRankLoadMatchesSuccessiveSampling(t *testing.T) {
	nodes := []algorithms.Node{{ID: "osd.0", Weight: 3}, {ID: "osd.1", Weight: 3}, {ID: "osd.2", Weight: 3}, {ID: "osd.3", Weight: 1}}
	flat, err := topology.Flat(nodes)
	if err != nil {
		t.Fatal(err)
	}
	straw2, err := crush.FromTopology(flat, crush.DeviceType, xxh)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []algorithms.Locator{plain(t, "rendezvous", nodes), straw2.Locator(64)} {
		rl, err := domains.CountRankLoad(source(t), l, 3, 0)
		if err != nil {
			t.Fatal(err)
		}
		if rl.Theory == nil {
			t.Fatal("no theory")
		}
		for k := range 3 {
			for i := range nodes {
				p := rl.Theory[k][i]
				if sd := math.Sqrt(p * (1 - p) / allKeys); math.Abs(rl.Share[k][i].Mean-p) > 5*sd {
					t.Errorf("%s rank %d node %d: share %v, theory %v within %v", l.Algorithm(), k, i, rl.Share[k][i].Mean, p, 5*sd)
				}
			}
		}
		if r := rl.Relative[2][3].Mean; r < 1.9 || r > 2.1 {
			t.Errorf("%s: the light node's third-rank share is %v of its weight share, theory 2.0", l.Algorithm(), r)
		}
	}
}

// A whole rack fails. With replicas in distinct racks no key loses every
// replica, nothing moves between surviving nodes for rendezvous (the best
// node of each other rack is unchanged), every copy comes from another
// rack, and the copies are the failed rack's replicas, 1/4 of all at equal
// racks (the ideal, within 5 sd). A plain ring loses the keys whose three
// replicas were all in that rack.
func TestRackLoss(t *testing.T) {
	tp := racks12(t)
	sc, err := domains.DomainLoss(tp, "rack", "rack-1")
	if err != nil {
		t.Fatal(err)
	}
	before := aware(t, "rendezvous", tp, "rack")
	after, err := domains.Apply(before, sc)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := domains.CountChange(source(t), before, after, sc.Union(), 3, 0, func(string) int64 { return 100 })
	if err != nil {
		t.Fatal(err)
	}
	if ch.Collateral.Mean != 0 || ch.KeysLost.Mean != 0 {
		t.Errorf("rendezvous by rack: collateral %v, lost %v; want 0", ch.Collateral.Mean, ch.KeysLost.Mean)
	}
	if math.Abs(ch.Ideal.Mean-0.25) > 1e-12 {
		t.Errorf("ideal %v, want 0.25", ch.Ideal.Mean)
	}
	if sd := math.Sqrt(0.25 * 0.75 / (3 * allKeys)); math.Abs(ch.Copies.Mean-0.25) > 5*sd {
		t.Errorf("copies %v, want 0.25 within %v", ch.Copies.Mean, 5*sd)
	}
	rack := 1 // levels: zone, rack
	if ch.Levels[rack] != "rack" || ch.Cross[rack].Mean != 1 {
		t.Errorf("cross-rack copies %v (levels %v), want all", ch.Cross[rack].Mean, ch.Levels)
	}
	if got, want := ch.Sets[0].Bytes, 100*ch.Sets[0].Copies; got != want {
		t.Errorf("bytes %d, want %d", got, want)
	}
	if len(ch.Left) != 3 || ch.Left[0] != "node-3" {
		t.Errorf("left %v", ch.Left)
	}
	pb := plain(t, "ring", tp.Nodes())
	pa, err := domains.Apply(pb, sc)
	if err != nil {
		t.Fatal(err)
	}
	pc, err := domains.CountChange(source(t), pb, pa, sc.Union(), 3, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pc.KeysLost.Mean == 0 || pc.Collateral.Mean != 0 {
		t.Errorf("plain ring, rack lost: %v keys lost, collateral %v; want some lost, none collateral", pc.KeysLost.Mean, pc.Collateral.Mean)
	}
}

// A rack of 3 nodes joins 4 racks of 3: the ideal is its weight share
// after, 3/15 = 0.2 of the replicas, and no key loses a replica. For
// rendezvous by rack nothing moves between old nodes: a key's set changes
// only where a new node outscores its rack-k choice, and then the new node
// takes that replica. CRUSH and the hierarchy copy at least the ideal too
// (CRUSH with some collateral from its retries, reported, not bounded).
func TestRackAdded(t *testing.T) {
	tp := racks12(t)
	var members []topology.Member
	for i := range 3 {
		members = append(members, topology.Member{Node: algorithms.Node{ID: "new-" + strconv.Itoa(i), Weight: 1}, Domains: []string{"zone-1", "rack-4"}})
	}
	sc, err := domains.DomainAdded(tp, "rack", "rack-4", members)
	if err != nil {
		t.Fatal(err)
	}
	for _, before := range []algorithms.Locator{aware(t, "rendezvous", tp, "rack"), crushRack(t, tp, "rack"), hierarchy(t, tp, "rack")} {
		after, err := domains.Apply(before, sc)
		if err != nil {
			t.Fatal(err)
		}
		ch, err := domains.CountChange(source(t), before, after, sc.Union(), 3, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(ch.Ideal.Mean-0.2) > 1e-12 || ch.KeysLost.Mean != 0 || len(ch.Joined) != 3 {
			t.Errorf("%s: ideal %v lost %v joined %v", before.Algorithm(), ch.Ideal.Mean, ch.KeysLost.Mean, ch.Joined)
		}
		if before.Algorithm() == "rendezvous" && ch.Collateral.Mean != 0 {
			t.Errorf("rendezvous: collateral %v, want 0", ch.Collateral.Mean)
		}
		if sd := math.Sqrt(0.2 * 0.8 / (3 * allKeys)); ch.Copies.Mean < 0.2-5*sd {
			t.Errorf("%s: copies %v below the ideal 0.2", before.Algorithm(), ch.Copies.Mean)
		}
	}
}

// Bad input: an unknown level, R beyond the nodes, an addition the
// placement cannot follow.
func TestErrors(t *testing.T) {
	tp := racks12(t)
	l := plain(t, "ring", tp.Nodes())
	if _, err := domains.CountViolations(source(t), l, tp, "row", 3, 0); err == nil {
		t.Error("unknown level: no error")
	}
	if _, err := domains.CountRankLoad(source(t), l, 13, 0); err == nil {
		t.Error("R = 13 on 12 nodes: no error")
	}
	sc, err := domains.DomainAdded(tp, "rack", "rack-4", []topology.Member{{Node: algorithms.Node{ID: "n", Weight: 1}, Domains: []string{"zone-0", "rack-4"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := domains.Apply(l, sc); err == nil {
		t.Error("plain ring following a topology: no error")
	}
	if _, err := domains.DomainAdded(tp, "rack", "rack-0", nil); err == nil {
		t.Error("existing rack added: no error")
	}
}
