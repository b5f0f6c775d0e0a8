package plots

import "github.com/chbench/chbench/schema"

// benchSet is one benchmark plot's data: a [schema.BenchSet] with its
// series as plot series (X = nodes, Y = median, CI = 95% interval).
type benchSet struct {
	schema.BenchSet
	Series []curve
}

// benchSets reads the Go benchmark file at path with schema.ReadBenchmarks
// and returns its sets as plot data.
func benchSets(path string) ([]benchSet, error) {
	sets, err := schema.ReadBenchmarks(path)
	if err != nil {
		return nil, err
	}
	return plotSets(sets), nil
}

// plotSets returns sets as plot data.
func plotSets(sets []schema.BenchSet) []benchSet {
	out := make([]benchSet, len(sets))
	for i, s := range sets {
		out[i].BenchSet = s
		for _, sr := range s.Series {
			ps := make([]xy, len(sr.Points))
			for j, p := range sr.Points {
				ps[j] = xy{X: p.Nodes, Y: p.Median, Lo: p.Lo, Hi: p.Hi, CI: p.CI}
			}
			out[i].Series = append(out[i].Series, curve{Algo: sr.Algo, Label: sr.Algo, Points: ps})
		}
	}
	return out
}
