package plots

import (
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

func domainRow(algo, scheme, topo string, r int, shared float64) schema.DomainViolation {
	v := schema.DomainViolation{Scheme: scheme, Nodes: 12, Domains: 4, Replicas: r,
		KeysSharedFrac: shared, KeysSharedFracLo: new(shared / 2), KeysSharedFracHi: new(shared * 1.5), RandomSharedFrac: 0.3}
	v.Algo, v.Hash, v.Topology, v.Domain, v.Keys, v.Sets, v.Seed = algo, "xxhash", topo, "rack", 1000, 2, 1
	return v
}

// The shared-domain chart has one panel per topology and replication
// factor, one slot per algorithm of the plain scheme, the aware rows
// summed up in the caption (their largest avoidable fraction), and
// refuses two plain rows of one algorithm in one panel.
func TestDomainsSharedFigure(t *testing.T) {
	rows := []schema.DomainViolation{
		domainRow("ring", schema.SchemePlain, "rack=4", 2, 0.2),
		domainRow("crush", schema.SchemePlain, "rack=4", 2, 0.25),
		domainRow("ring", schema.SchemeAware, "rack=4", 2, 0),
		domainRow("ring", schema.SchemePlain, "rack=4", 3, 0.5),
		domainRow("ring", schema.SchemeAware, "rack=4", 3, 0.001),
		domainRow("ring", schema.SchemeAware, "rack=4", 5, 0.9), // R > domains: unavoidable, not in the caption's maximum
	}
	rows[5].Replicas = 5
	f, err := domainsSharedFigure(rows)
	if err != nil {
		t.Fatal(err)
	}
	if f == nil || len(f.panels) != 2 {
		t.Fatalf("figure %+v: want 2 panels (R = 2, R = 3)", f)
	}
	caption := strings.Join(f.caption, "\n")
	if !strings.Contains(caption, "over 2 rows where R fits in the domains is 0.001") {
		t.Errorf("caption %q: want the aware rows' largest avoidable fraction, 0.001 over 2 rows", caption)
	}
	if _, err := domainsSharedFigure(append(rows, domainRow("ring", schema.SchemePlain, "rack=4", 2, 0.1))); err == nil || !strings.Contains(err.Error(), "two plain rows give ring") {
		t.Errorf("duplicate row: %v, want an error naming ring", err)
	}
}

// The changes chart shows copies over the ideal, aware rows only, one
// panel per change, modulo in the caption with its ratio, and refuses two
// rows of one algorithm for one change.
func TestDomainChangesFigure(t *testing.T) {
	change := func(algo, scheme, domain string, copies float64) schema.DomainChange {
		c := schema.DomainChange{Scheme: scheme, Nodes: 12, Replicas: 3, Event: schema.EventLoss, EventLevel: "rack", EventDomain: domain,
			NodesLeft: 2, CopiesFrac: copies, CopiesFracLo: new(copies * 0.9), CopiesFracHi: new(copies * 1.1), IdealFrac: 0.2}
		c.Algo, c.Hash, c.Topology, c.Domain, c.Keys, c.Sets, c.Seed = algo, "xxhash", "rack=6", "rack", 1000, 2, 1
		return c
	}
	rows := []schema.DomainChange{
		change("ring", schema.SchemeAware, "rack-1", 0.2),
		change("ring", schema.SchemePlain, "rack-1", 0.3),
		change("crush", schema.SchemeAware, "rack-1", 0.25),
		change("modulo", schema.SchemeAware, "rack-1", 0.8),
		change("ring", schema.SchemeAware, "rack-2", 0.22),
	}
	f, err := domainChangesFigure(rows)
	if err != nil {
		t.Fatal(err)
	}
	if f == nil || len(f.panels) != 2 {
		t.Fatalf("figure %+v: want 2 panels (rack-1 lost, rack-2 lost)", f)
	}
	if c := strings.Join(f.caption, "\n"); !strings.Contains(c, "modulo omitted (it copies most replicas on every change): 4.00x at rack rack-1 lost") {
		t.Errorf("caption %q: want modulo's 0.8 / 0.2 = 4.00x", c)
	}
	if _, err := domainChangesFigure(append(rows, change("crush", schema.SchemeAware, "rack-1", 0.2))); err == nil || !strings.Contains(err.Error(), "two rows give crush") {
		t.Errorf("duplicate row: %v, want an error naming crush", err)
	}
}

// The ranks chart shows, per rank, the lightest node of the flat fleet
// (its relative share, theory over its weight share), ignores rows in a
// topology and the all-ranks rows (rank 0), and draws nothing for equal
// weights.
func TestDomainRanksFigure(t *testing.T) {
	theory := 0.2
	rank := func(algo, id, topo string, rk int, w, rel float64) schema.DomainRank {
		r := schema.DomainRank{Scheme: schema.SchemePlain, Nodes: 4, Replicas: 2, Rank: rk, ID: id, Weight: w, WeightShare: w / 10,
			Relative: rel, RelativeLo: new(rel - 0.1), RelativeHi: new(rel + 0.1), TheoryShare: &theory}
		r.Algo, r.Hash, r.Topology, r.Keys, r.Sets, r.Seed = algo, "xxhash", topo, 1000, 2, 1
		return r
	}
	var rows []schema.DomainRank
	for _, rk := range []int{0, 1, 2} {
		rows = append(rows, rank("rendezvous", "a", "", rk, 3, 0.9), rank("rendezvous", "d", "", rk, 1, 1.5), rank("ring", "d", "rack=2", rk, 1, 9))
	}
	f, err := domainRanksFigure(rows)
	if err != nil {
		t.Fatal(err)
	}
	if f == nil || len(f.panels) != 2 {
		t.Fatalf("figure %+v: want 2 panels (ranks 1 and 2)", f)
	}
	if !strings.Contains(f.panels[0].title, "node d of weight 1") {
		t.Errorf("first panel %q: want the lightest node, d of weight 1", f.panels[0].title)
	}
	equal := []schema.DomainRank{rank("ring", "a", "", 1, 1, 1), rank("ring", "b", "", 1, 1, 1)}
	if f, err := domainRanksFigure(equal); f != nil || err != nil {
		t.Errorf("equal weights: %v, %v; want no figure", f, err)
	}
}
