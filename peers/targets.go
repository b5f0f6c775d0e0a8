package peers

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchproc"

	"github.com/chbench/chbench/algorithms/catalog"
)

// Cell names one benchmark of BenchmarkPeerLookup:
// impl=Impl/algo=Algo/nodes=Nodes, or with Removed > 0
// impl=Impl/algo=Algo/nodes=Nodes/removed=Removed: the placement of Nodes
// nodes after Removed of them left (see bench.NewPlacerWithout).
type Cell struct {
	Impl, Algo string
	Nodes      int
	Removed    int
}

func (c Cell) String() string {
	s := fmt.Sprintf("impl=%s/algo=%s/nodes=%d", c.Impl, c.Algo, c.Nodes)
	if c.Removed > 0 {
		s += fmt.Sprintf("/removed=%d", c.Removed)
	}
	return s
}

// Results holds the samples of BenchmarkPeerLookup read from benchfmt
// output, by cell and unit ("sec/op", "allocs/op", ...; ns/op is tidied to
// sec/op by benchfmt).
type Results struct {
	samples map[Cell]map[string][]float64
}

// ReadResults reads benchfmt output (go test -bench) from r, keeping the
// PeerLookup results and projecting each onto /impl, /algo, /nodes and
// /removed (absent = 0) with benchproc. fileName is used in messages.
// Syntax errors in the input come back as warnings; the error is for a
// failed read or a PeerLookup result whose nodes or removed is not an
// integer.
func ReadResults(r io.Reader, fileName string) (*Results, []error, error) {
	filter, err := benchproc.NewFilter(".name:PeerLookup")
	if err != nil {
		return nil, nil, err
	}
	var parser benchproc.ProjectionParser
	proj, err := parser.Parse("/impl,/algo,/nodes,/removed", filter)
	if err != nil {
		return nil, nil, err
	}
	fields := proj.Fields()
	res := &Results{samples: make(map[Cell]map[string][]float64)}
	var warnings []error
	rd := benchfmt.NewReader(r, fileName)
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			warnings = append(warnings, rec)
		case *benchfmt.Result:
			ok, err := filter.Apply(rec)
			if err != nil {
				return nil, warnings, err
			}
			if !ok {
				continue
			}
			key := proj.Project(rec)
			nodes := key.Get(fields[2])
			n, err := strconv.Atoi(nodes)
			if err != nil {
				file, line := rec.Pos()
				return nil, warnings, fmt.Errorf("%s:%d: %s: nodes %q is not an integer", file, line, rec.Name.Full(), nodes)
			}
			removed := 0
			if r := key.Get(fields[3]); r != "" {
				if removed, err = strconv.Atoi(r); err != nil {
					file, line := rec.Pos()
					return nil, warnings, fmt.Errorf("%s:%d: %s: removed %q is not an integer", file, line, rec.Name.Full(), r)
				}
			}
			c := Cell{Impl: key.Get(fields[0]), Algo: key.Get(fields[1]), Nodes: n, Removed: removed}
			units := res.samples[c]
			if units == nil {
				units = make(map[string][]float64)
				res.samples[c] = units
			}
			for _, v := range rec.Values {
				units[v.Unit] = append(units[v.Unit], v.Value)
			}
		}
	}
	if err := rd.Err(); err != nil {
		return nil, warnings, err
	}
	return res, warnings, nil
}

// errMissing is returned (wrapped) for a cell or unit without samples.
var errMissing = errors.New("no results")

// Median returns the median of c's samples in unit (benchmath's
// AssumeNothing summary, the statistic benchstat prints) and the number of
// samples. It returns an error naming the cell and unit when there are
// none.
func (r *Results) Median(c Cell, unit string) (float64, int, error) {
	vals := r.samples[c][unit]
	if len(vals) == 0 {
		return 0, 0, fmt.Errorf("%s %s: %w", c, unit, errMissing)
	}
	s := benchmath.AssumeNothing.Summary(benchmath.NewSample(vals, &benchmath.DefaultThresholds), 0.95)
	return s.Center, len(vals), nil
}

// Max returns the largest of c's samples in unit and their number, or an
// error naming the cell and unit when there are none.
func (r *Results) Max(c Cell, unit string) (float64, int, error) {
	vals := r.samples[c][unit]
	if len(vals) == 0 {
		return 0, 0, fmt.Errorf("%s %s: %w", c, unit, errMissing)
	}
	m := math.Inf(-1)
	for _, v := range vals {
		m = math.Max(m, v)
	}
	return m, len(vals), nil
}

// Kind is how a Target compares its cells.
type Kind int

const (
	// Speedup: median time of Other / median time of Cell >= Bound
	// ("Cell is at least Bound times faster than Other").
	Speedup Kind = iota
	// Ratio: median time of Cell / median time of Other <= Bound ("Cell
	// takes at most Bound times as long as Other").
	Ratio
	// ZeroAllocs: every sample of Cell has 0 allocs/op.
	ZeroAllocs
	// Report: median time of Cell / median time of Other, reported
	// without a bound (Bound is unused); it fails only when a cell has no
	// results.
	Report
)

