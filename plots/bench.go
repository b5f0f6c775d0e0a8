package plots

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

	"github.com/chbench/chbench/schema"
)

// BenchSet is the data of one benchmark plot: one benchmark, one variant of
// its other sub-name keys and one unit, with a line per algorithm.
type BenchSet struct {
	Name    string   // benchmark name without the "Benchmark" prefix, e.g. "Lookup"
	Variant string   // sub-name keys other than algo, nodes and gomaxprocs, e.g. "from=key"; "" if none
	Unit    string   // "ns/op" for time (benchfmt's sec/op scaled by 1e9), else the unit as read
	Series  []Series // one per algorithm in catalog order; X = nodes, Y = median, CI = 95% interval
	Procs   string   // GOMAXPROCS of the runs (the -N name suffix), "/"-joined if several; "" if none
	Caption string   // where the numbers came from: goos/goarch, cpu, GOMAXPROCS, runs per point
}

// benchCell identifies the samples summarised into one Point.
type benchCell struct {
	name, variant, unit, algo string
	nodes                     float64
}

// ReadBenchmarks reads Go benchmark output (the benchfmt format) from path
// and summarises every result named Benchmark<Name>/algo=<a>/nodes=<n>[/...]:
// per (name, variant, unit, algorithm, nodes) the median of the samples and
// its 95% confidence interval under benchmath.AssumeNothing (CI is false
// when there are too few samples for a finite interval: 6 are needed).
// Sub-name keys besides algo, nodes and gomaxprocs form the Variant, so
// results that differ in them are never pooled. Time is reported in ns/op;
// B/op and allocs/op are dropped; any other (custom) unit is kept as is.
// Results without algo and nodes keys are ignored. A syntax error, a nodes
// value that is not a number, a NaN or infinite measurement, or a negative
// time is an error naming the file and line.
func ReadBenchmarks(path string) ([]BenchSet, error) {
	f, err := schema.OpenInput(path) // a regular file of at most schema.MaxInputBytes
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBenchmarks(f, path)
}

func readBenchmarks(r io.Reader, fileName string) ([]BenchSet, error) {
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

	samples := map[benchCell][]float64{}
	// Per benchmark name: distinct goos, goarch, cpu and GOMAXPROCS values,
	// in order of first appearance, for the caption.
	meta := map[string]map[string][]string{}
	note := func(name, key, v string) {
		if v == "" {
			return
		}
		if meta[name] == nil {
			meta[name] = map[string][]string{}
		}
		if !slices.Contains(meta[name][key], v) {
			meta[name][key] = append(meta[name][key], v)
		}
	}
	br := benchfmt.NewReader(r, fileName)
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
		name := proj[0].Project(res).Get(proj[0].Fields()[0])
		algo := proj[1].Project(res).Get(proj[1].Fields()[0])
		nodesStr := proj[2].Project(res).Get(proj[2].Fields()[0])
		nodes, err := strconv.ParseFloat(nodesStr, 64)
		if err != nil || math.IsNaN(nodes) || math.IsInf(nodes, 0) || nodes <= 0 {
			return nil, fmt.Errorf("%s:%d: nodes=%s: want a node count > 0", file, line, nodesStr)
		}
		variant := variantOf(rest.Project(res).Get(rest.Fields()[0]))
		for _, k := range []string{"goos", "goarch", "cpu"} {
			note(name, k, res.GetConfig(k))
		}
		note(name, "gomaxprocs", proj[3].Project(res).Get(proj[3].Fields()[0]))
		for i, k := range byUnit.ProjectValues(res) {
			unit := k.Get(unitField)
			v := res.Values[i].Value
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
		}
	}
	if err := br.Err(); err != nil {
		return nil, err
	}
	sets := summarise(samples)
	for i := range sets {
		setMeta(&sets[i], meta[sets[i].Name], samples)
	}
	return sets, nil
}

// setMeta fills s.Procs and s.Caption from the configuration values m
// (goos, goarch, cpu, gomaxprocs) and the number of samples per point, e.g.
// "linux/amd64, cpu AMD EPYC, GOMAXPROCS 2; median of 6 runs per point".
func setMeta(s *BenchSet, m map[string][]string, samples map[benchCell][]float64) {
	join := func(k string) string { return strings.Join(m[k], "/") }
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
			n := len(samples[benchCell{s.Name, s.Variant, s.Unit, sr.Algo, p.X}])
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

// variantOf turns a projected .fullname such as "*/from=key" (the name and
// projected keys replaced or removed) into "from=key".
func variantOf(full string) string {
	full = strings.TrimPrefix(full, "*")
	return strings.TrimPrefix(full, "/")
}

// summarise groups the cells into sets and series in a fixed order: by
// name, variant, unit (ns/op first), algorithm (catalog order), nodes.
func summarise(samples map[benchCell][]float64) []BenchSet {
	cells := make([]benchCell, 0, len(samples))
	for c := range samples {
		cells = append(cells, c)
	}
	slices.SortFunc(cells, func(a, b benchCell) int {
		return cmp.Or(
			cmp.Compare(a.name, b.name),
			cmp.Compare(a.variant, b.variant),
			cmp.Compare(unitRank(a.unit), unitRank(b.unit)),
			cmp.Compare(a.unit, b.unit),
			algoOrder(a.algo, b.algo),
			cmp.Compare(a.nodes, b.nodes),
		)
	})
	var sets []BenchSet
	for _, c := range cells {
		if n := len(sets); n == 0 || sets[n-1].Name != c.name || sets[n-1].Variant != c.variant || sets[n-1].Unit != c.unit {
			sets = append(sets, BenchSet{Name: c.name, Variant: c.variant, Unit: c.unit})
		}
		set := &sets[len(sets)-1]
		if n := len(set.Series); n == 0 || set.Series[n-1].Algo != c.algo {
			set.Series = append(set.Series, Series{Algo: c.algo, Label: c.algo})
		}
		s := &set.Series[len(set.Series)-1]
		sum := benchmath.AssumeNothing.Summary(benchmath.NewSample(samples[c], &benchmath.DefaultThresholds), 0.95)
		p := Point{X: c.nodes, Y: sum.Center, Lo: sum.Center, Hi: sum.Center}
		if !math.IsInf(sum.Lo, 0) && !math.IsInf(sum.Hi, 0) {
			p.Lo, p.Hi, p.CI = sum.Lo, sum.Hi, true
		}
		s.Points = append(s.Points, p)
	}
	return sets
}

func unitRank(u string) int {
	if u == "ns/op" {
		return 0
	}
	return 1
}
