package catalog

import (
	"github.com/chbench/chbench/algorithms/crush"
	"github.com/chbench/chbench/algorithms/rendezvous"
	"github.com/chbench/chbench/algorithms/ring"
	"github.com/chbench/chbench/algorithms/slots"
)

// domainSchemes is Info.Domains of each algorithm with a scheme of its
// own (algorithms/domainaware applies them); every other algorithm
// spreads replicas over domains by salted probes.
var domainSchemes = map[string]string{
	ring.Name:       "walk clockwise skipping nodes of a used domain (Cassandra NetworkTopologyStrategy)",
	rendezvous.Name: "top R scores over distinct domains",
	slots.Name:      "following slots' owners, other domains first (Redis Cluster anti-affinity)",
	crush.Name:      "rule chooseleaf firstn over the failure-domain type (one replica per domain)",
}

// saltedDomains is Info.Domains of the algorithms without a scheme.
const saltedDomains = "salted probes skipping nodes of a used domain"

func init() {
	for _, list := range [][]Info{infos, staged} {
		for i := range list {
			list[i].Domains = domainSchemes[list[i].Name]
			if list[i].Domains == "" {
				list[i].Domains = saltedDomains
			}
		}
	}
}
