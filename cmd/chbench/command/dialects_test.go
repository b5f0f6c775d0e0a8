package command

import (
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

// addressNote is the start of the note a run with a dialect writes when
// it names the nodes it generated.
const addressNote = "chbench: dialects place server addresses: generated node i is 127.0.0.1:<11211+i>"

// Every analysis takes a dialect on a generated fleet, names its nodes
// by the default fleet's addresses and says so on stderr.
func TestDialectEveryAnalysis(t *testing.T) {
	for _, args := range [][]string{
		{"move", "-algo", "ring,twemproxy-ketama-md5", "-from", "5", "-op", "add,remove-random", "-keys", "2000", "-sets", "2", "-min-moves", "0"},
		{"move", "-algo", "python-memcached", "-from", "6", "-join-n", "1", "-keys", "2000", "-sets", "2"},
		{"spread", "-algo", "nginx-hash-consistent,jump", "-nodes", "4,8", "-keys", "2000", "-sets", "2"},
		{"replication", "-algo", "hashring-js", "-from", "6", "-op", "remove-random", "-replicas", "2", "-keys", "2000", "-sets", "2"},
		{"storm", "-algo", "libmemcached-ketama-weighted", "-from", "4", "-to", "5", "-keys", "2000", "-sets", "2"},
		{"load", "-algo", "haproxy-consistent,ring", "-nodes", "5", "-keys", "300", "-requests", "2000", "-sets", "2", "-zipf", "0.99"},
	} {
		out, errOut, err := runCLI(t, append(args, "-commit", "golden")...)
		if err != nil {
			t.Errorf("%v: %v\n%s", args, err, errOut)
			continue
		}
		if !strings.HasPrefix(errOut, addressNote) || strings.Count(errOut, addressNote) != 1 {
			t.Errorf("%v: stderr %q, want the note on the addresses once", args, errOut)
		}
		if out == "" {
			t.Errorf("%v: no output", args)
		}
	}
}

// The generated fleet's IDs are the addresses, in order, and reach the
// rows that name nodes; weights given with -weights stay with them.
func TestDialectFleetIDs(t *testing.T) {
	out, _, err := runCLI(t, "spread", "-algo", "python-memcached", "-nodes", "3", "-weights", "1,2,3", "-keys", "3000", "-sets", "2",
		"-format", "csv", "-shares", "-commit", "golden")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := schema.ReadCSV[schema.ShareRow](strings.NewReader(out), "spread -shares")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct {
		id string
		w  float64
	}{{"127.0.0.1:11211", 1}, {"127.0.0.1:11212", 2}, {"127.0.0.1:11213", 3}} {
		if rows[i].ID != want.id || rows[i].Weight != want.w {
			t.Errorf("row %d: node %s weight %v, want %s weight %v", i, rows[i].ID, rows[i].Weight, want.id, want.w)
		}
	}
}

// Named nodes are the user's: never renamed, no note, and a dialect that
// hashes addresses refuses an ID that is not one, naming it.
func TestDialectNamedNodes(t *testing.T) {
	_, errOut, err := runCLI(t, "move", "-algo", "twemproxy-ketama-md5", "-node-ids", "10.0.0.1:11211,10.0.0.2:11211,10.0.0.3:11211",
		"-leave", "10.0.0.2:11211", "-keys", "2000", "-sets", "2", "-commit", "golden")
	if err != nil || strings.Contains(errOut, addressNote) {
		t.Errorf("named fleet: error %v, stderr %q", err, errOut)
	}
	_, _, err = runCLI(t, "spread", "-algo", "libmemcached-modula", "-node-ids", "a,b,c", "-keys", "2000", "-sets", "2", "-commit", "golden")
	if err == nil || !strings.Contains(err.Error(), `"a"`) || !strings.Contains(err.Error(), "host:port") {
		t.Errorf("dialect on IDs a,b,c: error %v, want one naming the ID and host:port", err)
	}
}

// chbench's ketama is twemproxy's ketama with hash md5 (live.TestTwemproxy
// and live.TestDialectTwemproxy check both against nutcracker) when no
// server listens on port 11211, whose label twemproxy shortens to the
// bare host while ketama hashes the ID as given: on the same named fleet
// the two move exactly the same keys on a join and on a leave.
func TestDialectKetamaIsTwemproxyMD5(t *testing.T) {
	ids := "10.0.0.1:12000,10.0.0.2:12000,10.0.0.3:12000,10.0.0.4:12001,10.0.0.5:12001,10.0.0.6:12001"
	for _, change := range [][]string{{"-join", "10.0.0.7:12002"}, {"-leave", "10.0.0.3:12000"}} {
		out, _, err := runCLI(t, append([]string{"move", "-algo", "ketama,twemproxy-ketama-md5", "-node-ids", ids, "-placement", "fixed",
			"-keys", "5000", "-sets", "2", "-format", "csv", "-commit", "golden"}, change...)...)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := schema.ReadCSV[schema.Move](strings.NewReader(out), "move")
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 2 {
			t.Fatalf("%v: %d rows, want 2", change, len(rows))
		}
		k, d := rows[0], rows[1]
		if k.MovedFrac != d.MovedFrac || k.CollateralFrac != d.CollateralFrac || k.MovedFrac == 0 {
			t.Errorf("%v: ketama moved %v (collateral %v), twemproxy-ketama-md5 %v (%v)", change, k.MovedFrac, k.CollateralFrac, d.MovedFrac, d.CollateralFrac)
		}
	}
}
