package schema

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms/catalog"
)

// ColumnError is a row value outside its column's domain. The readers
// add the file, line and column position.
type ColumnError struct {
	Column string // the column's CSV name
	Msg    string // what is wrong, naming the value
}

func (e *ColumnError) Error() string { return "column " + e.Column + ": " + e.Msg }

// columnErr returns a *ColumnError about column name.
func columnErr(name, format string, args ...any) error {
	return &ColumnError{Column: name, Msg: fmt.Sprintf(format, args...)}
}

// A domain is the set of values a column may hold, by its name: a name
// means the same in every file.
type domain int

const (
	anyValue       domain = iota
	count                 // a whole number >= 1 (node counts, keys, sets, replicas)
	fraction              // a fraction in [0, 1]
	positive              // > 0
	share                 // a fraction in (0, 1]
	label                 // a scenario op or a fleet change's name: see IsLabel
	positiveOrZero        // >= 0 (a count that may be 0, a ratio of shares)
	peakToMean            // >= 1: the busiest node's load over its weight's due carries at least the mean
	cvOverNodes           // a coefficient of variation of n node loads: in [0, sqrt(n-1)]
)

// domains are the columns whose domain is more than "finite".
var domains = map[string]domain{
	"from": count, "to": count, "nodes": count, "replicas": count, "keys": count, "sets": count,
	"ideal_frac": positive, "ideal_join_frac": positive, "ideal_leave_frac": positive, "weight": positive,
	"weight_share": share, "share": fraction,
	"pairs_moved_frac": fraction, "all_lost_frac": fraction, "steady_hit_ratio": fraction,
	"net_moved_frac": fraction, "min_share": fraction, "max_share": fraction, "hot_share": fraction,
	"away_frac": fraction, "moved_join_frac": fraction, "moved_leave_frac": fraction,
	"exact_min_share": fraction, "exact_max_share": fraction, "exact_share": fraction,
	"hit_ratio": fraction, "hit_after": fraction, "hit_live": fraction, "hit_sim": fraction,
	"moved_frac": positiveOrZero, "collateral_frac": positiveOrZero, "noise_cv": positiveOrZero, "zipf": positiveOrZero,
	// measured spreads of node loads (load = share / weight share; the
	// noise floor and theory columns are approximations, held to >= 0)
	"peak_to_mean": peakToMean, "load_peak_to_mean": peakToMean, "exact_peak_to_mean": peakToMean,
	"placements_peak_to_mean": peakToMean, "bytes_peak_to_mean": peakToMean,
	"cv": cvOverNodes, "load_cv": cvOverNodes, "exact_cv": cvOverNodes, "placements_cv": cvOverNodes, "bytes_cv": cvOverNodes,
	"db_reads": positiveOrZero, "db_steady": positiveOrZero,
	"recovery_s": positiveOrZero, "tau_s": positiveOrZero,
	"differ_frac": fraction,
	"domains":     count, "keys_shared_frac": fraction, "pairs_shared_frac": fraction, "keys_one_domain_frac": fraction, "random_shared_frac": fraction,
	"relative": positiveOrZero, "copies_frac": fraction, "keys_moved_frac": fraction, "keys_lost_frac": fraction,
	"cross_frac": fraction, "cross_outer_frac": fraction, "nodes_left": positiveOrZero, "nodes_joined": positiveOrZero,
	"op": label,
	// bytes of a trace's objects (spread, load)
	"bytes_sample_rate": share, "bytes_max_share": fraction,
}

// domainOf returns the domain of column name: its own, or for X_lo and
// X_hi the domain of X (a bound of an interval lies where its value
// does).
func domainOf(name string) domain {
	if d, ok := domains[name]; ok {
		return d
	}
	for _, suffix := range []string{"_lo", "_hi"} {
		if base, ok := strings.CutSuffix(name, suffix); ok {
			return domains[base]
		}
	}
	return anyValue
}

