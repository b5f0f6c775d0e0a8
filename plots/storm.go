package plots

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/chbench/chbench/schema"
)

// stormSeries groups timeline rows into one series of database reads/s
// against seconds per algorithm (and configuration), in catalog order and
// increasing time, and returns the steady database load. Rows of more than
// one membership change or fleet (from, to, reads, hit ratio, working set,
// Zipf exponent), or two rows for one series and time, are an error.
func stormSeries(rows []schema.StormPoint) (series []curve, steady float64, err error) {
	if len(rows) == 0 {
		return nil, 0, nil
	}
	r0 := rows[0]
	pts := map[seriesKey][]xy{}
	seen := map[seriesKey]map[float64]bool{}
	var keys []seriesKey
	for i, r := range rows {
		if r.From != r0.From || r.To != r0.To || r.Reads != r0.Reads || r.SteadyHitRatio != r0.SteadyHitRatio || r.WorkingSet != r0.WorkingSet || r.DBSteady != r0.DBSteady || r.Zipf != r0.Zipf {
			return nil, 0, fmt.Errorf("storm timeline: rows 1 and %d describe different fleets or changes (one plot per fleet and change)", i+1)
		}
		k := keyOf(r.Config, "")
		if seen[k] == nil {
			seen[k] = map[float64]bool{}
			keys = append(keys, k)
		}
		if seen[k][r.TimeS] {
			return nil, 0, fmt.Errorf("storm timeline: two rows give algo=%s hash=%s vnodes=%d time_s=%v", r.Algo, r.Hash, r.VNodes, r.TimeS)
		}
		seen[k][r.TimeS] = true
		pts[k] = append(pts[k], estimate(r.DBReads, r.DBReadsLo, r.DBReadsHi).atX(r.TimeS))
	}
	sortKeys(keys)
	for _, k := range keys {
		ps := pts[k]
		slices.SortFunc(ps, func(a, b xy) int { return cmp.Compare(a.X, b.X) })
		series = append(series, curve{Algo: k.algo, Label: seriesLabel(k, keys), Points: ps})
	}
	return series, r0.DBSteady, nil
}

// stormTicks labels a load axis with the reads/s and, in parentheses,
// their multiple of the steady load: a linear axis at round steps, a log
// axis (log true) at the steady load times powers of two.
type stormTicks struct {
	steady float64
	log    bool
}

func (s stormTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	if s.log {
		for k := math.Floor(math.Log2(lo / s.steady)); k <= math.Ceil(math.Log2(hi/s.steady)); k++ {
			if v := s.steady * math.Pow(2, k); v >= lo && v <= hi {
				ticks = append(ticks, plot.Tick{Value: v, Label: "x"})
			}
		}
	} else {
		ticks = linTicks{}.Ticks(lo, hi)
	}
	for i, t := range ticks {
		if t.Label == "" {
			continue
		}
		ticks[i].Label = thousands(strconv.FormatFloat(math.Round(t.Value), 'f', -1, 64)) + " (" + multiple(t.Value/s.steady) + ")"
		if t.Value == 0 {
			ticks[i].Label = "0"
		}
	}
	return ticks
}

// multiple formats a multiple of the steady load with one decimal, none
// when it is whole: "16x", "4.8x".
func multiple(m float64) string {
	return strconv.FormatFloat(math.Round(10*m)/10, 'f', -1, 64) + "x"
}

// peakMultiple formats the peak of a curve as a multiple of the steady
// load with two decimals, whole or not ("5.00x", "4.80x"), so that legend
// entries side by side differ only where the values do.
func peakMultiple(m float64) string {
	return strconv.FormatFloat(m, 'f', 2, 64) + "x"
}

// stormMarkers is the number of markers drawn along each curve (the lines
// carry every time point; markers tell the algorithms apart).
const stormMarkers = 12

