package propagate

import (
	"errors"
	"fmt"
	"math"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
)

// MaxChanges bounds the membership changes of one scenario (every request
// is located under every membership, and the moved fractions between every
// pair of memberships are counted).
const MaxChanges = 31

// MaxWindows bounds the time windows a replay is counted in.
const MaxWindows = 1 << 16

// Change is one membership change: at At seconds (on the requests' clock)
// the membership becomes Nodes (the whole membership after the change:
// a join appends nodes, a leave drops them, a reweight changes weights).
// Placements are built from the previous one with Rebalance, so stateful
// algorithms move only what their rule moves.
type Change struct {
	At    float64
	Nodes []algorithms.Node
}

// Joined returns nodes followed by the joining nodes, a new slice.
func Joined(nodes []algorithms.Node, joining ...algorithms.Node) []algorithms.Node {
	out := make([]algorithms.Node, 0, len(nodes)+len(joining))
	return append(append(out, nodes...), joining...)
}

// Config is one propagation scenario (see [Run]).
type Config struct {
	Algorithms []string          // catalog names, at least one, no repeats
	Catalog    catalog.Config    // settings of the placements
	Nodes      []algorithms.Node // the membership before the first change
	Changes    []Change          // 1..MaxChanges changes, At finite and increasing
	Model      Model             // how every change reaches the clients
	Clients    int               // C, 1..MaxClients; every request's Client is < C
	// Start and End bound the replay (seconds): every request's Time lies
	// in [Start, End), counted in Windows equal windows (1..MaxWindows).
	Start, End float64
	Windows    int
	Replays    int    // independent replays (propagation draws and request streams), >= 1; intervals need >= 2
	Seed       uint64 // seed of the propagation draws
	// Cache adds the cache-aside workload (see [Run]); it keeps state per
	// distinct key and algorithm, the others only counters.
	Cache bool
	// Handoff is, for the store workload, the seconds after a change at
	// which the data has moved to the new owners (>= 0, finite).
	Handoff float64
	Workers int // goroutines; < 1 means GOMAXPROCS
}

// validate checks every field and every membership with every algorithm,
// naming the first bad value.
func (c *Config) validate() error {
	if len(c.Algorithms) == 0 {
		return errors.New("propagate: no algorithms")
	}
	seen := map[string]bool{}
	for _, a := range c.Algorithms {
		if seen[a] {
			return fmt.Errorf("propagate: algorithm %q listed twice", a)
		}
		seen[a] = true
		if _, err := catalog.Describe(a); err != nil {
			return fmt.Errorf("propagate: %w", err)
		}
	}
	if len(c.Changes) < 1 || len(c.Changes) > MaxChanges {
		return fmt.Errorf("propagate: %d changes: need 1 to %d", len(c.Changes), MaxChanges)
	}
	for i, ch := range c.Changes {
		if math.IsNaN(ch.At) || math.IsInf(ch.At, 0) {
			return fmt.Errorf("propagate: change %d at %v s: need a finite time", i, ch.At)
		}
		if i > 0 && ch.At <= c.Changes[i-1].At {
			return fmt.Errorf("propagate: change %d at %v s is not after change %d at %v s", i, ch.At, i-1, c.Changes[i-1].At)
		}
	}
	if c.Model == nil {
		return errors.New("propagate: no propagation model")
	}
	if err := c.Model.Validate(); err != nil {
		return fmt.Errorf("propagate: %w", err)
	}
	if err := checkClients(c.Clients); err != nil {
		return fmt.Errorf("propagate: %w", err)
	}
	switch {
	case math.IsNaN(c.Start) || math.IsInf(c.Start, 0) || math.IsNaN(c.End) || math.IsInf(c.End, 0) || c.End <= c.Start:
		return fmt.Errorf("propagate: span %v..%v s: need finite start < end", c.Start, c.End)
	case c.Windows < 1 || c.Windows > MaxWindows:
		return fmt.Errorf("propagate: windows %d: need 1 to %d", c.Windows, MaxWindows)
	case c.Replays < 1:
		return fmt.Errorf("propagate: replays %d: need at least 1", c.Replays)
	case !(c.Handoff >= 0) || math.IsInf(c.Handoff, 0):
		return fmt.Errorf("propagate: hand-off %v s: need a finite number of seconds >= 0", c.Handoff)
	}
	for _, a := range c.Algorithms {
		if err := catalog.Check(a, c.Nodes, c.Catalog); err != nil {
			return fmt.Errorf("propagate: first membership: %w", err)
		}
		for i, ch := range c.Changes {
			if err := catalog.Check(a, ch.Nodes, c.Catalog); err != nil {
				return fmt.Errorf("propagate: change %d: %w", i, err)
			}
		}
	}
	return nil
}

// fleet is one algorithm's placements, one per membership version, and
// the map from each version's owner indexes to server numbers shared by
// all versions (a node keeps its number across changes: owners compare by
// node ID).
type fleet struct {
	algorithm string
	label     string
	versions  []algorithms.Locator
	server    [][]int32 // server[v][owner index] = server number
}

// buildFleets builds every algorithm's placements: version 0 with
// catalog.New, each later one by Rebalance from the one before.
func buildFleets(c *Config) ([]fleet, error) {
	h, err := algorithms.LookupHash(c.Catalog.Hash)
	if err != nil {
		return nil, fmt.Errorf("propagate: %w", err)
	}
	members := [][]algorithms.Node{c.Nodes}
	for _, ch := range c.Changes {
		members = append(members, ch.Nodes)
	}
	number := map[string]int32{}
	leaves := false
	for v, nodes := range members {
		for _, n := range nodes {
			if _, ok := number[n.ID]; !ok {
				number[n.ID] = int32(len(number))
			}
		}
		if v > 0 && leftInside(members[v-1], nodes) {
			leaves = true
		}
	}
	fleets := make([]fleet, len(c.Algorithms))
	for a, name := range c.Algorithms {
		info, _ := catalog.Describe(name)
		f := fleet{algorithm: name, label: info.Label(leaves)}
		p, err := catalog.New(name, c.Nodes, c.Catalog)
		if err != nil {
			return nil, fmt.Errorf("propagate: %s: %w", name, err)
		}
		loc := algorithms.AsLocator(p, h.Bits())
		for v := range members {
			if v > 0 {
				if loc, err = loc.Rebalance(members[v]); err != nil {
					return nil, fmt.Errorf("propagate: %s: change %d: %w", name, v-1, err)
				}
			}
			f.versions = append(f.versions, loc)
			nodes := loc.Nodes()
			ids := make([]int32, len(nodes))
			for i, n := range nodes {
				ids[i] = number[n.ID]
			}
			f.server = append(f.server, ids)
		}
		fleets[a] = f
	}
	return fleets, nil
}

// leftInside reports whether a node of before that is missing from after
// is not among before's last nodes: a leave that algorithms keeping their
// nodes in order (jump and its kin) serve by their leave policy
// (catalog.Info.LeavePolicy), as the movement analysis labels it.
func leftInside(before, after []algorithms.Node) bool {
	stay := make(map[string]bool, len(after))
	for _, n := range after {
		stay[n.ID] = true
	}
	gone := 0
	for _, n := range before {
		if !stay[n.ID] {
			gone++
		}
	}
	for _, n := range before[:len(before)-gone] {
		if !stay[n.ID] {
			return true
		}
	}
	return false
}
