package command

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/chbench/chbench/internal/exampleprog"
	"github.com/chbench/chbench/schema"
)

// An external placement (-algo exec:COMMAND, here the textbook ring of
// examples/python) replays beside catalog placements in one run: it is
// labelled by its handshake's name, sees the same requests and gets as
// the catalog ones (one trace, read once for all), accounts every get as
// a hit or a database read, and the join reaches the program: the node
// that joins takes gets after the join in its replay, and none before.
func TestSimulateExternalPlacement(t *testing.T) {
	ring := exampleprog.PythonCommand(t, "examples/python/ring.py")
	prefix := filepath.Join(t.TempDir(), "sim")
	var stderr bytes.Buffer
	err := run([]string{"simulate", "-algo", "ring,jump,exec:" + ring, "-nodes", "4", "-keys", "2000", "-requests", "20000",
		"-rate", "1000", "-memory", "64KiB", "-join-n", "1", "-window", "2s", "-baseline", "2", "-seed", "3",
		"-commit", "test", "-format", "csv", "-o", prefix}, &bytes.Buffer{}, &stderr)
	if err != nil {
		t.Fatalf("simulate: %v\n%s", err, stderr.String())
	}
	summary := readRows[schema.SimSummary](t, prefix+"-summary.csv")
	if len(summary) != 3 {
		t.Fatalf("%d summary rows, want 3 (ring, jump, the program)", len(summary))
	}
	ext := summary[2]
	if ext.Algo != "textbook-ring" {
		t.Errorf("the program's row is labelled %q, want its handshake name textbook-ring", ext.Algo)
	}
	for _, s := range summary {
		if s.Requests != summary[0].Requests || s.Gets != summary[0].Gets {
			t.Errorf("%s: %d requests, %d gets; ring saw %d, %d from the same workload", s.Algo, s.Requests, s.Gets, summary[0].Requests, summary[0].Gets)
		}
		if s.Hits+s.DBReads != s.Gets {
			t.Errorf("%s: %d hits + %d database reads != %d gets", s.Algo, s.Hits, s.DBReads, s.Gets)
		}
	}
	joinAt := -1.0
	for _, e := range readRows[schema.SimEvent](t, prefix+"-event.csv") {
		if e.Algo == ext.Algo {
			if !e.Reached || e.Kind != "join" || e.Node != "node-4" {
				t.Fatalf("the program's event: %+v, want a reached join of node-4", e)
			}
			joinAt = e.AtS
		}
	}
	if joinAt < 0 {
		t.Fatalf("no event row for %s", ext.Algo)
	}
	start := map[int]float64{} // window -> start_s in the program's replay
	for _, w := range readRows[schema.SimWindow](t, prefix+"-window.csv") {
		if w.Algo == ext.Algo {
			start[w.Window] = w.StartS
		}
	}
	var before, after int
	for _, n := range readRows[schema.SimNode](t, prefix+"-node.csv") {
		if n.Algo != ext.Algo || n.Node != "node-4" {
			continue
		}
		if start[n.Window] < joinAt {
			before += n.Gets
		} else {
			after += n.Gets
		}
	}
	// node-4 owns about 1/5 of the keys after the join: thousands of the
	// ~9,000 gets after it, so any positive count shows the program
	// rebalanced; none before, as it was not a member.
	if before != 0 || after == 0 {
		t.Errorf("node-4 in the program's replay: %d gets before the join, %d after; want 0 and > 0", before, after)
	}
}

func readRows[R schema.Row](t *testing.T, path string) []R {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := schema.ReadCSV[R](f, path)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
