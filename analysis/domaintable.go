package analysis

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/chbench/chbench/schema"
)

// The aligned text tables of the failure-domain results, for terminals:
// fractions in percent with their 95% intervals in brackets.

// topologyLine writes the topology and failure-domain level of the
// first row, the same for every row of a run.
func topologyLine(w io.Writer, c schema.Config) {
	if c.Topology != "" {
		fmt.Fprintf(w, "topology %s, failure domain %s\n", c.Topology, c.Domain)
	}
}

// WriteDomainViolationsTable writes rs as an aligned text table: per
// algorithm, scheme and R, the keys with two replicas in one domain, the
// replica pairs in one domain, the keys with every replica in one domain,
// and what uniformly random replica sets would show.
func WriteDomainViolationsTable(w io.Writer, rs []schema.DomainViolation) error {
	if len(rs) > 0 {
		topologyLine(w, rs[0].Config)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\tscheme\tnodes\tdomains\tR\tkeys sharing a domain [95% CI]\tpairs sharing [95% CI]\tkeys in one domain [95% CI]\trandom sets share")
	labels := tableLabels(rs, func(r schema.DomainViolation) (schema.Config, string) { return r.Config, "" })
	for i, r := range rs {
		note := ""
		if r.Unavoidable() {
			note = " (R > domains)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d%s\t%s\t%s\t%s\t%s\n", labels[i], r.Scheme, r.Nodes, r.Domains, r.Replicas, note,
			ci(r.KeysSharedFrac, r.KeysSharedFracLo, r.KeysSharedFracHi, pct), ci(r.PairsSharedFrac, r.PairsSharedFracLo, r.PairsSharedFracHi, pct),
			ci(r.KeysOneDomainFrac, r.KeysOneDomainFracLo, r.KeysOneDomainFracHi, pct), pct(r.RandomSharedFrac))
	}
	return tw.Flush()
}

// WriteDomainRanksTable writes rs as an aligned text table: per
// algorithm, scheme, rank (0: every replica) and node, its share of the
// keys at that rank and that share over its weight share, beside the
// successive-sampling share where it was computed.
func WriteDomainRanksTable(w io.Writer, rs []schema.DomainRank) error {
	if len(rs) > 0 {
		topologyLine(w, rs[0].Config)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\tscheme\tR\trank\tnode\tdomain\tweight share\tshare [95% CI]\tshare / weight share [95% CI]\tsuccessive sampling")
	labels := tableLabels(rs, func(r schema.DomainRank) (schema.Config, string) { return r.Config, "" })
	for i, r := range rs {
		rank, th, dom := fmt.Sprint(r.Rank), "-", r.NodeDomain
		if r.Rank == 0 {
			rank = "all"
		}
		if r.TheoryShare != nil {
			th = pct(*r.TheoryShare)
		}
		if dom == "" {
			dom = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", labels[i], r.Scheme, r.Replicas, rank, r.ID, dom, pct(r.WeightShare),
			ci(r.Share, r.ShareLo, r.ShareHi, pct), ci(r.Relative, r.RelativeLo, r.RelativeHi, f4), th)
	}
	return tw.Flush()
}

// WriteDomainChangesTable writes rs as an aligned text table: per
// algorithm, scheme and change, the replicas copied against the ideal,
// the copies between surviving nodes, the keys moved and those left with
// no surviving replica, and the copies crossing the failure domains (and
// the outermost level's).
func WriteDomainChangesTable(w io.Writer, rs []schema.DomainChange) error {
	if len(rs) > 0 {
		topologyLine(w, rs[0].Config)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\tscheme\tR\tchange\treplicas copied [95% CI]\tideal\tcollateral [95% CI]\tkeys moved [95% CI]\tkeys with no replica left [95% CI]\tcopies across domains [95% CI]\tacross the outermost level")
	labels := tableLabels(rs, func(r schema.DomainChange) (schema.Config, string) { return r.Config, "" })
	for i, r := range rs {
		outer := "-"
		if r.CrossOuterFrac != nil {
			outer = r.OuterLevel + " " + ci(*r.CrossOuterFrac, r.CrossOuterFracLo, r.CrossOuterFracHi, pct)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", labels[i], r.Scheme, r.Replicas, r.String(),
			ci(r.CopiesFrac, r.CopiesFracLo, r.CopiesFracHi, pct), pct(r.IdealFrac), ci(r.CollateralFrac, r.CollateralFracLo, r.CollateralFracHi, pct),
			ci(r.KeysMovedFrac, r.KeysMovedFracLo, r.KeysMovedFracHi, pct), ci(r.KeysLostFrac, r.KeysLostFracLo, r.KeysLostFracHi, pct),
			ci(r.CrossFrac, r.CrossFracLo, r.CrossFracHi, pct), outer)
	}
	return tw.Flush()
}
