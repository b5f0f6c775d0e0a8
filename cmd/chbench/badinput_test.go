package main

import (
	"strings"
	"testing"
)

// Each case is a hostile command line that must fail before any work
// (keys are 10^9 per set, so a run that started would not finish) with an
// error naming the bad value, and without output.
func TestBadFlagsFailBeforeWork(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"move", "-algo", "ring", "-from", "10", "-workers", "-3"}, "workers -3"},
		{[]string{"spread", "-algo", "ring", "-nodes", "10", "-workers", "-1"}, "workers -1"},
		{[]string{"reference", "-workers", "-2"}, "workers -2"},
		{[]string{"move", "-algo", "ring", "-from", "10", "-workers", "100000000"}, "workers 100000000"},
		// A bad op after a good one used to fail only after the good one ran.
		{[]string{"move", "-algo", "all", "-from", "grid", "-op", "add,bogus"}, `"bogus"`},
		{[]string{"move", "-algo", "ring", "-from", "10", "-op", "add,,churn"}, `op ""`},
		{[]string{"move", "-algo", "ring", "-from", "10", "-op", "add,add"}, `op "add"`},
		// -shares without csv used to be reported after the whole run.
		{[]string{"spread", "-algo", "all", "-nodes", "grid", "-shares"}, "-format table"},
		// Repeated entries ran and wrote each configuration twice.
		{[]string{"move", "-algo", "ring,ring", "-from", "10"}, `algo "ring"`},
		{[]string{"spread", "-algo", "ring", "-nodes", "10,10"}, "nodes 10"},
		{[]string{"move", "-algo", "ring", "-from", "10", "-hash", "xxhash,xxhash"}, `hash "xxhash"`},
		{[]string{"spread", "-algo", "ring", "-nodes", "10", "-vnodes", "10,10"}, "vnodes 10"},
		// An empty hash entry silently meant the default hash.
		{[]string{"spread", "-algo", "ring", "-nodes", "10", "-hash", "fnv1a64,"}, `hash "fnv1a64,"`},
		{[]string{"spread", "-algo", "ring", "-nodes", "10", "-hash", ""}, `hash ""`},
		// Placement mode, layout draws and the movement key scaling.
		{[]string{"spread", "-algo", "ring", "-nodes", "10", "-placement", "sometimes"}, `placement "sometimes"`},
		{[]string{"spread", "-algo", "ring", "-nodes", "10", "-draws", "-1"}, "draws -1"},
		{[]string{"move", "-algo", "ring", "-from", "10", "-min-moves", "-5"}, "min-moves -5"},
		{[]string{"move", "-algo", "ring", "-from", "10", "-max-keys", "0"}, "max-keys 0"},
		{[]string{"spread", "-algo", "bounded", "-nodes", "10", "-partitions", "-4"}, "partitions -4"},
		// A node leaving twice used to leave once, silently (10 -> 9).
		{[]string{"move", "-algo", "ring", "-from", "10", "-leave", "node-1", "-leave", "node-1"}, `"node-1": named twice`},
		{[]string{"storm", "-algo", "ring", "-from", "10", "-leave", "node-1", "-leave", "node-1"}, `"node-1": named twice`},
	} {
		args := append(c.args, "-keys", "1000000000")
		if c.args[0] == "reference" {
			args = c.args
		}
		out, _, err := runCLI(t, args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("chbench %s: error %v, want one naming %s", strings.Join(c.args, " "), err, c.want)
		}
		if out != "" {
			t.Errorf("chbench %s: wrote %q before failing", strings.Join(c.args, " "), out)
		}
	}
}
