package plots

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis/simulate"
	"github.com/chbench/chbench/schema"
	"github.com/chbench/chbench/workload"
)

// simDir writes the rows of a small simulation of algos (6 nodes, node-0
// with twice the memory, two nodes joining at 10 s) into a results
// directory.
func simDir(t *testing.T, algos []string) string {
	t.Helper()
	nodes, err := algorithms.DefaultNodes(6)
	if err != nil {
		t.Fatal(err)
	}
	cfg := simulate.Config{Nodes: nodes, Capacity: simulate.Capacity{PerWeight: 64 << 10, PerNode: map[string]int64{"node-0": 128 << 10}},
		Window: 2 * time.Second, Baseline: 2, ItemOverhead: 50,
		Events: []simulate.Event{{At: 10 * time.Second, Kind: simulate.Join, Node: algorithms.Node{ID: "node-6", Weight: 1}},
			{At: 10 * time.Second, Kind: simulate.Join, Node: algorithms.Node{ID: "node-7", Weight: 1}}}}
	var ps []simulate.Placement
	for _, a := range algos {
		l, err := catalog.NewLocator(a, nodes, catalog.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, simulate.Placement{Locator: l})
	}
	w, err := workload.New(workload.Config{Keys: 2000, Zipf: 0.9, Requests: 12000, Rate: 600, Seed: 3,
		Values: workload.Sizes{Kind: workload.Fixed, Size: 100}, Clients: 2})
	if err != nil {
		t.Fatal(err)
	}
	out, err := simulate.Run(w, ps, cfg)
	if err != nil {
		t.Fatal(err)
	}
	rows := out.Rows(cfg, schema.Config{Hash: "xxhash", VNodes: 160, Seed: 3})
	dir := t.TempDir()
	for _, wr := range []func() error{
		func() error { return writeRows(dir, schema.SimWindowFile, rows.Windows) },
		func() error { return writeRows(dir, schema.SimNodeFile, rows.Nodes) },
		func() error { return writeRows(dir, schema.SimEventFile, rows.Events) },
		func() error { return writeRows(dir, schema.SimSummaryFile, rows.Summary) },
		func() error { return writeRows(dir, schema.SimTraceFile, rows.Trace) },
	} {
		if err := wr(); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func writeRows[R schema.Row](dir string, f schema.File[R], rows []R) error {
	fh, err := os.Create(f.Path(dir))
	if err != nil {
		return err
	}
	defer fh.Close()
	return schema.WriteCSV(fh, rows)
}

// A simulation's files give its six plots: the time series drawn in
// family panels once there are more than eight placements, with one
// dashed line for the two joins at one time; the storms with one panel
// for that time; the node hit ratios with a panel per memory and per
// initial or joined node.
func TestSimFigures(t *testing.T) {
	dir := simDir(t, catalog.Names()[:10])
	figs, err := simFiguresFrom(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range figs {
		names = append(names, f.name)
	}
	want := []string{"sim-hit-ratio", "sim-db-reads", "sim-storm-peak", "sim-storm-extra", "sim-storm-refill", "sim-node-hit-ratio"}
	if !slices.Equal(names, want) {
		t.Fatalf("figures %v, want %v", names, want)
	}
	if len(figs[0].panels) < 2 {
		t.Errorf("hit ratio of 10 placements: %d panels, want one per family", len(figs[0].panels))
	}
	if c := strings.Join(figs[0].caption, "\n"); !strings.Contains(c, "10 s: join node-6 ... node-7 (2 nodes)") || !strings.Contains(c, "generated workload: 12,000 requests") {
		t.Errorf("caption %q: want the traffic and the change", c)
	}
	if p := figs[2].title; !strings.Contains(p, "at 10 s: join node-6 ... node-7 (2 nodes)") {
		t.Errorf("storm title %q: want the change", p)
	}
	var titles []string
	for _, pn := range figs[5].panels {
		titles = append(titles, pn.title)
	}
	if want := []string{"members from the start with 64 KiB of memory", "members from the start with 128 KiB of memory", "nodes that joined later with 64 KiB of memory"}; !slices.Equal(titles, want) {
		t.Errorf("node panels %q, want %q", titles, want)
	}
}

// RenderAll draws the six plots of a simulation's files. One placement
// suffices: the drawing is the same code for any number, and each further
// placement's markers add rasterizing time under the race detector.
func TestSimFiguresRendered(t *testing.T) {
	dir := simDir(t, []string{"ring"})
	written, err := RenderAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"sim-hit-ratio", "sim-db-reads", "sim-storm-peak", "sim-storm-extra", "sim-storm-refill", "sim-node-hit-ratio"} {
		if !slices.Contains(written, filepath.Join(dir, schema.PlotsDir, n+".png")) {
			t.Errorf("%s.png not written (wrote %v)", n, written)
		}
	}
}

// A window file whose rows have no hit ratio at all (no gets) is an error
// naming the file, not an empty plot.
func TestSimFiguresWithoutGets(t *testing.T) {
	dir := simDir(t, []string{"ring"})
	rows, err := schema.SimWindowFile.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		rows[i].Gets, rows[i].Hits, rows[i].DBReads, rows[i].HitRatio = 0, 0, 0, nil
	}
	if err := writeRows(dir, schema.SimWindowFile, rows); err != nil {
		t.Fatal(err)
	}
	_, err = simFiguresFrom(dir)
	if err == nil || !strings.Contains(err.Error(), schema.SimWindowFile.Name) || !strings.Contains(err.Error(), "no window has a value") {
		t.Errorf("error %v, want one naming %s", err, schema.SimWindowFile.Name)
	}
}