// ratioSlack is the relative float rounding a peak-to-mean ratio or a
// coefficient of variation may carry past its bound (1 and sqrt(n-1) are
// reached exactly: one node, or every key on one node).
const ratioSlack = 1e-9

// LabelRule describes the names IsLabel accepts, for messages.
const LabelRule = "letters, digits and . _ + % -, starting with a letter or digit, no .."

// IsLabel reports whether s may be the op of a result: letters, digits and
// the characters . _ + % - (those of the scenario ops and of fleet change
// names such as reweight-5%-1-to-127 or leave+reweight), starting with a
// letter or digit and without "..". Ops name plot files
// (movement-<op>.png), so an op is also a file name that stays in the
// directory it is joined to.
func IsLabel(s string) bool {
	if s == "" || strings.Contains(s, "..") {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case i > 0 && strings.ContainsRune("._+%-", r):
		default:
			return false
		}
	}
	return true
}

// checker is implemented by row types with checks beyond the columns'
// domains (relations between columns).
type checker interface{ check() error }

// Check is the one validation every row passes: [WriteCSV], [WriteJSON]
// and [WriteBench] before writing it, [ReadCSV] and [ReadJSON] after
// reading it. It returns a *ColumnError (or an error wrapping one) for the
// first column that is not finite, lies outside its domain (whole counts
// >= 1, fractions, shares and hit ratios in [0, 1], weight shares in
// (0, 1], positive ideal fractions and weights, non-negative reads,
// durations, cvs and moved fractions summed over steps, ops that are
// labels: [IsLabel]; an X_lo or X_hi column in the domain of X), or,
// for a column X with X_lo and X_hi columns, lies outside [X_lo, X_hi],
// has one bound without the other (a missing interval misses both; the
// error names the missing one) or has an interval in a row of one key set
// (sets = 1) or one replay (replays = 1); a peak-to-mean ratio (or bound)
// above W / the smallest weight where the row knows it ([peakToMeanTop]);
// then the row type's own relations between columns (a storm's warm-up
// model, a replication's distinct sets at most max_distinct_sets, ...).
func Check[R Row](r R) error {
	l := layoutOf[R]()
	v := reflect.ValueOf(r)
	num := func(c field) (float64, bool) {
		x := v.FieldByIndex(c.paths[0])
		if x.Kind() == reflect.Pointer {
			if x.IsNil() {
				return 0, false
			}
			x = x.Elem()
		}
		switch x.Kind() {
		case reflect.Float64:
			return x.Float(), true
		case reflect.Int:
			return float64(x.Int()), true
		}
		return 0, false
	}
	// nodeCount is the node count n the row's loads are spread over: its
	// nodes column, or for a replication row from (the first placement).
	nodeCount := func() (float64, bool) {
		for _, name := range []string{"nodes", "from"} {
			if j, ok := l.byName[name]; ok {
				return num(l.cols[j])
			}
		}
		return 0, false
	}
	// single names the column (sets, or replays for rows whose
	// intervals are over replays) that says the row's estimates come
	// from one sample, and so can have no interval.
	single := ""
	for _, name := range []string{"sets", "replays"} {
		if j, ok := l.byName[name]; ok {
			if x, ok := num(l.cols[j]); ok && x == 1 {
				single = name
			}
		}
	}
	top, bounded := peakToMeanTop(r, v, l, num)
	for _, c := range l.cols {
		if domainOf(c.name) == label {
			if s := cell(v, c); !IsLabel(s) {
				return columnErr(c.name, "%q is neither a scenario op (%s) nor a fleet change label (%s)", s, strings.Join(Ops(), ", "), LabelRule)
			}
			continue
		}
		x, ok := num(c)
		if !ok {
			continue
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return columnErr(c.name, "%v is not a finite number", x)
		}
		shown := strconv.FormatFloat(x, 'g', -1, 64)
		switch domainOf(c.name) {
		case count:
			if x < 1 {
				return columnErr(c.name, "%q is not a whole number >= 1", shown)
			}
		case fraction:
			if x < 0 || x > 1 {
				return columnErr(c.name, "%q is not a fraction in 0..1", shown)
			}
		case positive:
			if x <= 0 {
				return columnErr(c.name, "%q must be > 0", shown)
			}
		case share:
			if x <= 0 || x > 1 {
				return columnErr(c.name, "%q is not a share in (0, 1]", shown)
			}
		case positiveOrZero:
			if x < 0 {
				return columnErr(c.name, "%q must be >= 0", shown)
			}
		case peakToMean:
			if x < 1-ratioSlack {
				return columnErr(c.name, "%q is not a peak-to-mean ratio >= 1", shown)
			}
			if bounded && x > top*(1+ratioSlack) {
				return columnErr(c.name, "%q is above %.6g, the largest peak-to-mean ratio these nodes allow (total weight / the smallest weight: the node count for equal weights)", shown, top)
			}
		case cvOverNodes:
			n, ok := nodeCount()
			if top := math.Sqrt(max(n-1, 0)); x < 0 || ok && x > top*(1+ratioSlack) {
				return columnErr(c.name, "%q is not a coefficient of variation of %v node loads, in [0, sqrt(%v-1)] = [0, %.6g]", shown, n, n, top)
			}
		}
		lo, okLo := l.byName[c.name+"_lo"]
		hi, okHi := l.byName[c.name+"_hi"]
		if !okLo || !okHi {
			continue
		}
		a, okA := num(l.cols[lo])
		b, okB := num(l.cols[hi])
		if okA != okB {
			missing, other := c.name+"_hi", c.name+"_lo"
			if !okA {
				missing, other = other, missing
			}
			return columnErr(missing, "missing while %s is filled: an interval has both bounds or neither (missing: it could not be computed)", other)
		}
		if okA && single != "" {
			return columnErr(c.name+"_lo", "an interval with %s = 1: a 95%% interval needs at least two %s, so %s_lo and %s_hi must be empty", single, map[string]string{"sets": "key sets", "replays": "replays"}[single], c.name, c.name)
		}
		if okA && okB && (a > x || b < x) {
			return columnErr(c.name, "%v outside its interval [%v, %v]", x, a, b)
		}
	}
	if c, ok := any(r).(checker); ok {
		return c.check()
	}
	return nil
}

