package peers

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms/catalog"
)

const sample = `goos: linux
goarch: amd64
pkg: github.com/chbench/chbench/peers
BenchmarkPeerLookup/impl=chbench/algo=ring/nodes=1000-2  100  10 ns/op  0 B/op  0 allocs/op
BenchmarkPeerLookup/impl=chbench/algo=ring/nodes=1000-2  100  12 ns/op  0 B/op  0 allocs/op
BenchmarkPeerLookup/impl=chbench/algo=ring/nodes=1000-2  100  11 ns/op  0 B/op  0 allocs/op
BenchmarkPeerLookup/impl=chbench/algo=ring/nodes=1000-2  100  13 ns/op  0 B/op  0 allocs/op
BenchmarkPeerLookup/impl=chbench/algo=ring/nodes=1000-2  100  400 ns/op  0 B/op  0 allocs/op
BenchmarkPeerLookup/impl=groupcache/algo=ring/nodes=1000-2  100  42 ns/op  24 B/op  1 allocs/op
BenchmarkPeerLookup/impl=stathat/algo=ring/nodes=1000-2  100  30 ns/op  64 B/op  1 allocs/op
BenchmarkPeerLookup/impl=chbench/algo=jump/nodes=10-2  100  21 ns/op  0 B/op  0 allocs/op
BenchmarkPeerLookup/impl=go-jump/algo=jump/nodes=10-2  100  20 ns/op  0 B/op  0 allocs/op
BenchmarkPeerLookup/impl=chbench/algo=slots/nodes=10-2  100  20 ns/op  8 B/op  1 allocs/op
BenchmarkPeerLookup/impl=chbench/algo=slots/nodes=10-2  100  20 ns/op  0 B/op  0 allocs/op
BenchmarkLookup/algo=ring/nodes=1000/from=key-2  100  999 ns/op
this line is not a benchmark
BenchmarkPeerLookup/impl=chbench/algo=bad/nodes=x-2 oops
`

