package cli

import (
	"errors"
	"flag"
	"fmt"

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

// Spec returns the topology the flags give, the zero Spec when none is
// given. It returns an error for -domain without a topology, -topology
// with -racks or -zones, a file that cannot be read or is not a valid
// topology (naming its line or node), a count that is not a whole number
// or list of them, and a -domain the topology has no level for.
func (t *Topology) Spec() (topology.Spec, error) {
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
	return topology.NewSpec(nil, "", gs, t.domain)
}
