package report

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chbench/chbench/internal/inputs"
	"github.com/chbench/chbench/schema"
)

// testdata/sim is a small run of chbench simulate (4 placements, 8 nodes
// of which 2 with twice the memory, 4 joining at 20 s), written with
// -format csv -o testdata/sim/sim.
const simDir = "testdata/sim"

// simSection renders the report of dir and returns its simulation
// section.
func simSection(t *testing.T, dir string) string {
	t.Helper()
	out := render(t, dir, DefaultProfile())
	_, sec, ok := strings.Cut(out, "## What does the planned change cost your cache fleet?")
	if !ok {
		t.Fatalf("no simulation section in\n%s", out)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	return sec
}

// The section's sentences come from the rows: the traffic and the fleet
// from sim-trace.csv and sim-summary.csv, the storm of the join from
// sim-event.csv (lowest peaks first, modulo's the highest), the hit
// ratios from sim-summary.csv (ring 84.39% - jump 83.95% = 0.44 points for
// the spread of all but modulo) and the memory classes from sim-node.csv.
func TestSimulateSection(t *testing.T) {
	sec := simSection(t, simDir)
	for _, want := range []string{
		"a generated workload, 40,000 requests over 40 s, 4,157 distinct keys",
		"8 LRU caches at the start (6 of 128 KiB, 2 of 256 KiB: 1.25 MiB in all)",
		"**Takeaway:** at 20 s, join node-8 ... node-11 (4 nodes): database reads peak at `maglev` (1.19x), `ring` (1.19x), `jump` (1.21x) up to `modulo` (1.67x) the baseline.",
		"up to `modulo` 444 (refilled after 10 s)",
		"down to `modulo` (82.66%). The other 3 lie within 0.44 percentage points of each other",
		"nodes of 256 KiB hit 86.09% of their gets, nodes of 128 KiB hit 83.86%",
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("section lacks %q:\n%s", want, sec)
		}
	}
}

// Changing one number in a file changes the sentence that reads it:
// modulo's peak multiple, and a warning of the trace reader.
func TestSimulateSectionFollowsTheRows(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{schema.SimWindowFile.Name, schema.SimNodeFile.Name, schema.SimEventFile.Name, schema.SimSummaryFile.Name, schema.SimTraceFile.Name} {
		b, err := os.ReadFile(filepath.Join(simDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := schema.SimEventFile.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range evs {
		if evs[i].Algo == "modulo" {
			m := 9.5
			evs[i].PeakMultiple = &m
		}
	}
	ts, err := schema.SimTraceFile.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	ts[0].Warnings = "every request comes from one client"
	inputs.Reset() // the files read above are this test's to rewrite, not a command's inputs
	for _, w := range []func() error{
		func() error {
			return schema.WriteFile(schema.SimEventFile.Path(dir), func(w io.Writer) error { return schema.WriteCSV(w, evs) })
		},
		func() error {
			return schema.WriteFile(schema.SimTraceFile.Path(dir), func(w io.Writer) error { return schema.WriteCSV(w, ts) })
		},
	} {
		if err := w(); err != nil {
			t.Fatal(err)
		}
	}
	sec := simSection(t, dir)
	for _, want := range []string{"up to `modulo` (9.50x) the baseline", "(the reader warns: every request comes from one client)"} {
		if !strings.Contains(sec, want) {
			t.Errorf("section lacks %q:\n%s", want, sec)
		}
	}
	if sec := simSection(t, runDir); !strings.Contains(sec, "not in this run (no sim-summary.csv)") {
		t.Errorf("a run without a simulation:\n%s", sec)
	}
}
