package catalog

import (
	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/crush"
)

// staged are algorithms registered here but not yet listed by [Names]:
// [Describe], [New], [Check], [Estimate] and [ParseNames] know them by
// name, so every analysis runs them when asked (-algo crush), while
// "all", the README's generated table, the committed results and the
// golden outputs keep the listed set until they are regenerated with
// them. Moving an entry into infos lists it.
var staged = []Info{
	// crush: Ceph's CRUSH with straw2 buckets, without a topology one host
	// per node under one root (crushtool --build ... host straw2 1 root
	// straw2 0). straw2 changes only the draws of the item whose weight
	// changed, so in this flat map a join takes keys only for the new
	// host and a leave moves only the leaver's keys, at any weights.
	// Device and bucket ids follow the node order and are kept by
	// Rebalance (as Ceph keeps OSD ids): Ordered and Stateful.
	{Name: crush.Name, Family: "classic", Lookup: "O(n) flat (one straw2 draw per item on the path)", Memory: "~240 B per node (flat map, ids, domains)",
		Removal: "any; only its keys move (1/n); in a hierarchy its bucket's share leaves it", Weights: "16.16 fixed point, straw2 ln(u)/w",
		Source: "Weil et al. SC 2006; Ceph src/crush/mapper.c v16.2", UsesHash: true, Weighted: true, Ordered: true, Stateful: true,
		JoinMinimal: true, LeaveMinimal: true,
		build: func(n []algorithms.Node, _ Config, h algorithms.Hash) (algorithms.Placer, error) {
			return placer(crush.New(n, h))
		},
		cost: func(n []algorithms.Node, _ Config) (Cost, error) {
			return perNode(len(n), crushNodeBytes, "the topology, map, bucket and device ids, and validation"), nil
		}},
}

// crushNodeBytes: per node the flat topology (member, domain name maps,
// indexes), a one-item host bucket, the root's item, the id maps of the
// layout and two validations (measured by TestCostBoundsAllocation).
const crushNodeBytes = 1536

// Staged returns the names of the registered algorithms that [Names]
// does not list yet, in a fixed order.
func Staged() []string {
	names := make([]string, len(staged))
	for i, in := range staged {
		names[i] = in.Name
	}
	return names
}
