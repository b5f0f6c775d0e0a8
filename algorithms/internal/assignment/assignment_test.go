package assignment

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
)

func nodes(ids ...string) []algorithms.Node {
	out := make([]algorithms.Node, len(ids))
	for i, id := range ids {
		out[i] = algorithms.Node{ID: id, Weight: 1}
	}
	return out
}

// Departed nodes release their buckets in the old order (a then c); joining
// nodes take buckets in the new order from add (here a stack: x gets c's 2,
// y gets a's 0); survivors keep theirs.
func TestReassign(t *testing.T) {
	old := nodes("a", "b", "c", "d")
	oldBucket := Identity[int32](4)
	var stack, released []int32
	got := Reassign(old, oldBucket, nodes("d", "x", "b", "y"),
		func(b int32) { stack = append(stack, b); released = append(released, b) },
		func() int32 { b := stack[len(stack)-1]; stack = stack[:len(stack)-1]; return b })
	if want := []int32{3, 2, 1, 0}; !slices.Equal(got, want) {
		t.Errorf("buckets %v, want %v", got, want)
	}
	if want := []int32{0, 2}; !slices.Equal(released, want) {
		t.Errorf("released %v, want %v", released, want)
	}
	if want := []int32{0, 1, 2, 3}; !slices.Equal(oldBucket, want) {
		t.Errorf("old buckets changed to %v", oldBucket)
	}
	if o, want := Owners(got, 6), []int32{3, 2, 1, 0, -1, -1}; !slices.Equal(o, want) {
		t.Errorf("owners %v, want %v", o, want)
	}
}

// Validate refuses an empty membership and unequal weights, prefixed with
// the algorithm's name, and accepts equal weights.
func TestValidate(t *testing.T) {
	if err := Validate("x", nil); err == nil || !strings.HasPrefix(err.Error(), "x: ") {
		t.Errorf("empty membership: %v", err)
	}
	unequal := []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 2}}
	if err := Validate("x", unequal); err == nil || !strings.Contains(err.Error(), `x: weights are not supported (node "a" has weight 1, node "b" 2)`) {
		t.Errorf("unequal weights: %v", err)
	}
	if err := Validate("x", nodes("a", "b")); err != nil {
		t.Errorf("equal weights: %v", err)
	}
}

// A capacity below the node count or above the maximum is refused, naming
// both; the bounds themselves are accepted.
func TestValidateCapacity(t *testing.T) {
	for _, c := range []struct{ a, n, max int }{{2, 3, 10}, {11, 3, 10}} {
		if err := ValidateCapacity(c.a, c.n, c.max); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("capacity %d for %d nodes", c.a, c.n)) {
			t.Errorf("a=%d, n=%d, max %d: %v", c.a, c.n, c.max, err)
		}
	}
	for _, a := range []int{3, 10} {
		if err := ValidateCapacity(a, 3, 10); err != nil {
			t.Errorf("a=%d, n=3, max 10: %v", a, err)
		}
	}
}
