package placertest

import (
	"slices"
	"testing"

	"github.com/chbench/chbench/algorithms"
)

// ReplicaPlacer is a placer with its own replica scheme.
type ReplicaPlacer interface {
	algorithms.Placer
	algorithms.Replicator
}

// CheckReplicas asserts the [algorithms.Replicator] contract for every key
// and each replication factor in rs: exactly min(R, n, MaxReplicas)
// replicas, distinct valid node indexes, the first the key's owner
// (LocateHash), and no allocation per call.
func CheckReplicas(t *testing.T, p ReplicaPlacer, keys []string, rs ...int) {
	t.Helper()
	n := len(p.Nodes())
	for _, r := range rs {
		dst := make([]int, r)
		for _, k := range keys {
			h := p.HashKey(k)
			got := p.Replicas(h, dst)
			if want := min(r, n, algorithms.MaxReplicas); len(got) != want {
				t.Fatalf("%s n=%d R=%d key %q: %d replicas %v, want %d", p.Algorithm(), n, r, k, len(got), got, want)
			}
			if len(got) > 0 && got[0] != p.LocateHash(h) {
				t.Fatalf("%s n=%d R=%d key %q: first replica %d, owner %d", p.Algorithm(), n, r, k, got[0], p.LocateHash(h))
			}
			for i, x := range got {
				if x < 0 || x >= n || slices.Contains(got[:i], x) {
					t.Fatalf("%s n=%d R=%d key %q: replicas %v are not distinct node indexes", p.Algorithm(), n, r, k, got)
				}
			}
		}
		h := p.HashKey("user:1000")
		if a := testing.AllocsPerRun(100, func() { _ = p.Replicas(h, dst) }); a != 0 {
			t.Errorf("%s R=%d: Replicas allocates %v per call", p.Algorithm(), r, a)
		}
	}
}

// ReplicaIDs returns the node IDs of key's R replicas on p, in order.
func ReplicaIDs(p ReplicaPlacer, key string, r int) []string {
	got := p.Replicas(p.HashKey(key), make([]int, r))
	ids := make([]string, len(got))
	for i, x := range got {
		ids[i] = p.Nodes()[x].ID
	}
	return ids
}

// CheckReplicasJoin asserts that a join of node joined only adds it to the
// replica sets (by node ID, R replicas) it enters: every key's set on after
// equals its set on before, or the before set minus its last member with
// joined inserted (the other members in the same order). It returns the
// fraction of keys whose set the joining node entered.
func CheckReplicasJoin(t *testing.T, before, after ReplicaPlacer, keys []string, r int, joined string) float64 {
	t.Helper()
	entered := 0
	for _, k := range keys {
		b, a := ReplicaIDs(before, k, r), ReplicaIDs(after, k, r)
		if slices.Equal(a, b) {
			continue
		}
		entered++
		rest := slices.DeleteFunc(slices.Clone(a), func(s string) bool { return s == joined })
		if len(rest) != len(a)-1 || len(a) != min(r, len(after.Nodes()), algorithms.MaxReplicas) || !slices.Equal(rest, b[:len(rest)]) {
			t.Fatalf("%s R=%d key %q: join of %q changed replicas %v to %v", before.Algorithm(), r, k, joined, b, a)
		}
	}
	return float64(entered) / float64(len(keys))
}

// CheckReplicasLeave asserts that a leave of node left changes only the
// replica sets (by node ID, R replicas) that held it: those keep their
// other members in order and gain one node at the end (when enough nodes
// remain); every other set is unchanged. It returns the fraction of keys
// whose set held the leaving node.
func CheckReplicasLeave(t *testing.T, before, after ReplicaPlacer, keys []string, r int, left string) float64 {
	t.Helper()
	held := 0
	for _, k := range keys {
		b, a := ReplicaIDs(before, k, r), ReplicaIDs(after, k, r)
		if !slices.Contains(b, left) {
			if !slices.Equal(a, b) {
				t.Fatalf("%s R=%d key %q: leave of %q changed replicas %v to %v", before.Algorithm(), r, k, left, b, a)
			}
			continue
		}
		held++
		kept := slices.DeleteFunc(slices.Clone(b), func(s string) bool { return s == left })
		if slices.Contains(a, left) || len(a) != min(r, len(after.Nodes()), algorithms.MaxReplicas) || !slices.Equal(a[:len(kept)], kept) {
			t.Fatalf("%s R=%d key %q: leave of %q changed replicas %v to %v, want %v then one more", before.Algorithm(), r, k, left, b, a, kept)
		}
	}
	return float64(held) / float64(len(keys))
}
