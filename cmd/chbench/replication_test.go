package main

import (
	"strings"
	"testing"

	"github.com/chbench/chbench/analysis/schema"
)

// "We run 3 replicas, how much data moves when one node dies?"
func TestReplicationCLI(t *testing.T) {
	out, _, err := runCLI(t, "replication", "-algo", "ring,slots", "-from", "10", "-op", "remove-random", "-replicas", "1,3", "-keys", "3000", "-sets", "2", "-format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := schema.ParseTable(strings.NewReader(out), "replication.csv", schema.ReplicationColumns)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Len() != 4 {
		t.Fatalf("%d rows, want 4 (2 algorithms x 2 replication factors)", tab.Len())
	}
	for i, want := range []string{"1", "3", "1", "3"} {
		if got := tab.Str(i, schema.ColReplicas); got != want {
			t.Errorf("row %d: replicas %s, want %s", i, got, want)
		}
	}
	if v, err := tab.Num(1, schema.ColAllLostFrac); err != nil || v != 0 {
		t.Errorf("ring R=3, one node leaves: all_lost_frac %v (%v), want 0", v, err)
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
		// R above the nodes before the change was silently capped at them
		// (2 replicas placed, replicas column 3): refused, naming both.
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
