package analysis

import (
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/dialect"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/schema"
)

// Generated IDs node-i become the default fleet's addresses; any other
// ID, including look-alikes that algorithms.NodeID never writes, stays.
func TestAddressID(t *testing.T) {
	for id, want := range map[string]string{
		"node-0": "127.0.0.1:11211", "node-9": "127.0.0.1:11220", "node-54324": "127.0.0.1:65535",
		"node-01": "node-01", "node--1": "node--1", "node-": "node-", "cache-a": "cache-a", "10.0.0.1:11211": "10.0.0.1:11211",
	} {
		if got, err := AddressID(id); err != nil || got != want {
			t.Errorf("AddressID(%q) = %q, %v; want %q", id, got, err, want)
		}
	}
	if _, err := AddressID("node-54325"); err == nil || !strings.Contains(err.Error(), "node-54325") {
		t.Errorf("AddressID past the last port: error %v, want one naming the node", err)
	}
}

// A scenario's every reference to a generated node (initial, leave,
// join, reweight) is renamed alike, so the renamed scenario is the same
// history: equal memberships up to the names.
func TestAddressScenario(t *testing.T) {
	for _, op := range schema.Ops() {
		sc, err := NewScenario(op, 6, 3)
		if err != nil {
			t.Fatal(err)
		}
		a, err := AddressScenario(sc)
		if err != nil {
			t.Fatal(err)
		}
		before, err := sc.Memberships()
		if err != nil {
			t.Fatal(err)
		}
		after, err := a.Memberships()
		if err != nil {
			t.Fatalf("%s: renamed scenario: %v", op, err)
		}
		for m := range before {
			for i, n := range before[m] {
				id, _ := AddressID(n.ID)
				if after[m][i] != (algorithms.Node{ID: id, Weight: n.Weight}) {
					t.Fatalf("%s: membership %d node %d = %v, want %s", op, m, i, after[m][i], id)
				}
			}
		}
	}
}

// With Addresses a sweep's generated fleet is the default fleet, which a
// dialect accepts; without, a dialect refuses node-i, naming it.
func TestSweepAddresses(t *testing.T) {
	g, err := keyset.NewGenerator(1000, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Algo: "python-memcached", Config: catalog.DefaultConfig(), Keys: g, Seed: 1}
	sw := Sweep{Algos: []string{"python-memcached"}, Nodes: []int{3}}
	if _, err := SweepSpread(o, sw); err == nil || !strings.Contains(err.Error(), "node-0") {
		t.Errorf("dialect on node-i: error %v, want one naming node-0", err)
	}
	sw.Addresses = true
	rows, err := SweepSpread(o, sw)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := dialect.DefaultNodes(3)
	var ids []string
	for _, s := range rows[0].Shares {
		ids = append(ids, s.ID)
	}
	if !slices.Equal(ids, []string{want[0].ID, want[1].ID, want[2].ID}) {
		t.Errorf("spread's nodes %v, want the default fleet", ids)
	}
	sw.Nodes, sw.Ops = []int{4}, []string{schema.OpRemoveRandom}
	if _, _, err := SweepMove(o, sw); err != nil {
		t.Errorf("move of a dialect on the default fleet: %v", err)
	}
}
