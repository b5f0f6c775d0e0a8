package schema

import (
	"strings"
	"testing"
)

// wantColumnErr fails unless err is a *ColumnError about column col whose
// message contains msg.
func wantColumnErr(t *testing.T, what string, err error, col, msg string) {
	t.Helper()
	ce, ok := err.(*ColumnError)
	if !ok || ce.Column != col || !strings.Contains(ce.Msg, msg) {
		t.Errorf("%s: error %v, want column %s: ...%s...", what, err, col, msg)
	}
}

// A peak-to-mean ratio (and its interval) above W / the smallest weight
// is refused where the row knows its weights: an algorithm that takes
// none (equal weights: at most the node count), or a spread's JSON
// shares. A weighted algorithm's CSV row carries no weights and is not
// bounded.
func TestCheckPeakToMeanAtMostWhatTheNodesAllow(t *testing.T) {
	sp := func(algo string, nodes int, p, hi float64) Spread {
		r := filled[Spread]()
		r.Algo, r.Nodes, r.Sets = algo, nodes, 3
		r.PeakToMean, r.PeakToMeanLo, r.PeakToMeanHi = p, new(1.0), new(hi)
		r.ExactPeakToMean, r.PlacementsPeakToMean, r.PlacementsPeakToMeanP5, r.PlacementsPeakToMeanP95, r.BytesPeakToMean = nil, nil, nil, nil, nil
		r.Shares = nil
		return r
	}
	if err := Check(sp("jump", 10, 10, 10)); err != nil {
		t.Errorf("jump at 10 nodes, peak-to-mean 10 (one node holds everything): %v", err)
	}
	wantColumnErr(t, "jump, 10 nodes, 11", Check(sp("jump", 10, 11, 11)), "peak_to_mean", `"11" is above 10, the largest peak-to-mean ratio these nodes allow`)
	wantColumnErr(t, "jump, 10 nodes, hi 50", Check(sp("jump", 10, 2, 50)), "peak_to_mean_hi", `"50" is above 10`)
	if err := Check(sp("ring", 10, 11, 11)); err != nil {
		t.Errorf("ring CSV row (weights unknown) at 11: %v, want it accepted", err)
	}
	w := sp("ring", 3, 4.5, 4.5)
	w.Shares = []Share{{ID: "a", Weight: 1, WeightShare: 0.25, Share: 0.25}, {ID: "b", Weight: 1, WeightShare: 0.25, Share: 0.25}, {ID: "c", Weight: 2, WeightShare: 0.5, Share: 0.5}}
	wantColumnErr(t, "ring with shares of weights 1,1,2 at 4.5", Check(w), "peak_to_mean", `"4.5" is above 4,`)
	w.PeakToMean, w.PeakToMeanHi = 4, new(4.0)
	if err := Check(w); err != nil {
		t.Errorf("ring with shares of weights 1,1,2 at W / w_min = 4: %v", err)
	}

	l := filled[Load]()
	l.Algo, l.Nodes, l.PeakToMean, l.PeakToMeanLo, l.PeakToMeanHi = "modulo", 10, 25, new(1.44), new(26.0)
	l.BytesPeakToMean, l.BytesPeakToMeanLo, l.BytesPeakToMeanHi = nil, nil, nil
	wantColumnErr(t, "load, modulo, 10 nodes, 25", Check(l), "peak_to_mean", `"25" is above 10`)

	r := filled[Replication]()
	r.Algo, r.From, r.LoadPeakToMean, r.LoadPeakToMeanLo, r.LoadPeakToMeanHi = "jump", 10, 20, new(1.0), new(21.0)
	wantColumnErr(t, "replication, jump from 10, 20", Check(r), "load_peak_to_mean", `"20" is above 10`)
}

// A key set's distinct replica sets lie in [1, max_distinct_sets].
func TestCheckDistinctSets(t *testing.T) {
	r := filled[Replication]()
	r.MaxSets, r.DistinctSets, r.DistinctSetsLo, r.DistinctSetsHi = 10, 9, new(8.0), new(10.0)
	if err := Check(r); err != nil {
		t.Errorf("9 of 10 sets in [8, 10]: %v", err)
	}
	r.DistinctSets, r.DistinctSetsHi = 11, new(11.0)
	wantColumnErr(t, "11 of 10 sets", Check(r), "distinct_sets", "[1, max_distinct_sets] = [1, 10]")
	r.DistinctSets, r.DistinctSetsHi = 9, new(10.5)
	wantColumnErr(t, "interval to 10.5 of 10", Check(r), "distinct_sets_hi", "[1, max_distinct_sets] = [1, 10]")
	r.DistinctSetsLo, r.DistinctSetsHi = new(0.5), new(10.0)
	wantColumnErr(t, "interval from 0.5", Check(r), "distinct_sets_lo", "[1, max_distinct_sets]")
}

