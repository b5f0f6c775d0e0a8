package plots

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

// domainsFigures draws domains.csv: domainsSharedFigure.
func domainsFigures(rows []schema.DomainViolation) ([]*figure, error) {
	return one(domainsSharedFigure(rows))
}

// domainChangesFigures draws domains-changes.csv: domainChangesFigure.
func domainChangesFigures(rows []schema.DomainChange) ([]*figure, error) {
	return one(domainChangesFigure(rows))
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
			value:     estimate(r.KeysSharedFrac, r.KeysSharedFracLo, r.KeysSharedFracHi),
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

// domainChangesFigure is a dot chart of what each change of
// domains-changes.csv copies with one replica per domain (scheme aware):
// copies over the ideal (the lost or added share of the replicas), with
// the 95% CI, one panel per topology and change, a line at 1. modulo,
// which copies most replicas on every change, is left out and its values
// given in the caption. Two rows of one algorithm in one panel are an
// error.
func domainChangesFigure(rows []schema.DomainChange) (*figure, error) {
	type panelKey struct{ topology, change string }
	var keys []panelKey
	var algos, omitted []string
	seen := map[string]bool{}
	var infos []schema.Run
	type slotRow struct {
		key  panelKey
		algo string
		v    xy
	}
	var srs []slotRow
	for _, r := range rows {
		if r.Scheme != schema.SchemeAware || r.IdealFrac <= 0 {
			continue
		}
		k := panelKey{r.Topology, r.String()}
		id := r.Algo + "\x00" + k.topology + "\x00" + k.change
		if seen[id] {
			return nil, fmt.Errorf("domains-changes: two rows give %s at %s, %s", r.Algo, k.topology, k.change)
		}
		seen[id] = true
		ratio := estimate(r.CopiesFrac, r.CopiesFracLo, r.CopiesFracHi).over(r.IdealFrac)
		if r.Algo == ratioOmitted {
			omitted = append(omitted, fmt.Sprintf("%.2fx at %s", ratio.Y, k.change))
			continue
		}
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
		if !slices.Contains(algos, r.Algo) {
			algos = append(algos, r.Algo)
		}
		srs = append(srs, slotRow{k, r.Algo, ratio})
		infos = append(infos, schema.RunOf(r))
	}
	if len(keys) == 0 {
		return nil, nil
	}
	slices.SortFunc(algos, catalog.Compare)
	panels := make([]dotPanel, len(keys))
	for i, k := range keys {
		panels[i].title = fmt.Sprintf("%s: %s", k.topology, k.change)
	}
	for _, s := range srs {
		p := &panels[slices.Index(keys, s.key)]
		p.slots = append(p.slots, dotSlot{slot: slices.Index(algos, s.algo), value: s.v})
	}
	for _, p := range panels {
		slices.SortFunc(p.slots, func(a, b dotSlot) int { return a.slot - b.slot })
	}
	caption := captionLines(runCaption(infos),
		"one replica per domain (each algorithm's domain scheme, crush's rule); copies: replicas the surviving or new nodes must receive, over the ideal (the lost or added share of the replicas)",
		"marker: mean over the key sets, bar: 95% CI; 1 = the least any placement must copy")
	if len(omitted) > 0 {
		caption = append(caption, ratioOmitted+" omitted (it copies most replicas on every change): "+joinLimited(omitted))
	}
	return dotFigure(dotChart{
		name:       "domains-changes",
		title:      "What a node, rack or zone failing or a rack added copies, over the ideal",
		caption:    caption,
		yLabel:     "replicas copied / ideal",
		labels:     algos,
		algos:      algos,
		panels:     panels,
		valueLabel: "measured",
		ref:        1,
		refLabel:   "ideal",
	})
}

// joinLimited joins up to four values with ", " and says how many more
// there are.
func joinLimited(vs []string) string {
	if len(vs) <= 4 {
		return strings.Join(vs, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(vs[:4], ", "), len(vs)-4)
}

// domainRanksFigures draws domains-ranks.csv: domainRanksFigure.
func domainRanksFigures(rows []schema.DomainRank) ([]*figure, error) {
	return one(domainRanksFigure(rows))
}

// domainRanksFigure is a dot chart of the lightest node's share at each
// replica rank over its weight share (relative, with the 95% CI), for
// each algorithm's own replicas on the flat fleet of domains-ranks.csv
// (no topology), one panel per rank, a line at 1 (its weight's share),
// and the successive-sampling theory where the file gives it. It returns
// nil when the flat rows have equal weights (every node is the lightest).
// Two rows of one algorithm for one rank and node are an error.
func domainRanksFigure(rows []schema.DomainRank) (*figure, error) {
	type key struct {
		algo string
		rank int
	}
	light := map[key]schema.DomainRank{}
	seen := map[string]bool{}
	var algos []string
	var ranks []int
	weights := map[float64]bool{}
	for _, r := range rows {
		if r.Scheme != schema.SchemePlain || r.Topology != "" || r.Rank == 0 {
			continue
		}
		id := fmt.Sprintf("%s\x00%d\x00%s", r.Algo, r.Rank, r.ID)
		if seen[id] {
			return nil, fmt.Errorf("domains-ranks: two rows give %s's node %s at rank %d", r.Algo, r.ID, r.Rank)
		}
		seen[id] = true
		weights[r.Weight] = true
		k := key{r.Algo, r.Rank}
		if l, ok := light[k]; !ok || r.Weight < l.Weight {
			light[k] = r
		}
		if !slices.Contains(algos, r.Algo) {
			algos = append(algos, r.Algo)
		}
		if !slices.Contains(ranks, r.Rank) {
			ranks = append(ranks, r.Rank)
		}
	}
	if len(weights) < 2 {
		return nil, nil
	}
	slices.SortFunc(algos, catalog.Compare)
	slices.Sort(ranks)
	panels := make([]dotPanel, len(ranks))
	var infos []schema.Run
	for i, rk := range ranks {
		panels[i].title = fmt.Sprintf("rank %d (%s)", rk, rankName(rk))
		for j, a := range algos {
			r, ok := light[key{a, rk}]
			if !ok {
				continue
			}
			s := dotSlot{slot: j, value: estimate(r.Relative, r.RelativeLo, r.RelativeHi)}
			if r.TheoryShare != nil && r.WeightShare > 0 {
				s.theory, s.hasTheory = *r.TheoryShare/r.WeightShare, true
			}
			panels[i].slots = append(panels[i].slots, s)
			infos = append(infos, schema.RunOf(r))
			if i == 0 && j == 0 {
				panels[i].title += fmt.Sprintf(": node %s of weight %s", r.ID, strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.6f", r.Weight), "0"), "."))
			}
		}
	}
	return dotFigure(dotChart{
		name:  "domains-ranks",
		title: "The lightest node's share of each replica rank, over its weight's share",
		caption: captionLines(runCaption(infos),
			"each algorithm's own replicas on a flat fleet of unequal weights; rank 1 is the primary; 1 = the node holds its weight's share of that rank",
			"theory: successive sampling (each rank drawn by weight among the nodes not yet chosen), which rendezvous's top R and straw2 follow; marker: mean over the key sets, bar: 95% CI"),
		yLabel:      "share / weight share",
		labels:      algos,
		algos:       algos,
		panels:      panels,
		valueLabel:  "measured",
		ref:         1,
		refLabel:    "its weight's share",
		theoryLabel: "successive sampling",
	})
}

// rankName names a replica rank: "primary", "second", "third", "4th".
func rankName(r int) string {
	switch r {
	case 1:
		return "primary"
	case 2:
		return "second"
	case 3:
		return "third"
	}
	return fmt.Sprintf("%dth", r)
}
