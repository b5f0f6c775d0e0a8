package analysis

import (
	"fmt"
	"strconv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

// placementMode returns the resolved mode of o ("" is fixed) or an error
// naming an unknown one.
func (o Options) placementMode() (string, error) {
	switch o.Placement {
	case "", schema.PlacementFixed:
		return schema.PlacementFixed, nil
	case schema.PlacementPerSet:
		return schema.PlacementPerSet, nil
	}
	return "", fmt.Errorf("placement %q: want %s or %s", o.Placement, schema.PlacementPerSet, schema.PlacementFixed)
}

// LayoutID returns the node ID that layout r gives the node called id:
// id itself for r = 0, "r<r>/"+id for r >= 1. Salting the ID moves every
// virtual node of a ring to an independent position (the hash of a
// different label) while keeping the node, its weight and its place in
// the membership list, as the reference replicas do (see ReplicaSeed).
func LayoutID(id string, r int) string {
	if r == 0 {
		return id
	}
	return "r" + strconv.Itoa(r) + "/" + id
}

// LayoutNodes returns nodes with every ID replaced by LayoutID(ID, r), in
// the same order and with the same weights (nodes itself for r = 0).
func LayoutNodes(nodes []algorithms.Node, r int) []algorithms.Node {
	if r == 0 {
		return nodes
	}
	out := make([]algorithms.Node, len(nodes))
	for i, n := range nodes {
		out[i] = algorithms.Node{ID: LayoutID(n.ID, r), Weight: n.Weight}
	}
	return out
}

// layoutScenario returns sc with every node ID (initial, leaving, joining
// and reweighted) replaced by LayoutID(ID, r).
func layoutScenario(sc Scenario, r int) Scenario {
	if r == 0 {
		return sc
	}
	out := Scenario{Op: sc.Op, Initial: LayoutNodes(sc.Initial, r)}
	for _, st := range sc.Steps {
		ns := Step{Join: LayoutNodes(st.Join, r), Reweight: LayoutNodes(st.Reweight, r), Rejoin: st.Rejoin}
		for _, id := range st.Leave {
			ns.Leave = append(ns.Leave, LayoutID(id, r))
		}
		out.Steps = append(out.Steps, ns)
	}
	return out
}

// layouts returns how many distinct layouts a run of o over sets key sets
// builds: sets in per-set mode for an algorithm with a random layout, else
// 1 (layout r then serves set r; a single layout serves every set).
func (o Options) layouts(sets int) (int, error) {
	mode, err := o.placementMode()
	if err != nil {
		return 0, err
	}
	in, err := o.info()
	if err != nil {
		return 0, err
	}
	if mode == schema.PlacementPerSet && in.RandomLayout {
		return sets, nil
	}
	return 1, nil
}

// forSet returns the element of per (one per layout, or a single one shared
// by every set) that serves key set s.
func forSet[T any](per []T, s int) T {
	if len(per) == 1 {
		return per[0]
	}
	return per[s]
}

// usedPartitions returns the partitions a result of algo records: p for
// algorithms that place partitions (catalog Info.UsesPartitions), 0 for
// the others, so that results of one algorithm at different node counts
// do not differ in a setting it never reads (automatic partitions grow
// with n).
func usedPartitions(algo string, p int) int {
	if in, _ := catalog.Describe(algo); in.UsesPartitions {
		return p
	}
	return 0
}
