package report

import (
	"os"
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

// writeRows writes rows to file in dir through the schema's CSV writer.
func writeRows[R schema.Row](t *testing.T, dir string, file schema.File[R], rows []R) {
	t.Helper()
	f, err := os.Create(file.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := schema.WriteCSV(f, rows); err != nil {
		t.Fatal(err)
	}
}

func config(algo, topo, domain string) schema.Config {
	var c schema.Config
	c.Algo, c.Hash, c.Topology, c.Domain, c.Keys, c.Sets, c.Seed, c.Placement = algo, "xxhash", topo, domain, 1000, 2, 1, "per-set"
	return c
}

func violation(algo, scheme string, shared, lo, hi float64) schema.DomainViolation {
	return schema.DomainViolation{Scheme: scheme, Nodes: 12, Domains: 4, Replicas: 3, Config: config(algo, "rack=4", "rack"),
		KeysSharedFrac: shared, KeysSharedFracLo: new(lo), KeysSharedFracHi: new(hi), PairsSharedFrac: shared, PairsSharedFracLo: new(lo), PairsSharedFracHi: new(hi),
		KeysOneDomainFrac: 0, RandomSharedFrac: 0.4}
}

// The section "Racks and zones" states, from domains*.csv, how many
// algorithms keep R replicas in R racks with their own replicas and with
// one per domain, what a rack loss copies against the ideal, and the
// lightest node's last-rank share over its weight share beside the
// successive-sampling theory; and the store rule drops an algorithm whose
// domain-aware replicas still share a rack (its whole interval above 0).
func TestRacksAndZones(t *testing.T) {
	dir := copyRun(t, nil)
	writeRows(t, dir, schema.DomainsFile, []schema.DomainViolation{
		violation("rendezvous", schema.SchemePlain, 0.38, 0.37, 0.39),
		violation("rendezvous", schema.SchemeAware, 0, 0, 0),
		violation("anchor", schema.SchemePlain, 0.41, 0.4, 0.42),
		violation("anchor", schema.SchemeAware, 0.02, 0.01, 0.03),
	})
	loss := func(algo string, copies float64) schema.DomainChange {
		return schema.DomainChange{Scheme: schema.SchemeAware, Nodes: 12, Replicas: 3, Event: schema.EventLoss, EventLevel: "rack", EventDomain: "rack-1",
			NodesLeft: 3, CopiesFrac: copies, CopiesFracLo: new(copies - 0.01), CopiesFracHi: new(copies + 0.01), IdealFrac: 0.25, Config: config(algo, "rack=4", "rack")}
	}
	writeRows(t, dir, schema.DomainChangesFile, []schema.DomainChange{loss("rendezvous", 0.25), loss("anchor", 0.5)})
	theory := 0.19
	var ranks []schema.DomainRank
	for i, w := range []float64{3, 3, 3, 1} {
		rel := 0.9
		if w == 1 {
			rel = 2.0
		}
		ranks = append(ranks, schema.DomainRank{Scheme: schema.SchemePlain, Nodes: 4, Replicas: 3, Rank: 3, ID: "node-" + string(rune('0'+i)), Weight: w, WeightShare: w / 10,
			Share: rel * w / 10, ShareLo: new(rel * w / 10), ShareHi: new(rel * w / 10), Relative: rel, RelativeLo: new(rel - 0.1), RelativeHi: new(rel + 0.1), TheoryShare: &theory, Config: config("rendezvous", "", "")})
	}
	writeRows(t, dir, schema.DomainRanksFile, ranks)
	rep := render(t, dir, DefaultProfile())
	_, sec, _ := strings.Cut(rep, "## Racks and zones")
	sec, _, _ = strings.Cut(sec, "\n## ")
	for _, want := range []string{
		"0 of 2 algorithms keep every key's 3 replicas in 3 distinct racks with their own replicas",
		"share a rack for 40.0% of keys",
		"1 of 2 with one replica per rack",
		"still sharing: `anchor` (2.00%)",
		"losing rack rack-1 (3 of 12 nodes, rack=4) at R = 3",
		"copy 25.0% of the replicas at least",
		"1 of 2 algorithms copy at most 1.10x that",
		"with weights 3,3,3,1 and R = 3, the weight-1 node holds 10.0% of the keys' rank-3 replicas, its weight's share, times `rendezvous` (2.00x)",
		"predicts 1.90x",
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("Racks and zones lacks %q:\n%s", want, sec)
		}
	}
	_, out := ruleLines(t, rep, "A sharded store")
	if !strings.Contains(out, "`anchor` (keys with replicas sharing a domain (domains.csv) 2.00%)") {
		t.Errorf("store rule's left-out line %q: want anchor left out for its shared racks", out)
	}
	if strings.Contains(out, "`rendezvous` (keys with replicas sharing") {
		t.Errorf("store rule's left-out line %q: rendezvous shares no rack", out)
	}
}

// Without the failure-domain files the section says so and the store
// rule has no domain criterion.
func TestRacksAndZonesNotInRun(t *testing.T) {
	rep := render(t, copyRun(t, nil), DefaultProfile())
	if !strings.Contains(rep, "Failure domains: not in this run (no domains.csv).") {
		t.Error("no note that the failure-domain files are absent")
	}
	if strings.Contains(rep, "share a rack or zone (domains.csv)") {
		t.Error("the store rule names domains.csv without it")
	}
}

// The section says which share of a rack loss's copies cross racks and,
// when the topology has zones around the racks, zones: per scheme, the
// fewest and the most over the algorithms, read from cross_frac and
// cross_outer_frac of domains-changes.csv.
func TestRacksAndZonesCrossDomainCopies(t *testing.T) {
	dir := copyRun(t, nil)
	loss := func(algo, scheme string, cross, outer float64) schema.DomainChange {
		lo, hi := outer-0.01, outer+0.01
		return schema.DomainChange{Scheme: scheme, Nodes: 12, Replicas: 3, Event: schema.EventLoss, EventLevel: "rack", EventDomain: "rack-1",
			NodesLeft: 3, CopiesFrac: 0.25, CopiesFracLo: new(0.24), CopiesFracHi: new(0.26), IdealFrac: 0.25,
			CrossFrac: cross, CrossFracLo: new(cross - 0.01), CrossFracHi: new(cross), OuterLevel: "zone", CrossOuterFrac: &outer, CrossOuterFracLo: &lo, CrossOuterFracHi: &hi,
			Config: config(algo, "zone=2,rack=4", "rack")}
	}
	writeRows(t, dir, schema.DomainChangesFile, []schema.DomainChange{
		loss("rendezvous", schema.SchemePlain, 0.8, 0.4),
		loss("rendezvous", schema.SchemeAware, 1, 0.5),
		loss("anchor", schema.SchemePlain, 0.7, 0.45),
		loss("anchor", schema.SchemeAware, 1, 0.6),
	})
	rep := render(t, dir, DefaultProfile())
	_, sec, _ := strings.Cut(rep, "## Racks and zones")
	sec, _, _ = strings.Cut(sec, "\n## ")
	want := "when rack rack-1 is lost (R = 3, zone=2,rack=4), the share of the copies made from a surviving replica that cross racks is " +
		"100% for all 2 algorithms with one replica per rack, and from `anchor` (70.0%) to `rendezvous` (80.0%) with their own replicas; " +
		"the share that crosses zones (the outermost level) is from `rendezvous` (50.0%) to `anchor` (60.0%) with one replica per rack, " +
		"and from `rendezvous` (40.0%) to `anchor` (45.0%) with their own replicas (domains-changes.csv: cross_frac, cross_outer_frac)."
	if !strings.Contains(sec, want) {
		t.Errorf("Racks and zones lacks\n%q\n%s", want, sec)
	}
}
