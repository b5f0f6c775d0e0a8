package analysis

import (
	"fmt"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis/domains"
	"github.com/chbench/chbench/schema"
	"github.com/chbench/chbench/topology"
)

// This file places a run's nodes in failure domains (Options.Domains):
// the topology of a scenario's nodes, and the placements built in it.

// inTopology reports whether the topology of o changes what a measure of
// o.Algo sees: the replicas always (replicas true), the owners only for an
// algorithm whose map is the hierarchy (catalog Info.TopologyMap). A
// placement the caller opened (Options.Opened) is never built in a
// topology: checkTopology refuses one with its replicas in a topology.
func (o Options) inTopology(replicas bool) bool {
	if o.Domains.IsZero() {
		return false
	}
	if _, ok := o.opened(); ok {
		return false
	}
	if replicas {
		return true
	}
	in, _ := catalog.Describe(o.Algo)
	return in.TopologyMap()
}

// recordTopology sets the topology and failure domain of rc when the
// topology of o changed the result (inTopology).
func (o Options) recordTopology(rc *schema.Config, replicas bool) {
	if o.inTopology(replicas) {
		rc.Topology, rc.Domain = o.Domains.Label, o.Domains.Level
	}
}

// scenarioTopology returns the topology of every node of sc, before and
// after each step (topology.Spec.Union: joining nodes go to the smallest
// innermost domain, or where the file puts them). The node IDs of a
// random layout (LayoutID) are placed where the file places their layout-0
// IDs.
func scenarioTopology(spec topology.Spec, sc Scenario) (*topology.Topology, error) {
	var joins []algorithms.Node
	for _, st := range sc.Steps {
		joins = append(joins, st.Join...)
	}
	t, err := spec.Union(sc.Initial, joins)
	if err == nil || spec.File == nil {
		return t, err
	}
	all := append(append([]algorithms.Node(nil), sc.Initial...), joins...)
	base := make([]algorithms.Node, len(all))
	renamed := false
	for i, n := range all {
		base[i] = n
		if b, ok := layoutBase(n.ID); ok {
			base[i].ID, renamed = b, true
		}
	}
	if !renamed {
		return nil, err
	}
	bt, berr := spec.Union(base, nil)
	if berr != nil {
		return nil, err
	}
	ms := bt.Members()
	byBase := make(map[string]algorithms.Node, len(all))
	for i, n := range all {
		byBase[base[i].ID] = n
	}
	for i := range ms {
		ms[i].Node = byBase[ms[i].Node.ID]
	}
	return topology.New(bt.Levels(), ms)
}

// layoutBase returns the layout-0 ID of a random layout's node ID
// ("r3/node-1" -> "node-1") and true, or false for an ID LayoutID did not
// salt.
func layoutBase(id string) (string, bool) {
	rest, ok := strings.CutPrefix(id, "r")
	if !ok {
		return "", false
	}
	num, base, ok := strings.Cut(rest, "/")
	if !ok || num == "" || strings.Trim(num, "0123456789") != "" {
		return "", false
	}
	return base, true
}

// firstLocator builds the first placement of a chain through sc (whose
// first membership is m) for o.Algo with cfg: catalog.NewLocator, or,
// where the topology of o changes the measure (inTopology), the placement
// in the topology of sc's nodes (catalog.NewInTopology), kept inside it
// by domains.Within so that every later membership of sc takes its
// domains from it.
func (o Options) firstLocator(sc Scenario, m []algorithms.Node, cfg catalog.Config, replicas bool) (algorithms.Locator, error) {
	if !o.inTopology(replicas) {
		return o.newLocator(m, cfg)
	}
	union, err := scenarioTopology(o.Domains, sc)
	if err != nil {
		return nil, err
	}
	t, err := union.Place(m)
	if err != nil {
		return nil, err
	}
	loc, err := catalog.NewInTopology(o.Algo, t, o.Domains.Level, cfg)
	if err != nil {
		return nil, err
	}
	return domains.Within(loc, union)
}

// checkTopology returns the error building sc's topology would meet
// (a count of domains that does not fit, a node the file lacks), before
// any key is streamed; nil without a topology that changes the measure.
// An opened placement's replicas cannot be spread over domains (its
// replicas are the program's own): an error names it.
func (o Options) checkTopology(sc Scenario, replicas bool) error {
	if _, ok := o.opened(); ok && replicas && !o.Domains.IsZero() {
		return fmt.Errorf("analysis: %s is an external placement: its replicas are its own, so -topology, -racks and -zones cannot spread them over failure domains", o.Algo)
	}
	if !o.inTopology(replicas) {
		return nil
	}
	_, err := scenarioTopology(o.Domains, sc)
	return err
}
