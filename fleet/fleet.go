// Package fleet reads a fleet profile: one TOML file that describes the
// fleet a user runs (its members with their names, weights or memory
// sizes and failure domains, the client that routes keys today, the
// replication factor), the changes they plan (joins, staged growth, named
// leaves and failures, reweights, a lost failure domain) and the traffic it
// serves (reads per second, hit ratio, working set, Zipf exponent, a key
// file or a trace). The format is documented in docs/fleet-profile.md.
//
// A profile is read once, where it enters ([Read]), and validated there:
// every error names the file, the line and the bad value. The commands
// turn it into their inputs (memberships, scenarios, key sources, the
// storm model), and the report reads it to answer for that fleet; nothing
// downstream re-validates it.
package fleet

import (
	"fmt"
	"math"
	"slices"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/topology"
)

// Profile is a validated fleet profile.
type Profile struct {
	// Path is the file the profile was read from; relative paths inside it
	// (Members, Traffic.KeyFile, Traffic.Trace) are already resolved
	// against its directory.
	Path string
	// Name is shown in the report's title ("" = none).
	Name string
	// Client is what routes keys today: a catalog dialect (a real client
	// or proxy, bit for bit) or algorithm name; "" when not given.
	Client string
	// Replicas is the replication factor R, 1..MaxReplicas.
	Replicas int
	// Placement is the placement mode of the algorithms with a random
	// layout: schema.PlacementFixed (the default when the nodes are
	// named: the layout of exactly these IDs) or schema.PlacementPerSet.
	Placement string
	// Nodes are the members today, in the profile's order. Their weights
	// are the given weights, or each node's memory over the smallest
	// memory when memory sizes are given.
	Nodes []algorithms.Node
	// Memory is each node's memory in bytes (indexed like Nodes), nil
	// when the profile gives weights instead.
	Memory []int64
	// Named is true when the node IDs are the user's (node tables, a
	// members file or a topology), false for nodes = N (node-0 ...).
	Named bool
	// Topology holds the failure domains when the profile gives levels,
	// nil otherwise.
	Topology *topology.Topology
	// Traffic is what the fleet serves.
	Traffic Traffic
	// Changes are the planned changes, in the profile's order.
	Changes []Change
}

// MaxReplicas is the largest replication factor a profile may give (the
// replication analysis's limit).
const MaxReplicas = 5

// Traffic is the load a fleet serves.
type Traffic struct {
	Reads    float64 // reads per second reaching the fleet, > 0
	HitRatio float64 // steady hit ratio, 0 <= h < 1
	// WorkingSet is the distinct keys the fleet serves (>= 1): given, or
	// Keys; with a Trace and none given 0, which stands for the trace's
	// distinct keys (counted where the trace is read: chbench fleet).
	WorkingSet int
	Zipf       float64 // Zipf exponent s of key popularity, >= 0
	// KeyFile is a file of keys, one a line ("" = none); Trace a trace of
	// requests in format TraceFormat (a trace.FormatNames name, "" =
	// detected), whose distinct keys are the keys. At most one is set.
	KeyFile, Trace, TraceFormat string
	// Keys is the keys per key set generated when neither a key file nor
	// a trace is given (>= 1).
	Keys int
	// Requests is the requests per stream of the request-load analysis.
	Requests int
}

// The traffic's defaults, those of chbench storm and load.
const (
	DefaultReads    = 50000
	DefaultHitRatio = 0.95
	DefaultZipf     = 0.99
	DefaultKeys     = 100000
	DefaultRequests = 1000000
)

// Change is one planned change. It starts from today's fleet, or from the
// fleet after the change named After. Exactly one kind of change is set:
// nodes that Join, nodes that Leave (planned) or Fail (unplanned: the
// same movement, a storm with no warning), new weights (Reweight), or the
// nodes of one failure domain failing (Domain, resolved into Fail). Step,
// when > 0, stages joins or leaves that many nodes at a time, each step
// reported apart (staged growth).
type Change struct {
	Name     string
	After    string
	Join     []algorithms.Node
	Leave    []string
	Fail     bool // Leave lists nodes that fail rather than leave by plan
	Reweight []algorithms.Node
	Step     int
	// Domain is the failure domain whose loss this is ("rack", "r3"),
	// empty otherwise; its nodes are in Leave, with Fail set.
	DomainLevel, DomainName string
	// JoinMemory is the memory in bytes of each joining node, indexed like
	// Join, nil when the profile gives weights.
	JoinMemory []int64
}

// Kind names what a change does, for sentences: "join", "staged join",
// "leave", "failure", "reweight", "domain loss".
func (c Change) Kind() string {
	switch {
	case c.DomainLevel != "":
		return "domain loss"
	case len(c.Join) > 0 && c.Step > 0:
		return "staged join"
	case len(c.Join) > 0:
		return "join"
	case c.Fail:
		return "failure"
	case len(c.Leave) > 0 && c.Step > 0:
		return "staged leave"
	case len(c.Leave) > 0:
		return "leave"
	}
	return "reweight"
}

// Before returns the membership change c starts from: today's nodes, or
// the nodes after the change it names as After (every change named
// before it in the profile, so the chain is acyclic).
func (p *Profile) Before(c Change) []algorithms.Node {
	if c.After == "" {
		return slices.Clone(p.Nodes)
	}
	for _, prev := range p.Changes {
		if prev.Name == c.After {
			return p.After(prev)
		}
	}
	return slices.Clone(p.Nodes) // not reached: Read checks After
}

// After returns the membership after change c: its joins appended, its
// leaves removed, its reweights applied.
func (p *Profile) After(c Change) []algorithms.Node {
	nodes := p.Before(c)
	gone := map[string]bool{}
	for _, id := range c.Leave {
		gone[id] = true
	}
	out := nodes[:0]
	for _, n := range nodes {
		if !gone[n.ID] {
			out = append(out, n)
		}
	}
	for _, r := range c.Reweight {
		if i := algorithms.IndexOf(out, r.ID); i >= 0 {
			out[i].Weight = r.Weight
		}
	}
	return append(out, c.Join...)
}

// MaxNodes returns the largest membership the profile reaches: today's or
// after any change.
func (p *Profile) MaxNodes() int {
	m := len(p.Nodes)
	for _, c := range p.Changes {
		m = max(m, len(p.After(c)))
	}
	return m
}

// Weighted reports whether the members today or after any change have
// weights other than one common weight.
func (p *Profile) Weighted() bool {
	all := [][]algorithms.Node{p.Nodes}
	for _, c := range p.Changes {
		all = append(all, p.After(c))
	}
	for _, ns := range all {
		if !algorithms.Uniform(ns) {
			return true
		}
	}
	return false
}

// KeyCount is the keys the profile's traffic spans: the working set, at
// least 1 (1 for a trace's uncounted distinct keys: see WorkingSet).
func (t Traffic) KeyCount() int { return max(1, t.WorkingSet) }

// weightOf turns memory sizes into weights: each over the smallest, so
// that the smallest node weighs 1 (8 GiB and 16 GiB weigh 1 and 2).
func weightOf(mem, smallest int64) float64 {
	return float64(mem) / float64(smallest)
}

// checkShare returns an error when a weight is not a usable node weight.
func checkWeight(w float64) error {
	if math.IsNaN(w) || math.IsInf(w, 0) || w <= 0 {
		return fmt.Errorf("weight %v: must be a finite number > 0", w)
	}
	return nil
}
