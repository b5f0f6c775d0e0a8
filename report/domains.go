package report

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

// The failure-domain results (chbench domains): domains.csv,
// domains-ranks.csv and domains-changes.csv, for the section "Racks and
// zones" and the store rule's domain criterion (domainShared).

// domainData is what the report reads from the failure-domain files;
// nil slices for the files the run does not have.
type domainData struct {
	shared  []schema.DomainViolation
	ranks   []schema.DomainRank
	changes []schema.DomainChange
}

// readDomains reads the failure-domain files of dir that exist (none is
// required, and an absent one is not listed as missing) and sets each
// algorithm's domainShared: the largest fraction of keys whose replicas
// share a domain with one replica per domain (scheme aware) at the
// report's replication factor, over the topologies where R fits in the
// domains.
func (ld *loader) readDomains(dir string) error {
	dd := &ld.d.domains
	var err error
	if dd.shared, err = readDomainFile(ld, dir, schema.DomainsFile); err != nil {
		return err
	}
	if dd.ranks, err = readDomainFile(ld, dir, schema.DomainRanksFile); err != nil {
		return err
	}
	if dd.changes, err = readDomainFile(ld, dir, schema.DomainChangesFile); err != nil {
		return err
	}
	r := domainR(ld.d)
	worst := map[string]value{}
	var order []string
	for _, row := range dd.shared {
		if row.Scheme != schema.SchemeAware || row.Replicas != r || row.Unavoidable() || !slices.Contains(catalog.Names(), row.Algo) {
			continue
		}
		v, ok := worst[row.Algo]
		if !ok {
			order = append(order, row.Algo)
		}
		if !ok || row.KeysSharedFrac > v.V {
			worst[row.Algo] = est(row.KeysSharedFrac, row.KeysSharedFracLo, row.KeysSharedFracHi)
		}
	}
	for _, a := range order {
		if err := ld.set(a, domainShared, worst[a]); err != nil {
			return err
		}
	}
	return nil
}

// readDomainFile reads file from dir when it exists (nil rows when not),
// with the run's metadata; errors name the file's path.
func readDomainFile[R schema.Row](ld *loader, dir string, file schema.File[R]) ([]R, error) {
	if _, err := os.Stat(filepath.Join(dir, file.Name)); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	ld.file = file.Name
	var out []R
	err := readInto(ld, dir, file, func(rows []R) error {
		out = rows
		return ld.meta(runsOf(rows))
	})
	return out, err
}

// domainR is the replication factor of the failure-domain takeaways: the
// report's (replR) when domains.csv has rows at it, else 3 when it has
// those, else the largest it has.
func domainR(d *Data) int {
	var rs []int
	for _, r := range d.domains.shared {
		rs = append(rs, r.Replicas)
	}
	if len(rs) == 0 {
		return int(replR(d))
	}
	for _, want := range []int{int(replR(d)), 3} {
		if slices.Contains(rs, want) {
			return want
		}
	}
	return slices.Max(rs)
}

// domainsSection is "Racks and zones": which algorithms keep R replicas
// in R racks, with their own replicas and with one per domain
// (domains.csv); what a rack loss re-homes (domains-changes.csv); and how
// uneven the replica ranks are with unequal weights (domains-ranks.csv).
func domainsSection(d *Data) section {
	s := section{title: "Racks and zones", plots: []string{"domains-shared", "domains-changes", "domains-ranks"}}
	dd := d.domains
	if dd.shared == nil && dd.ranks == nil && dd.changes == nil {
		s.text = append(s.text, notIn("Failure domains", schema.DomainsFile.Name))
		return s
	}
	if t := sharedTakeaway(d); t != "" {
		s.text = append(s.text, t)
	}
	if t := rackLossTakeaway(dd.changes); t != "" {
		s.text = append(s.text, t)
	}
	if t := crossTakeaway(dd.changes); t != "" {
		s.text = append(s.text, t)
	}
	if t := ranksTakeaway(dd.ranks); t != "" {
		s.text = append(s.text, t)
	}
	return s
}

