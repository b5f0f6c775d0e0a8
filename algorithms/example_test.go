package algorithms_test

import (
	"fmt"
	"strconv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
)

// moves counts the keys user:0 ... user:{n-1} whose owner differs between
// before and after, and tallies where they moved from and to.
func moves(before, after algorithms.Placer, n int) (moved int, from, to map[string]int) {
	from, to = map[string]int{}, map[string]int{}
	for i := range n {
		k := "user:" + strconv.Itoa(i)
		if a, b := before.Locate(k), after.Locate(k); a != b {
			moved++
			from[a]++
			to[b]++
		}
	}
	return moved, from, to
}

// A node joins a ring of four: about 1/5 of the keys move (the ideal
// fraction 1/(n+1); with 160 virtual nodes per node a ring lands near it),
// all of them to the new node, none between the four that were there.
func ExampleJoin() {
	nodes, err := algorithms.DefaultNodes(4)
	if err != nil {
		fmt.Println(err)
		return
	}
	before, err := catalog.New("ring", nodes, catalog.DefaultConfig())
	if err != nil {
		fmt.Println(err)
		return
	}
	after, err := algorithms.Join(before, algorithms.Node{ID: "node-4", Weight: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	moved, _, to := moves(before, after, 10000)
	fmt.Printf("%d nodes -> %d nodes\n", len(before.Nodes()), len(after.Nodes()))
	fmt.Printf("moved %d of 10000 keys, %d of them to node-4\n", moved, to["node-4"])
	// Output:
	// 4 nodes -> 5 nodes
	// moved 2291 of 10000 keys, 2291 of them to node-4
}

// A node leaves a rendezvous placement of five: only its keys move, spread
// over the four that remain; leaving a node that is not a member is an
// error naming it.
func ExampleLeave() {
	nodes, err := algorithms.DefaultNodes(5)
	if err != nil {
		fmt.Println(err)
		return
	}
	before, err := catalog.New("rendezvous", nodes, catalog.DefaultConfig())
	if err != nil {
		fmt.Println(err)
		return
	}
	after, err := algorithms.Leave(before, "node-1")
	if err != nil {
		fmt.Println(err)
		return
	}
	moved, from, to := moves(before, after, 10000)
	fmt.Printf("moved %d of 10000 keys, %d of them from node-1\n", moved, from["node-1"])
	for _, n := range after.Nodes() {
		fmt.Printf("  %s received %d\n", n.ID, to[n.ID])
	}
	_, err = algorithms.Leave(after, "node-1")
	fmt.Println(err)
	// Output:
	// moved 1986 of 10000 keys, 1986 of them from node-1
	//   node-0 received 488
	//   node-2 received 490
	//   node-3 received 496
	//   node-4 received 512
	// node "node-1" is not a member
}
