package plots

import (
	"encoding/csv"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

// readFile reads the rows of type R of the results file at path, as
// RenderAll reads them.
func readFile[R schema.Row](path string) ([]R, error) {
	f, err := schema.OpenInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return schema.ReadCSV[R](f, path)
}

func readMove(path string) ([]schema.Move, error)        { return readFile[schema.Move](path) }
func readSpread(path string) ([]schema.Spread, error)    { return readFile[schema.Spread](path) }
func readWeights(path string) ([]schema.ShareRow, error) { return readFile[schema.ShareRow](path) }
func readStorm(path string) ([]schema.StormPoint, error) { return readFile[schema.StormPoint](path) }
func readLoad(path string) ([]schema.Load, error)        { return readFile[schema.Load](path) }
func readBounded(path string) ([]schema.Bounded, error)  { return readFile[schema.Bounded](path) }
func readReplication(path string) ([]schema.Replication, error) {
	return readFile[schema.Replication](path)
}

// parseBench is benchSets on r, naming it file.
func parseBench(r io.Reader, file string) ([]benchSet, error) {
	sets, err := schema.ParseBenchmarks(r, file)
	return plotSets(sets), err
}

// trafficFigures renders the traffic inputs of dir (load.csv,
// boundedloads.csv, hashes-sequential.csv), as RenderAll does, and
// returns the figures and the errors met.
func trafficFigures(dir string) ([]*figure, []error) {
	var figs []*figure
	var errs []error
	add := func(fs []*figure, err error) {
		figs = append(figs, fs...)
		errs = appendErr(errs, err)
	}
	add(figuresOf(dir, schema.LoadFile, loadFigures))
	add(figuresOf(dir, schema.BoundedFile, boundedFigures))
	add(figuresOf(dir, schema.HashesSequentialFile, sequentialHashesFigure))
	return figs, errs
}

// complete returns text, a CSV whose header names some columns of row
// type R, with R's other columns added at the end: an estimate's bounds
// take the estimate's value, counts and positive quantities 1, nullable
// values an empty cell, other numbers 0 and strings "". Tests name the
// columns they are about and leave the rest to it.
func complete[R schema.Row](t *testing.T, text string) string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	nullable := []string{"exact_peak_to_mean", "exact_cv", "exact_min_share", "exact_max_share", "exact_share",
		"placements", "placements_peak_to_mean", "placements_peak_to_mean_p5", "placements_peak_to_mean_p95",
		"placements_cv", "placements_cv_p5", "placements_cv_p95", "theory_peak_to_mean", "theory_cv", "load_factor",
		"key_load_over_bound", "key_load_over_bound_lo", "key_load_over_bound_hi", "partition_load_over_bound",
		"max_load_over_cap", "moves_per_cap_join", "moves_per_cap_join_lo", "moves_per_cap_join_hi",
		"moves_per_cap_leave", "moves_per_cap_leave_lo", "moves_per_cap_leave_hi",
		"object_bytes", "busiest_bytes", "bytes_peak_to_mean", "bytes_cv", "bytes_sample_rate",
		"bytes_peak_to_mean_lo", "bytes_peak_to_mean_hi", "bytes_max_share", "bytes_max_share_lo", "bytes_max_share_hi"}
	// peak-to-mean ratios are >= 1: a missing one is the even spread, 1.
	ones := []string{"from", "to", "nodes", "replicas", "keys", "sets", "steps", "ideal_frac", "weight", "working_set", "reads", "db_steady",
		"peak_to_mean", "peak_to_mean_lo", "peak_to_mean_hi", "load_peak_to_mean", "load_peak_to_mean_lo", "load_peak_to_mean_hi",
		"distinct_sets", "distinct_sets_lo", "distinct_sets_hi", "max_distinct_sets"}
	strs := []string{"algo", "hash", "op", "key_file", "key_kind", "placement", "label", "go_version", "commit", "noise_method", "hot_key_node", "id", "busiest_node"}
	head := recs[0]
	var add []string
	for _, c := range schema.Columns[R]() {
		if !slices.Contains(head, c) {
			add = append(add, c)
		}
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write(append(slices.Clone(head), add...))
	for _, rec := range recs[1:] {
		cell := func(c string) (string, bool) {
			if i := slices.Index(head, c); i >= 0 {
				return rec[i], true
			}
			return "", false
		}
		out := slices.Clone(rec)
		for _, c := range add {
			v := "0"
			switch base := strings.TrimSuffix(strings.TrimSuffix(c, "_lo"), "_hi"); {
			case base != c && func() bool { _, ok := cell(base); return ok }():
				v, _ = cell(base)
			case c == "expected_moves":
				v = "1000000"
			case c == "vnodes":
				v = "160"
			case slices.Contains(nullable, c), slices.Contains(strs, c):
				v = ""
			case slices.Contains(ones, c):
				v = "1"
			}
			out = append(out, v)
		}
		w.Write(out)
	}
	w.Flush()
	return b.String()
}
