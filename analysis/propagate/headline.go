package propagate

import (
	"fmt"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
)

// HeadlineConfig is the report's headline scenario: one node joins a fleet
// of Nodes equal nodes at t = 0 and the change rolls out linearly over
// Rollout seconds to Clients clients, which together send Rate requests
// per second (reads, evenly spaced) on a universe of Keys keys, uniform
// or with Zipf popularity; the replay spans the rollout, [0, Rollout).
type HeadlineConfig struct {
	Algorithms []string
	Catalog    catalog.Config
	Nodes      int     // n before the join, >= 1
	Rollout    float64 // T, seconds
	Rate       float64 // requests per second, all clients together
	Clients    int     // C
	Keys       int     // key universe
	Zipf       float64 // Zipf exponent, 0 = uniform
	Replays    int
	Windows    int // windows over the rollout (for the timeline)
	Seed       uint64
	Workers    int
}

// DefaultHeadline returns the scenario the report quotes: every algorithm,
// the catalog defaults, 100 nodes joined by one, a 30-second linear
// rollout to 100 clients sending 10,000 requests per second together
// (100 each) on 100,000 keys read uniformly, 5 replays, 30 one-second
// windows, seed 1.
func DefaultHeadline() HeadlineConfig {
	return HeadlineConfig{Algorithms: catalog.Names(), Catalog: catalog.DefaultConfig(), Nodes: 100, Rollout: 30,
		Rate: 10000, Clients: 100, Keys: 100000, Replays: 5, Windows: 30, Seed: 1}
}

// Headline runs the headline scenario and returns its result: per
// algorithm, Totals[a].Misrouted is the number of requests that go astray
// during the rollout (simulated, with its interval) and MisroutedExpected
// the model's m * Rate * T/2 (half the rollout's requests are stale, since
// the stale share falls linearly from 1 to 0; m is the moved fraction of
// the join, measured over the same requests). It returns Run's errors and
// an error naming a bad Nodes value.
func Headline(h HeadlineConfig) (*Result, error) {
	nodes, err := algorithms.DefaultNodes(h.Nodes)
	if err != nil {
		return nil, fmt.Errorf("propagate: headline: %w", err)
	}
	if h.Nodes >= algorithms.MaxNodes {
		return nil, fmt.Errorf("propagate: headline: nodes %d: at most %d, so that one can join", h.Nodes, algorithms.MaxNodes-1)
	}
	src, err := NewGenerated(GeneratedConfig{Keys: h.Keys, Zipf: h.Zipf, Rate: h.Rate, Start: 0, End: h.Rollout,
		Clients: h.Clients, Seed: h.Seed})
	if err != nil {
		return nil, fmt.Errorf("propagate: headline: %w", err)
	}
	after := Joined(nodes, algorithms.Node{ID: algorithms.NodeID(h.Nodes), Weight: 1})
	cfg := Config{Algorithms: h.Algorithms, Catalog: h.Catalog, Nodes: nodes,
		Changes: []Change{{At: 0, Nodes: after}}, Model: Linear{Duration: h.Rollout}, Clients: h.Clients,
		Start: 0, End: h.Rollout, Windows: h.Windows, Replays: h.Replays, Seed: h.Seed, Workers: h.Workers}
	return Run(cfg, src)
}