// sharedTakeaway says, at the first topology of domains.csv where R =
// domainR fits in the domains, how many algorithms keep R replicas in R
// distinct domains with their own replicas and with one per domain.
func sharedTakeaway(d *Data) string {
	r := domainR(d)
	var plain, aware []named
	var first *schema.DomainViolation
	for i, row := range d.domains.shared {
		if row.Replicas != r || row.Unavoidable() {
			continue
		}
		if first == nil {
			first = &d.domains.shared[i]
		}
		if row.Topology != first.Topology || row.Domain != first.Domain {
			continue
		}
		nm := nameOf(row.Algo, est(row.KeysSharedFrac, row.KeysSharedFracLo, row.KeysSharedFracHi))
		if row.Scheme == schema.SchemePlain {
			plain = append(plain, nm)
		} else {
			aware = append(aware, nm)
		}
	}
	if first == nil {
		return ""
	}
	zero := func(nm named) bool { return nm.V == 0 }
	byValue := func(ns []named) {
		slices.SortStableFunc(ns, func(a, b named) int { return cmp.Compare(a.V, b.V) })
	}
	byValue(plain)
	byValue(aware)
	t := fmt.Sprintf("**Takeaway:** with R = %d replicas on %d nodes in %d %ss (%s), %d of %d algorithms keep every key's %d replicas in %d distinct %ss with their own replicas",
		r, first.Nodes, first.Domains, first.Domain, first.Topology, countIf(plain, zero), len(plain), r, r, first.Domain)
	if len(plain) > 0 {
		ends := fmt.Sprintf("fewest sharing %s, most %s", list(head(plain[:len(plain)-1], 2), percent, ""), list(plain[len(plain)-1:], percent, ""))
		if len(plain) == 1 {
			ends = "measured " + list(plain, percent, "")
		}
		t += fmt.Sprintf(" (R nodes at random would share a %s for %s of keys; %s)", first.Domain, percent(first.RandomSharedFrac), ends)
	}
	t += fmt.Sprintf(", and %d of %d with one replica per %s (each algorithm's domain scheme, crush's rule)", countIf(aware, zero), len(aware), first.Domain)
	if bad := slices.DeleteFunc(slices.Clone(aware), zero); len(bad) > 0 {
		t += "; still sharing: " + list(bad, percent, "")
	}
	return t + "."
}

// rackLossTakeaway says what the loss of a whole domain at the
// failure-domain level copies, against the ideal (the lost domain's share
// of the replicas), with one replica per domain, from domains-changes.csv.
func rackLossTakeaway(rows []schema.DomainChange) string {
	f, ok := domainLoss(rows)
	if !ok {
		return ""
	}
	var ns []named
	for _, r := range rows {
		if r.Scheme == schema.SchemeAware && r.Event == schema.EventLoss && r.EventLevel == f.EventLevel && slices.Contains(catalog.Names(), r.Algo) &&
			r.Topology == f.Topology && r.Domain == f.Domain && r.EventDomain == f.EventDomain && r.Replicas == f.Replicas {
			ns = append(ns, nameOf(r.Algo, est(r.CopiesFrac, r.CopiesFracLo, r.CopiesFracHi)))
		}
	}
	slices.SortStableFunc(ns, func(a, b named) int { return cmp.Compare(a.V, b.V) })
	atIdeal := countIf(ns, func(nm named) bool { return nm.Val.Lo <= f.IdealFrac*nearIdeal })
	t := fmt.Sprintf("**Takeaway:** losing %s %s (%d of %d nodes, %s) at R = %d with one replica per %s makes the survivors copy %s of the replicas at least (the lost share, the ideal); %d of %d algorithms copy at most %sx that",
		f.EventLevel, f.EventDomain, f.NodesLeft, f.Nodes, f.Topology, f.Replicas, f.Domain, percent(f.IdealFrac), atIdeal, len(ns), fixed2(nearIdeal))
	t += ": fewest " + list(head(ns, top), percent, "")
	if len(ns) > top {
		t += ", most " + list(ns[len(ns)-1:], percent, "")
	}
	return t + "."
}

// domainLoss returns the first row of rows that loses a whole domain at
// the failure-domain level with one replica per domain (the change the
// rack-loss takeaways describe), and whether there is one.
func domainLoss(rows []schema.DomainChange) (schema.DomainChange, bool) {
	for _, r := range rows {
		if r.Scheme == schema.SchemeAware && r.Event == schema.EventLoss && r.EventLevel == r.Domain && slices.Contains(catalog.Names(), r.Algo) {
			return r, true
		}
	}
	return schema.DomainChange{}, false
}

