// Package topology is chbench's input type for failure domains: a fleet's
// nodes (ID and weight, as [algorithms.Node]) placed in a hierarchy of
// named levels, such as region > zone > rack > host, of any depth. A
// [Topology] is built once where it enters, from a TOML file ([Read],
// [File]; the format is docs/topology.md) or from simple counts
// ([Split]: "4" racks, or racks of "2,2,2,3" nodes), validated there, and
// then passed down as an immutable value: placements take the domain of
// each node at one level ([Topology.DomainsOf]), measures ask which
// domain a replica is in and which nodes a domain loss takes away
// ([Topology.WithoutDomain]).
//
// Domains are named per level: the name of a rack is unique among racks,
// and a domain has exactly one parent (a rack lies in one zone). Domain
// indexes at a level follow the order in which the nodes first name them,
// so every index, list and result is the same on every run.
package topology

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/chbench/chbench/algorithms"
)

// MaxLevels bounds the depth of a hierarchy. Real fleets use up to four
// (region, zone, rack, host); the bound keeps a malformed file from
// building thousands of empty levels.
const MaxLevels = 16

// Member is one node of a topology with its failure domains: Domains[l]
// names its domain at level l, outermost first, as [Topology.Levels].
type Member struct {
	Node    algorithms.Node
	Domains []string
}

// Topology is an immutable set of nodes in a hierarchy of failure domains.
// It is safe for concurrent use. The zero value is not usable; build one
// with [New], [Flat], [Split] or [Read].
type Topology struct {
	levels []string
	nodes  []algorithms.Node
	// names[l] lists the domains at level l in order of first appearance;
	// domainOf[l][i] is node i's domain index at level l; parent[l][d] is
	// the index at level l-1 of domain d's parent (-1 at level 0).
	names    [][]string
	domainOf [][]int32
	parent   [][]int32
}

// New returns the topology of members in the hierarchy levels (outermost
// first, e.g. "zone", "rack", "host"; none for a flat fleet). It returns an
// error naming the bad value when: a level name is empty, repeated, or has
// a control character or a space; there are more than MaxLevels levels;
// the nodes fail [algorithms.ValidateNodes]; a member names a different
// number of domains than there are levels, or an empty domain name, or
// one with a control character; or a domain has two parents (a rack named
// in two zones).
func New(levels []string, members []Member) (*Topology, error) {
	if err := checkLevels(levels); err != nil {
		return nil, err
	}
	nodes := make([]algorithms.Node, len(members))
	for i, m := range members {
		nodes[i] = m.Node
	}
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("topology: %w", err)
	}
	t := &Topology{
		levels:   slices.Clone(levels),
		nodes:    nodes,
		names:    make([][]string, len(levels)),
		domainOf: make([][]int32, len(levels)),
		parent:   make([][]int32, len(levels)),
	}
	index := make([]map[string]int32, len(levels))
	// firstNode[l][d] is the node that first named domain d, for the
	// two-parents error.
	firstNode := make([][]string, len(levels))
	for l := range levels {
		index[l] = map[string]int32{}
		t.domainOf[l] = make([]int32, len(members))
	}
	for i, m := range members {
		if len(m.Domains) != len(levels) {
			return nil, fmt.Errorf("topology: node %q names %d domains %q for the %d levels %q", m.Node.ID, len(m.Domains), m.Domains, len(levels), levels)
		}
		up := int32(-1)
		for l, name := range m.Domains {
			if err := checkName(name); err != nil {
				return nil, fmt.Errorf("topology: node %q: %s: %w", m.Node.ID, levels[l], err)
			}
			d, seen := index[l][name]
			if !seen {
				d = int32(len(t.names[l]))
				index[l][name] = d
				t.names[l] = append(t.names[l], name)
				t.parent[l] = append(t.parent[l], up)
				firstNode[l] = append(firstNode[l], m.Node.ID)
			} else if t.parent[l][d] != up {
				return nil, fmt.Errorf("topology: %s %q is in %s %q (node %q) and in %s %q (node %q): a domain has one parent",
					levels[l], name, levels[l-1], t.names[l-1][t.parent[l][d]], firstNode[l][d], levels[l-1], t.names[l-1][up], m.Node.ID)
			}
			t.domainOf[l][i] = d
			up = d
		}
	}
	return t, nil
}

// Flat returns the topology of nodes without failure domains (no levels):
// every node is its own failure domain.
func Flat(nodes []algorithms.Node) (*Topology, error) {
	members := make([]Member, len(nodes))
	for i, n := range nodes {
		members[i] = Member{Node: n}
	}
	return New(nil, members)
}

func checkLevels(levels []string) error {
	if len(levels) > MaxLevels {
		return fmt.Errorf("topology: %d levels %q: at most %d", len(levels), levels, MaxLevels)
	}
	for i, l := range levels {
		if l == "" {
			return fmt.Errorf("topology: level %d has an empty name", i)
		}
		if strings.ContainsFunc(l, func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) }) {
			return fmt.Errorf("topology: level name %q has a space or control character", l)
		}
		if j := slices.Index(levels[:i], l); j >= 0 {
			return fmt.Errorf("topology: level %q appears twice (positions %d and %d)", l, j, i)
		}
	}
	return nil
}

func checkName(name string) error {
	if name == "" {
		return fmt.Errorf("empty domain name")
	}
	if strings.ContainsFunc(name, unicode.IsControl) {
		return fmt.Errorf("domain name %q contains a control character", name)
	}
	return nil
}

// Levels returns the level names, outermost first. Callers must not
// modify the returned slice.
func (t *Topology) Levels() []string { return t.levels }

