package multiprobe

import (
	"cmp"
	"slices"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

// The replicas are the nodes ranked by their distance from the key, by the
// definition: node j's distance is the smallest clockwise distance
// Point(hash(ID_j)) - Probe(h, i) over the probes i (modulo 2^64).
func TestReplicasAreClosestNodes(t *testing.T) {
	for _, k := range []int{1, 2, 21} {
		p := mustNew(t, 12, k)
		hash := algorithms.MustHash("xxhash")
		for _, key := range placertest.Keys(2000, 13) {
			h := p.HashKey(key)
			dist := make([]uint64, 12)
			for j, nd := range p.Nodes() {
				dist[j] = ^uint64(0)
				for i := range k {
					dist[j] = min(dist[j], Point(hash.Sum(nd.ID))-Probe(h, i))
				}
			}
			idx := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
			slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(dist[a], dist[b]) })
			if got := p.Replicas(h, make([]int, 5)); !slices.Equal(got, idx[:5]) {
				t.Fatalf("k=%d key %q: replicas %v, want closest %v (distances %v)", k, key, got, idx[:5], dist)
			}
		}
	}
}

// The replica scheme keeps the Replicator contract for R = 1, 2, 3, 5 and
// one past MaxReplicas, on fleets smaller and larger than R
// (placertest.CheckReplicas).
func TestReplicasContract(t *testing.T) {
	keys := placertest.Keys(3000, 5)
	for _, n := range []int{1, 2, 3, 10} {
		for _, k := range []int{1, DefaultProbes} {
			placertest.CheckReplicas(t, mustNew(t, n, k), keys, 1, 2, 3, 5, algorithms.MaxReplicas+1)
		}
	}
}

// A node's distance from a key does not depend on the other nodes, so a
// join only adds the new node to the sets it enters and a leave only
// replaces the leaving node.
func TestReplicasStable(t *testing.T) {
	keys := placertest.Keys(10000, 9)
	nodes, err := algorithms.DefaultNodes(9)
	if err != nil {
		t.Fatal(err)
	}
	h := algorithms.MustHash("xxhash")
	before, err := New(nodes[:8], DefaultProbes, h)
	if err != nil {
		t.Fatal(err)
	}
	after, err := New(nodes, DefaultProbes, h)
	if err != nil {
		t.Fatal(err)
	}
	share := after.ExactShares()[8]
	for _, r := range []int{1, 2, 3, 5} {
		f := placertest.CheckReplicasJoin(t, before, after, keys, r, "node-8")
		if r == 1 && (f < share-0.02 || f > share+0.02) { // sd of the sampled share: 0.003
			t.Errorf("R=1: node-8 entered %.4f of the sets, its exact share is %.4f", f, share)
		}
		if f == 0 {
			t.Errorf("R=%d: node-8 entered no set", r)
		}
		if g := placertest.CheckReplicasLeave(t, after, before, keys, r, "node-8"); g != f {
			t.Errorf("R=%d: node-8 is in %.4f of the sets but entered %.4f", r, g, f)
		}
	}
}
