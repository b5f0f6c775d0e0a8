package analysis

import (
	"math"
	"strings"
	"testing"
)

// Replicas are independent rings: they differ from each other, repeat
// exactly for the same seed, and a ring's moved fraction on one join is
// the new node's share, whose relative sd with V vnodes is about
// 1/sqrt(V): the replicas' mean lies near the ideal 1/(n+1).
func TestMoveReplicas(t *testing.T) {
	o := opts("ring", 2000, 2)
	a, err := MoveReplicas(o, 4, 5, 20)
	if err != nil {
		t.Fatal(err)
	}
	b, err := MoveReplicas(o, 4, 5, 20)
	if err != nil {
		t.Fatal(err)
	}
	distinct := map[float64]bool{}
	var sum float64
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("replica %d: %v then %v", i, a[i], b[i])
		}
		distinct[a[i]] = true
		sum += a[i]
	}
	if len(distinct) < 15 {
		t.Errorf("only %d distinct values in 20 replicas: %v", len(distinct), a)
	}
	// Mean of 20 replicas: sd about 0.2/sqrt(160)/sqrt(20) = 0.0035 (ring)
	// plus sampling; 5 sd.
	if mean := sum / 20; math.Abs(mean-0.2) > 5*0.2/math.Sqrt(160)/math.Sqrt(20) {
		t.Errorf("mean moved %.4f, want 0.2", mean)
	}
	if _, err := MoveReplicas(o, 4, 3, 2); err != nil {
		t.Errorf("4 -> 3: %v", err)
	}
	for _, c := range []struct{ from, to, reps int }{{4, 4, 1}, {0, 3, 1}, {3, 4, 0}} {
		if _, err := MoveReplicas(o, c.from, c.to, c.reps); err == nil {
			t.Errorf("%d -> %d x %d: no error", c.from, c.to, c.reps)
		}
	}
}

// Independent ring replicates differ from each other and keep their
// shares in range; 0 nodes is an error, and replica seeds do not collide.
func TestSpreadReplicas(t *testing.T) {
	o := opts("ring", 3000, 4)
	o.Config.VNodes = 1
	bs, err := SpreadReplicas(o, 5, 10)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range bs {
		if b.MinShare < 0 || b.MinShare > 0.2 || b.MaxShare < 0.2 || b.MaxShare > 1 {
			t.Errorf("replica %d: min %v max %v", i, b.MinShare, b.MaxShare)
		}
	}
	if bs[0] == bs[1] {
		t.Errorf("replicas 0 and 1 agree: %+v", bs[0])
	}
	if _, err := SpreadReplicas(o, 0, 1); err == nil || !strings.Contains(err.Error(), "nodes 0") {
		t.Errorf("0 nodes: %v", err)
	}
	if ReplicaSeed(1, 0) == 1 || ReplicaSeed(1, 0) == ReplicaSeed(1, 1) {
		t.Error("replica seeds collide")
	}
}
