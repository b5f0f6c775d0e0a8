package cli

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/topology"
)

// Topology is the flag group of failure domains (replication, move,
// spread, domains): a topology file (-topology) or counts of racks and
// zones that group the run's nodes in order (-racks, -zones), and the
// failure-domain level replicas are spread over (-domain). The topology
// is read and checked once, by Spec.
type Topology struct {
	file, racks, zones, domain string
}

// Register adds -topology, -racks, -zones and -domain to fs.
func (t *Topology) Register(fs *flag.FlagSet) {
	fs.StringVar(&t.file, "topology", "", "failure domains from a TOML file: levels and every node's domains (docs/topology.md); the run's nodes must be in it")
	fs.StringVar(&t.racks, "racks", "", "failure domains by count: K racks of the nodes in order, as even as possible (10 nodes, 4: racks of 3,3,2,2), or the size of each (4,4,2: a rack with half the nodes)")
	fs.StringVar(&t.zones, "zones", "", "zones by count, of the racks with -racks, else of the nodes: K, or the size of each (2,2,2,3)")
	fs.StringVar(&t.domain, "domain", "", "the failure-domain level replicas are spread over, one per domain: a level of the topology (default the innermost: rack with -racks)")
}

// Given reports whether any flag of the group was given.
func (t *Topology) Given() bool {
	return t.file != "" || t.racks != "" || t.zones != "" || t.domain != ""
}

// Spec returns the topology the flags give for a run whose memberships
// start from those of sw (its Members, the Initial nodes of its
// Scenarios, else its Nodes counts), the zero Spec when none is given. It
// returns an error for -domain without a topology, -topology with -racks
// or -zones, a file that cannot be read or is not a valid topology
// (naming its line or node), a count that is not a whole number or list
// of them, counts that do not fit a membership of sw (more racks than
// nodes, more zones than racks or nodes, sizes that do not add up to
// them: see [Topology.fit]), and a -domain the topology has no level
// for.
func (t *Topology) Spec(sw analysis.Sweep) (topology.Spec, error) {
	if !t.Given() {
		return topology.Spec{}, nil
	}
	if t.file == "" && t.racks == "" && t.zones == "" {
		return topology.Spec{}, fmt.Errorf("-domain %q needs a topology: -topology FILE, -racks or -zones", t.domain)
	}
	if t.file != "" {
		if t.racks != "" || t.zones != "" {
			return topology.Spec{}, errors.New("-topology and -racks/-zones: give the domains in the file or by count, not both")
		}
		tp, err := topology.ReadFile(t.file)
		if err != nil {
			return topology.Spec{}, fmt.Errorf("-topology: %w", err)
		}
		return topology.NewSpec(tp, t.file, nil, t.domain)
	}
	var gs []topology.Grouping
	if t.racks != "" {
		gs = append(gs, topology.Grouping{Level: "rack", Spec: t.racks})
	}
	if t.zones != "" {
		gs = append(gs, topology.Grouping{Level: "zone", Spec: t.zones})
	}
	s, err := topology.NewSpec(nil, "", gs, t.domain)
	if err != nil {
		return topology.Spec{}, err
	}
	for _, n := range initialSizes(sw) {
		if err := t.fit(n); err != nil {
			return topology.Spec{}, err
		}
	}
	return s, nil
}

// initialSizes returns the node counts of the memberships sw starts from:
// its Members, else the Initial nodes of each of its Scenarios, else its
// Nodes.
func initialSizes(sw analysis.Sweep) []int {
	switch {
	case len(sw.Members) > 0:
		return []int{len(sw.Members)}
	case len(sw.Scenarios) > 0:
		ns := make([]int, len(sw.Scenarios))
		for i, sc := range sw.Scenarios {
			ns[i] = len(sc.Initial)
		}
		return ns
	}
	return sw.Nodes
}

// fit returns an error naming the flag, its value and both numbers
// unless -racks groups n nodes into racks and -zones groups those racks
// (without -racks, the n nodes) into zones, no domain empty: a count K
// at most the units below it, a list of sizes adding up to them.
func (t *Topology) fit(n int) error {
	units, unit := n, "nodes"
	for _, g := range []struct{ flag, spec, domains string }{{"racks", t.racks, "racks"}, {"zones", t.zones, "zones"}} {
		if g.spec == "" {
			continue
		}
		sizes, err := topology.ParseSizes(g.spec, units)
		if err != nil {
			parts := strings.Split(g.spec, ",")
			if len(parts) == 1 {
				return fmt.Errorf("-%s %s: %s %s for %d %s: at most one per %s, or a %s would be empty", g.flag, g.spec, strings.TrimSpace(g.spec), g.domains, units, unit, strings.TrimSuffix(unit, "s"), strings.TrimSuffix(g.domains, "s"))
			}
			sum := 0
			for _, p := range parts {
				v, _ := strconv.Atoi(strings.TrimSpace(p))
				sum += v
			}
			return fmt.Errorf("-%s %s: %d %s of %d %s in all, for %d %s", g.flag, g.spec, len(parts), g.domains, sum, unit, units, unit)
		}
		units, unit = len(sizes), g.domains
	}
	return nil
}