func read(t *testing.T, s string) (*Results, []error) {
	t.Helper()
	r, w, err := ReadResults(strings.NewReader(s), "sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	return r, w
}

func TestReadResultsMedian(t *testing.T) {
	r, warnings := read(t, sample)
	// The median of 10, 12, 11, 13, 400 ns is 12 ns (sec/op after tidying).
	m, n, err := r.Median(Cell{"chbench", "ring", 1000, 0}, "sec/op")
	if err != nil {
		t.Fatal(err)
	}
	if n != 5 || math.Abs(m-12e-9) > 1e-18 {
		t.Errorf("median = %v over %d samples, want 1.2e-08 over 5", m, n)
	}
	// Lookup (not PeerLookup) results are ignored.
	if _, _, err := r.Median(Cell{"", "ring", 1000, 0}, "sec/op"); !errors.Is(err, errMissing) {
		t.Errorf("BenchmarkLookup result was kept: err = %v", err)
	}
	// The malformed benchmark line is a warning naming its line.
	if len(warnings) != 1 || !strings.Contains(warnings[0].Error(), "sample.txt:17") {
		t.Errorf("warnings = %v, want one at sample.txt:17", warnings)
	}
}

func TestReadResultsBadNodes(t *testing.T) {
	_, _, err := ReadResults(strings.NewReader("BenchmarkPeerLookup/impl=a/algo=b/nodes=ten-2 1 5 ns/op\n"), "x.txt")
	if err == nil || !strings.Contains(err.Error(), `"ten"`) {
		t.Errorf("err = %v, want one naming nodes \"ten\"", err)
	}
}

func TestCheck(t *testing.T) {
	r, _ := read(t, sample)
	ch := func(algo string, n int) Cell { return Cell{"chbench", algo, n, 0} }
	targets := []Target{
		{Speedup, ch("ring", 1000), Cell{"groupcache", "ring", 1000, 0}, 3}, // 42/12 = 3.5
		{Speedup, ch("ring", 1000), Cell{"stathat", "ring", 1000, 0}, 3},    // 30/12 = 2.5
		{Ratio, ch("jump", 10), Cell{"go-jump", "jump", 10, 0}, 1.05},       // 21/20 = 1.05
		{Ratio, ch("jump", 10), Cell{"go-jump", "jump", 10, 0}, 1.04},       // 1.05 > 1.04
		{Ratio, ch("modulo", 10), Cell{"hash", "modulo", 10, 0}, 3},         // missing
		{Kind: ZeroAllocs, Cell: ch("ring", 1000)},                          // 0
		{Kind: ZeroAllocs, Cell: ch("slots", 10)},                           // one sample allocates
	}
	want := []struct {
		value float64
		pass  bool
	}{{3.5, true}, {2.5, false}, {1.05, true}, {1.05, false}, {0, false}, {0, true}, {1, false}}
	outs := Check(r, targets)
	for i, o := range outs {
		if math.Abs(o.Value-want[i].value) > 1e-9 || o.Pass != want[i].pass {
			t.Errorf("%v: value %v pass %v, want %v %v", o.Target, o.Value, o.Pass, want[i].value, want[i].pass)
		}
	}
	if !errors.Is(outs[4].Err, errMissing) || !strings.Contains(outs[4].Err.Error(), "impl=chbench/algo=modulo/nodes=10") {
		t.Errorf("missing cell error = %v, want one naming impl=chbench/algo=modulo/nodes=10", outs[4].Err)
	}
	var b strings.Builder
	failed, err := WriteReport(&b, outs)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if failed != 4 || len(lines) != len(outs)+1 || lines[len(lines)-1] != "3 of 7 targets met" {
		t.Fatalf("report (%d failed):\n%s", failed, b.String())
	}
	if !strings.HasPrefix(lines[0], "PASS  ring nodes=1000: chbench >= 3x faster than groupcache") ||
		!strings.HasSuffix(lines[0], "measured 3.50x (12.0 ns vs 42.0 ns, n=5/1)") {
		t.Errorf("line 1 = %q", lines[0])
	}
	if !strings.HasPrefix(lines[1], "FAIL  ring nodes=1000: chbench >= 3x faster than stathat") {
		t.Errorf("line 2 = %q", lines[1])
	}
}

// Every default target names cells BenchmarkPeerLookup produces: peers at
// NodeCounts, and chbench and hash cells that BenchCells lists.
func TestDefaultTargetsCells(t *testing.T) {
	peerImpls := map[string]bool{"groupcache": true, "stathat": true, "serialx": true, "go-rendezvous": true, "go-jump": true}
	ts := DefaultTargets()
	// 4 ring speed-ups, 1 rendezvous, 3 jump/go-jump, 15 against the hash
	// for the first five, 16 for the range hashes, 3 maglev, 6 anchor and
	// memento with removals, 3 multiprobe reports, and 0 allocs/op for
	// every catalog algorithm at NodeCounts.
	if want := 4 + 1 + 3 + 15 + 16 + 3 + 6 + 3 + 3*len(catalog.Names()); len(ts) != want {
		t.Errorf("%d default targets, want %d", len(ts), want)
	}
	for _, tg := range ts {
		cells := []Cell{tg.Cell}
		if tg.Kind != ZeroAllocs {
			cells = append(cells, tg.Other)
		}
		for _, c := range cells {
			switch {
			case peerImpls[c.Impl]:
				if !slices.Contains(NodeCounts, c.Nodes) || c.Removed != 0 {
					t.Errorf("target %v: peer cell %v is not benchmarked", tg, c)
				}
			case c.Impl == "chbench" || c.Impl == "hash":
				if !slices.Contains(BenchCells(c.Impl, c.Algo), c) {
					t.Errorf("target %v: cell %v is not in BenchCells", tg, c)
				}
			default:
				t.Errorf("target %v: unknown impl in %v", tg, c)
			}
		}
	}
}

func TestBenchCells(t *testing.T) {
	got := BenchCells("chbench", "anchor")
	want := []Cell{
		{"chbench", "anchor", 10, 0}, {"chbench", "anchor", 100, 0}, {"chbench", "anchor", 1000, 0},
		{"chbench", "anchor", 10, 1}, {"chbench", "anchor", 100, 10}, {"chbench", "anchor", 1000, 100},
	}
	if !slices.Equal(got, want) {
		t.Errorf("BenchCells(chbench, anchor) = %v, want %v", got, want)
	}
	if got := BenchCells("hash", "fliphash"); len(got) != 4 || got[3] != (Cell{"hash", "fliphash", 10000, 0}) {
		t.Errorf("BenchCells(hash, fliphash) = %v, want NodeCounts and 10000", got)
	}
	if got := BenchCells("hash", "modulo"); len(got) != len(NodeCounts) {
		t.Errorf("BenchCells(hash, modulo) = %v, want NodeCounts only", got)
	}
}

const sampleNew = `BenchmarkPeerLookup/impl=chbench/algo=jump/nodes=1000/removed=100-2  100  30 ns/op  0 B/op  0 allocs/op
BenchmarkPeerLookup/impl=chbench/algo=jump/nodes=1000-2  100  20 ns/op  0 B/op  0 allocs/op
BenchmarkPeerLookup/impl=hash/algo=jump/nodes=1000-2  100  10 ns/op  0 B/op  0 allocs/op
`

// Removal cells are their own cells; a reported ratio has no bound; a
// target whose algorithm the catalog lacks is not measured, neither met nor
// failed.
func TestCheckRemovedReportAndNotMeasured(t *testing.T) {
	r, _ := read(t, sampleNew)
	targets := []Target{
		{Ratio, Cell{"chbench", "jump", 1000, 100}, Cell{"hash", "jump", 1000, 0}, 2}, // 30/10 = 3: fails
		{Ratio, Cell{"chbench", "jump", 1000, 0}, Cell{"hash", "jump", 1000, 0}, 2},   // 20/10 = 2: met
		{Kind: Report, Cell: Cell{"chbench", "jump", 1000, 100}, Other: Cell{"hash", "jump", 1000, 0}},
		{Ratio, Cell{"chbench", "no-such-algo", 10, 0}, Cell{"hash", "no-such-algo", 10, 0}, 2},
	}
	outs := Check(r, targets)
	want := []struct {
		value       float64
		pass, notMe bool
	}{{3, false, false}, {2, true, false}, {3, true, false}, {0, false, true}}
	for i, o := range outs {
		if math.Abs(o.Value-want[i].value) > 1e-9 || o.Pass != want[i].pass || o.NotMeasured != want[i].notMe {
			t.Errorf("%v: value %v pass %v not measured %v, want %+v", o.Target, o.Value, o.Pass, o.NotMeasured, want[i])
		}
	}
	var b strings.Builder
	failed, err := WriteReport(&b, outs)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if failed != 1 || lines[len(lines)-1] != "1 of 2 targets met, 1 reported without a bound, 1 not measured (algorithm not in the catalog)" {
		t.Fatalf("report (%d failed):\n%s", failed, b.String())
	}
	for i, prefix := range []string{
		"FAIL  jump nodes=1000 removed=100: chbench time / hash time <= 2",
		"PASS  jump nodes=1000: chbench time / hash time <= 2",
		"INFO  jump nodes=1000 removed=100: chbench time / hash time (reported, no bound)",
		"SKIP  no-such-algo nodes=10: chbench time / hash time <= 2",
	} {
		if !strings.HasPrefix(lines[i], prefix) {
			t.Errorf("line %d = %q, want prefix %q", i+1, lines[i], prefix)
		}
	}
	if !strings.Contains(lines[3], `not measured: algorithm "no-such-algo" is not in the catalog`) {
		t.Errorf("line 4 = %q", lines[3])
	}
}

func TestReadResultsBadRemoved(t *testing.T) {
	_, _, err := ReadResults(strings.NewReader("BenchmarkPeerLookup/impl=a/algo=b/nodes=10/removed=x-2 1 5 ns/op\n"), "x.txt")
	if err == nil || !strings.Contains(err.Error(), `removed "x"`) {
		t.Errorf("err = %v, want one naming removed \"x\"", err)
	}
}
