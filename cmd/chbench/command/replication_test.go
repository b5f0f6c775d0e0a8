package command

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/schema"
)

// "We run 3 replicas, how much data moves when one node dies?"
func TestReplicationCLI(t *testing.T) {
	out, _, err := runCLI(t, "replication", "-algo", "ring,slots", "-from", "10", "-op", "remove-random", "-replicas", "1,3", "-keys", "3000", "-sets", "2", "-format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := schema.ReadCSV[schema.Replication](strings.NewReader(out), "replication.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4 (2 algorithms x 2 replication factors)", len(rows))
	}
	for i, want := range []int{1, 3, 1, 3} {
		if got := rows[i].Replicas; got != want {
			t.Errorf("row %d: replicas %d, want %d", i, got, want)
		}
	}
	if v := rows[1].AllLostFrac; v != 0 {
		t.Errorf("ring R=3, one node leaves: all_lost_frac %v, want 0", v)
	}
	out, _, err = runCLI(t, "replication", "-algo", "rendezvous", "-node-ids", "a,b,c,d", "-leave", "b", "-replicas", "2", "-keys", "1000", "-sets", "2")
	if err != nil || !strings.Contains(out, "rendezvous  2  leave") {
		t.Errorf("named leave: %v\n%s", err, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-from", "4", "-replicas", "6"}, "replicas 6"},
		{[]string{"-from", "4", "-replicas", "0"}, "replicas 0"},
		{[]string{"-replicas", "2"}, "-from is required"},
		{[]string{"-from", "4", "-format", "bench"}, "format bench"},
		{[]string{"-from", "4", "-to", "5", "-op", "add"}, "one or the other"},
		// R above the nodes before the change cannot be placed (a key has
		// one replica per node): refused, naming both, not capped.
		{[]string{"-from", "2", "-replicas", "3"}, "replicas 3: the fleet before the change has only 2 nodes (-from 2)"},
		{[]string{"-from", "10,4", "-replicas", "1,5"}, "replicas 5: the fleet before the change has only 4 nodes (-from 4)"},
		{[]string{"-node-ids", "a,b", "-leave", "a", "-replicas", "3"}, "replicas 3: the fleet before the change has only 2 nodes,"},
	} {
		_, _, err := runCLI(t, append([]string{"replication", "-keys", "10", "-sets", "1"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.args, err, c.want)
		}
	}
}

// move -replicas is the replication command.
func TestMoveReplicas(t *testing.T) {
	a, _, err := runCLI(t, "move", "-algo", "ring", "-from", "5", "-op", "remove-random", "-replicas", "2", "-keys", "1000", "-sets", "2")
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := runCLI(t, "replication", "-algo", "ring", "-from", "5", "-op", "remove-random", "-replicas", "2", "-keys", "1000", "-sets", "2")
	if err != nil {
		t.Fatal(err)
	}
	if a != b || !strings.Contains(a, "ring  2  remove-random") {
		t.Errorf("move -replicas:\n%s\nreplication:\n%s", a, b)
	}
}

// A configuration the analysis refuses is a usage error found before the
// first key of any configuration (a 1,000-node ring at 100,000 vnodes is
// refused before modulo and rendezvous run); churn's per-set histories
// differ in their ideal fraction, so it runs one history for every set; a
// reweight applies to every per-set layout, not only to set 0's.
func TestReplicationChecksFirst(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-algo", "modulo,ring", "-from", "1000", "-to", "1001", "-vnodes", "100000", "-keys", "200000"}, "would build more than"},
		{[]string{"-algo", "anchor", "-from", "10", "-capacity", "5"}, "capacity 5"},
		{[]string{"-algo", "slots", "-from", "16384", "-op", "add"}, "16385 nodes exceed"},
	} {
		_, _, err := runCLI(t, append([]string{"replication", "-keys", "1000", "-sets", "2"}, c.args...)...)
		if !cli.IsUsage(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v (%T), want a usage error containing %q", c.args, err, err, c.want)
		}
	}
	if _, _, err := runCLI(t, "replication", "-algo", "ring", "-from", "10", "-op", "churn", "-keys", "1000", "-sets", "3"); err != nil {
		t.Errorf("churn, per-set placement: %v", err)
	}
	moved := func(placement string) float64 {
		out, _, err := runCLI(t, "replication", "-algo", "ring", "-from", "10", "-leave", "node-9", "-reweight", "node-1=8",
			"-replicas", "1", "-keys", "20000", "-sets", "4", "-placement", placement, "-format", "csv")
		if err != nil {
			t.Fatal(err)
		}
		rows, err := schema.ReadCSV[schema.Replication](strings.NewReader(out), "replication.csv")
		if err != nil {
			t.Fatal(err)
		}
		return rows[0].PairsMovedFrac
	}
	// The ideal is 40%; the leave alone would move about 10%. Both modes
	// must measure the reweight: per-set layouts within a quarter of the
	// fixed fleet's value (ring shares vary by layout, cv ~0.08 a node).
	if f, p := moved("fixed"), moved("per-set"); math.Abs(p-f) > f/4 || p < 0.3 {
		t.Errorf("leave + reweight: per-set moved %v, fixed %v; want both near the 40%% ideal", p, f)
	}
}

// replication: a key file's content is an error while running (exit 1) as
// in move, and a -commit the report could not show is refused up front.
func TestReplicationKeyFileAndCommit(t *testing.T) {
	empty := t.TempDir() + "/empty.txt"
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCLI(t, "replication", "-algo", "ring", "-from", "10", "-keyfile", empty)
	if err == nil || cli.IsUsage(err) {
		t.Errorf("empty key file: err = %v (%T), want an error while running", err, err)
	}
	for _, cmd := range [][]string{{"replication", "-algo", "ring", "-from", "10"}, {"load", "-nodes", "3", "-requests", "10"}} {
		_, _, err := runCLI(t, append(cmd, "-keys", "10", "-commit", "a|b")...)
		if !cli.IsUsage(err) || !strings.Contains(err.Error(), `commit "a|b"`) {
			t.Errorf("%v -commit a|b: err = %v, want a usage error naming it", cmd, err)
		}
	}
}
