package analysis

import (
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/schema"
	"github.com/chbench/chbench/topology"
)

// racksSpec is 3 racks of the run's nodes, one replica per rack.
func racksSpec(t *testing.T) topology.Spec {
	t.Helper()
	s, err := topology.NewSpec(nil, "", []topology.Grouping{{Level: "rack", Spec: "3"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// With a topology every placement of a replication chain keeps each key's
// 3 replicas in the 3 racks, on 6 nodes and after a seventh joins (it
// goes to the first of the equal racks); per-set layouts of a ring place
// their salted IDs in the same racks. Without one, a plain ring shares a
// rack for some keys.
func TestReplicationChainsKeepRacks(t *testing.T) {
	keys := make([]string, 3000)
	for i := range keys {
		keys[i] = "k" + algorithms.NodeID(i)
	}
	for _, algo := range []string{"ring", "jump", "crush"} {
		sc, err := NewScenario(schema.OpAdd, 6, 1)
		if err != nil {
			t.Fatal(err)
		}
		o := replOpts(algo)
		o.Domains = racksSpec(t)
		for _, layout := range []int{0, 2} {
			chain, err := placements(o, layoutScenario(sc, layout), true)
			if err != nil {
				t.Fatalf("%s: %v", algo, err)
			}
			for step, l := range chain {
				reps := make([]int, 3*len(keys))
				if err := l.ReplicateKeys(keys, 3, reps); err != nil {
					t.Fatal(err)
				}
				for k := range keys {
					seen := map[int]bool{}
					for _, r := range reps[3*k : 3*k+3] {
						id := l.Nodes()[r].ID
						base, _ := layoutBase(id)
						if layout == 0 {
							base = id
						}
						rack := rackOf6(base)
						if seen[rack] {
							t.Fatalf("%s layout %d step %d: key %q has two replicas in rack %d", algo, layout, step, keys[k], rack)
						}
						seen[rack] = true
					}
				}
			}
		}
	}
	o := replOpts("ring")
	sc, _ := NewScenario(schema.OpAdd, 6, 1)
	chain, err := placements(o, sc, true)
	if err != nil {
		t.Fatal(err)
	}
	reps := make([]int, 3*len(keys))
	if err := chain[0].ReplicateKeys(keys, 3, reps); err != nil {
		t.Fatal(err)
	}
	shared := 0
	for k := range keys {
		a, b, c := rackOf6(chain[0].Nodes()[reps[3*k]].ID), rackOf6(chain[0].Nodes()[reps[3*k+1]].ID), rackOf6(chain[0].Nodes()[reps[3*k+2]].ID)
		if a == b || b == c || a == c {
			shared++
		}
	}
	if shared == 0 {
		t.Error("plain ring: no key shares a rack, so the check above proves nothing")
	}
}

// rackOf6 is the rack of node-0..node-6 in 3 racks of 6 nodes grown by
// node-6: racks of node-0,1 (+ node-6), node-2,3 and node-4,5.
func rackOf6(id string) int {
	switch id {
	case "node-0", "node-1", "node-6":
		return 0
	case "node-2", "node-3":
		return 1
	}
	return 2
}

// Results say which topology changed them: every replication row, and of
// movement and spread only crush's (its map is the racks); a count of
// racks the nodes cannot fill is an error before any key.
func TestTopologyRecorded(t *testing.T) {
	spec := racksSpec(t)
	for _, algo := range []string{"ring", "crush"} {
		o := replOpts(algo)
		o.Domains = spec
		sc, _ := NewScenario(schema.OpRemoveRandom, 6, 1)
		r, err := Replication(o, []Scenario{sc}, 3)
		if err != nil {
			t.Fatal(err)
		}
		if r.Topology != "rack=3" || r.Domain != "rack" {
			t.Errorf("%s replication: topology %q domain %q", algo, r.Topology, r.Domain)
		}
		m, err := Movement(o, sc)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := Spread(o, sc.Initial)
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		if algo == "crush" {
			want = "rack=3"
		}
		if m.Topology != want || sp.Topology != want {
			t.Errorf("%s: movement topology %q, spread %q; want %q", algo, m.Topology, sp.Topology, want)
		}
	}
	o := replOpts("crush")
	o.Domains = racksSpec(t)
	sc, _ := NewScenario(schema.OpRemoveRandom, 2, 1)
	if err := CheckMovement(o, sc); err == nil || !strings.Contains(err.Error(), "3 domains for 2 units") {
		t.Errorf("3 racks of 2 nodes: %v", err)
	}
	if err := CheckSpread(o, sc.Initial); err == nil {
		t.Error("spread, 3 racks of 2 nodes: no error")
	}
}
