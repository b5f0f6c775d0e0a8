package goredis

import (
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect/dialecttest"
	"github.com/chbench/chbench/algorithms/placertest"
)

func shards() []algorithms.Node {
	nodes := make([]algorithms.Node, 5)
	for i, n := range []string{"shard-a", "shard-b", "shard-c", "shard-d", "shard-e"} {
		nodes[i] = algorithms.Node{ID: n, Weight: 1}
	}
	return nodes
}

// The vectors were recorded from the real module (peers.TestDialectVectors
// re-checks them against it).
func TestVectors(t *testing.T) {
	dialecttest.Check(t, "testdata/vectors.tsv", 30, map[string]func([]algorithms.Node) (algorithms.Placer, error){Name: New})
}

func TestLookupContract(t *testing.T) {
	p, err := New(shards())
	if err != nil {
		t.Fatal(err)
	}
	dialecttest.CheckPlacer(t, p, placertest.Keys(500, 1))
}

// Hash tags as Redis Cluster reads them: the first {...} that is not
// empty; keys sharing a tag share a shard.
func TestHashTag(t *testing.T) {
	for k, want := range map[string]string{"foo{bar}zap": "bar", "{user1000}.following": "user1000", "foo{}{bar}": "foo{}{bar}", "foo{{bar}}": "{bar", "plain": "plain"} {
		if got := HashTag(k); got != want {
			t.Errorf("HashTag(%q) = %q, want %q", k, got, want)
		}
	}
	p, _ := New(shards())
	if p.Locate("{user1000}.following") != p.Locate("{user1000}.followers") {
		t.Error("keys of one hash tag on different shards")
	}
}

// Replicas are the shards by descending score: removing the owner makes
// the second replica the owner.
func TestReplicasAreTheFallback(t *testing.T) {
	p, _ := New(shards())
	for _, k := range placertest.Keys(300, 2) {
		r := p.(algorithms.Replicator).Replicas(p.HashKey(k), make([]int, 2))
		q, err := algorithms.Leave(p, p.Nodes()[r[0]].ID)
		if err != nil {
			t.Fatal(err)
		}
		if got := q.Locate(k); got != p.Nodes()[r[1]].ID {
			t.Fatalf("key %q: after its owner leaves it goes to %s, its second replica is %s", k, got, p.Nodes()[r[1]].ID)
		}
	}
}