// Nodes returns the nodes in the order the topology was built with.
// Callers must not modify the returned slice.
func (t *Topology) Nodes() []algorithms.Node { return t.nodes }

// Level returns the index of the named level, or an error naming it and
// the known levels.
func (t *Topology) Level(name string) (int, error) {
	if l := slices.Index(t.levels, name); l >= 0 {
		return l, nil
	}
	if len(t.levels) == 0 {
		return 0, fmt.Errorf("topology: no level %q: the topology is flat (no failure domains)", name)
	}
	return 0, fmt.Errorf("topology: no level %q (levels: %s)", name, strings.Join(t.levels, ", "))
}

// Domains returns the names of the domains at level l (0 <= l <
// len(Levels())), in order of first appearance. Callers must not modify
// the returned slice.
func (t *Topology) Domains(l int) []string { return t.names[l] }

// DomainOf returns, for each node i of Nodes(), the index of its domain at
// level l. Callers must not modify the returned slice.
func (t *Topology) DomainOf(l int) []int32 { return t.domainOf[l] }

// Parent returns the index at level l-1 of the parent of domain d at level
// l, or -1 when l is 0.
func (t *Topology) Parent(l, d int) int { return int(t.parent[l][d]) }

// Members returns the nodes with their domain names, a fresh copy that
// the caller may modify and pass to [New].
func (t *Topology) Members() []Member {
	out := make([]Member, len(t.nodes))
	for i, n := range t.nodes {
		ds := make([]string, len(t.levels))
		for l := range t.levels {
			ds[l] = t.names[l][t.domainOf[l][i]]
		}
		out[i] = Member{Node: n, Domains: ds}
	}
	return out
}

// DomainsOf returns the domain index at level l of each of nodes, matched
// by ID: out[i] is the domain of nodes[i]. A placement passes its own
// Nodes(), whose order may differ from the topology's (jump's bucket
// order). It returns an error naming a node that is not in the topology.
func (t *Topology) DomainsOf(l int, nodes []algorithms.Node) ([]int32, error) {
	at := make(map[string]int, len(t.nodes))
	for i, n := range t.nodes {
		at[n.ID] = i
	}
	out := make([]int32, len(nodes))
	for i, n := range nodes {
		j, ok := at[n.ID]
		if !ok {
			return nil, fmt.Errorf("topology: node %q is not in the topology", n.ID)
		}
		out[i] = t.domainOf[l][j]
	}
	return out, nil
}

// DomainWeights returns the total node weight of each domain at level l.
func (t *Topology) DomainWeights(l int) []float64 {
	w := make([]float64, len(t.names[l]))
	for i, n := range t.nodes {
		w[t.domainOf[l][i]] += n.Weight
	}
	return w
}

// Restrict returns the topology of the nodes whose IDs are in ids, with
// their domains and weights unchanged and in the topology's order. It
// returns an error naming an ID that is not a member, or
// [algorithms.ErrNoNodes] when ids is empty.
func (t *Topology) Restrict(ids []string) (*Topology, error) {
	keep := make(map[string]bool, len(ids))
	for _, id := range ids {
		keep[id] = true
	}
	var members []Member
	for _, m := range t.Members() {
		if keep[m.Node.ID] {
			members = append(members, m)
			delete(keep, m.Node.ID)
		}
	}
	for _, id := range ids {
		if keep[id] {
			return nil, fmt.Errorf("topology: node %q is not a member", id)
		}
	}
	if len(members) == 0 {
		return nil, algorithms.ErrNoNodes
	}
	return New(t.levels, members)
}

// WithoutDomain returns the topology after every node of the named domain
// at the named level fails, and the IDs of those nodes in topology order.
// It returns an error naming an unknown level or domain, or when no node
// would remain.
func (t *Topology) WithoutDomain(level, domain string) (*Topology, []string, error) {
	l, err := t.Level(level)
	if err != nil {
		return nil, nil, err
	}
	d := slices.Index(t.names[l], domain)
	if d < 0 {
		return nil, nil, fmt.Errorf("topology: no %s %q (%ss: %s)", level, domain, level, strings.Join(t.names[l], ", "))
	}
	var keep, gone []string
	for i, n := range t.nodes {
		if int(t.domainOf[l][i]) == d {
			gone = append(gone, n.ID)
		} else {
			keep = append(keep, n.ID)
		}
	}
	if len(keep) == 0 {
		return nil, nil, fmt.Errorf("topology: %s %q holds every node: nothing would remain", level, domain)
	}
	next, err := t.Restrict(keep)
	return next, gone, err
}

// With returns the topology after members join (appended after the
// current nodes), with the errors of [New].
func (t *Topology) With(members ...Member) (*Topology, error) {
	return New(t.levels, append(t.Members(), members...))
}

// Place returns the topology of exactly nodes, in their order and with
// their weights, each in the domains t gives the node of the same ID: a
// membership (before or after a change, one reweighted) placed in a
// topology that may hold more nodes, such as the union of every
// membership of a scenario. It returns an error naming a node that t
// does not place, and the errors of [New] (an invalid membership).
func (t *Topology) Place(nodes []algorithms.Node) (*Topology, error) {
	at := make(map[string]int, len(t.nodes))
	for i, n := range t.nodes {
		at[n.ID] = i
	}
	members := make([]Member, len(nodes))
	for i, n := range nodes {
		j, ok := at[n.ID]
		if !ok {
			return nil, fmt.Errorf("topology: node %q is not in the topology, so it has no failure domain", n.ID)
		}
		ds := make([]string, len(t.levels))
		for l := range t.levels {
			ds[l] = t.names[l][t.domainOf[l][j]]
		}
		members[i] = Member{Node: n, Domains: ds}
	}
	return New(t.levels, members)
}
