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

func TestValidateNodesRejectsMoreThanMaxNodes(t *testing.T) {
	nodes := make([]Node, MaxNodes+1) // IDs empty too: the count is reported first
	err := ValidateNodes(nodes)
	if err == nil || !strings.Contains(err.Error(), strconv.Itoa(MaxNodes+1)) {
		t.Errorf("ValidateNodes(%d nodes) = %v, want an error naming the count", len(nodes), err)
	}
}