// Target is one lookup-speed goal, checked on medians measured in the
// same run.
type Target struct {
	Kind  Kind
	Cell  Cell // the chbench lookup
	Other Cell // what it is compared with (unused for ZeroAllocs)
	Bound float64
}

func (t Target) String() string {
	name := fmt.Sprintf("%s nodes=%d", t.Cell.Algo, t.Cell.Nodes)
	if t.Cell.Removed > 0 {
		name += fmt.Sprintf(" removed=%d", t.Cell.Removed)
	}
	switch t.Kind {
	case Speedup:
		return fmt.Sprintf("%s: %s >= %gx faster than %s", name, t.Cell.Impl, t.Bound, t.Other.Impl)
	case Ratio:
		return fmt.Sprintf("%s: %s time / %s time <= %g", name, t.Cell.Impl, t.Other.Impl, t.Bound)
	case Report:
		return fmt.Sprintf("%s: %s time / %s time (reported, no bound)", name, t.Cell.Impl, t.Other.Impl)
	default:
		return fmt.Sprintf("%s: %s 0 allocs/op", name, t.Cell.Impl)
	}
}

// DefaultTargets returns chbench's lookup targets ("Lookups at the
// physical limit"), all end to end from a key string:
//   - ring, 160 virtual nodes: >= 3x faster than groupcache and stathat at
//     1000 nodes, >= 1.5x at 10;
//   - rendezvous at 100 nodes: >= 1.5x faster than go-rendezvous with the
//     same hash (xxhash);
//   - jump: no slower than go-jump over the same key hash (time ratio <=
//     1.05) at every node count;
//   - modulo, jump, slots, bounded and ring at every node count (up to
//     1000): lookup time <= 3x the time of hashing the key alone;
//   - the constant-time range hashes jumpback, fliphash, powerch and
//     binomial at 10 to 10,000 nodes: <= 2x the key hash (they exist to
//     remove jump's O(ln n) loop);
//   - maglev up to 1000 nodes: <= 1.5x the key hash (one table read);
//   - anchor and memento with 10% of their nodes removed (Removed =
//     Nodes/10): <= 3x the key hash;
//   - multiprobe (21 probes) against the key hash: reported, no bound (the
//     algorithm trades speed for balance);
//   - every chbench lookup: 0 allocs/op.
//
// Targets of algorithms that the catalog does not list are kept, and
// [Check] reports them as not measured.
func DefaultTargets() []Target {
	ch := func(algo string, n int) Cell { return Cell{Impl: "chbench", Algo: algo, Nodes: n} }
	hash := func(algo string, n int) Cell { return Cell{Impl: "hash", Algo: algo, Nodes: n} }
	var ts []Target
	for _, n := range []int{1000, 10} {
		bound := 3.0
		if n == 10 {
			bound = 1.5
		}
		for _, peer := range []string{"groupcache", "stathat"} {
			ts = append(ts, Target{Speedup, ch("ring", n), Cell{Impl: peer, Algo: "ring", Nodes: n}, bound})
		}
	}
	ts = append(ts, Target{Speedup, ch("rendezvous", 100), Cell{Impl: "go-rendezvous", Algo: "rendezvous", Nodes: 100}, 1.5})
	for _, n := range NodeCounts {
		ts = append(ts, Target{Ratio, ch("jump", n), Cell{Impl: "go-jump", Algo: "jump", Nodes: n}, 1.05})
	}
	for _, algo := range []string{"modulo", "jump", "slots", "bounded", "ring"} {
		for _, n := range NodeCounts {
			ts = append(ts, Target{Ratio, ch(algo, n), hash(algo, n), 3})
		}
	}
	for _, algo := range []string{"jumpback", "fliphash", "powerch", "binomial"} {
		for _, n := range RangeNodeCounts {
			ts = append(ts, Target{Ratio, ch(algo, n), hash(algo, n), 2})
		}
	}
	for _, n := range NodeCounts {
		ts = append(ts, Target{Ratio, ch("maglev", n), hash("maglev", n), 1.5})
	}
	for _, algo := range []string{"anchor", "memento"} {
		for _, n := range NodeCounts {
			c := ch(algo, n)
			c.Removed = n / 10
			ts = append(ts, Target{Ratio, c, hash(algo, n), 3})
		}
	}
	for _, n := range NodeCounts {
		ts = append(ts, Target{Kind: Report, Cell: ch("multiprobe", n), Other: hash("multiprobe", n)})
	}
	for _, algo := range catalog.Names() {
		for _, n := range NodeCounts {
			ts = append(ts, Target{Kind: ZeroAllocs, Cell: ch(algo, n)})
		}
	}
	return ts
}

