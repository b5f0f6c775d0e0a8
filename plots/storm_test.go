package plots

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"github.com/chbench/chbench/schema"
)

const stormCSV = `algo,hash,vnodes,op,from,to,keys,sets,seed,time_s,hit_ratio,hit_ratio_lo,hit_ratio_hi,db_reads,db_reads_lo,db_reads_hi,db_steady,reads,steady_hit_ratio,working_set
ring,xxhash,160,add,4,5,1000,2,1,20,0.9,0.9,0.9,5000,4900,5100,2500,50000,0.95,1000000
modulo,xxhash,160,add,4,5,1000,2,1,0,0.19,0.18,0.2,40500,40000,41000,2500,50000,0.95,1000000
modulo,xxhash,160,add,4,5,1000,2,1,20,0.8,0.8,0.8,16479,16400,16500,2500,50000,0.95,1000000
ring,xxhash,160,add,4,5,1000,2,1,0,0.76,0.75,0.77,12000,11900,12100,2500,50000,0.95,1000000
`

func writeStorm(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, schema.StormTimelineFile.Name), []byte(complete[schema.StormPoint](t, body)), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// stormSeries gives one curve per algorithm, sorted by time with its
// interval, beside the steady load, and the storm plot renders.
func TestStormSeriesAndRender(t *testing.T) {
	dir := writeStorm(t, stormCSV)
	rows, err := readStorm(filepath.Join(dir, schema.StormTimelineFile.Name))
	if err != nil {
		t.Fatal(err)
	}
	series, steady, err := stormSeries(rows)
	if err != nil {
		t.Fatal(err)
	}
	if steady != 2500 || len(series) != 2 || series[0].Algo != "modulo" || series[1].Algo != "ring" {
		t.Fatalf("steady %v, series %+v: want 2500 and modulo, ring in catalog order", steady, series)
	}
	if p := series[1].Points; p[0].X != 0 || p[0].Y != 12000 || p[0].Lo != 11900 || p[1].X != 20 {
		t.Errorf("ring points %+v, want sorted by time with CI", p)
	}
	files, err := RenderAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	if !slices.Equal(names, []string{"storm.png", "storm.svg"}) {
		t.Errorf("files %v", names)
	}
	svg, _ := os.ReadFile(filepath.Join(dir, schema.PlotsDir, "storm.svg"))
	for _, want := range []string{"Database load after the cache fleet grows from 4 to 5 nodes", "steady state 2,500 reads/s", "modulo (16.20x at 0 s)", "ring (4.80x at 0 s)",
		"2,500 (1x)", "5,000 (2x)", "40,000 (16x)", "(multiple of steady state, log)"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("storm.svg lacks %q", want)
		}
	}
}

