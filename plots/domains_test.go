package plots

import (
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

func domainRow(algo, scheme, topo string, r int, shared float64) schema.DomainViolation {
	v := schema.DomainViolation{Scheme: scheme, Nodes: 12, Domains: 4, Replicas: r,
		KeysSharedFrac: shared, KeysSharedFracLo: shared / 2, KeysSharedFracHi: shared * 1.5, RandomSharedFrac: 0.3}
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
