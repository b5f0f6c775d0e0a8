package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/schema"
	"github.com/chbench/chbench/topology"
)

// domainOpts: 3 sets of 20,000 keys (60,000 in all: the binomial bounds
// below use that total), 12 nodes in 6 racks of 2 in 3 zones.
func domainOpts(t *testing.T) (Options, []algorithms.Node) {
	t.Helper()
	o := Options{Config: replOpts("ring").Config, Keys: genKeys(20000, 3, 5), Seed: 5, Placement: schema.PlacementPerSet}
	s, err := topology.NewSpec(nil, "", []topology.Grouping{{Level: "rack", Spec: "6"}, {Level: "zone", Spec: "3"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	o.Domains = s
	nodes, _ := algorithms.DefaultNodes(12)
	return o, nodes
}

// within5 fails t unless got is within 5 binomial standard deviations of
// p over n trials.
func within5(t *testing.T, what string, got, p float64, n int) {
	t.Helper()
	if sd := math.Sqrt(p * (1 - p) / float64(n)); math.Abs(got-p) > 5*sd {
		t.Errorf("%s: %v, want %v within 5 sd (%v)", what, got, p, 5*sd)
	}
}

// Domain-aware replicas never share a rack (exactly 0 in every set);
// plain CRUSH and rendezvous at equal weights draw uniform random
// replica sets, so they share a rack for RandomSharedFrac of the keys,
// 1 - C(6,3)*2^3/C(12,3) = 0.2727 at R = 3.
func TestSweepDomainViolations(t *testing.T) {
	o, nodes := domainOpts(t)
	rows, err := SweepDomainViolations(o, Sweep{Algos: []string{"rendezvous", "crush", "ring"}}, nodes, []int{3})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6 {
		t.Fatalf("%d rows, want 3 algorithms x 2 schemes", len(rows))
	}
	for _, r := range rows {
		if r.Topology != "rack=6 zone=3" || r.Domain != "rack" || r.Domains != 6 || math.Abs(r.RandomSharedFrac-(1-160.0/220)) > 1e-12 {
			t.Errorf("%s %s: %+v", r.Algo, r.Scheme, r.Config)
		}
		if err := schema.Check(r); err != nil {
			t.Error(err)
		}
		switch {
		case r.Scheme == schema.SchemeAware:
			for s, c := range r.Samples {
				if c.KeysShared != 0 || c.Keys != 20000 {
					t.Errorf("%s aware set %d: %+v", r.Algo, s, c)
				}
			}
		case r.Algo != "ring":
			within5(t, r.Algo+" plain", r.KeysSharedFrac, r.RandomSharedFrac, 60000)
		}
	}
	if err := (Sweep{Algos: []string{"ring"}}).CheckDomainViolations(Options{Config: o.Config, Keys: o.Keys}, nodes, []int{3}); err == nil || !strings.Contains(err.Error(), "topology") {
		t.Errorf("no topology: %v", err)
	}
}

// With weights 3,3,3,1 rendezvous's third replica is the light node for
// 0.1929 of keys (successive sampling, the theory the rows carry), twice
// its weight share; the whole replica load gives it 0.1405, not 0.10.
func TestSweepDomainRanks(t *testing.T) {
	o, _ := domainOpts(t)
	o.Domains = topology.Spec{}
	nodes, _ := WeightedNodes([]float64{3, 3, 3, 1})
	rows, err := SweepDomainRanks(o, Sweep{Algos: []string{"rendezvous"}}, nodes, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4*4 {
		t.Fatalf("%d rows, want 4 ranks x 4 nodes", len(rows))
	}
	for _, r := range rows {
		if r.ID != "node-3" || (r.Rank != 3 && r.Rank != 0) {
			continue
		}
		want := 0.19286 // 1 - 0.1 - 0.9/7 of the light node's first and second draws
		if r.Rank == 0 {
			want = (0.1 + 0.12857 + 0.19286) / 3
		}
		if r.TheoryShare == nil || math.Abs(*r.TheoryShare-want) > 1e-4 {
			t.Errorf("rank %d theory %v, want %v", r.Rank, r.TheoryShare, want)
		}
		n := 60000
		if r.Rank == 0 {
			n *= 3
		}
		within5(t, "light node's share", r.Share, *r.TheoryShare, n)
		if math.Abs(r.Relative-r.Share/0.1) > 1e-9 {
			t.Errorf("relative %v, share %v", r.Relative, r.Share)
		}
	}
}

// A rack lost with domain-aware rendezvous copies exactly what the rack
// held, never between survivors, each copy to another rack; a zone lost
// with plain replicas leaves the keys whose three replicas were all in
// it without a copy (4 of the C(12,3) = 220 equally likely sets lie in
// the zone's 4 nodes), with aware replicas none.
func TestSweepDomainChanges(t *testing.T) {
	o, nodes := domainOpts(t)
	evs := []DomainEvent{{Kind: schema.EventLoss, Level: "rack", Domain: "rack-1"}, {Kind: schema.EventLoss, Level: "zone", Domain: "zone-2"},
		{Kind: schema.EventAdded, Level: "rack"}, {Kind: schema.EventLoss, Level: NodeLevel, Domain: "node-4"}}
	rows, err := SweepDomainChanges(o, Sweep{Algos: []string{"rendezvous", "crush"}}, nodes, 3, evs)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2*4*2 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		if err := schema.Check(r); err != nil {
			t.Errorf("%s %s %s: %v", r.Algo, r.Scheme, r.String(), err)
		}
		loss := r.Event == schema.EventLoss
		switch {
		case r.Scheme == schema.SchemeAware && loss && (r.CollateralFrac != 0 || r.KeysLostFrac != 0 || r.CrossFrac != 1):
			t.Errorf("%s aware %s: collateral %v lost %v cross %v; want 0, 0, 1", r.Algo, r.String(), r.CollateralFrac, r.KeysLostFrac, r.CrossFrac)
		case r.Algo == "rendezvous" && r.CollateralFrac != 0:
			t.Errorf("rendezvous %s %s: collateral %v", r.Scheme, r.String(), r.CollateralFrac)
		case r.EventLevel == "zone" && r.Scheme == schema.SchemePlain:
			within5(t, r.Algo+" plain, zone lost: keys with no replica", r.KeysLostFrac, 4.0/220, 60000)
		}
		if r.EventLevel == "rack" && loss && (r.NodesLeft != 2 || r.IdealFrac != 1.0/6 || r.EventDomain != "rack-1") {
			t.Errorf("rack lost: %d left, ideal %v, domain %q", r.NodesLeft, r.IdealFrac, r.EventDomain)
		}
		if !loss && (r.NodesJoined != 2 || r.EventDomain != "rack-6" || math.Abs(r.IdealFrac-1.0/7) > 1e-12) {
			t.Errorf("rack added: %d joined as %q, ideal %v", r.NodesJoined, r.EventDomain, r.IdealFrac)
		}
		if r.OuterLevel != "zone" || r.CrossOuterFrac == nil {
			t.Errorf("outer level %q", r.OuterLevel)
		}
	}
}

// Events parse from their flag form and default to a node, each level
// innermost first and a domain added at the failure domain; bad ones
// are errors naming them.
func TestDomainEvents(t *testing.T) {
	evs, err := ParseDomainEvents("node, rack:rack-2,+rack,zone")
	if err != nil {
		t.Fatal(err)
	}
	want := []DomainEvent{{schema.EventLoss, NodeLevel, ""}, {schema.EventLoss, "rack", "rack-2"}, {schema.EventAdded, "rack", ""}, {schema.EventLoss, "zone", ""}}
	for i := range want {
		if evs[i] != want[i] {
			t.Errorf("event %d: %+v, want %+v", i, evs[i], want[i])
		}
	}
	if d := DefaultDomainEvents([]string{"zone", "rack"}, "rack"); len(d) != 4 || d[1].Level != "rack" || d[2].Level != "zone" || d[3].Kind != schema.EventAdded {
		t.Errorf("defaults %+v", d)
	}
	for in, msg := range map[string]string{"node,node": "given twice", "": `event ""`, "+rack:x": "takes no name"} {
		if _, err := ParseDomainEvents(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("ParseDomainEvents(%q) = %v, want %q", in, err, msg)
		}
	}
	o, nodes := domainOpts(t)
	for _, e := range []DomainEvent{{schema.EventLoss, "row", ""}, {schema.EventLoss, "rack", "rack-9"}, {schema.EventLoss, NodeLevel, "x"}} {
		if err := (Sweep{Algos: []string{"ring"}}).CheckDomainChanges(o, nodes, 3, []DomainEvent{e}); err == nil {
			t.Errorf("event %+v: no error", e)
		}
	}
}
