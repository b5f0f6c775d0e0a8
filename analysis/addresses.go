package analysis

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/dialect"
)

// A dialect reproduces a real client or proxy, which hashes the server
// addresses of its configuration, so it places host:port node IDs only.
// When a run that includes a dialect generates its nodes (a node count,
// the joining nodes of a scenario), node i is named by the address of
// server i of the default fleet, dialect.DefaultID(i) =
// 127.0.0.1:<11211+i>, instead of node-i, for every placement of the run,
// so that all of them place the same fleet. A dialect has no random
// layout (catalog Info.RandomLayout is false), so its IDs are never
// salted per key set.

// HasDialect reports whether any of the placements names is a dialect.
func HasDialect(names []string) bool {
	for _, n := range names {
		if catalog.IsDialect(n) {
			return true
		}
	}
	return false
}

// AddressID returns the address of the node whose generated ID is id
// (node-i, algorithms.NodeID): dialect.DefaultID(i); any other ID is
// returned unchanged. It returns an error when i is past the default
// fleet's last port (dialect.MaxDefaultNodes).
func AddressID(id string) (string, error) {
	rest, ok := strings.CutPrefix(id, "node-")
	if !ok {
		return id, nil
	}
	i, err := strconv.Atoi(rest)
	if err != nil || i < 0 || strconv.Itoa(i) != rest {
		return id, nil
	}
	if i >= dialect.MaxDefaultNodes {
		return "", fmt.Errorf("node %s: the default fleet %s:%d.. has ports for %d servers; name larger fleets yourself (host:port IDs)", id, dialect.DefaultHost, dialect.DefaultPort, dialect.MaxDefaultNodes)
	}
	return dialect.DefaultID(i), nil
}

// AddressNodes returns nodes with every generated ID replaced by its
// address ([AddressID]), in the same order and with the same weights.
func AddressNodes(nodes []algorithms.Node) ([]algorithms.Node, error) {
	out := make([]algorithms.Node, len(nodes))
	for i, n := range nodes {
		id, err := AddressID(n.ID)
		if err != nil {
			return nil, err
		}
		out[i] = algorithms.Node{ID: id, Weight: n.Weight}
	}
	return out, nil
}

// AddressScenario returns sc with every generated node ID (initial,
// leaving, joining and reweighted) replaced by its address ([AddressID]).
func AddressScenario(sc Scenario) (Scenario, error) {
	out := Scenario{Op: sc.Op}
	var err error
	if out.Initial, err = AddressNodes(sc.Initial); err != nil {
		return Scenario{}, err
	}
	for _, st := range sc.Steps {
		ns := Step{Rejoin: st.Rejoin}
		if ns.Join, err = AddressNodes(st.Join); err != nil {
			return Scenario{}, err
		}
		if ns.Reweight, err = AddressNodes(st.Reweight); err != nil {
			return Scenario{}, err
		}
		for _, id := range st.Leave {
			a, err := AddressID(id)
			if err != nil {
				return Scenario{}, err
			}
			ns.Leave = append(ns.Leave, a)
		}
		out.Steps = append(out.Steps, ns)
	}
	return out, nil
}

// scenario returns NewScenarioForSet(op, n, seed, set), its nodes named
// by their addresses when s.Addresses is set.
func (s Sweep) scenario(op string, n int, seed uint64, set int) (Scenario, error) {
	sc, err := NewScenarioForSet(op, n, seed, set)
	if err != nil || !s.Addresses {
		return sc, err
	}
	return AddressScenario(sc)
}

// nodes returns n equal-weight nodes: algorithms.DefaultNodes, or the
// default fleet of server addresses when s.Addresses is set.
func (s Sweep) nodes(n int) ([]algorithms.Node, error) {
	if s.Addresses {
		return dialect.DefaultNodes(n)
	}
	return algorithms.DefaultNodes(n)
}