// peakBounder is implemented by row types that carry their nodes'
// weights (a spread's JSON shares): peakToMeanTop returns W / the smallest
// weight, and true, when they are known.
type peakBounder interface{ peakToMeanTop() (float64, bool) }

// peakToMeanTop returns the largest peak-to-mean ratio row r's nodes
// allow, W / the smallest weight (a ratio's every sample, and so its mean
// and interval, lie at or below it), and whether the row knows it: from
// the weights it carries ([peakBounder]), or for an algorithm of the
// catalog that takes no weights (equal weights: the node count of its
// nodes or from column). A row of a weighted algorithm without its weights
// (a CSV row) does not know it.
func peakToMeanTop(r any, v reflect.Value, l *layout, num func(field) (float64, bool)) (float64, bool) {
	if b, ok := r.(peakBounder); ok {
		if top, ok := b.peakToMeanTop(); ok {
			return top, true
		}
	}
	j, ok := l.byName["algo"]
	if !ok {
		return 0, false
	}
	if in, err := catalog.Describe(cell(v, l.cols[j])); err != nil || in.Weighted {
		return 0, false
	}
	for _, name := range []string{"nodes", "from"} {
		if j, ok := l.byName[name]; ok {
			return num(l.cols[j])
		}
	}
	return 0, false
}

// Text returns the cell of row r in column (its CSV name) as the CSV
// writer writes it, and false when rows of type R have no such column.
func Text[R Row](r R, column string) (string, bool) {
	l := layoutOf[R]()
	j, ok := l.byName[column]
	if !ok {
		return "", false
	}
	return cell(reflect.ValueOf(r), l.cols[j]), true
}
