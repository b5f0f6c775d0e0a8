package catalog

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/topology"
)

// NewInTopology keeps the plain owners of every algorithm whose map is not
// the hierarchy and puts three replicas in three racks for every
// algorithm; crush alone builds its map from the racks, so its owners may
// differ from its flat map's. An unknown level is an error naming it.
func TestNewInTopology(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(12)
	tp, err := topology.Split(nodes, []topology.Grouping{{Level: "rack", Spec: "4"}})
	if err != nil {
		t.Fatal(err)
	}
	rack, _ := tp.Level("rack")
	dom := tp.DomainOf(rack)
	keys := make([]string, 2000)
	for i := range keys {
		keys[i] = "user:" + strconv.Itoa(i)
	}
	for _, name := range Names() {
		in, _ := Describe(name)
		aware, err := NewInTopology(name, tp, "rack", DefaultConfig())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		plain, err := NewLocator(name, nodes, DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		a, p := make([]int, len(keys)), make([]int, len(keys))
		if err := aware.LocateKeys(keys, a); err != nil {
			t.Fatal(err)
		}
		if err := plain.LocateKeys(keys, p); err != nil {
			t.Fatal(err)
		}
		differ := 0
		for i := range keys {
			if aware.Nodes()[a[i]].ID != plain.Nodes()[p[i]].ID {
				differ++
			}
		}
		if in.TopologyMap() != (differ > 0) {
			t.Errorf("%s: TopologyMap %v, but %d of %d owners differ from the plain placement's", name, in.TopologyMap(), differ, len(keys))
		}
		reps := make([]int, 3*len(keys))
		if err := aware.ReplicateKeys(keys, 3, reps); err != nil {
			t.Fatal(err)
		}
		idx := map[string]int{}
		for i, n := range tp.Nodes() {
			idx[n.ID] = i
		}
		for k := range keys {
			seen := map[int32]bool{}
			for _, r := range reps[3*k : 3*k+3] {
				d := dom[idx[aware.Nodes()[r].ID]]
				if seen[d] {
					t.Fatalf("%s: key %q has two replicas in rack %d", name, keys[k], d)
				}
				seen[d] = true
			}
		}
	}
	if _, err := NewInTopology("ring", tp, "zone", DefaultConfig()); err == nil || !strings.Contains(err.Error(), `"zone"`) {
		t.Errorf("unknown level: %v, want an error naming it", err)
	}
}