// A storm timeline with two fleets, a repeated or negative time, a zero
// steady load or a hit ratio above 1 is an error.
func TestStormBadInput(t *testing.T) {
	cases := map[string]string{
		"two fleets":     strings.Replace(stormCSV, "0,0.19,0.18,0.2,40500,40000,41000,2500,50000", "0,0.19,0.18,0.2,40500,40000,41000,2500,60000", 1),
		"duplicate time": strings.Replace(stormCSV, "ring,xxhash,160,add,4,5,1000,2,1,20,", "ring,xxhash,160,add,4,5,1000,2,1,0,", 1),
		"negative time":  strings.Replace(stormCSV, ",1,20,0.9", ",1,-20,0.9", 1),
		"zero steady":    strings.Replace(stormCSV, "5100,2500,", "5100,0,", 1),
		"hit above 1":    strings.Replace(stormCSV, "50000,0.95,1000000\nmodulo", "50000,1.5,1000000\nmodulo", 1),
	}
	for name, body := range cases {
		dir := writeStorm(t, body)
		rows, err := readStorm(filepath.Join(dir, schema.StormTimelineFile.Name))
		if err == nil {
			_, _, err = stormSeries(rows)
		}
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// The Zipf timeline (zipf column) draws storm-zipf with the popularity in
// its title and caption; a file mixing two exponents is two fleets.
func TestStormZipfRender(t *testing.T) {
	body := strings.ReplaceAll(stormCSV, ",working_set\n", ",working_set,zipf\n")
	body = strings.ReplaceAll(body, ",1000000\n", ",1000000,0.99\n")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, schema.StormZipfTimelineFile.Name), []byte(complete[schema.StormPoint](t, body)), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := RenderAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	if !slices.Equal(names, []string{"storm-zipf.png", "storm-zipf.svg"}) {
		t.Errorf("files %v", names)
	}
	svg, _ := os.ReadFile(filepath.Join(dir, schema.PlotsDir, "storm-zipf.svg"))
	for _, want := range []string{"grows from 4 to 5 nodes, Zipf 0.99 popularity", "keys read with Zipf popularity s = 0.99", "modulo (16.20x at 0 s)"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("storm-zipf.svg lacks %q", want)
		}
	}
	mixed := strings.Replace(body, ",1000000,0.99\nmodulo", ",1000000,0.5\nmodulo", 1)
	rows, err := readStorm(writeStorm(t, mixed) + "/" + schema.StormTimelineFile.Name)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := stormSeries(rows); err == nil {
		t.Error("two Zipf exponents in one timeline: no error")
	}
}

// The storm's load axis is logarithmic, ticked at the steady load times
// powers of two, so a 16x peak leaves the 5x ones room; a load of 0 keeps
// the linear axis from 0.
func TestStormLogAxis(t *testing.T) {
	got := tickLabels(stormTicks{steady: 2500, log: true}.Ticks(2300, 45000))
	want := []string{"2,500 (1x)", "5,000 (2x)", "10,000 (4x)", "20,000 (8x)", "40,000 (16x)"}
	if !slices.Equal(got, want) {
		t.Errorf("log ticks %v, want %v", got, want)
	}
	rows, err := readStorm(filepath.Join(writeStorm(t, stormCSV), schema.StormTimelineFile.Name))
	if err != nil {
		t.Fatal(err)
	}
	f, err := stormFigure(rows, "storm")
	if err != nil {
		t.Fatal(err)
	}
	if _, isLog := f.p.Y.Scale.(plot.LogScale); !isLog || f.p.Y.Min <= 0 || f.p.Y.Min > 2500 {
		t.Errorf("y scale %T from %v, want log from just under the steady 2500", f.p.Y.Scale, f.p.Y.Min)
	}
	zero := strings.Replace(stormCSV, ",20,0.8,0.8,0.8,16479,16400,16500,", ",20,1,1,1,0,0,0,", 1)
	if rows, err = readStorm(filepath.Join(writeStorm(t, zero), schema.StormTimelineFile.Name)); err != nil {
		t.Fatal(err)
	}
	if f, err = stormFigure(rows, "storm"); err != nil {
		t.Fatal(err)
	}
	if _, isLog := f.p.Y.Scale.(plot.LogScale); isLog || f.p.Y.Min != 0 {
		t.Errorf("a load of 0: y scale %T from %v, want linear from 0", f.p.Y.Scale, f.p.Y.Min)
	}
}

// Legend peaks print with two decimals whether whole or not ("5.00x"
// beside "4.80x"), so the precision suggests no difference the values do
// not have; axis ticks at doublings stay whole ("16x").
func TestPeakMultipleSamePrecision(t *testing.T) {
	for m, want := range map[float64]string{5: "5.00x", 4.8: "4.80x", 16.2: "16.20x", 4.996: "5.00x", 4.794: "4.79x"} {
		if got := peakMultiple(m); got != want {
			t.Errorf("peakMultiple(%v) = %q, want %q", m, got, want)
		}
	}
	if got := multiple(16); got != "16x" {
		t.Errorf("tick multiple(16) = %q, want 16x", got)
	}
}