// crossTakeaway says, for the domain loss of rackLossTakeaway, which
// share of the copies made from a surviving replica cross domains at the
// failure-domain level (cross_frac) and, when the topology has an outer
// level, at the outermost (cross_outer_frac), per scheme: the traffic the
// re-replication sends between racks and between zones.
func crossTakeaway(rows []schema.DomainChange) string {
	f, ok := domainLoss(rows)
	if !ok {
		return ""
	}
	var cross, outer [2][]named // by scheme: aware, plain
	for _, r := range rows {
		if r.Event != f.Event || r.EventLevel != f.EventLevel || r.EventDomain != f.EventDomain || r.Topology != f.Topology || r.Domain != f.Domain || r.Replicas != f.Replicas ||
			!slices.Contains(catalog.Names(), r.Algo) {
			continue
		}
		s := 0
		if r.Scheme == schema.SchemePlain {
			s = 1
		}
		cross[s] = append(cross[s], nameOf(r.Algo, est(r.CrossFrac, r.CrossFracLo, r.CrossFracHi)))
		if r.CrossOuterFrac != nil {
			outer[s] = append(outer[s], nameOf(r.Algo, est(*r.CrossOuterFrac, r.CrossOuterFracLo, r.CrossOuterFracHi)))
		}
	}
	schemes := [2]string{"with one replica per " + f.Domain, "with their own replicas"}
	// span says, for each scheme with rows, the fewest and the most.
	span := func(by [2][]named) string {
		var parts []string
		for s, ns := range by {
			if len(ns) == 0 {
				continue
			}
			slices.SortStableFunc(ns, func(a, b named) int { return cmp.Compare(a.V, b.V) })
			p := fmt.Sprintf("%s for all %d algorithms %s", percent(ns[0].V), len(ns), schemes[s])
			if ns[len(ns)-1].V != ns[0].V {
				p = fmt.Sprintf("from %s to %s %s", list(ns[:1], percent, ""), list(ns[len(ns)-1:], percent, ""), schemes[s])
			}
			parts = append(parts, p)
		}
		return strings.Join(parts, ", and ")
	}
	t := fmt.Sprintf("**Takeaway:** when %s %s is lost (R = %d, %s), the share of the copies made from a surviving replica that cross %ss is %s",
		f.EventLevel, f.EventDomain, f.Replicas, f.Topology, f.Domain, span(cross))
	if f.OuterLevel != "" && (len(outer[0]) > 0 || len(outer[1]) > 0) {
		t += fmt.Sprintf("; the share that crosses %ss (the outermost level) is %s", f.OuterLevel, span(outer))
	}
	return t + " (domains-changes.csv: cross_frac, cross_outer_frac)."
}

// ranksTakeaway says how uneven the replica ranks are on the flat fleet
// of domains-ranks.csv with unequal weights (the run's is 3,3,3,1): the
// lightest node's share of the last rank over its weight share, measured
// and by the successive-sampling theory, for each algorithm's own
// replicas.
func ranksTakeaway(rows []schema.DomainRank) string {
	var last []schema.DomainRank
	maxRank := 0
	for _, r := range rows {
		if r.Scheme == schema.SchemePlain && r.Topology == "" && r.Rank == r.Replicas {
			last = append(last, r)
			maxRank = max(maxRank, r.Rank)
		}
	}
	if len(last) == 0 {
		return ""
	}
	// The lightest node of each algorithm's fleet at the last rank.
	light := map[string]schema.DomainRank{}
	var order []string
	var weights []string
	for _, r := range last {
		if r.Rank != maxRank {
			continue
		}
		l, ok := light[r.Algo]
		if !ok {
			order = append(order, r.Algo)
		}
		if !ok || r.Weight < l.Weight {
			light[r.Algo] = r
		}
		if r.Algo == last[0].Algo {
			weights = append(weights, numfmtWeight(r.Weight))
		}
	}
	if len(weights) < 2 {
		return ""
	}
	var ns []named
	for _, a := range order {
		r := light[a]
		ns = append(ns, nameOf(a, est(r.Relative, r.RelativeLo, r.RelativeHi)))
	}
	slices.SortStableFunc(ns, func(a, b named) int { return cmp.Compare(a.V, b.V) })
	f := light[order[0]]
	t := fmt.Sprintf("**Takeaway:** with weights %s and R = %d, the weight-%s node holds %s of the keys' rank-%d replicas, its weight's share, times %s",
		strings.Join(weights, ","), f.Replicas, numfmtWeight(f.Weight), percent(f.WeightShare), maxRank, list(ns, fixed2, "x"))
	if f.TheoryShare != nil && f.WeightShare > 0 {
		t += fmt.Sprintf("; successive sampling (each rank drawn by weight among the nodes not yet chosen) predicts %sx", fixed2(*f.TheoryShare/f.WeightShare))
	}
	return t + ". A node that holds more than its weight's share of later ranks takes more than its share of the re-replication when another fails."
}

// numfmtWeight formats a node weight as it was given ("3", "0.5").
func numfmtWeight(w float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.6f", w), "0"), ".")
}

// withDomains adds to the store rule sp, when the run has domains.csv,
// that no key's replicas share a rack or zone with one replica per domain
// (domainShared, limit 0: its whole 95% interval above 0 fails it);
// without domains.csv sp is returned as given.
func withDomains(d *Data, sp spec) spec {
	if d.domains.shared == nil {
		return sp
	}
	sp.cs = append(sp.cs, criterion{domainShared, noMetric, 0, "keys with replicas sharing a domain (domains.csv)"})
	add := fmt.Sprintf(", and with one replica per domain no key's %d replicas share a rack or zone (domains.csv)", domainR(d))
	if i := strings.Index(sp.text, "; ordered by"); i >= 0 {
		sp.text = sp.text[:i] + add + sp.text[i:]
	} else {
		sp.text += add
	}
	return sp
}

// nameOf is v named name.
func nameOf(name string, v value) named { return named{Name: name, V: v.V, Val: v} }
