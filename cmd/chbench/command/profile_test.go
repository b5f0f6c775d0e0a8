package command

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

// chbench fleet runs the storm of every planned change of a profile, on
// its named members and weights: a staged growth 4 -> 6 gives one row per
// step (op NAME-step), each with its own ideal fraction (the joining
// node's weight over the total after it), a named leave from the fleet
// after that growth starts at 6 nodes, a dialect client is measured
// beside the algorithms, and algorithms that take no weights are left out
// of the weighted fleet and named on stderr.
func TestFleetCommandRunsEveryChange(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "f.toml")
	if err := os.WriteFile(prof, []byte(`
client = "twemproxy-ketama-md5"
node = [ { id = "10.0.0.1:11211", weight = 2 }, { id = "10.0.0.2:11211" }, { id = "10.0.0.3:11211" }, { id = "10.0.0.4:11211" } ]
[traffic]
keys = 2000
reads_per_second = 1000
hit_ratio = 0.9
working_set = 1000
requests = 20000
[[change]]
name = "grow"
join = [ { id = "10.0.0.5:11211" }, { id = "10.0.0.6:11211" } ]
step = 1
[[change]]
name = "drop-2"
after = "grow"
leave = ["10.0.0.2:11211"]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	// grow is a scenario op: refused as a change name.
	if _, _, err := runCLI(t, "fleet", "-profile", prof); err == nil || !strings.Contains(err.Error(), `change 0 ("grow"): name`) {
		t.Fatalf("change named grow: %v, want the name refused", err)
	}
	text, _ := os.ReadFile(prof)
	if err := os.WriteFile(prof, []byte(strings.ReplaceAll(string(text), `"grow"`, `"grow-to-6"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := runCLI(t, "fleet", "-profile", prof, "-sets", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	rows, err := schema.ReadCSV[schema.Storm](strings.NewReader(out), "fleet output")
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		algo, op string
		from, to int
	}
	got := map[key]schema.Storm{}
	for _, r := range rows {
		got[key{r.Algo, r.Op, r.From, r.To}] = r
	}
	// Weights 2,1,1,1 (+1 +1): the node joining 5 nodes of weight 5 holds
	// 1/6 of the weight after, the next 1/7; 10.0.0.2 (weight 1) leaving
	// 7 weight units moves 1/7.
	for _, want := range []struct {
		k     key
		ideal float64
	}{
		{key{"rendezvous", "grow-to-6-step", 4, 5}, 1.0 / 6},
		{key{"rendezvous", "grow-to-6-step", 5, 6}, 1.0 / 7},
		{key{"twemproxy-ketama-md5", "grow-to-6-step", 4, 5}, 1.0 / 6},
		{key{"rendezvous", "drop-2", 6, 5}, 1.0 / 7},
		{key{"twemproxy-ketama-md5", "drop-2", 6, 5}, 1.0 / 7},
	} {
		r, ok := got[want.k]
		if !ok {
			t.Errorf("no row %+v in:\n%s", want.k, out)
			continue
		}
		if math.Abs(r.IdealFrac-want.ideal) > 1e-12 || r.Reads != 1000 || r.HitRatio != 0.9 || r.WorkingSet != 1000 {
			t.Errorf("%+v: ideal %v reads %v hit %v K %d; want ideal %v on the profile's traffic", want.k, r.IdealFrac, r.Reads, r.HitRatio, r.WorkingSet, want.ideal)
		}
	}
	for k := range got {
		if k.algo == "jump" {
			t.Errorf("jump (no weights) measured on a weighted fleet: %+v", k)
		}
	}
	if !strings.Contains(stderr, "chbench: skipping modulo, jump") {
		t.Errorf("stderr does not name the algorithm left out:\n%s", stderr)
	}
	// -shares: one row per member today and algorithm, each node's weight
	// share its weight over the total 5; -load: one row per algorithm at
	// the profile's Zipf exponent and requests, the dialect client among
	// them.
	out, _, err = runCLI(t, "fleet", "-profile", prof, "-shares", "-sets", "2")
	if err != nil {
		t.Fatal(err)
	}
	sh, err := schema.ReadCSV[schema.ShareRow](strings.NewReader(out), "shares")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range sh {
		if want := r.Weight / 5; r.Nodes != 4 || math.Abs(r.WeightShare-want) > 1e-12 {
			t.Errorf("share row %s %s: nodes %d weight share %v, want 4 nodes and %v", r.Algo, r.ID, r.Nodes, r.WeightShare, want)
		}
	}
	if len(sh)%4 != 0 || len(sh) < 8 {
		t.Errorf("%d share rows, want 4 per algorithm", len(sh))
	}
	out, _, err = runCLI(t, "fleet", "-profile", prof, "-load", "-sets", "2")
	if err != nil {
		t.Fatal(err)
	}
	ld, err := schema.ReadCSV[schema.Load](strings.NewReader(out), "load")
	if err != nil {
		t.Fatal(err)
	}
	client := false
	for _, r := range ld {
		if r.Nodes != 4 || r.Requests != 20000 || r.Zipf == nil || *r.Zipf != 0.99 {
			t.Errorf("load row %s: nodes %d requests %d; want 4 nodes, 20,000 requests at the default s = 0.99", r.Algo, r.Nodes, r.Requests)
		}
		client = client || r.Algo == "twemproxy-ketama-md5"
	}
	if !client {
		t.Errorf("no load row of the client in:\n%s", out)
	}
	// -switching: leaving the client for every other placement, on
	// today's four members.
	out, _, err = runCLI(t, "fleet", "-profile", prof, "-switching", "-sets", "2")
	if err != nil {
		t.Fatal(err)
	}
	sws, err := schema.ReadCSV[schema.Switch](strings.NewReader(out), "switching")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range sws {
		if r.Algo != "twemproxy-ketama-md5" || r.ToAlgo == r.Algo || r.Nodes != 4 || r.FirstNode != "10.0.0.1:11211" {
			t.Errorf("switching row %s -> %s on %d nodes from %s; want from the client on today's 4 members", r.Algo, r.ToAlgo, r.Nodes, r.FirstNode)
		}
	}
	if len(sws) == 0 {
		t.Error("no switching rows")
	}
	// A profile without changes has nothing to measure.
	if err := os.WriteFile(prof, []byte("nodes = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "fleet", "-profile", prof); err == nil || !strings.Contains(err.Error(), "no [[change]]") {
		t.Errorf("profile without changes: %v", err)
	}
}

// chbench fleet -replication measures every planned change at the
// profile's replication factor, a staged change whole (its first and last
// placement), on the membership it starts from: weights 2,1,1,1 growing
// by two nodes of weight 1 hand 2/7 of the weight over, and the leave
// after it one unit of 7. At replicas = 1 it is refused: the storms'
// moved fraction already is the replica movement.
func TestFleetReplication(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "r.toml")
	text := `
replicas = 2
node = [ { id = "a", weight = 2 }, { id = "b" }, { id = "c" }, { id = "d" } ]
[traffic]
keys = 2000
[[change]]
name = "grow-to-6"
join = [ { id = "e" }, { id = "f" } ]
step = 1
[[change]]
name = "drop-b"
after = "grow-to-6"
leave = ["b"]
`
	if err := os.WriteFile(prof, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := runCLI(t, "fleet", "-profile", prof, "-replication", "-algo", "rendezvous,ring", "-sets", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	rows, err := schema.ReadCSV[schema.Replication](strings.NewReader(out), "fleet replication")
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		algo, op string
		from, to int
	}
	want := map[key]float64{
		{"rendezvous", "grow-to-6", 4, 6}: 2.0 / 7, {"ring", "grow-to-6", 4, 6}: 2.0 / 7,
		{"rendezvous", "drop-b", 6, 5}: 1.0 / 7, {"ring", "drop-b", 6, 5}: 1.0 / 7,
	}
	if len(rows) != len(want) {
		t.Errorf("%d rows, want %d:\n%s", len(rows), len(want), out)
	}
	for _, r := range rows {
		ideal, ok := want[key{r.Algo, r.Op, r.From, r.To}]
		if !ok || r.Replicas != 2 || math.Abs(r.IdealFrac-ideal) > 1e-12 || r.Keys != 2000 || r.Placement != schema.PlacementFixed {
			t.Errorf("row %s %s %d -> %d: replicas %d ideal %v keys %d placement %s; want one of %v at R = 2, 2,000 keys, fixed", r.Algo, r.Op, r.From, r.To, r.Replicas, r.IdealFrac, r.Keys, r.Placement, want)
		}
	}
	if err := os.WriteFile(prof, []byte(strings.Replace(text, "replicas = 2", "replicas = 1", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "fleet", "-profile", prof, "-replication"); err == nil || !strings.Contains(err.Error(), "replicas = 1") {
		t.Errorf("-replication at R = 1: %v, want it refused naming replicas = 1", err)
	}
}

// chbench fleet -lookup-args prints the bench package's flags that time
// lookups at the profile's sizes: today's 4 members and the 6 after the
// growth (the leave after it is smaller), on the given placements, or
// with all on those that place a weighted fleet and the client; a
// program (exec:) is refused, the bench package builds catalog
// placements only.
func TestFleetLookupArgs(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "l.toml")
	if err := os.WriteFile(prof, []byte(`
client = "twemproxy-ketama-md5"
node = [ { id = "10.0.0.1:11211", weight = 2 }, { id = "10.0.0.2:11211" }, { id = "10.0.0.3:11211" }, { id = "10.0.0.4:11211" } ]
[[change]]
name = "grow-to-6"
join = [ { id = "10.0.0.5:11211" }, { id = "10.0.0.6:11211" } ]
[[change]]
name = "drop-2"
after = "grow-to-6"
leave = ["10.0.0.2:11211", "10.0.0.3:11211", "10.0.0.4:11211"]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "fleet", "-profile", prof, "-lookup-args", "-algo", "rendezvous,ring")
	if err != nil || out != "-fleet-nodes=4,6 -fleet-algos=rendezvous,ring\n" {
		t.Errorf("-lookup-args -algo rendezvous,ring: %q, %v", out, err)
	}
	out, _, err = runCLI(t, "fleet", "-profile", prof, "-lookup-args")
	if err != nil || !strings.HasPrefix(out, "-fleet-nodes=4,6 -fleet-algos=ring,rendezvous,") || !strings.HasSuffix(out, ",twemproxy-ketama-md5\n") || strings.Contains(out, "jump") {
		t.Errorf("-lookup-args: %q, %v; want the weighted algorithms and the client at 4 and 6 nodes", out, err)
	}
	if _, _, err := runCLI(t, "fleet", "-profile", prof, "-lookup-args", "-algo", "exec:./x"); err == nil || !strings.Contains(err.Error(), "exec:./x") {
		t.Errorf("-lookup-args with a program: %v, want it refused naming it", err)
	}
}

// A profile's trace is its key source: its 40 distinct keys (each once,
// though the key-count trace requests them 79 times) are the keys of the
// storms, the shares and the switch, and the working set when the
// profile gives none; the request load replays the trace's 79 requests
// instead of drawing Zipf ones. Weights 2,1,1,1 and one joining node of
// weight 1: ideal 1/6.
func TestFleetTraceKeys(t *testing.T) {
	dir := t.TempDir()
	var tr strings.Builder
	for i := range 40 {
		fmt.Fprintf(&tr, "key-%d\t%d\n", i, i%3+1) // 14 x 1 + 13 x 2 + 13 x 3 = 79 requests
	}
	trPath := filepath.Join(dir, "t.txt")
	if err := os.WriteFile(trPath, []byte(tr.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(dir, "t.toml")
	text := `
client = "ketama"
node = [ { id = "a", weight = 2 }, { id = "b" }, { id = "c" }, { id = "d" } ]
[traffic]
trace = "t.txt"
trace_format = "key-count"
[[change]]
name = "grow-to-5"
join = [ { id = "e" } ]
`
	if err := os.WriteFile(prof, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(extra ...string) string {
		t.Helper()
		out, stderr, err := runCLI(t, append([]string{"fleet", "-profile", prof, "-algo", "rendezvous,ketama", "-sets", "2"}, extra...)...)
		if err != nil {
			t.Fatalf("fleet %v: %v\n%s", extra, err, stderr)
		}
		return out
	}
	storms, err := schema.ReadCSV[schema.Storm](strings.NewReader(run()), "storms")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range storms {
		if r.Keys != 40 || r.WorkingSet != 40 || r.KeyFile != trPath || math.Abs(r.IdealFrac-1.0/6) > 1e-12 {
			t.Errorf("storm %s: keys %d working set %d key file %q ideal %v; want the trace's 40 distinct keys, %s, 1/6", r.Algo, r.Keys, r.WorkingSet, r.KeyFile, r.IdealFrac, trPath)
		}
	}
	shares, err := schema.ReadCSV[schema.ShareRow](strings.NewReader(run("-shares")), "shares")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range shares {
		if r.Keys != 40 { // shares rows carry no key_file column
			t.Errorf("share %s %s: keys %d; want the trace's 40", r.Algo, r.ID, r.Keys)
		}
	}
	sws, err := schema.ReadCSV[schema.Switch](strings.NewReader(run("-switching")), "switching")
	if err != nil {
		t.Fatal(err)
	}
	if len(sws) != 1 || sws[0].Keys != 40 || sws[0].WorkingSet != 40 || sws[0].ToAlgo != "rendezvous" {
		t.Errorf("switching rows %+v; want ketama -> rendezvous on 40 keys, working set 40", sws)
	}
	loads, err := schema.ReadCSV[schema.Load](strings.NewReader(run("-load")), "load")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range loads {
		if r.Zipf != nil || r.Requests != 79 {
			t.Errorf("load %s: zipf %v requests %d; want the trace's 79 requests, no Zipf law", r.Algo, r.Zipf, r.Requests)
		}
	}
	// A working set the profile gives is kept.
	if err := os.WriteFile(prof, []byte(strings.Replace(text, `trace_format = "key-count"`, "trace_format = \"key-count\"\nworking_set = 1000", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	storms, err = schema.ReadCSV[schema.Storm](strings.NewReader(run()), "storms")
	if err != nil {
		t.Fatal(err)
	}
	if len(storms) == 0 || storms[0].WorkingSet != 1000 || storms[0].Keys != 40 {
		t.Errorf("storms with working_set = 1000: %+v", storms)
	}
}

// A weighted profile without a client: -shares and -load leave out the
// algorithms that take no weights, as the storms do, and say so, instead
// of failing on the first of them.
func TestFleetWeightedWithoutClientSkipsEverywhere(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "p.toml")
	if err := os.WriteFile(prof, []byte(`
node = [ { id = "a" }, { id = "b" }, { id = "c", weight = 2 }, { id = "d" } ]
[traffic]
keys = 1000
requests = 2000
[[change]]
name = "drop-d"
leave = ["d"]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range [][]string{nil, {"-shares"}, {"-load"}} {
		args := append([]string{"fleet", "-profile", prof, "-sets", "2"}, mode...)
		out, stderr, err := runCLI(t, args...)
		if err != nil {
			t.Errorf("fleet %v: %v\n%s", mode, err, stderr)
			continue
		}
		if !strings.Contains(stderr, "chbench: skipping modulo, jump") {
			t.Errorf("fleet %v: stderr does not name the algorithms left out:\n%s", mode, stderr)
		}
		for l := range strings.Lines(out) {
			if strings.HasPrefix(l, "jump,") || strings.HasPrefix(l, "modulo,") {
				t.Errorf("fleet %v: an algorithm without weights measured on a weighted fleet: %s", mode, l)
			}
		}
		if !strings.Contains(out, "\nrendezvous,") {
			t.Errorf("fleet %v: no rendezvous row:\n%s", mode, out)
		}
	}
}
