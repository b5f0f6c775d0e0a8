package plots

import (
	"fmt"
	"slices"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

// domainsFigures draws domains.csv: domainsSharedFigure.
func domainsFigures(rows []schema.DomainViolation) ([]*figure, error) {
	return one(domainsSharedFigure(rows))
}

// domainsSharedFigure is a dot chart of the fraction of keys whose
// replicas share a failure domain (keys_shared_frac, 0..1, with its 95%
// CI) for each algorithm's own replicas (scheme plain), one panel per
// topology, level and replication factor, on a log axis with 0 under a
// break; the theory mark is the fraction a uniformly random choice of R
// distinct nodes would give (random_shared_frac). The domain-aware rows
// are summed up in the caption: their largest fraction where R fits in
// the domains, which the placement promises is 0. Two plain rows of one
// algorithm in one panel are an error.
func domainsSharedFigure(rows []schema.DomainViolation) (*figure, error) {
	type panelKey struct {
		topology, domain string
		replicas         int
	}
	var keys []panelKey
	var algos []string
	seen := map[string]bool{}
	awareMax, awareRows := 0.0, 0
	for _, r := range rows {
		if r.Scheme == schema.SchemeAware {
			if !r.Unavoidable() {
				awareMax, awareRows = max(awareMax, r.KeysSharedFrac), awareRows+1
			}
			continue
		}
		k := panelKey{r.Topology, r.Domain, r.Replicas}
		id := fmt.Sprintf("%s\x00%s\x00%s\x00%d", r.Algo, k.topology, k.domain, k.replicas)
		if seen[id] {
			return nil, fmt.Errorf("domains-shared: two plain rows give %s at %s, %s, R = %d", r.Algo, k.topology, k.domain, k.replicas)
		}
		seen[id] = true
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
		if !slices.Contains(algos, r.Algo) {
			algos = append(algos, r.Algo)
		}
	}
	if len(keys) == 0 {
		return nil, nil
	}
	slices.SortFunc(algos, catalog.Compare)
	panels := make([]dotPanel, len(keys))
	var infos []schema.Run
	for _, r := range rows {
		if r.Scheme != schema.SchemePlain {
			continue
		}
		i := slices.Index(keys, panelKey{r.Topology, r.Domain, r.Replicas})
		p := &panels[i]
		p.title = fmt.Sprintf("%s, replicas in distinct %ss, R = %d (%d nodes in %d %ss)", r.Topology, r.Domain, r.Replicas, r.Nodes, r.Domains, r.Domain)
		p.slots = append(p.slots, dotSlot{
			slot:      slices.Index(algos, r.Algo),
			value:     xy{Y: r.KeysSharedFrac, Lo: r.KeysSharedFracLo, Hi: r.KeysSharedFracHi, CI: true},
			theory:    r.RandomSharedFrac,
			hasTheory: true,
		})
		infos = append(infos, schema.RunOf(r))
	}
	for _, p := range panels {
		slices.SortFunc(p.slots, func(a, b dotSlot) int { return a.slot - b.slot })
	}
	aware := "no domain-aware rows in the file"
	if awareRows > 0 {
		aware = fmt.Sprintf("with one replica per domain (the domain scheme of each algorithm, crush's rule) the largest fraction over %d rows where R fits in the domains is %.3g", awareRows, awareMax)
	}
	return dotFigure(dotChart{
		name:  "domains-shared",
		title: "Keys whose replicas share a failure domain: each algorithm's own replicas",
		caption: append(captionLines(runCaption(infos)),
			"a key shares a domain when two of its R replicas sit in one rack (or zone); theory mark: R distinct nodes drawn at random",
			aware,
			"marker: mean over the key sets, bar: 95% CI; log axis shared by the panels; 0 (under the break): no key shared a domain in any key set"),
		yLabel:      "keys with replicas sharing a domain (fraction, log)",
		labels:      algos,
		algos:       algos,
		panels:      panels,
		valueLabel:  "measured",
		logZero:     true,
		theoryLabel: "R nodes at random",
	})
}