// BenchCells returns the cells BenchmarkPeerLookup measures for impl
// ("chbench" or "hash") and algo: one per [NodeCounts], plus every other
// cell of impl and algo that a [DefaultTargets] target compares (larger
// node counts, removals), in that order.
func BenchCells(impl, algo string) []Cell {
	var cells []Cell
	seen := make(map[Cell]bool)
	add := func(c Cell) {
		if c.Impl == impl && c.Algo == algo && !seen[c] {
			seen[c] = true
			cells = append(cells, c)
		}
	}
	for _, n := range NodeCounts {
		add(Cell{Impl: impl, Algo: algo, Nodes: n})
	}
	for _, t := range DefaultTargets() {
		add(t.Cell)
		if t.Kind != ZeroAllocs {
			add(t.Other)
		}
	}
	return cells
}

// Outcome is a checked Target: the measured value (a speed-up, a time
// ratio, or the largest allocs/op) and whether it meets the bound. Err is
// set, and Pass false, when a cell has no results. NotMeasured is set (and
// Err says why) when the target's algorithm is not in the catalog: such an
// outcome neither passes nor fails.
type Outcome struct {
	Target
	Value       float64
	Time        float64 // median sec/op of Cell (0 for ZeroAllocs)
	OtherTime   float64 // median sec/op of Other (0 for ZeroAllocs)
	N, OtherN   int     // sample counts
	Pass        bool
	NotMeasured bool
	Err         error
}

// Check evaluates each target on r, in order.
func Check(r *Results, targets []Target) []Outcome {
	out := make([]Outcome, len(targets))
	for i, t := range targets {
		o := Outcome{Target: t}
		if _, err := catalog.Describe(t.Cell.Algo); err != nil && t.Cell.Impl == "chbench" {
			o.NotMeasured = true
			o.Err = fmt.Errorf("not measured: algorithm %q is not in the catalog", t.Cell.Algo)
			out[i] = o
			continue
		}
		if t.Kind == ZeroAllocs {
			o.Value, o.N, o.Err = r.Max(t.Cell, "allocs/op")
			o.Pass = o.Err == nil && o.Value == 0
			out[i] = o
			continue
		}
		o.Time, o.N, o.Err = r.Median(t.Cell, "sec/op")
		if o.Err == nil {
			o.OtherTime, o.OtherN, o.Err = r.Median(t.Other, "sec/op")
		}
		if o.Err == nil {
			switch t.Kind {
			case Speedup:
				o.Value = o.OtherTime / o.Time
				o.Pass = o.Value >= t.Bound
			case Ratio:
				o.Value = o.Time / o.OtherTime
				o.Pass = o.Value <= t.Bound
			default: // Report
				o.Value = o.Time / o.OtherTime
				o.Pass = true
			}
		}
		out[i] = o
	}
	return out
}

// WriteReport writes one line per outcome, then a summary line: the
// verdict ("PASS", "FAIL"; "INFO" for a reported ratio without a bound,
// "SKIP" for a target not measured), the target, the measured value and the
// medians it came from (ns). The summary counts the targets met among
// those with a bound that were measured, and names how many were reported
// or not measured. It returns the number of failed targets and the first
// write error.
func WriteReport(w io.Writer, outs []Outcome) (failed int, err error) {
	met, reported, skipped := 0, 0, 0
	for _, o := range outs {
		verdict := "PASS"
		switch {
		case o.NotMeasured:
			verdict = "SKIP"
			skipped++
		case !o.Pass:
			verdict = "FAIL"
			failed++
		case o.Kind == Report:
			verdict = "INFO"
			reported++
		default:
			met++
		}
		var detail string
		switch {
		case o.Err != nil:
			detail = o.Err.Error()
		case o.Kind == ZeroAllocs:
			detail = fmt.Sprintf("max %g allocs/op (n=%d)", o.Value, o.N)
		case o.Kind == Speedup:
			detail = fmt.Sprintf("measured %.2fx (%.1f ns vs %.1f ns, n=%d/%d)", o.Value, o.Time*1e9, o.OtherTime*1e9, o.N, o.OtherN)
		default:
			detail = fmt.Sprintf("measured %.2f (%.1f ns vs %.1f ns, n=%d/%d)", o.Value, o.Time*1e9, o.OtherTime*1e9, o.N, o.OtherN)
		}
		if _, err := fmt.Fprintf(w, "%s  %-62s %s\n", verdict, o.Target, detail); err != nil {
			return failed, err
		}
	}
	summary := fmt.Sprintf("%d of %d targets met", met, met+failed)
	if reported > 0 {
		summary += fmt.Sprintf(", %d reported without a bound", reported)
	}
	if skipped > 0 {
		summary += fmt.Sprintf(", %d not measured (algorithm not in the catalog)", skipped)
	}
	_, err = fmt.Fprintln(w, summary)
	return failed, err
}
