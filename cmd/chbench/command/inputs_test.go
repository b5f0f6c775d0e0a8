package command

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/schema"
)

// writeMembers writes the 40-node fleet of the examples: cache-01:11211
// .. cache-40:11211, the first eight of weight 2, and returns its path.
func writeMembers(t *testing.T, dir string, n int) string {
	t.Helper()
	var b strings.Builder
	for i := 1; i <= n; i++ {
		w := 1
		if i <= 8 {
			w = 2
		}
		fmt.Fprintf(&b, "cache-%02d:11211,%d\n", i, w)
	}
	p := filepath.Join(dir, "members.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// writeKeys writes n keys key0 ... key{n-1}, one a line, and returns the path.
func writeKeys(t *testing.T, dir string, n int) string {
	t.Helper()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "key%d\n", i)
	}
	p := filepath.Join(dir, "keys.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// load takes -keyfile as move and spread do: the file's 3,000 keys dealt
// into 3 request streams of 1,000, each stream's Zipf law spanning its
// own set, so the hottest key carries exactly 1/H(1000, 1) of requests;
// the rows record the file as their key source and its total as keys.
func TestLoadTakesAKeyFile(t *testing.T) {
	dir := t.TempDir()
	keys := writeKeys(t, dir, 3000)
	out, _, err := runCLI(t, "load", "-algo", "ring,slots", "-nodes", "10", "-keyfile", keys, "-sets", "3", "-requests", "3000", "-zipf", "1", "-format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := schema.ReadCSV[schema.Load](strings.NewReader(out), "load.csv")
	if err != nil {
		t.Fatal(err)
	}
	h, _ := analysis.HarmonicNumber(1000, 1)
	for _, r := range rows {
		if r.Keys != 3000 || r.Sets != 3 || r.KeyFile != keys || math.Abs(r.HotShare-1/h) > 1e-12 {
			t.Errorf("%s: keys %d sets %d key file %q hot share %v; want 3000, 3, %q, %v", r.Algo, r.Keys, r.Sets, r.KeyFile, r.HotShare, keys, 1/h)
		}
	}
	if _, _, err := runCLI(t, "load", "-keyfile", keys, "-keys", "10"); err == nil || !strings.Contains(err.Error(), "the file's keys are the keys") {
		t.Errorf("-keyfile with -keys: err = %v", err)
	}
}

// spread and load take -members as move, replication and storm do: the
// file's 40 named, weighted nodes.
func TestSpreadAndLoadTakeMembers(t *testing.T) {
	members := writeMembers(t, t.TempDir(), 40)
	out, _, err := runCLI(t, "spread", "-algo", "rendezvous", "-members", members, "-keys", "4000", "-sets", "2", "-draws", "0", "-format", "csv", "-shares")
	if err != nil {
		t.Fatal(err)
	}
	shares, err := schema.ReadCSV[schema.ShareRow](strings.NewReader(out), "weights.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(shares) != 40 || shares[0].ID != "cache-01:11211" || shares[0].Weight != 2 || shares[39].Weight != 1 {
		t.Errorf("spread -members: %d rows, first %+v", len(shares), shares[0])
	}
	out, _, err = runCLI(t, "load", "-algo", "rendezvous", "-members", members, "-keys", "1000", "-requests", "2000", "-sets", "2", "-zipf", "1", "-format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if rows, err := schema.ReadCSV[schema.Load](strings.NewReader(out), "load.csv"); err != nil || rows[0].Nodes != 40 || rows[0].FloorMinNode != 2*rows[0].Floor {
		t.Errorf("load -members: %v, %+v; want 40 nodes and the smallest node's floor twice the largest's", err, rows)
	}
}

// On nodes the user named, the default layout is theirs: -placement
// defaults to fixed (every key set on the given IDs, unsalted, as the
// user's client builds it); asking for per-set there is allowed and said
// on stderr to describe random layouts like the user's, not theirs.
func TestNamedNodesDefaultToTheirLayout(t *testing.T) {
	members := writeMembers(t, t.TempDir(), 40)
	args := []string{"move", "-algo", "ketama", "-members", members, "-join", "cache-41:11211", "-keys", "20000", "-sets", "3", "-format", "csv"}
	out, stderr, err := runCLI(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := schema.ReadCSV[schema.Move](strings.NewReader(out), "move.csv")
	if err != nil || rows[0].Placement != schema.PlacementFixed || strings.Contains(stderr, "salted") {
		t.Errorf("named nodes: placement %q (%v), stderr %q; want fixed, no note", rows[0].Placement, err, stderr)
	}
	_, stderr, err = runCLI(t, append(args, "-placement", "per-set")...)
	if err != nil || !strings.Contains(stderr, "salted IDs (r<s>/ID), so their numbers describe random layouts like yours, not yours") {
		t.Errorf("per-set on named nodes: %v, stderr %q; want the salting said", err, stderr)
	}
	// Generated names keep per-set: the numbers cover layouts.
	out, _, err = runCLI(t, "move", "-algo", "ketama", "-from", "40", "-keys", "20000", "-sets", "3", "-format", "csv")
	if rows, rerr := schema.ReadCSV[schema.Move](strings.NewReader(out), "move.csv"); err != nil || rerr != nil || rows[0].Placement != schema.PlacementPerSet {
		t.Errorf("generated names: %v %v %+v; want per-set", err, rerr, rows)
	}
}

// Staged growth is one command, not a loop of them: move -from N -to M
// -step K reports each step (op grow-step, from n to n+K) and the whole
// (op grow); named joins staged with -step likewise (join-step, join);
// storm -step gives each step its own storm; replication refuses -step,
// since it compares the placements before and after the whole change.
func TestStagedChanges(t *testing.T) {
	ops := func(out string) (got []string) {
		rows, err := schema.ReadCSV[schema.Move](strings.NewReader(out), "move.csv")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			got = append(got, fmt.Sprintf("%s %d-%d", r.Op, r.From, r.To))
		}
		return got
	}
	out, _, err := runCLI(t, "move", "-algo", "jump", "-from", "40", "-to", "44", "-step", "2", "-keys", "5000", "-sets", "2", "-format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(ops(out), ", "), "grow-step 40-42, grow-step 42-44, grow 40-44"; got != want {
		t.Errorf("move -from 40 -to 44 -step 2: %s, want %s", got, want)
	}
	members := writeMembers(t, t.TempDir(), 10)
	out, _, err = runCLI(t, "move", "-algo", "rendezvous", "-members", members, "-join", "new-1", "-join", "new-2", "-step", "1", "-keys", "5000", "-sets", "2", "-format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(ops(out), ", "), "join-step 10-11, join-step 11-12, join 10-12"; got != want {
		t.Errorf("named joins with -step 1: %s, want %s", got, want)
	}
	out, _, err = runCLI(t, "storm", "-algo", "jump", "-from", "40", "-to", "43", "-step", "1", "-keys", "5000", "-sets", "2", "-format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if rows, err := schema.ReadCSV[schema.Storm](strings.NewReader(out), "storm.csv"); err != nil || len(rows) != 3 || rows[2].Op != "grow-step" || rows[2].From != 42 {
		t.Errorf("storm -step 1: %v, %d rows; want 3 grow-step storms", err, len(rows))
	}
	if _, _, err := runCLI(t, "replication", "-algo", "jump", "-from", "40", "-to", "43", "-step", "1"); err == nil || !strings.Contains(err.Error(), "chbench move -step reports each step") {
		t.Errorf("replication -step: %v", err)
	}
}
