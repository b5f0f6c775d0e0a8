package preference

import (
	"slices"
	"testing"
)

// A preference list walks the owners from start, skipping duplicates,
// wrapping at the end, and stopping at the node count or the room given.
func TestList(t *testing.T) {
	owner := []int32{2, 2, 0, 1, 0, 3}
	for _, c := range []struct {
		start, nodes, room int
		want               []int
	}{
		{0, 4, 3, []int{2, 0, 1}},    // duplicates skipped
		{4, 4, 4, []int{0, 3, 2, 1}}, // wraps past the end
		{5, 4, 9, []int{3, 2, 0, 1}}, // stops at the node count
		{1, 4, 0, []int{}},           // no room
		{3, 2, 4, []int{1, 0}},       // stops at nodes = 2
	} {
		dst := make([]int, c.room)
		if got := List(owner, c.start, c.nodes, dst); !slices.Equal(got, c.want) {
			t.Errorf("start %d, %d nodes, room %d: %v, want %v", c.start, c.nodes, c.room, got, c.want)
		}
	}
	// One lap at most: an owner table holding fewer nodes than asked for.
	if got := List([]uint16{1, 1, 1}, 2, 5, make([]int, 3)); !slices.Equal(got, []int{1}) {
		t.Errorf("single owner: %v, want [1]", got)
	}
	dst := make([]int, 3)
	if a := testing.AllocsPerRun(100, func() { _ = List(owner, 2, 4, dst) }); a != 0 {
		t.Errorf("List allocates %v per call", a)
	}
}
