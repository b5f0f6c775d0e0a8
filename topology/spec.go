package topology

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
)

// Spec is how a run's nodes sit in failure domains, as a command line
// gives it: a topology read from a file (File: each node's domains by
// its ID) or counts that group whatever membership the run has, in its
// order (Groupings, innermost first: racks of nodes, then zones of racks;
// see [Split]); and the failure-domain level replicas are spread over.
// Build one with [NewSpec]; the zero value means no topology.
type Spec struct {
	File      *Topology
	Groupings []Grouping
	// Level is the failure-domain level, one of Levels().
	Level string
	// Label is how results name the topology: "file=NAME" or the
	// groupings, e.g. "rack=6 zone=3" or "zone=2,2,2,3".
	Label string
}

// NewSpec returns the spec of a topology file (nil for none) or of
// groupings (innermost first), with failure-domain level (empty: the
// innermost level). fileName labels a file. It returns an error for both a
// file and groupings, for a flat file (no level to spread replicas over),
// a grouping's spec that is not a count or a list of sizes, and for a
// level the topology does not have, naming it and the levels.
func NewSpec(file *Topology, fileName string, groupings []Grouping, level string) (Spec, error) {
	s := Spec{File: file, Groupings: groupings}
	switch {
	case file != nil && len(groupings) > 0:
		return Spec{}, errors.New("topology: give a topology file or counts of domains (racks, zones), not both")
	case file != nil:
		s.Label = "file=" + fileName
	case len(groupings) == 0:
		return Spec{}, errors.New("topology: no file and no counts of domains")
	default:
		parts := make([]string, len(groupings))
		for i, g := range groupings {
			if err := checkLevels([]string{g.Level}); err != nil {
				return Spec{}, err
			}
			if err := checkSpec(g.Spec); err != nil {
				return Spec{}, fmt.Errorf("topology: %s %w", g.Level, err)
			}
			parts[i] = g.Level + "=" + strings.ReplaceAll(g.Spec, " ", "")
		}
		s.Label = strings.Join(parts, " ")
	}
	levels := s.Levels()
	if len(levels) == 0 {
		return Spec{}, fmt.Errorf("topology %s is flat: it has no failure-domain level to spread replicas over", fileName)
	}
	if err := checkLevels(levels); err != nil {
		return Spec{}, err
	}
	if level == "" {
		level = levels[len(levels)-1]
	}
	if !slices.Contains(levels, level) {
		return Spec{}, fmt.Errorf("topology %s: no level %q (levels: %s)", s.Label, level, strings.Join(levels, ", "))
	}
	s.Level = level
	return s, nil
}

// IsZero reports whether s holds no topology.
func (s Spec) IsZero() bool { return s.File == nil && len(s.Groupings) == 0 }

// Levels returns the spec's levels, outermost first.
func (s Spec) Levels() []string {
	if s.File != nil {
		return s.File.Levels()
	}
	out := make([]string, len(s.Groupings))
	for k, g := range s.Groupings {
		out[len(s.Groupings)-1-k] = g.Level
	}
	return out
}

// For returns the topology of nodes (in their order, with their weights):
// each node in the domains File gives its ID ([Topology.Place]), or the
// nodes grouped by Groupings ([Split]). It returns an error naming a node
// the file does not place or a grouping that does not fit the nodes.
func (s Spec) For(nodes []algorithms.Node) (*Topology, error) {
	if s.File != nil {
		t, err := s.File.Place(nodes)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Label, err)
		}
		return t, nil
	}
	if len(s.Groupings) == 0 {
		return nil, errors.New("topology: none given")
	}
	return Split(nodes, s.Groupings)
}

// Union returns the topology of the initial nodes followed by the
// joining ones (a node listed twice, or joining with an initial node's
// ID, counts once): the domains every node of a membership change sits
// in, before and after. A file places every node by ID. Counts group the
// initial membership ([Spec.For]) and put each joining node, in order, in
// the innermost domain that has the fewest nodes at that point (the first
// of equals), as an operator grows the smallest rack. The errors are
// those of [Spec.For].
func (s Spec) Union(initial, joining []algorithms.Node) (*Topology, error) {
	seen := make(map[string]bool, len(initial)+len(joining))
	var all, joins []algorithms.Node
	for _, n := range initial {
		if !seen[n.ID] {
			seen[n.ID] = true
			all = append(all, n)
		}
	}
	for _, n := range joining {
		if !seen[n.ID] {
			seen[n.ID] = true
			all = append(all, n)
			joins = append(joins, n)
		}
	}
	if s.File != nil || len(joins) == 0 {
		return s.For(all)
	}
	t, err := s.For(all[:len(all)-len(joins)])
	if err != nil {
		return nil, err
	}
	members := t.Members()
	inner := len(t.levels) - 1
	size := make([]int, len(t.names[inner]))
	for _, d := range t.domainOf[inner] {
		size[d]++
	}
	for _, n := range joins {
		d := 0
		for i, c := range size {
			if c < size[d] {
				d = i
			}
		}
		size[d]++
		// A member of domain d gives the path of names to copy.
		for _, m := range members {
			if m.Domains[inner] == t.names[inner][d] {
				members = append(members, Member{Node: n, Domains: slices.Clone(m.Domains)})
				break
			}
		}
	}
	return New(t.levels, members)
}
