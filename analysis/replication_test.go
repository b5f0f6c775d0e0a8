package analysis

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms/catalog"
)

func replOpts(algo string) Options {
	return Options{Algo: algo, Config: catalog.DefaultConfig(), Keys: 20000, Sets: 3, Seed: 11}
}

// At R = 1 a key's one replica is its owner: the replica pairs that move
// are exactly the keys that move, and a key that moves loses its only copy.
func TestReplicationR1IsTheOwner(t *testing.T) {
	for _, algo := range catalog.Names() {
		sc, err := NewScenario(OpRemoveRandom, 10, 4)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Movement(replOpts(algo), sc)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Replication(replOpts(algo), sc, 1)
		if err != nil {
			t.Fatal(err)
		}
		for s := range m.Samples {
			if r.Samples[s].PairsMoved != m.Samples[s].Moved || r.Samples[s].AllLost != m.Samples[s].Moved {
				t.Errorf("%s set %d: R=1 pairs moved %v, all lost %v; owners moved %v", algo, s, r.Samples[s].PairsMoved, r.Samples[s].AllLost, m.Samples[s].Moved)
			}
		}
		if r.MaxSets != 10 || r.DistinctSets.Mean != 10 {
			t.Errorf("%s R=1: distinct sets %v of %v, want 10 of 10", algo, r.DistinctSets.Mean, r.MaxSets)
		}
	}
}

// A join displaces at most one member of a ring or rendezvous replica set
// (the last), so no key loses all its replicas, and the new node takes
// about R/(n+1) of the sets, one pair in R each: 1/(n+1) of the pairs.
func TestReplicationJoinRingRendezvous(t *testing.T) {
	sc, err := Resize(10, 11)
	if err != nil {
		t.Fatal(err)
	}
	for _, algo := range []string{"ring", "rendezvous"} {
		r, err := Replication(replOpts(algo), sc, 3)
		if err != nil {
			t.Fatal(err)
		}
		if r.AllLost.Hi != 0 {
			t.Errorf("%s: %v of keys lost every replica on a join, want 0", algo, r.AllLost)
		}
		// Rendezvous exactly in expectation: 3.29 se of a binomial over
		// 60,000 keys (each key displaces one pair with probability 3/11,
		// so the pairs fraction is that over 3). The ring's share of the
		// new node varies ring to ring (160 points: cv ~ 0.08).
		tol := 3.29 * math.Sqrt(3.0/11*(8.0/11)/60000) / 3
		if algo == "ring" {
			tol = 0.25 / 11
		}
		if math.Abs(r.PairsMoved.Mean-1.0/11) > tol {
			t.Errorf("%s: pairs moved %v, want 1/11 ± %v", algo, r.PairsMoved.Mean, tol)
		}
		if r.DistinctSets.Mean != 120 || r.MaxSets != 120 {
			t.Errorf("%s: distinct sets %v of %v, want all C(10,3) = 120", algo, r.DistinctSets.Mean, r.MaxSets)
		}
	}
	// Slots take replicas in slot order: contiguous slot ranges make one
	// replica set per range, 10 of the 120 possible.
	r, err := Replication(replOpts("slots"), sc, 3)
	if err != nil {
		t.Fatal(err)
	}
	if r.DistinctSets.Mean != 10 {
		t.Errorf("slots: distinct sets %v, want 10 (one per slot range)", r.DistinctSets.Mean)
	}
	var b bytes.Buffer
	if err := WriteReplicationTable(&b, []*ReplicationResult{r}); err != nil || !strings.Contains(b.String(), "10 (of 120)") {
		t.Errorf("table (%v):\n%s", err, b.String())
	}
}

func TestReplicationBadInput(t *testing.T) {
	sc, _ := Resize(3, 4)
	for _, r := range []int{0, -1, MaxReplicationFactor + 1} {
		if _, err := Replication(replOpts("ring"), sc, r); err == nil || !strings.Contains(err.Error(), "replication factor") {
			t.Errorf("R=%d: err = %v", r, err)
		}
	}
	// Fewer nodes than R: every node holds a copy of every key.
	small, _ := Resize(2, 3)
	r, err := Replication(replOpts("rendezvous"), small, 5)
	if err != nil {
		t.Fatal(err)
	}
	if r.PairsMoved.Mean != 0 || r.LoadPeakToMean.Mean != 1 || r.MaxSets != 1 {
		t.Errorf("R=5 on 2 -> 3 nodes: pairs moved %v, load peak/mean %v, max sets %v; want 0, 1, 1", r.PairsMoved.Mean, r.LoadPeakToMean.Mean, r.MaxSets)
	}
}
