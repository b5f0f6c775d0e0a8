package plots

import (
	"fmt"
	"strings"

	"gonum.org/v1/plot/vg"
)

// benchFiguresFrom reads Go benchmark output at path and returns one figure
// per BenchSet.
func benchFiguresFrom(path string) ([]*figure, error) {
	sets, err := ReadBenchmarks(path)
	if err != nil {
		return nil, err
	}
	var figs []*figure
	for _, s := range sets {
		f, err := benchFigure(s)
		if err != nil {
			return figs, fmt.Errorf("%s: %w", path, err)
		}
		figs = append(figs, f)
	}
	return figs, nil
}

// benchFigure draws one BenchSet: value vs nodes, log x, log y when every
// value is > 0.
func benchFigure(s BenchSet) (*figure, error) {
	name := strings.ToLower(s.Name)
	what := s.Name + " " + s.Unit
	yLabel := s.Unit
	switch {
	case s.Unit == "ns/op" && s.Name == "Lookup":
		what, yLabel = "Lookup time", "time per lookup (ns/op, median)"
	case s.Unit == "ns/op" && s.Name == "Build":
		what, yLabel = "Build time", "time per build (ns/op, median)"
	case s.Unit == "ns/op":
		what, yLabel = s.Name+" time", "time per op (ns/op, median)"
	default:
		name += "-" + fileSafe(s.Unit)
		yLabel = s.Unit + " (median)"
	}
	title := what + " vs nodes"
	if s.Variant != "" {
		name += "-" + fileSafe(s.Variant)
		title += " (" + s.Variant + ")"
	}
	f := newFigure(name, title, "nodes (log)", yLabel)
	if err := logX(f, s.Name+" nodes", allXs(s.Series)); err != nil {
		return nil, err
	}
	if useLogIfPositive(&f.p.Y, allYs(s.Series)) {
		f.p.Y.Label.Text = strings.Replace(yLabel, ")", ", log)", 1)
		if !strings.Contains(yLabel, ")") {
			f.p.Y.Label.Text += " (log)"
		}
	}
	for _, sr := range s.Series {
		if err := addSeries(f, sr, AlgoStyle(sr.Algo)); err != nil {
			return nil, err
		}
	}
	padAxes(f)
	if err := legendNote(f, "95% CI of median (bars)", vg.Points(1.5)); err != nil {
		return nil, err
	}
	for _, sr := range s.Series {
		for _, p := range sr.Points {
			if !p.CI {
				f.legend.Add("no bar: < 6 samples")
				return f, nil
			}
		}
	}
	return f, nil
}

// fileSafe maps s to a file-name fragment: letters, digits, '-', '.', '_'
// kept, everything else '_'.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '_':
			return r
		case r == '=':
			return '-'
		}
		return '_'
	}, s)
}
