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
// impl=Impl/algo=Algo/nodes=Nodes.
type Cell struct {
	Impl, Algo string
	Nodes      int
}

func (c Cell) String() string {
	return fmt.Sprintf("impl=%s/algo=%s/nodes=%d", c.Impl, c.Algo, c.Nodes)
}

// Results holds the samples of BenchmarkPeerLookup read from benchfmt
// output, by cell and unit ("sec/op", "allocs/op", ...; ns/op is tidied to
// sec/op by benchfmt).
type Results struct {
	samples map[Cell]map[string][]float64
}

// ReadResults reads benchfmt output (go test -bench) from r, keeping the
// PeerLookup results and projecting each onto /impl, /algo and /nodes with
// benchproc. fileName is used in messages. Syntax errors in the input come
// back as warnings; the error is for a failed read or a PeerLookup result
// whose nodes is not an integer.
func ReadResults(r io.Reader, fileName string) (*Results, []error, error) {
	filter, err := benchproc.NewFilter(".name:PeerLookup")
	if err != nil {
		return nil, nil, err
	}
	var parser benchproc.ProjectionParser
	proj, err := parser.Parse("/impl,/algo,/nodes", filter)
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
			c := Cell{Impl: key.Get(fields[0]), Algo: key.Get(fields[1]), Nodes: n}
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
	switch t.Kind {
	case Speedup:
		return fmt.Sprintf("%s nodes=%d: %s >= %gx faster than %s", t.Cell.Algo, t.Cell.Nodes, t.Cell.Impl, t.Bound, t.Other.Impl)
	case Ratio:
		return fmt.Sprintf("%s nodes=%d: %s time / %s time <= %g", t.Cell.Algo, t.Cell.Nodes, t.Cell.Impl, t.Other.Impl, t.Bound)
	default:
		return fmt.Sprintf("%s nodes=%d: %s 0 allocs/op", t.Cell.Algo, t.Cell.Nodes, t.Cell.Impl)
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
//   - every chbench lookup: 0 allocs/op.
func DefaultTargets() []Target {
	ch := func(algo string, n int) Cell { return Cell{"chbench", algo, n} }
	var ts []Target
	for _, n := range []int{1000, 10} {
		bound := 3.0
		if n == 10 {
			bound = 1.5
		}
		for _, peer := range []string{"groupcache", "stathat"} {
			ts = append(ts, Target{Speedup, ch("ring", n), Cell{peer, "ring", n}, bound})
		}
	}
	ts = append(ts, Target{Speedup, ch("rendezvous", 100), Cell{"go-rendezvous", "rendezvous", 100}, 1.5})
	for _, n := range NodeCounts {
		ts = append(ts, Target{Ratio, ch("jump", n), Cell{"go-jump", "jump", n}, 1.05})
	}
	for _, algo := range []string{"modulo", "jump", "slots", "bounded", "ring"} {
		for _, n := range NodeCounts {
			ts = append(ts, Target{Ratio, ch(algo, n), Cell{"hash", algo, n}, 3})
		}
	}
	for _, algo := range catalog.Names() {
		for _, n := range NodeCounts {
			ts = append(ts, Target{Kind: ZeroAllocs, Cell: ch(algo, n)})
		}
	}
	return ts
}

// Outcome is a checked Target: the measured value (a speed-up, a time
// ratio, or the largest allocs/op) and whether it meets the bound. Err is
// set, and Pass false, when a cell has no results.
type Outcome struct {
	Target
	Value     float64
	Time      float64 // median sec/op of Cell (0 for ZeroAllocs)
	OtherTime float64 // median sec/op of Other (0 for ZeroAllocs)
	N, OtherN int     // sample counts
	Pass      bool
	Err       error
}

// Check evaluates each target on r, in order.
func Check(r *Results, targets []Target) []Outcome {
	out := make([]Outcome, len(targets))
	for i, t := range targets {
		o := Outcome{Target: t}
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
			if t.Kind == Speedup {
				o.Value = o.OtherTime / o.Time
				o.Pass = o.Value >= t.Bound
			} else {
				o.Value = o.Time / o.OtherTime
				o.Pass = o.Value <= t.Bound
			}
		}
		out[i] = o
	}
	return out
}

// WriteReport writes one line per outcome, "PASS" or "FAIL", the target,
// the measured value and the medians it came from (ns), then a summary
// line. It returns the number of failed targets and the first write error.
func WriteReport(w io.Writer, outs []Outcome) (failed int, err error) {
	for _, o := range outs {
		verdict := "PASS"
		if !o.Pass {
			verdict = "FAIL"
			failed++
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
	_, err = fmt.Fprintf(w, "%d of %d targets met\n", len(outs)-failed, len(outs))
	return failed, err
}
