package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chbench/chbench/fleet"
	"github.com/chbench/chbench/schema"
)

// stormRow is one fleet-storm.csv row of algo on op from -> to: moved
// fraction f in [lo, hi] against ideal, on a fleet reading 1,000 reads/s
// at hit ratio 0.9 over 1,000 keys (so extra reads h f K = 900 f).
func stormRow(algo, op string, from, to int, f, lo, hi, ideal float64) schema.Storm {
	const q, h, k = 1000.0, 0.9, 1000
	return schema.Storm{
		Op: op, From: from, To: to, Reads: q, HitRatio: h, WorkingSet: k,
		MovedFrac: f, MovedFracLo: new(lo), MovedFracHi: new(hi), IdealFrac: ideal,
		HitAfter: h * (1 - f), HitAfterLo: new(h * (1 - hi)), HitAfterHi: new(h * (1 - lo)),
		DBReads: q * (1 - h*(1-f)), DBReadsLo: new(q * (1 - h*(1-lo))), DBReadsHi: new(q * (1 - h*(1-hi))), DBSteady: q * (1 - h),
		DBMultiple: (1 - h*(1-f)) / (1 - h), DBMultipleLo: new((1 - h*(1-lo)) / (1 - h)), DBMultipleHi: new((1 - h*(1-hi)) / (1 - h)),
		ExtraDBReads: h * f * k, ExtraDBReadsLo: new(h * lo * k), ExtraDBReadsHi: new(h * hi * k),
		RecoveryS: 1, RecoverySLo: new(1.0), RecoverySHi: new(1.0), TauS: 1,
		Config: schema.Config{Algo: algo, Hash: "xxhash", Keys: 1000, Sets: 2, Seed: 1, Placement: schema.PlacementFixed, GoVersion: "go1.26", Commit: "test"},
	}
}

