package schema

import (
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/perf/benchfmt"
)

// benchRow is a row type with a benchmark form ([Move], [Spread], [Load],
// [Bounded]): one line per key set or request stream, named by the row's
// scenario, and the units among its metrics that are deterministic.
type benchRow interface {
	Row
	benchName() string
	benchLines() [][]benchfmt.Value
	exactUnits() []string
}

// HasBench reports whether rows of type R have a benchmark form
// ([WriteBench]).
func HasBench[R Row]() bool {
	var zero R
	_, ok := any(zero).(benchRow)
	return ok
}

// WriteBench writes rows in the Go benchmark format
// (golang.org/x/perf/benchfmt, for benchstat): first a unit line
// "Unit U assume=exact" for every deterministic metric of the rows, then
// per row one result line per key set or request stream (Iters 1), each
// preceded by the file configuration lines of the row's [Config] that
// changed: hash, vnodes, eps, partitions, table-size, probes, capacity,
// keys, sets, placement, keyfile, keykind, topology and domain (when set),
// go and commit.
// The scenario lives in the benchmark name and the seed nowhere, so that
// two runs of one configuration on different seeds land in one benchstat
// table, while results of different algorithm settings (a vnodes sweep)
// never merge into one row; compare runs that differ in a configuration
// line with e.g. `benchstat -col hash a.txt b.txt` or `-ignore commit`.
//
// It returns an error for a row type without a benchmark form, a row that
// fails [Check], and a configuration value holding a control character (a
// newline would end the line and let the rest pass for a result), naming
// the key and the value.
func WriteBench[R Row](w io.Writer, rows []R) error {
	if !HasBench[R]() {
		var zero R
		return fmt.Errorf("%T results have no benchmark format", zero)
	}
	var units []string
	for _, r := range rows {
		for _, u := range any(r).(benchRow).exactUnits() {
			if !slices.Contains(units, u) {
				units = append(units, u)
			}
		}
	}
	bw := benchfmt.NewWriter(w)
	for _, u := range units {
		m := &benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u, Key: "assume"}, OrigUnit: u, Value: "exact"}
		if err := bw.Write(m); err != nil {
			return err
		}
	}
	for i, r := range rows {
		if err := Check(r); err != nil {
			return fmt.Errorf("row %d: %w", i+1, err)
		}
		b := any(r).(benchRow)
		cfg, err := benchConfig(configOf(r))
		if err != nil {
			return err
		}
		for _, vals := range b.benchLines() {
			res := &benchfmt.Result{Config: cfg, Name: benchfmt.Name(b.benchName()), Iters: 1, Values: vals}
			if err := bw.Write(res); err != nil {
				return err
			}
		}
	}
	return nil
}

// configOf returns the Config embedded in row r.
func configOf[R Row](r R) Config {
	l := layoutOf[R]()
	var c Config
	if l.config != nil {
		c = reflect.ValueOf(r).FieldByIndex(l.config).Interface().(Config)
	}
	return c
}

// benchConfig returns the file configuration lines of c (see WriteBench).
func benchConfig(c Config) ([]benchfmt.Config, error) {
	itoa := strconv.Itoa
	ftoa := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	kv := [][2]string{{"hash", c.Hash}, {"vnodes", itoa(c.VNodes)}, {"eps", ftoa(c.Eps)}, {"partitions", itoa(c.Partitions)},
		{"table-size", itoa(c.TableSize)}, {"probes", itoa(c.Probes)}, {"capacity", itoa(c.Capacity)},
		{"keys", itoa(c.Keys)}, {"sets", itoa(c.Sets)}, {"placement", c.Placement}}
	if c.KeyFile != "" {
		kv = append(kv, [2]string{"keyfile", c.KeyFile})
	}
	if c.KeyKind != "" {
		kv = append(kv, [2]string{"keykind", c.KeyKind})
	}
	if c.Topology != "" {
		kv = append(kv, [2]string{"topology", c.Topology}, [2]string{"domain", c.Domain})
	}
	kv = append(kv, [2]string{"go", c.GoVersion}, [2]string{"commit", c.Commit})
	out := make([]benchfmt.Config, len(kv))
	for i, p := range kv {
		if strings.ContainsFunc(p[1], unicode.IsControl) {
			return nil, fmt.Errorf("bench format: %s %q holds a control character, which would break the configuration line", p[0], p[1])
		}
		out[i] = benchfmt.Config{Key: p[0], Value: []byte(p[1]), File: true}
	}
	return out, nil
}
