package schema

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
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
	anyValue domain = iota
	count           // a whole number >= 1 (node counts, keys, sets, replicas)
	fraction        // a fraction in [0, 1]
	positive        // > 0
)

// domains are the columns whose domain is more than "finite".
var domains = map[string]domain{
	"from": count, "to": count, "nodes": count, "replicas": count, "keys": count, "sets": count,
	"ideal_frac": positive, "weight": positive, "weight_share": fraction, "share": fraction,
	"pairs_moved_frac": fraction, "all_lost_frac": fraction, "steady_hit_ratio": fraction,
}

// checker is implemented by row types with checks beyond the columns'
// domains (relations between columns).
type checker interface{ check() error }

// Check is the one validation every row passes: [WriteCSV], [WriteJSON]
// and [WriteBench] before writing it, [ReadCSV] and [ReadJSON] after
// reading it. It returns a *ColumnError (or an error wrapping one) for the
// first column that is not finite, lies outside its domain (whole counts
// >= 1, fractions in [0, 1], positive ideal fractions and weights), or,
// for a column X with X_lo and X_hi columns, lies outside [X_lo, X_hi];
// then the row type's own relations between columns.
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
	for _, c := range l.cols {
		x, ok := num(c)
		if !ok {
			continue
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return columnErr(c.name, "%v is not a finite number", x)
		}
		shown := strconv.FormatFloat(x, 'g', -1, 64)
		switch domains[c.name] {
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
		}
		lo, okLo := l.byName[c.name+"_lo"]
		hi, okHi := l.byName[c.name+"_hi"]
		if !okLo || !okHi {
			continue
		}
		a, okA := num(l.cols[lo])
		b, okB := num(l.cols[hi])
		if okA && okB && (a > x || b < x) {
			return columnErr(c.name, "%v outside its interval [%v, %v]", x, a, b)
		}
	}
	if c, ok := any(r).(checker); ok {
		return c.check()
	}
	return nil
}
