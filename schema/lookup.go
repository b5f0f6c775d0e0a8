package schema

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchproc"

	"github.com/chbench/chbench/algorithms/catalog"
)

// BenchSet is one benchmark of a Go benchmark file (lookup.txt) as
// [ReadBenchmarks] summarises it: one benchmark, one variant of its other
// sub-name keys and one unit, with a series per algorithm.
type BenchSet struct {
	Name    string        // benchmark name without the "Benchmark" prefix, e.g. "Lookup"
	Variant string        // sub-name keys other than algo, nodes and gomaxprocs, e.g. "from=key"; "" if none
	Unit    string        // "ns/op" for time (benchfmt's sec/op scaled by 1e9), else the unit as read
	Series  []BenchSeries // one per algorithm in catalog order
	Procs   string        // GOMAXPROCS of the runs (the -N name suffix), "/"-joined if several; "" if none
	Caption string        // where the numbers came from: goos/goarch, cpu, GOMAXPROCS, runs per point
	Line    int           // the line of the file's first result in the set, for messages
}

// BenchSeries is one algorithm's points of a BenchSet, in increasing node
// count.
type BenchSeries struct {
	Algo   string
	Points []BenchPoint
	Line   int // the line of the file's first result in the series, for messages
}

// BenchPoint is the median of the samples at one node count, with its 95%
// confidence interval [Lo, Hi] when CI is true (benchmath needs 6 samples
// for a finite one; Lo = Hi = Median otherwise).
type BenchPoint struct {
	Nodes, Median, Lo, Hi float64
	CI                    bool
}

// benchCell identifies the samples summarised into one BenchPoint.
type benchCell struct {
	name, variant, unit, algo string
	nodes                     float64
}

// ReadBenchmarks reads the Go benchmark file at path (a results
// directory's lookup.txt, [LookupFile]) through [OpenInput] and
// summarises every result
// named Benchmark<Name>/algo=<a>/nodes=<n>[/...]: per (name, variant,
// unit, algorithm, nodes) the median of the samples and its 95%
// confidence interval under benchmath.AssumeNothing. Sub-name keys besides
// algo, nodes and gomaxprocs form the Variant, so results that differ in
// them are never pooled. Time is reported in ns/op; B/op and allocs/op are
// dropped; any other (custom) unit is kept as is. Results without algo
// and nodes keys are ignored. The sets come by name, variant, unit (ns/op
// first), the series in catalog order. A syntax error, a nodes value that
// is not a number > 0, a NaN or infinite measurement, a negative time, or
// a result whose goos, goarch or cpu differs from the file's first
// result's (results of two machines) is an error naming the file and
// line.
func ReadBenchmarks(path string) ([]BenchSet, error) {
	f, err := OpenInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseBenchmarks(f, path)
}

// ParseBenchmarks is ReadBenchmarks on r, naming it file in errors.
func ParseBenchmarks(r io.Reader, file string) ([]BenchSet, error) {
	filter, err := benchproc.NewFilter("/algo:/./ /nodes:/./")
	if err != nil {
		return nil, err
	}
	var pp benchproc.ProjectionParser
	var proj [4]*benchproc.Projection
	for i, expr := range []string{".name", "/algo", "/nodes", "/gomaxprocs"} {
		if proj[i], err = pp.Parse(expr, filter); err != nil {
			return nil, err
		}
	}
	// .fullname parsed last in the same parser excludes the keys above,
	// leaving only the remaining sub-name keys.
	rest, err := pp.Parse(".fullname", filter)
	if err != nil {
		return nil, err
	}
	byUnit, unitField, err := pp.ParseWithUnit("", filter)
	if err != nil {
		return nil, err
	}
	get := func(p *benchproc.Projection, res *benchfmt.Result) string { return p.Project(res).Get(p.Fields()[0]) }
	samples := map[benchCell][]float64{}
	first := map[benchCell]int{} // the line of each cell's first sample
	meta := benchMeta{}
	machine := map[string][2]string{} // goos, goarch, cpu: the first value and the line it came with
	br := benchfmt.NewReader(r, file)
	for br.Scan() {
		var res *benchfmt.Result
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, rec
		case *benchfmt.Result:
			res = rec
		default:
			continue // unit metadata lines
		}
		if ok, err := filter.Apply(res); !ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		file, line := res.Pos()
		name, algo, nodesStr := get(proj[0], res), get(proj[1], res), get(proj[2], res)
		nodes, err := strconv.ParseFloat(nodesStr, 64)
		if err != nil || math.IsNaN(nodes) || math.IsInf(nodes, 0) || nodes <= 0 {
			return nil, fmt.Errorf("%s:%d: nodes=%s: want a node count > 0", file, line, nodesStr)
		}
		variant := strings.TrimPrefix(strings.TrimPrefix(get(rest, res), "*"), "/") // "*/from=key" -> "from=key"
		for _, k := range []string{"goos", "goarch", "cpu"} {
			// A result without the line says nothing of its machine.
			v := res.GetConfig(k)
			m, seen := machine[k]
			switch {
			case v == "":
			case !seen:
				machine[k] = [2]string{v, strconv.Itoa(line)}
			case m[0] != v:
				return nil, fmt.Errorf("%s:%d: %s %q, but the result on line %s ran with %s %q: one file holds one machine's results (a median over two machines describes neither)", file, line, k, v, m[1], k, m[0])
			}
			meta.note(name, k, v)
		}
		meta.note(name, "gomaxprocs", get(proj[3], res))
		for i, k := range byUnit.ProjectValues(res) {
			unit, v := k.Get(unitField), res.Values[i].Value
			if math.IsNaN(v) || math.IsInf(v, 0) {
				shown, unitShown := v, res.Values[i].Unit
				if res.Values[i].OrigUnit != "" {
					shown, unitShown = res.Values[i].OrigValue, res.Values[i].OrigUnit
				}
				return nil, fmt.Errorf("%s:%d: %v %s: not a finite measurement", file, line, shown, unitShown)
			}
			switch unit {
			case "B/op", "allocs/op":
				continue
			case "sec/op":
				if v < 0 {
					return nil, fmt.Errorf("%s:%d: %v %s: a time cannot be negative", file, line, res.Values[i].OrigValue, res.Values[i].OrigUnit)
				}
				unit, v = "ns/op", v*1e9
			}
			c := benchCell{name, variant, unit, algo, nodes}
			samples[c] = append(samples[c], v)
			if _, ok := first[c]; !ok {
				first[c] = line
			}
		}
	}
	if err := br.Err(); err != nil {
		return nil, err
	}
	sets := summarise(samples, first)
	for i := range sets {
		meta.caption(&sets[i], samples)
	}
	return sets, nil
}

