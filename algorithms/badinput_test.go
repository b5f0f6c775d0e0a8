package algorithms

import (
	"strconv"
	"strings"
	"testing"
)

// A mistyped node count must fail before the node list is built: 10^8
// default nodes would take gigabytes before any placer could object.
func TestDefaultNodesRejectsHugeCount(t *testing.T) {
	for _, n := range []int{MaxNodes + 1, 100_000_000, int(^uint(0) >> 1)} {
		var err error
		allocs := testing.AllocsPerRun(1, func() { _, err = DefaultNodes(n) })
		if err == nil || !strings.Contains(err.Error(), strconv.Itoa(n)) {
			t.Errorf("DefaultNodes(%d) error = %v, want one naming %d", n, err, n)
		}
		if allocs > 100 { // the error message only; building the list would be n+1
			t.Errorf("DefaultNodes(%d) made %v allocations before failing", n, allocs)
		}
	}
	if nodes, err := DefaultNodes(MaxNodes); err != nil || len(nodes) != MaxNodes {
		t.Errorf("DefaultNodes(MaxNodes) = %d nodes, %v; want %d nodes", len(nodes), err, MaxNodes)
	}
}

// A membership of MaxNodes+1 nodes is refused, naming the count before
// anything else about the nodes.
func TestValidateNodesRejectsMoreThanMaxNodes(t *testing.T) {
	nodes := make([]Node, MaxNodes+1) // IDs empty too: the count is reported first
	err := ValidateNodes(nodes)
	if err == nil || !strings.Contains(err.Error(), strconv.Itoa(MaxNodes+1)) {
		t.Errorf("ValidateNodes(%d nodes) = %v, want an error naming the count", len(nodes), err)
	}
}

// Weights that are each valid but whose total overflows, or whose share of
// the total underflows, are refused by the one membership check every
// algorithm runs, naming the value.
func TestValidateNodesWeightRange(t *testing.T) {
	for _, c := range []struct {
		weights []float64
		want    string
	}{
		{[]float64{1e308, 1e308}, "1e+308"},
		{[]float64{5e-324, 1, 1}, "5e-324"},
		{[]float64{1, 0x1p-60}, "8.67e-19"},
	} {
		nodes := make([]Node, len(c.weights))
		for i, w := range c.weights {
			nodes[i] = Node{ID: NodeID(i), Weight: w}
		}
		err := ValidateNodes(nodes)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ValidateNodes(weights %v) = %v, want an error naming %s", c.weights, err, c.want)
		}
	}
	// The edges that remain valid: a share of exactly 2^-53, and huge equal weights whose sum is finite.
	for _, ws := range [][]float64{{1, 0x1p-53}, {1e307, 1e307}} {
		nodes := []Node{{ID: "a", Weight: ws[0]}, {ID: "b", Weight: ws[1]}}
		if err := ValidateNodes(nodes); err != nil {
			t.Errorf("ValidateNodes(weights %v) = %v, want nil", ws, err)
		}
	}
}