// stormFigure draws the database load against time for every algorithm
// after the fleet's resize, with the steady load as a dashed line, as the
// plot called name.
func stormFigure(rows []schema.StormPoint, name string) (*figure, error) {
	series, steady, err := stormSeries(rows)
	if err != nil || len(series) == 0 {
		return nil, err
	}
	r0 := rows[0]
	infos := runsOf(rows)
	change := fmt.Sprintf("grows from %v to %v nodes", r0.From, r0.To)
	if r0.To < r0.From {
		change = fmt.Sprintf("shrinks from %v to %v nodes", r0.From, r0.To)
	}
	title := "Database load after the cache fleet " + change
	tau := float64(r0.WorkingSet) / r0.Reads
	pop := fmt.Sprintf(" read uniformly (refill time constant K/Q = %s s)", strconv.FormatFloat(tau, 'g', 4, 64))
	var zipfLine []string
	if r0.Zipf > 0 {
		z := strconv.FormatFloat(r0.Zipf, 'f', -1, 64)
		title += ", Zipf " + z + " popularity"
		pop = ""
		zipfLine = []string{fmt.Sprintf("keys read with Zipf popularity s = %s: hot keys refill first, the long tail last (a key's mean read interval K/Q = %s s)", z, strconv.FormatFloat(tau, 'g', 4, 64))}
	}
	// One panel per algorithm family when there are many: the curves of
	// most algorithms coincide, and the legend carries each peak.
	build := func(series []curve) (*figure, error) {
		f := newFigure(name, title, "seconds after the change", "database reads/s (multiple of steady state)")
		f.caption = append(append([]string{
			fmt.Sprintf("%s reads/s at %s%% hit ratio, %s keys%s; a moved key misses once, then hits as before",
				thousands(strconv.FormatFloat(r0.Reads, 'f', -1, 64)), strconv.FormatFloat(100*r0.SteadyHitRatio, 'f', -1, 64),
				thousands(strconv.Itoa(r0.WorkingSet)), pop)},
			zipfLine...),
			"moved fractions measured on "+runCaption(infos),
		)
		// A log axis, ticked at doublings of the steady load: the
		// modulo peak (16x) no longer squeezes the others (about 5x)
		// into the bottom quarter, and the decay reads as a fall by
		// halves. Linear from 0 if a load is not > 0.
		f.p.Y.Tick.Marker = stormTicks{steady: steady}
		f.p.Y.Min = 0
		if ys := append(allYs(series), steady); steady > 0 && useLogIfPositive(&f.p.Y, ys) {
			f.p.Y.Tick.Marker = stormTicks{steady: steady, log: true}
			f.p.Y.Min = slices.Min(ys)
			f.p.Y.Label.Text = "database reads/s (multiple of steady state, log)"
		}
		for _, s := range series {
			// The legend gives the peak, which the crowded curves hide.
			s.Label += " (" + peakMultiple(s.Points[0].Y/steady) + " at " + strconv.FormatFloat(s.Points[0].X, 'f', -1, 64) + " s)"
			if err := addTimeSeries(f, s, algoStyle(s.Algo)); err != nil {
				return nil, err
			}
		}
		xs := allXs(series)
		lo, hi := slices.Min(xs), slices.Max(xs)
		if err := referenceLine(f, "steady state "+thousands(strconv.FormatFloat(math.Round(steady), 'f', -1, 64))+" reads/s", plotter.XYs{{X: lo, Y: steady}, {X: hi, Y: steady}}); err != nil {
			return nil, err
		}
		padAxes(f)
		f.p.X.Min = lo
		f.p.X.Tick.Marker = linTicks{}
		return f, nil
	}
	f, err := build(series)
	if err != nil {
		return nil, err
	}
	return familyPanels(f, series, build)
}

// addTimeSeries draws s as a line through every point, with markers and
// 95% CI bars at stormMarkers evenly spaced points only, in the style of
// its algorithm; a series that coincides with an earlier one gets larger
// hollow markers, offset along the curve, so both stay visible.
func addTimeSeries(f *figure, s curve, st style) error {
	xys := plotterXYs(s.Points)
	line, err := plotter.NewLine(xys)
	if err != nil {
		return fmt.Errorf("series %s: %w", s.Label, err)
	}
	line.Color = st.Color
	line.Width = vg.Points(2)
	line.Dashes = st.Dashes
	step := max(1, len(s.Points)/stormMarkers)
	// Each series starts its markers at a different phase so coinciding
	// curves do not stack their markers on one spot.
	phase := (len(f.drawn) * step / 5) % step
	var marked []xy
	for i := phase; i < len(s.Points); i += step {
		marked = append(marked, s.Points[i])
	}
	points, err := plotter.NewScatter(plotterXYs(marked))
	if err != nil {
		return fmt.Errorf("series %s: %w", s.Label, err)
	}
	points.Color = st.Color
	points.Shape = st.Glyph
	points.Radius = vg.Points(5)
	if f.overlaps(xys) {
		points.Radius = vg.Points(8)
		points.Shape = hollow(points.Shape)
		line.Width = vg.Points(1.2)
	}
	f.drawn = append(f.drawn, xys)
	f.p.Add(line, points)
	_, logY := f.p.Y.Scale.(plot.LogScale)
	bars, err := errorBars(marked, st.Color, logY)
	if err != nil {
		return fmt.Errorf("series %s: %w", s.Label, err)
	}
	if bars != nil {
		f.p.Add(bars)
	}
	f.legend.Add(s.Label, line, points)
	return nil
}
