package plots

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

// The ticks of a log axis are bounded by what they draw, not by the
// values: an axis from 0 (gonum pads some axes to include it) or from 1
// to 1e308 gets a few dozen ticks at most, each label under 16
// characters (an exponent, not 309 digits), where a tick per decade
// from decade MinInt64 never ended.
func TestLogTicksBoundedOnExtremeRanges(t *testing.T) {
	for _, c := range []struct{ lo, hi float64 }{{0, 1e308}, {1, 1e308}, {1e-300, 1e300}, {2, 1e30}} {
		ticks := logTicks{}.Ticks(c.lo, c.hi)
		if len(ticks) == 0 || len(ticks) > 60 {
			t.Errorf("Ticks(%g, %g): %d ticks, want 1..60", c.lo, c.hi, len(ticks))
		}
		for _, tk := range ticks {
			if len(tk.Label) > 16 {
				t.Errorf("Ticks(%g, %g): label %q longer than 16", c.lo, c.hi, tk.Label)
			}
		}
	}
}

// withBuildNs returns lookup.txt of okDir with every BenchmarkBuild ns/op
// value replaced by the next of values, in turn.
func withBuildNs(t *testing.T, values ...string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(okDir, schema.LookupFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	n := 0
	for i, l := range lines {
		if !strings.HasPrefix(l, "BenchmarkBuild/") {
			continue
		}
		f := strings.Fields(l)
		for j := 1; j < len(f); j++ {
			if f[j] == "ns/op" {
				f[j-1] = values[n%len(values)]
				n++
			}
		}
		lines[i] = strings.Join(f, " ")
	}
	if n == 0 {
		t.Fatal("no BenchmarkBuild ns/op value in " + okDir)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, schema.LookupFile), []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// noTemporaries fails the test for a temporary file left in dir/plots.
func noTemporaries(t *testing.T, dir string) {
	t.Helper()
	es, _ := os.ReadDir(filepath.Join(dir, schema.PlotsDir))
	for _, e := range es {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("%s left in %s", e.Name(), schema.PlotsDir)
		}
	}
}

// Build times at the limits of float64 render: the log axis's padding
// stops at the largest (smallest) float instead of overflowing to +Inf
// (underflowing to 0), which gonum could not draw ("Values must be
// greater than 0 for a log scale"), and the ticks of an axis that ends
// at math.MaxFloat64 end too.
func TestBuildPlotAtTheFloatLimits(t *testing.T) {
	for _, v := range []string{"1e308", "1.7976931348623157e308", "5e-324", "1e-310"} {
		dir := withBuildNs(t, v)
		written, err := RenderAll(dir)
		if err != nil {
			t.Errorf("ns/op %s: %v", v, err)
		}
		for _, ext := range []string{".png", ".svg"} {
			p := filepath.Join(dir, schema.PlotsDir, "build"+ext)
			if !slices.Contains(written, p) {
				t.Errorf("ns/op %s: %s not written (wrote %v)", v, p, written)
			}
		}
		noTemporaries(t, dir)
	}
}

// A CI too wide to draw as an error bar on a log axis (its low end 600
// decades under its median, below the median's float precision) is an
// error naming the file and the values, not a panic inside gonum; the
// other plots of the file are still drawn and nothing temporary stays.
func TestBuildPlotWithAnUndrawableCI(t *testing.T) {
	dir := withBuildNs(t, "1e-300", "1e300")
	written, err := RenderAll(dir)
	want := filepath.Join(dir, schema.LookupFile) + ": series ring: 95% CI [1.0000000000000018e-300, 1e+300] at 10 around 5e+299: its low end cannot be drawn on a log axis"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want one saying %q", err, want)
	}
	if p := filepath.Join(dir, schema.PlotsDir, "lookup-from-key.png"); !slices.Contains(written, p) {
		t.Errorf("%s not written beside the failing plot (wrote %v)", p, written)
	}
	noTemporaries(t, dir)
}

// logRange widens a log axis's ends by its factors and keeps them finite
// and > 0, the range never empty.
func TestLogRangeStaysFinite(t *testing.T) {
	const tiny, huge = math.SmallestNonzeroFloat64, math.MaxFloat64
	for _, c := range []struct {
		lo, hi, down, up float64
		wantMin, wantMax float64
	}{
		{10, 1000, 2, 2, 5, 2000},
		{1e308, 1e308, 2, 2, 5e307, huge},
		{huge, huge, 2, 2, huge / 2, huge},
		{huge, huge, 1, 1, huge / 2, huge},
		{tiny, tiny, 2, 2, tiny, 2 * tiny},
		{1e-310, 1e-310, 2, 1, 5e-311, 1e-310},
	} {
		min, max := logRange(c.lo, c.hi, c.down, c.up)
		if min != c.wantMin || max != c.wantMax {
			t.Errorf("logRange(%g, %g, %g, %g) = %g, %g, want %g, %g", c.lo, c.hi, c.down, c.up, min, max, c.wantMin, c.wantMax)
		}
	}
}

// Linear ticks of a range that ends at math.MaxFloat64 end: the slack
// above the end overflowed to +Inf, which every tick value passed.
func TestLinTicksEndAtMaxFloat(t *testing.T) {
	ticks := linTicks{}.Ticks(5e307, math.MaxFloat64)
	if len(ticks) == 0 || len(ticks) > 30 {
		t.Fatalf("%d ticks, want 1..30", len(ticks))
	}
	for _, tk := range ticks {
		if !(tk.Value >= 5e307 && tk.Value <= math.MaxFloat64) {
			t.Errorf("tick %v outside the range", tk.Value)
		}
	}
}
