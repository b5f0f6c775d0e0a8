package ketama

import (
	"slices"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

// The replicas are the continuum walk by definition: from the first point
// >= the key hash (found here by a linear scan over At), the servers of the
// following points in order, first occurrences only.
func TestReplicasWalkTheContinuum(t *testing.T) {
	k := mustNew(t, []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 2}, {ID: "c", Weight: 1}, {ID: "d", Weight: 3}, {ID: "e", Weight: 1}})
	for _, key := range placertest.Keys(2000, 11) {
		h := k.HashKey(key)
		start := 0
		for start < k.Len() && uint64(k.At(start).Pos) < h {
			start++
		}
		var want []int
		for j := range k.Len() {
			if o := k.At((start + j) % k.Len()).Owner; !slices.Contains(want, o) {
				want = append(want, o)
			}
		}
		if got := k.Replicas(h, make([]int, 4)); !slices.Equal(got, want[:4]) {
			t.Fatalf("key %q: replicas %v, want %v", key, got, want[:4])
		}
	}
}

// The replica scheme keeps the Replicator contract for R = 1, 2, 3, 5 and
// one past MaxReplicas, on fleets smaller and larger than R
// (placertest.CheckReplicas).
func TestReplicasContract(t *testing.T) {
	keys := placertest.Keys(3000, 5)
	for _, n := range []int{1, 2, 3, 10} {
		placertest.CheckReplicas(t, mustNew(t, equalNodes(t, n)), keys, 1, 2, 3, 5, algorithms.MaxReplicas+1)
	}
}

// At equal weights from 8 to 9 servers every server keeps its 160 points
// (checked first), so a join only adds the new server to the sets it
// enters, and a leave only replaces the leaving server.
func TestReplicasStable(t *testing.T) {
	keys := placertest.Keys(10000, 9)
	nodes := equalNodes(t, 9)
	before := mustNew(t, nodes[:8])
	after := mustNew(t, nodes)
	if before.Len() != 8*PointsPerServer || after.Len() != 9*PointsPerServer {
		t.Fatalf("points %d and %d, want 160 per server", before.Len(), after.Len())
	}
	for _, r := range []int{1, 2, 3, 5} {
		// The new server enters about R/9 of the sets: its share of the
		// continuum is 1/9 up to about 1/sqrt(160) = 8% relative sd, so a
		// factor of 1.5 either way means the walk is wrong, not unlucky.
		f := placertest.CheckReplicasJoin(t, before, after, keys, r, "node-8")
		if want := float64(r) / 9; f < want/2 || f > want*3/2 {
			t.Errorf("R=%d: node-8 entered %.4f of the sets, want about %.4f", r, f, want)
		}
		f = placertest.CheckReplicasLeave(t, after, before, keys, r, "node-8")
		if want := float64(r) / 9; f < want/2 || f > want*3/2 {
			t.Errorf("R=%d: node-8 held %.4f of the sets, want about %.4f", r, f, want)
		}
	}
}
