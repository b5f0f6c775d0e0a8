package plots

import (
	"errors"
	"fmt"
	"strings"

	"gonum.org/v1/plot/vg"
)

// benchFiguresFrom reads Go benchmark output at path and returns one figure
// per benchmark set.
func benchFiguresFrom(path string) ([]*figure, error) {
	sets, err := benchSets(path)
	if err != nil {
		return nil, err
	}
	var figs []*figure
	var errs []error
	for _, s := range sets { // a set that cannot be drawn leaves the others drawn
		f, err := benchFigure(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", path, err))
			continue
		}
		figs = append(figs, f)
	}
	return figs, errors.Join(errs...)
}

// benchTitle returns the title and y label of a plot of s: a description
// for the benchmarks and units chbench writes, a generic one otherwise.
func benchTitle(s benchSet) (title, yLabel string) {
	procs := s.Procs + " goroutines"
	if s.Procs == "" {
		procs = "GOMAXPROCS goroutines"
	}
	switch {
	case s.Name == "Lookup" && s.Unit == "ns/op":
		title, yLabel = "Lookup time (ns per lookup)", "time per lookup (ns, median)"
		switch s.Variant {
		case "from=key":
			title = "Lookup time from a key string, hash included (ns per lookup)"
		case "from=hash":
			title = "Lookup time from a precomputed key hash (ns per lookup)"
		}
	case s.Name == "LookupParallel" && s.Unit == "ns/op":
		title, yLabel = "Parallel lookup time on one shared placement (ns per lookup, "+procs+")", "time per lookup (ns, median)"
	case s.Name == "LookupSwap" && s.Unit == "ns/op":
		title, yLabel = "Lookup time with a concurrent placement swap (ns per lookup, "+procs+")", "time per lookup (ns, median)"
	case s.Name == "Build" && s.Unit == "ns/op":
		title, yLabel = "Time to build one placement (ns)", "time per build (ns, median)"
	case s.Name == "Build" && s.Unit == "retained-bytes":
		title, yLabel = "Memory retained by one placement (bytes)", "retained heap per placement (bytes, median)"
	case s.Name == "Build" && s.Unit == "retained-bytes/node":
		title, yLabel = "Memory per node retained by one placement (bytes)", "retained heap per node (bytes, median)"
	case s.Unit == "ns/op":
		title, yLabel = s.Name+" time (ns per op)", "time per op (ns, median)"
	default:
		title, yLabel = s.Name+": "+s.Unit, s.Unit+" (median)"
	}
	if s.Variant != "" && s.Name != "Lookup" {
		title += " (" + s.Variant + ")"
	}
	return title, yLabel
}

// benchFigure draws one BenchSet: value vs nodes, log x, log y when every
// value is > 0, one panel per algorithm family when there are more than
// panelThreshold algorithms. The file is named after the benchmark in
// lower case, then the unit unless it is ns/op, then the variant:
// build-retained-bytes-per-node, lookup-from-key.
func benchFigure(s benchSet) (*figure, error) {
	f, err := benchPanel(s)
	if err != nil {
		return nil, err
	}
	return familyPanels(f, s.Series, func(ss []curve) (*figure, error) {
		sub := s
		sub.Series = ss
		return benchPanel(sub)
	})
}

// benchPanel draws every series of s on one set of axes.
func benchPanel(s benchSet) (*figure, error) {
	name := strings.ToLower(s.Name)
	if s.Unit != "ns/op" {
		name += "-" + fileSafe(s.Unit)
	}
	if s.Variant != "" {
		name += "-" + fileSafe(s.Variant)
	}
	title, yLabel := benchTitle(s)
	f := newFigure(name, title, "nodes (log)", yLabel)
	f.caption = captionLines(s.Caption)
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
		if err := addSeries(f, sr, algoStyle(sr.Algo)); err != nil {
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

// fileSafe maps s to a file-name fragment of lower-case letters, digits,
// '.' and '-': "/" reads "-per-" (retained-bytes/node ->
// retained-bytes-per-node), "=" and every other character become '-',
// and runs of '-' are collapsed.
func fileSafe(s string) string {
	s = strings.ReplaceAll(strings.ToLower(s), "/", "-per-")
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.':
			return r
		}
		return '-'
	}, s)
	for strings.Contains(s, "--") {
		s = strings.ReplaceAll(s, "--", "-")
	}
	return strings.Trim(s, "-")
}