// One key set (one replay) gives no interval: a row that has one is
// refused, naming the interval's _lo column and the column that says so.
func TestCheckOneSampleHasNoInterval(t *testing.T) {
	s := filled[Spread]()
	s.Sets = 1
	wantColumnErr(t, "spread, sets = 1", Check(s), "min_share_lo", "an interval with sets = 1: a 95% interval needs at least two key sets")
	s.MinShareLo, s.MinShareHi, s.MaxShareLo, s.MaxShareHi, s.PeakToMeanLo, s.PeakToMeanHi = nil, nil, nil, nil, nil, nil
	s.CVLo, s.CVHi, s.KeyLoadOverBoundLo, s.KeyLoadOverBoundHi = nil, nil, nil, nil
	if err := Check(s); err != nil {
		t.Errorf("spread, sets = 1 without intervals: %v", err)
	}
	p := filledPropagate()
	if err := Check(p); err != nil {
		t.Fatal(err)
	}
	p.Replays = 1
	wantColumnErr(t, "propagate, replays = 1", Check(p), "stale_lo", "an interval with replays = 1: a 95% interval needs at least two replays")
}

// A miss storm's columns follow the warm-up model of its moved fraction:
// database reads within [db_steady, reads], the hit ratio after the
// change at most the steady one, the multiple at least 1.
func TestCheckWarmUpModel(t *testing.T) {
	for _, c := range []struct {
		name     string
		edit     func(*Storm)
		col, msg string
	}{
		{"db_reads 60000 > reads 50000", func(r *Storm) { r.DBReads, r.DBReadsHi = 60000, new(60000.0) }, "db_reads", "is not reads x (1 - hit_after)"},
		{"db_reads_hi above reads", func(r *Storm) { r.DBReadsHi = new(60000.0) }, "db_reads_hi", "database reads/s in [db_steady, reads]"},
		{"hit_after 0.99 > hit_ratio 0.9", func(r *Storm) { r.HitAfter, r.HitAfterHi = 0.99, new(0.99) }, "hit_after", "is not hit_ratio x (1 - moved_frac)"},
		{"hit_after_hi above hit_ratio", func(r *Storm) { r.HitAfterHi = new(0.95) }, "hit_after_hi", "a hit ratio after the change in [0, hit_ratio]"},
		{"db_multiple 0.5", func(r *Storm) { r.DBMultiple, r.DBMultipleLo = 0.5, new(0.5) }, "db_multiple", "is not db_reads / db_steady"},
		{"db_multiple_lo 0.5", func(r *Storm) { r.DBMultipleLo = new(0.5) }, "db_multiple_lo", "a multiple of the steady database load in [1, reads / db_steady]"},
		{"db_steady", func(r *Storm) { r.DBSteady = 1 }, "db_steady", "is not reads x (1 - hit_ratio)"},
		{"extra_db_reads", func(r *Storm) { r.ExtraDBReads, r.ExtraDBReadsLo = 1, new(1.0) }, "extra_db_reads", "is not hit_ratio x moved_frac x working_set"},
		{"tau_s", func(r *Storm) { r.TauS = 1 }, "tau_s", "is not working_set / reads"},
		{"hit_ratio 1", func(r *Storm) { r.HitRatio = 1 }, "hit_ratio", "needs a steady hit ratio < 1"},
		{"moved_frac 1.5", func(r *Storm) { r.MovedFrac, r.MovedFracHi = 1.5, new(1.5) }, "moved_frac", "the fraction of keys one change moves"},
	} {
		r := filledStorm()
		if err := Check(r); err != nil {
			t.Fatalf("the model's own row: %v", err)
		}
		c.edit(&r)
		wantColumnErr(t, c.name, Check(r), c.col, c.msg)
	}
	sw := filledSwitch()
	sw.HitAfter, sw.HitAfterHi = sw.HitRatio, new(sw.HitRatio)
	wantColumnErr(t, "switch hit_after = hit_ratio", Check(sw), "hit_after", "is not hit_ratio x (1 - differ_frac)")
}
