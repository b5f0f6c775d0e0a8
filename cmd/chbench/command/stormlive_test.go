package command

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/live"
	"github.com/chbench/chbench/schema"
)

// A tiny storm -live (4 -> 5 memcached on 127.0.0.1, 5,000 keys, 4
// windows of 2,500 reads) for modulo and ring: the hit ratio the real
// servers serve right after the change (window 0) and in the steady window
// before it agrees with the warm-up model's mean over the same window.
//
// The bound: a window's hits are a sum of n reads, each a hit with its own
// probability, whose mean over the window is the model's hit_sim = p (the
// moved fraction is counted on the same keys, so it is not a source of
// error). A sum of Bernoulli variables with mean probability p has variance
// at most n p (1-p), the binomial's, and two reads of one moved key in a
// window are negatively correlated (the first refills it), which only
// lowers it. So |hit_live - p| <= 4.5 sqrt(p (1-p) / n) fails by chance
// with probability below 1e-5 per check (normal approximation), and the
// seed is fixed. With n = 2,500 the bound is 4.3 points for modulo (p ~
// 0.4) and 3.6 for ring (p ~ 0.8): far smaller than the 40 points between
// them, so a storm that moved the wrong keys, or a client that did not
// refill, fails.
func TestStormLiveAgreesWithModel(t *testing.T) {
	if _, err := live.LookBinary("memcached"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI: %v", err)
		}
		t.Skipf("skipped: %v (install the package, or run .ci/run)", err)
	}
	out, _, err := runCLI(t, "storm", "-live", "-algo", "modulo,ring", "-from", "4", "-to", "5",
		"-working-set", "5000", "-live-reads", "10000", "-live-windows", "4", "-seed", "3", "-format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := schema.ReadCSV[schema.StormLive](strings.NewReader(out), "storm-live.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2*5 {
		t.Fatalf("%d rows, want 2 algorithms x (steady + 4 windows):\n%s", len(rows), out)
	}
	checked := map[string]int{}
	for _, r := range rows {
		algo, win := r.Algo, r.Window
		n, p, got := float64(r.WindowReads), r.HitSim, r.HitLive
		if win != -1 && win != 0 {
			continue
		}
		bound := 4.5 * math.Sqrt(p*(1-p)/n)
		if math.Abs(got-p) > bound {
			t.Errorf("%s window %v: live hit ratio %.4f, model %.4f, |difference| > %.4f", algo, win, got, p, bound)
		}
		if win == 0 {
			f := r.MovedFrac
			// modulo 4 -> 5 moves 80% of the keys (16 of 20 residues), a
			// ring of 4 x 100 virtual nodes about the ideal 20%.
			want := map[string][2]float64{"modulo": {0.78, 0.82}, "ring": {0.14, 0.28}}[algo]
			if f < want[0] || f > want[1] {
				t.Errorf("%s: moved fraction %v, want %v", algo, f, want)
			}
		}
		checked[algo]++
	}
	if checked["modulo"] != 2 || checked["ring"] != 2 {
		t.Errorf("checked windows %v, want the steady one and window 0 of modulo and ring", checked)
	}
}

// storm -live refuses what it cannot run before starting any server.
func TestStormLiveBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-live-mem", "0"}, "live-mem 0"},
		{[]string{"-live-rate", "0"}, "live-rate 0"},
		{[]string{"-live-steady", "fifo"}, `live-steady "fifo"`},
		{[]string{"-live-reads", "2000000"}, "live-reads 2000000"},
		{[]string{"-working-set", "300000"}, "working set 300000"},
		{[]string{"-keyfile", "x"}, "-keyfile cannot be combined with -live"},
		{[]string{"-leave", "node-1"}, "-live runs a -from N -to M resize"},
		{[]string{"-live-timeout", "1h"}, "live-timeout 1h0m0s"},
		{[]string{"-from", "4", "-to", "4"}, "from 4 to 4"},
	} {
		_, _, err := runCLI(t, append([]string{"storm", "-live"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) || !cli.IsUsage(err) {
			t.Errorf("%v: err = %v, want a usage error with %q", c.args, err, c.want)
		}
	}
}

// storm -live -zipf 0.99 for modulo (4 -> 5, 5,000 keys, 4 windows of
// 2,500 reads): the reads drawn from the Zipf law over the working set
// refill the hot moved keys first, so window 0 serves about 67% hits
// where uniform reads would give about 36%; the live hit ratio of window 0
// agrees with the Zipf model's mean over the window and not with the
// uniform one.
//
// The bound adds to the read noise of TestStormLiveAgreesWithModel (a
// variance of at most p (1-p) per read) the noise of which keys moved:
// under Zipf the moved fraction counted on the keys does not fix the
// misses, which depend on the popularity of the keys that moved. Each key
// is missed at most once in the window, so, keys moving independently
// with probability f, this adds a variance of at most f (1-f) sum_i c_i^2
// <= f (1-f) n reads^2 (c_i <= 1 the chance key i is read in the window,
// sum_i c_i <= n); hence |hit_live - p| <= 4.5 sqrt((p (1-p) + f (1-f)) / n),
// 5.6 points here, against 31 points between the Zipf and uniform models.
func TestStormLiveZipfAgreesWithModel(t *testing.T) {
	if _, err := live.LookBinary("memcached"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI: %v", err)
		}
		t.Skipf("skipped: %v (install the package, or run .ci/run)", err)
	}
	out, _, err := runCLI(t, "storm", "-live", "-zipf", "0.99", "-algo", "modulo", "-from", "4", "-to", "5",
		"-working-set", "5000", "-live-reads", "10000", "-live-windows", "4", "-seed", "3", "-format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := schema.ReadCSV[schema.StormLive](strings.NewReader(out), "storm-live.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 {
		t.Fatalf("%d rows, want steady + 4 windows:\n%s", len(rows), out)
	}
	w0 := rows[1]
	if w0.Window != 0 || w0.Zipf != 0.99 {
		t.Fatalf("row 1: window %v zipf %v, want window 0 of zipf 0.99", w0.Window, w0.Zipf)
	}
	n, p, got, f := float64(w0.WindowReads), w0.HitSim, w0.HitLive, w0.MovedFrac
	uniform := analysis.StormModel{Reads: w0.Reads, HitRatio: 0.95, WorkingSet: 5000}
	pu := uniform.MeanHitBetween(f, w0.TimeS, w0.TimeEndS)
	bound := 4.5 * math.Sqrt((p*(1-p)+f*(1-f))/n)
	if math.Abs(got-p) > bound {
		t.Errorf("window 0: live hit ratio %.4f, Zipf model %.4f, |difference| > %.4f", got, p, bound)
	}
	if math.Abs(p-pu) < 4*bound {
		t.Errorf("Zipf model %.4f and uniform model %.4f too close for the test to tell them apart", p, pu)
	}
}