// The fleet section answers for the profile's fleet from fleet-storm.csv:
// its members by weight class, the client, the fixed layout; per change
// each algorithm's moved fraction and extra database reads, a staged
// change summed over its steps, the step past 1.5x its ideal named, an
// algorithm that did not follow a reweight (moved under half its ideal)
// left out of the comparison rather than called cheapest, and the client
// compared with the least whose interval it does not overlap.
func TestFleetSection(t *testing.T) {
	fp, err := fleet.Parse(strings.NewReader(`
name = "tiny"
client = "ketama"
node = [ { id = "a", weight = 2 }, { id = "b" }, { id = "c" }, { id = "d" } ]
[traffic]
reads_per_second = 1000
hit_ratio = 0.9
working_set = 1000
[[change]]
name = "grow-to-6"
join = [ { id = "e" }, { id = "f" } ]
step = 1
[[change]]
name = "b-doubled"
reweight = [ { id = "b", weight = 2 } ]
`), "tiny.toml")
	if err != nil {
		t.Fatal(err)
	}
	rows := []schema.Storm{
		// Steps 4 -> 5 and 5 -> 6: ideal 1/6 and 1/7 of the keys.
		stormRow("rendezvous", "grow-to-6-step", 4, 5, 0.17, 0.16, 0.18, 1.0/6),
		stormRow("rendezvous", "grow-to-6-step", 5, 6, 0.14, 0.13, 0.15, 1.0/7),
		stormRow("ketama", "grow-to-6-step", 4, 5, 0.17, 0.16, 0.18, 1.0/6),
		stormRow("ketama", "grow-to-6-step", 5, 6, 0.30, 0.28, 0.32, 1.0/7), // 2.1x its ideal
		stormRow("rendezvous", "b-doubled", 4, 4, 0.19, 0.18, 0.20, 0.2),
		stormRow("ketama", "b-doubled", 4, 4, 0.40, 0.38, 0.42, 0.2),
		stormRow("bounded", "b-doubled", 4, 4, 0, 0, 0, 0.2),
	}
	dir := copyRun(t, nil)
	f, err := os.Create(schema.FleetStormFile.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.WriteCSV(f, rows); err != nil {
		t.Fatal(err)
	}
	f.Close()
	share := func(algo, id string, w, ws, sh float64) schema.ShareRow {
		return schema.ShareRow{Nodes: 4, Share: schema.Share{ID: id, Weight: w, WeightShare: ws, Share: sh, ShareLo: new(sh - 0.01), ShareHi: new(sh + 0.01), Error: sh - ws},
			Config: schema.Config{Algo: algo, Hash: "xxhash", Keys: 1000, Sets: 2, Seed: 1, Placement: schema.PlacementFixed, GoVersion: "go1.26", Commit: "test"}}
	}
	var shares []schema.ShareRow
	for _, a := range []struct {
		algo string
		sh   [4]float64
	}{{"ketama", [4]float64{0.40, 0.25, 0.20, 0.15}}, {"rendezvous", [4]float64{0.41, 0.20, 0.20, 0.19}}} {
		for i, id := range []string{"a", "b", "c", "d"} {
			w := 1.0
			if i == 0 {
				w = 2
			}
			shares = append(shares, share(a.algo, id, w, w/5, a.sh[i]))
		}
	}
	f, err = os.Create(schema.FleetSharesFile.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.WriteCSV(f, shares); err != nil {
		t.Fatal(err)
	}
	f.Close()
	z := 0.99
	load := func(algo string, p2m float64) schema.Load {
		return schema.Load{Nodes: 4, Zipf: &z, Requests: 1000, PeakToMean: p2m, PeakToMeanLo: new(p2m - 0.1), PeakToMeanHi: new(p2m + 0.1),
			CV: 0.1, CVLo: new(0.05), CVHi: new(0.15), MaxShare: 0.5, MaxShareLo: new(0.45), MaxShareHi: new(0.55), HotShare: 0.3, HotShareLo: new(0.3), HotShareHi: new(0.3),
			Floor: 1, FloorMinNode: 1.5, FloorHotNode: 1.5, HotKeyNode: "b", HotIsBusiest: 1,
			Config: schema.Config{Algo: algo, Hash: "xxhash", Keys: 1000, Sets: 2, Seed: 1, GoVersion: "go1.26", Commit: "test"}}
	}
	f, err = os.Create(schema.FleetLoadFile.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.WriteCSV(f, []schema.Load{load("ketama", 2.0), load("rendezvous", 1.6)}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	sw := func(to string, f float64) schema.Switch {
		r := stormRow("ketama", "x", 4, 4, f, f-0.01, f+0.01, 1)
		return schema.Switch{ToAlgo: to, Nodes: 4, Weights: "2,1,1,1", FirstNode: "a", LastNode: "d",
			DifferFrac: f, DifferFracLo: new(f - 0.01), DifferFracHi: new(f + 0.01), Reads: r.Reads, HitRatio: r.HitRatio, WorkingSet: r.WorkingSet,
			HitAfter: r.HitAfter, HitAfterLo: r.HitAfterLo, HitAfterHi: r.HitAfterHi, DBReads: r.DBReads, DBReadsLo: r.DBReadsLo, DBReadsHi: r.DBReadsHi,
			DBSteady: r.DBSteady, DBMultiple: r.DBMultiple, DBMultipleLo: r.DBMultipleLo, DBMultipleHi: r.DBMultipleHi,
			ExtraDBReads: r.ExtraDBReads, ExtraDBReadsLo: r.ExtraDBReadsLo, ExtraDBReadsHi: r.ExtraDBReadsHi,
			RecoveryS: 1, RecoverySLo: new(1.0), RecoverySHi: new(1.0), TauS: 1, Config: r.Config}
	}
	f, err = os.Create(schema.FleetSwitchingFile.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.WriteCSV(f, []schema.Switch{sw("rendezvous", 0.8), sw("bounded", 0.9)}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	rep := render(t, dir, FromFleet(fp))
	sec, _, _ := strings.Cut(rep[strings.Index(rep, "## Your fleet"):], "## Verdicts")
	for _, want := range []string{
		"- **Members**: 4 today (`a` .. `d`); 1 of weight 2, 3 of weight 1.",
		"- **Client today**: `ketama`, measured below beside every other algorithm.",
		"- **Layout**: fixed",
		"(1 = exactly its weight's part; a node at 1.20 holds 1.2 times its weight's part of the keys, assuming values of one size)",
		"1,000 reads/s at hit ratio 90.00% (100 reads/s reach the database), a working set of 1,000 keys",
		// Staged: 0.17 + 0.14 = 31% moved, 900 x 0.31 = 279 extra reads; the
		// peak is the worse step, 1,000 (1 - 0.9 x 0.83) = 253 reads/s.
		"**grow-to-6** (staged join, 4 -> 6 nodes, 1 at a time): ideal 30.95% of the keys move",
		"| `rendezvous` | 31.00% | 1.00x | 253 | 279 [261, 297] | 1.00 s |",
		"| `ketama` (today) | 47.00% | 1.52x | 370 | 423 [396, 450] | 1.00 s |",
		"Least database load: `rendezvous` (279 extra reads). Your client `ketama` adds 423 extra reads, 1.52x the least.",
		"`ketama` at 5 -> 6 (2.10x)",
		// Weight shares 0.4, 0.2, 0.2, 0.2: ketama's b holds 0.25 / 0.2 =
		// 1.25x its part (interval (0.25 -+ 0.01) / 0.2), d 0.75x;
		// rendezvous's fullest, a, 0.41 / 0.4.
		"| `rendezvous` | `a` (weight 2) | 1.02 [1.00, 1.05] | `d` (weight 1) | 0.95 [0.90, 1.00] |",
		"| `ketama` (today) | `b` (weight 1) | 1.25 [1.20, 1.30] | `d` (weight 1) | 0.75 [0.70, 0.80] |",
		"Most even for this fleet (fullest node least over its weight, within the 95% intervals): `rendezvous`, whose fullest node holds 1.02x its weight's share.",
		"**In short**: of the most even placements for this fleet, `rendezvous` is among the least costly to the database on 2 of the 2 planned changes measured (grow-to-6, b-doubled). Your client `ketama` is not among the most even, and among the least costly on 0 of 2.",
		// Load rows sorted by peak-to-mean; the hot key (30% of requests)
		// gives floors 0.3 x 5 / 2 = 0.75 -> 1 on the weight-2 node and
		// 0.3 x 5 / 1 = 1.5 on a weight-1 node, as the rows say.
		"| `rendezvous` | 1.60 [1.50, 1.70] | `b` | 1.50 |\n| `ketama` (today) | 2.00 [1.90, 2.10] | `b` | 1.50 |",
		"The hottest key alone draws 30.00% of the requests",
		"On one of the largest nodes that floor is 1.00, on one of the smallest 1.50. The least measured peak-to-mean's interval reaches below the smallest node's floor",
		// Leaving ketama for rendezvous: 80% of keys, 900 x 0.8 = 720
		// extra reads once; rendezvous saves 423 - 279 + 360 - 171 = 333
		// on the two changes; bounded follows only the growth (no rows).
		"| `rendezvous` | 80.00% [79.00%, 81.00%] | 820 (8.20x steady) | 720 | 1.00 s |",
		"The cheapest switch, to `rendezvous`, re-routes 80.00% of the keys: 720 extra database reads once",
		"(the client's minus its own, summed over the changes both follow; negative: it costs more): `rendezvous` 333.",
		"Not followed: `bounded` (0.00x) moved less than half the ideal fraction",
		"Least database load: `rendezvous` (171 extra reads). Your client `ketama` adds 360 extra reads, 2.11x the least.",
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("fleet section lacks %q:\n%s", want, sec)
		}
	}
	// Without fleet-storm.csv the section says what is missing and how to
	// make it, and claims no cost.
	rep = render(t, runDir, FromFleet(fp))
	if !strings.Contains(rep, "The planned changes were not measured: `fleet-storm.csv` is not in this run (`make bench PROFILE=tiny.toml` writes it).") || strings.Contains(rep, "Least database load") {
		t.Errorf("fleet section without fleet-storm.csv:\n%s", rep)
	}
	// A directory holding only the fleet's files (make fleet alone) is a
	// run: the section is written, the rest says what is not in it.
	only := t.TempDir()
	f, err = os.Create(schema.FleetStormFile.Path(only))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.WriteCSV(f, rows); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if rep := render(t, only, FromFleet(fp)); !strings.Contains(rep, "| `rendezvous` | 31.00% |") {
		t.Errorf("fleet-only run lacks the fleet section:\n%s", rep)
	}
	if _, err := Load(only, DefaultProfile()); err == nil {
		t.Error("fleet files without a fleet profile: want no result files")
	}
	// Without a fleet profile there is no fleet section.
	if strings.Contains(render(t, runDir, DefaultProfile()), "## Your fleet") {
		t.Error("a fleet section without a fleet profile")
	}
}

// replRow is one fleet-replication.csv row of algo on change op, from ->
// to nodes at R = 3: pairs re-homed f in [f-0.01, f+0.01] against ideal,
// keys losing every replica lost in [0, 2 lost].
func replRow(algo, op string, from, to int, f, lost, ideal float64) schema.Replication {
	return schema.Replication{Replicas: 3, Op: op, From: from, To: to,
		PairsMovedFrac: f, PairsMovedFracLo: new(f - 0.01), PairsMovedFracHi: new(f + 0.01),
		AllLostFrac: lost, AllLostFracLo: new(0.0), AllLostFracHi: new(2 * lost), IdealFrac: ideal,
		LoadPeakToMean: 1.1, LoadPeakToMeanLo: new(1.0), LoadPeakToMeanHi: new(1.2), LoadCV: 0.1, LoadCVLo: new(0.05), LoadCVHi: new(0.15),
		DistinctSets: 4, DistinctSetsLo: new(4.0), DistinctSetsHi: new(4.0), MaxSets: 4,
		Config: schema.Config{Algo: algo, Hash: "xxhash", Keys: 1000, Sets: 2, Seed: 1, Placement: schema.PlacementFixed, GoVersion: "go1.26", Commit: "test"}}
}

// At R > 1 the fleet section gives, from fleet-replication.csv, each
// planned change's key-replica pairs re-homed against the ideal and the
// keys that lose every replica, per algorithm with their intervals,
// fewest first; the algorithms whose interval reaches the fewest are
// named, and those under which no key loses every replica. At R = 1 there
// is no such part, and without the file it says it was not measured.
func TestFleetReplicationSection(t *testing.T) {
	text := `
replicas = 3
client = "ketama"
node = [ { id = "a", weight = 2 }, { id = "b" }, { id = "c" }, { id = "d" } ]
[[change]]
name = "grow-to-6"
join = [ { id = "e" }, { id = "f" } ]
step = 1
[[change]]
name = "c-fails"
fail = ["c"]
`
	fp, err := fleet.Parse(strings.NewReader(text), "r3.toml")
	if err != nil {
		t.Fatal(err)
	}
	dir := copyRun(t, nil)
	f, err := os.Create(schema.FleetReplicationFile.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	// Weights 2,1,1,1: two joins of weight 1 hand 2/7 over, c failing 1/5.
	if err := schema.WriteCSV(f, []schema.Replication{
		replRow("ketama", "grow-to-6", 4, 6, 0.40, 0.002, 2.0/7),
		replRow("rendezvous", "grow-to-6", 4, 6, 0.29, 0, 2.0/7),
		replRow("ring", "grow-to-6", 4, 6, 0.30, 0.001, 2.0/7),
		replRow("ketama", "c-fails", 4, 3, 0.21, 0, 0.2),
		replRow("rendezvous", "c-fails", 4, 3, 0.20, 0, 0.2),
	}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	rep := render(t, dir, FromFleet(fp))
	sec, _, _ := strings.Cut(rep[strings.Index(rep, "## Your fleet"):], "## Verdicts")
	for _, want := range []string{
		"### The replicas on each planned change, R = 3",
		"**grow-to-6** (staged join, 4 -> 6 nodes): ideal 28.57% of the pairs re-homed.",
		// Fewest first; 0.29 / (2/7) = 1.015, 0.40 / (2/7) = 1.40.
		"| `rendezvous` | 29.00% [28.00%, 30.00%] | 1.01x | 0.000% [0.000%, 0.000%] |\n| `ring` | 30.00% [29.00%, 31.00%] | 1.05x | 0.100% [0.000%, 0.200%] |\n| `ketama` (today) | 40.00% [39.00%, 41.00%] | 1.40x | 0.200% [0.000%, 0.400%] |",
		// ring's low end 29% reaches rendezvous's high end 30%; ketama's 39% does not.
		"Fewest copies to make: `rendezvous`, `ring` (29.00% of the pairs, the least; the others' intervals reach it). No key loses every replica under `rendezvous`.",
		"**c-fails** (failure, 4 -> 3 nodes): ideal 20.00% of the pairs re-homed.",
		"| `rendezvous` | 20.00% [19.00%, 21.00%] | 1.00x | 0.000% [0.000%, 0.000%] |\n| `ketama` (today) | 21.00% [20.00%, 22.00%] | 1.05x | 0.000% [0.000%, 0.000%] |",
		"Fewest copies to make: `rendezvous`, `ketama` (20.00% of the pairs, the least; the others' intervals reach it). No key loses every replica under `rendezvous`, `ketama`.",
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("fleet section lacks %q:\n%s", want, sec)
		}
	}
	if rep := render(t, runDir, FromFleet(fp)); !strings.Contains(rep, "Not measured: `fleet-replication.csv` is not in this run (`make bench PROFILE=r3.toml` writes it).") {
		t.Errorf("fleet section without fleet-replication.csv:\n%s", rep)
	}
	r1, err := fleet.Parse(strings.NewReader(strings.Replace(text, "replicas = 3", "replicas = 1", 1)), "r1.toml")
	if err != nil {
		t.Fatal(err)
	}
	if rep := render(t, dir, FromFleet(r1)); strings.Contains(rep, "### The replicas on each planned change") {
		t.Errorf("a replicas part at R = 1:\n%s", rep)
	}
}

// The fleet section's lookups, from fleet-lookup.txt: each placement's
// benchmath median and 95% interval at today's size and the largest
// planned one, fastest at the largest first, the fastest named with
// those whose interval reaches it, and the client's multiple of it.
// Six samples a point: benchmath's distribution-free 95% interval is
// then the smallest to the largest sample.
func TestFleetLookupSection(t *testing.T) {
	fp, err := fleet.Parse(strings.NewReader(`
client = "ketama"
node = [ { id = "a", weight = 2 }, { id = "b" }, { id = "c" }, { id = "d" } ]
[[change]]
name = "grow-to-6"
join = [ { id = "e" }, { id = "f" } ]
`), "l.toml")
	if err != nil {
		t.Fatal(err)
	}
	var txt strings.Builder
	txt.WriteString("goos: linux\ngoarch: amd64\npkg: github.com/chbench/chbench/bench\ncpu: Test CPU\n")
	for _, s := range []struct {
		algo  string
		nodes int
		first int // samples first .. first+5 ns
	}{{"ketama", 4, 30}, {"ketama", 6, 40}, {"rendezvous", 4, 10}, {"rendezvous", 6, 20}, {"ring", 4, 8}, {"ring", 6, 9}} {
		for i := range 6 {
			fmt.Fprintf(&txt, "BenchmarkLookup/algo=%s/nodes=%d/from=key-2 \t 1000000\t %d ns/op\t 0 B/op\t 0 allocs/op\n", s.algo, s.nodes, s.first+i)
		}
	}
	dir := copyRun(t, nil)
	if err := os.WriteFile(filepath.Join(dir, schema.FleetLookupFile), []byte(txt.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := render(t, dir, FromFleet(fp))
	sec, _, _ := strings.Cut(rep[strings.Index(rep, "## Your fleet"):], "## Verdicts")
	for _, want := range []string{
		"### How fast is a lookup at this fleet's sizes",
		"on 4 and 6 nodes of weight 1",
		"| algorithm | at 4 nodes [95%] | at 6 nodes [95%] |\n|---|---|---|\n" +
			"| `ring` | 10.5 ns [8.00, 13.0] | 11.5 ns [9.00, 14.0] |\n" +
			"| `rendezvous` | 12.5 ns [10.0, 15.0] | 22.5 ns [20.0, 25.0] |\n" +
			"| `ketama` (today) | 32.5 ns [30.0, 35.0] | 42.5 ns [40.0, 45.0] |",
		// rendezvous's low end, 20, is past ring's high end, 14; 42.5 / 11.5 = 3.70.
		"Fastest at 6 nodes: `ring` (11.5 ns). Your client `ketama` takes 42.5 ns, 3.70x the fastest.",
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("fleet section lacks %q:\n%s", want, sec)
		}
	}
	if rep := render(t, runDir, FromFleet(fp)); !strings.Contains(rep, "Not measured: `fleet-lookup.txt` is not in this run") {
		t.Errorf("fleet section without fleet-lookup.txt:\n%s", rep)
	}
}

// With a trace as the profile's key source the section says the
// movement was measured on its distinct keys, that the working set is
// theirs when the profile gives none, and that the request load replays
// the trace (fleet-load.csv rows without a Zipf exponent) rather than a
// Zipf law.
func TestFleetTraceSection(t *testing.T) {
	fp, err := fleet.Parse(strings.NewReader(`
node = [ { id = "a", weight = 2 }, { id = "b" } ]
[traffic]
trace = "t.txt"
trace_format = "key-count"
`), "t.toml")
	if err != nil {
		t.Fatal(err)
	}
	dir := copyRun(t, nil)
	f, err := os.Create(schema.FleetLoadFile.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.WriteCSV(f, []schema.Load{{Nodes: 2, Requests: 79, PeakToMean: 1.2, PeakToMeanLo: new(1.1), PeakToMeanHi: new(1.3),
		CV: 0.1, CVLo: new(0.05), CVHi: new(0.15), MaxShare: 0.5, MaxShareLo: new(0.45), MaxShareHi: new(0.55), HotShare: 0.04, HotShareLo: new(0.04), HotShareHi: new(0.04),
		Floor: 1, FloorMinNode: 1, FloorHotNode: 1, HotKeyNode: "b",
		Config: schema.Config{Algo: "rendezvous", Hash: "xxhash", Keys: 79, Sets: 2, Seed: 1, KeyFile: "t.txt", GoVersion: "go1.26", Commit: "test"}}}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	rep := render(t, dir, FromFleet(fp))
	for _, want := range []string{
		"a working set of the trace's distinct keys, Zipf s = 0.99; movement measured on the distinct keys of the trace `t.txt`, each once in order of first appearance.",
		"Requests of the trace `t.txt`, replayed as recorded (79 requests), on today's members.",
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("fleet section lacks %q:\n%s", want, rep)
		}
	}
}
