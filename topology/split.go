package topology

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms"
)

// Grouping is one level of a topology built from counts by [Split]: Level
// names it ("rack", "zone") and Spec says how the units of the level below
// (the nodes for the innermost grouping, else the domains of the grouping
// before) are grouped into its domains:
//
//   - "K", one whole number: K domains of sizes as even as possible, the
//     first ones one larger (10 nodes in "4" racks: 3, 3, 2, 2);
//   - "s1,s2,...": as many domains as sizes, of s1, s2, ... units in order
//     ("2,2,2,3": 9 nodes in four zones, the last with three), for uneven
//     domains; the sizes must add up to the number of units.
type Grouping struct {
	Level string
	Spec  string
}

// checkSpec returns an error naming spec unless it is a whole number >= 1
// or a comma-separated list of them (the form of a [Grouping]'s spec,
// before it meets a number of units).
func checkSpec(spec string) error {
	for _, p := range strings.Split(spec, ",") {
		if v, err := strconv.Atoi(strings.TrimSpace(p)); err != nil || v < 1 {
			return fmt.Errorf("%q: entry %q is not a whole number >= 1", spec, p)
		}
	}
	return nil
}

// ParseSizes returns the domain sizes a Grouping's spec gives for units
// units (see [Grouping]). It returns an error naming the spec when it is not
// a whole number >= 1 or a list of them, when K exceeds units (an empty
// domain), or when the listed sizes do not add up to units.
func ParseSizes(spec string, units int) ([]int, error) {
	if err := checkSpec(spec); err != nil {
		return nil, err
	}
	parts := strings.Split(spec, ",")
	vals := make([]int, len(parts))
	for i, p := range parts {
		vals[i], _ = strconv.Atoi(strings.TrimSpace(p))
	}
	if len(vals) == 1 {
		k := vals[0]
		if k > units {
			return nil, fmt.Errorf("%q: %d domains for %d units would leave %d empty", spec, k, units, k-units)
		}
		sizes := make([]int, k)
		for i := range sizes {
			sizes[i] = units / k
			if i < units%k {
				sizes[i]++
			}
		}
		return sizes, nil
	}
	sum := 0
	for _, v := range vals {
		sum += v
	}
	if sum != units {
		return nil, fmt.Errorf("%q: the sizes add up to %d, but there are %d units to group", spec, sum, units)
	}
	return vals, nil
}

// Split returns the topology of nodes grouped level by level, innermost
// grouping first (racks of nodes, then zones of racks): groupings[0]
// groups the nodes in their order into contiguous domains, each later
// grouping groups the domains of the one before. Domain j of a level is
// named "<level>-<j>" ("rack-0", "rack-1", ...). The topology's levels are
// the groupings outermost first. Errors name the grouping and its spec
// (see [ParseSizes]) or come from [New].
//
// For example 9 nodes with {"zone", "2,2,2,3"} reproduce the uneven zone
// split of a 9-node cluster over 4 zones; 12 nodes with {"rack", "6"},
// {"zone", "3"} put 2 nodes in each rack and 2 racks in each zone.
func Split(nodes []algorithms.Node, groupings []Grouping) (*Topology, error) {
	if len(groupings) > MaxLevels {
		return nil, fmt.Errorf("topology: %d groupings: at most %d levels", len(groupings), MaxLevels)
	}
	// unit[i] is the index of node i's domain at the grouping being built;
	// before the first grouping the units are the nodes themselves.
	unit := make([]int, len(nodes))
	for i := range unit {
		unit[i] = i
	}
	units := len(nodes)
	path := make([][]string, len(nodes))
	for _, g := range groupings {
		if err := checkLevels([]string{g.Level}); err != nil {
			return nil, err
		}
		sizes, err := ParseSizes(g.Spec, units)
		if err != nil {
			return nil, fmt.Errorf("topology: %s %w", g.Level, err)
		}
		of := make([]int, units) // domain of each unit
		u := 0
		for d, s := range sizes {
			for range s {
				of[u] = d
				u++
			}
		}
		for i := range nodes {
			unit[i] = of[unit[i]]
			path[i] = append(path[i], g.Level+"-"+strconv.Itoa(unit[i]))
		}
		units = len(sizes)
	}
	levels := make([]string, len(groupings))
	for k, g := range groupings {
		levels[len(groupings)-1-k] = g.Level
	}
	members := make([]Member, len(nodes))
	for i, n := range nodes {
		ds := make([]string, len(groupings))
		for k := range groupings {
			ds[len(groupings)-1-k] = path[i][k]
		}
		members[i] = Member{Node: n, Domains: ds}
	}
	return New(levels, members)
}
