package algorithms

import (
	"slices"
	"strings"
	"testing"
)

func ids(nodes []Node) []string {
	out := make([]string, len(nodes))
	for i, n := range nodes {
		out[i] = n.ID
	}
	return out
}

// SwapLast's bucket order for leaves (lowest vacated bucket filled first by
// the last survivor), for the last node leaving (nothing else moves) and
// for joins (appended in the order given).
func TestSwapLast(t *testing.T) {
	cur, _ := DefaultNodes(6)
	for _, c := range []struct {
		next []string
		want []string
	}{
		// node-1 and node-3 leave: the last node, node-5, fills bucket 1,
		// then the new last, node-4, fills bucket 3; x joins at the end.
		{[]string{"node-0", "node-2", "node-4", "node-5", "x"}, []string{"node-0", "node-5", "node-2", "node-4", "x"}},
		// The last node leaves: nothing else moves.
		{[]string{"node-0", "node-1", "node-2", "node-3", "node-4"}, []string{"node-0", "node-1", "node-2", "node-3", "node-4"}},
		// node-2, node-4 and node-5 leave: node-3, the last survivor,
		// fills bucket 2.
		{[]string{"node-0", "node-1", "node-3"}, []string{"node-0", "node-1", "node-3"}},
		// Everyone stays, two join in the order given.
		{[]string{"b", "node-0", "node-1", "node-2", "node-3", "node-4", "node-5", "a"}, []string{"node-0", "node-1", "node-2", "node-3", "node-4", "node-5", "b", "a"}},
	} {
		next := make([]Node, len(c.next))
		for i, id := range c.next {
			next[i] = Node{ID: id, Weight: 1}
		}
		if got := ids(SwapLast(cur, next)); !slices.Equal(got, c.want) {
			t.Errorf("SwapLast(%v) = %v, want %v", c.next, got, c.want)
		}
	}
}

// NewBuckets refuses an empty membership, unequal weights and more nodes
// than buckets, each error prefixed with the algorithm's name, and keeps a
// copy of the nodes it is given.
func TestNewBucketsErrors(t *testing.T) {
	h := MustHash("xxhash")
	if _, err := NewBuckets("x", nil, h, 10); err == nil || !strings.HasPrefix(err.Error(), "x: ") {
		t.Errorf("empty membership: err = %v", err)
	}
	if _, err := NewBuckets("x", []Node{{"a", 1}, {"b", 2}}, h, 10); err == nil || !strings.Contains(err.Error(), "weights") {
		t.Errorf("unequal weights: err = %v", err)
	}
	nodes, _ := DefaultNodes(11)
	if _, err := NewBuckets("x", nodes, h, 10); err == nil || !strings.Contains(err.Error(), "11 nodes") {
		t.Errorf("too many nodes: err = %v", err)
	}
	b, err := NewBuckets("x", nodes, h, 11)
	if err != nil {
		t.Fatal(err)
	}
	nodes[0].ID = "changed"
	if b.ID(0) != "node-0" || len(b.Nodes()) != 11 || b.HashKey("k") != h.Sum("k") {
		t.Errorf("buckets not a copy of the membership, or wrong hash: %v", b.Nodes())
	}
}