// benchMeta holds, per benchmark name, the distinct goos, goarch, cpu and
// GOMAXPROCS values in order of first appearance, for the caption.
type benchMeta map[string]map[string][]string

func (m benchMeta) note(name, key, v string) {
	if v == "" {
		return
	}
	if m[name] == nil {
		m[name] = map[string][]string{}
	}
	if !slices.Contains(m[name][key], v) {
		m[name][key] = append(m[name][key], v)
	}
}

// caption fills s.Procs and s.Caption from the configuration values of
// its benchmark and the number of samples per point, e.g.
// "linux/amd64, cpu AMD EPYC, GOMAXPROCS 2; median of 6 runs per point".
func (m benchMeta) caption(s *BenchSet, samples map[benchCell][]float64) {
	join := func(k string) string { return strings.Join(m[s.Name][k], "/") }
	s.Procs = join("gomaxprocs")
	var parts []string
	if osArch := strings.Trim(join("goos")+"/"+join("goarch"), "/"); osArch != "" {
		parts = append(parts, osArch)
	}
	if c := join("cpu"); c != "" {
		parts = append(parts, "cpu "+c)
	}
	if s.Procs != "" {
		parts = append(parts, "GOMAXPROCS "+s.Procs)
	}
	lo, hi := math.MaxInt, 0
	for _, sr := range s.Series {
		for _, p := range sr.Points {
			n := len(samples[benchCell{s.Name, s.Variant, s.Unit, sr.Algo, p.Nodes}])
			lo, hi = min(lo, n), max(hi, n)
		}
	}
	runs := strconv.Itoa(hi)
	if lo != hi {
		runs = strconv.Itoa(lo) + "-" + runs
	}
	s.Caption = strings.Join(parts, ", ")
	if hi > 0 {
		if s.Caption != "" {
			s.Caption += "; "
		}
		s.Caption += "median of " + runs + " runs per point"
	}
}

// summarise groups the cells into sets and series in a fixed order: by
// name, variant, unit (ns/op first), algorithm (catalog order), nodes.
func summarise(samples map[benchCell][]float64, first map[benchCell]int) []BenchSet {
	cells := make([]benchCell, 0, len(samples))
	for c := range samples {
		cells = append(cells, c)
	}
	unitRank := func(u string) int {
		if u == "ns/op" {
			return 0
		}
		return 1
	}
	slices.SortFunc(cells, func(a, b benchCell) int {
		return cmp.Or(
			cmp.Compare(a.name, b.name),
			cmp.Compare(a.variant, b.variant),
			cmp.Compare(unitRank(a.unit), unitRank(b.unit)),
			cmp.Compare(a.unit, b.unit),
			catalog.Compare(a.algo, b.algo),
			cmp.Compare(a.nodes, b.nodes),
		)
	})
	var sets []BenchSet
	for _, c := range cells {
		if n := len(sets); n == 0 || sets[n-1].Name != c.name || sets[n-1].Variant != c.variant || sets[n-1].Unit != c.unit {
			sets = append(sets, BenchSet{Name: c.name, Variant: c.variant, Unit: c.unit, Line: first[c]})
		}
		set := &sets[len(sets)-1]
		if n := len(set.Series); n == 0 || set.Series[n-1].Algo != c.algo {
			set.Series = append(set.Series, BenchSeries{Algo: c.algo, Line: first[c]})
		}
		s := &set.Series[len(set.Series)-1]
		set.Line, s.Line = min(set.Line, first[c]), min(s.Line, first[c])
		sum := benchmath.AssumeNothing.Summary(benchmath.NewSample(samples[c], &benchmath.DefaultThresholds), 0.95)
		p := BenchPoint{Nodes: c.nodes, Median: sum.Center, Lo: sum.Center, Hi: sum.Center}
		if !math.IsInf(sum.Lo, 0) && !math.IsInf(sum.Hi, 0) {
			p.Lo, p.Hi, p.CI = sum.Lo, sum.Hi, true
		}
		s.Points = append(s.Points, p)
	}
	return sets
}
