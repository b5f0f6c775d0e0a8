package slots

import (
	"testing"

	"github.com/chbench/chbench/algorithms"
)

// redis-cli --cluster create gives 3 masters 0-5460, 5461-10922 and
// 10923-16383 (the middle one gets the extra slot; New gives it to the
// first). FromTable takes that layout as it is, and a fourth master then
// takes exactly 16384/4 = 4096 slots, 1365 or 1366 from each.
func TestFromTableRedisLayout(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(3)
	owner := make([]int, NumSlots)
	for s := range owner {
		switch {
		case s <= 5460:
			owner[s] = 0
		case s <= 10922:
			owner[s] = 1
		default:
			owner[s] = 2
		}
	}
	p, err := FromTable(nodes, owner)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{5461, 5462, 5461} {
		if p.SlotCount(i) != want {
			t.Errorf("node %d: %d slots, want %d", i, p.SlotCount(i), want)
		}
	}
	for _, s := range []int{0, 5460, 5461, 10922, 10923, 16383} {
		if got := p.LocateHash(uint64(s)); got != owner[s] {
			t.Errorf("slot %d on node %d, want %d", s, got, owner[s])
		}
	}
	q, err := p.Rebalance(append(nodes, algorithms.Node{ID: "node-3", Weight: 1}))
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for s := 0; s < NumSlots; s++ {
		if a, b := p.LocateHash(uint64(s)), q.LocateHash(uint64(s)); a != b {
			moved++
			if b != 3 {
				t.Fatalf("slot %d moved from %d to %d, not to the new node", s, a, b)
			}
		}
	}
	if moved != 4096 {
		t.Errorf("%d slots moved, want 4096", moved)
	}
	// A node without slots is allowed; bad tables are not.
	if _, err := FromTable(append(nodes, algorithms.Node{ID: "empty", Weight: 1}), owner); err != nil {
		t.Errorf("empty master refused: %v", err)
	}
	if _, err := FromTable(nodes, owner[:100]); err == nil {
		t.Error("short table accepted")
	}
	owner[77] = 3
	if _, err := FromTable(nodes, owner); err == nil {
		t.Error("slot 77 owned by node index 3 of 3 accepted")
	}
}
