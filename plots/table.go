package plots

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// table is a CSV file read by header name: columns may come in any order
// and unknown columns are ignored.
type table struct {
	file  string
	col   map[string]int
	rows  [][]string
	lines []int // 1-based line number of each row
}

// readTable reads the CSV file at path and checks that every name in
// required is a column of its header.
func readTable(path string, required []string) (*table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseTable(f, path, required)
}

func parseTable(r io.Reader, file string, required []string) (*table, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file, want a CSV header", file)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	t := &table{file: file, col: map[string]int{}}
	for i, h := range header {
		if _, dup := t.col[h]; dup {
			return nil, fmt.Errorf("%s:1: column %q appears twice", file, h)
		}
		t.col[h] = i
	}
	for _, name := range required {
		if _, ok := t.col[name]; !ok {
			return nil, fmt.Errorf("%s:1: missing column %q", file, name)
		}
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		line, _ := cr.FieldPos(0)
		t.rows = append(t.rows, rec)
		t.lines = append(t.lines, line)
	}
	if len(t.rows) == 0 { // like an empty file: a run that wrote nothing
		return nil, fmt.Errorf("%s: header but no rows, want at least one result", file)
	}
	return t, nil
}

// str returns column name of row i ("" if the table has no such column).
func (t *table) str(i int, name string) string {
	c, ok := t.col[name]
	if !ok {
		return ""
	}
	return t.rows[i][c]
}

// num returns column name of row i as a finite number, or an error naming
// the file, line, column and bad value.
func (t *table) num(i int, name string) (float64, error) {
	v, ok, err := t.optNum(i, name)
	if err == nil && !ok {
		err = fmt.Errorf("%s:%d: column %s (%d): empty, want a number", t.file, t.lines[i], name, t.col[name]+1)
	}
	return v, err
}

// count returns column name of row i as a node count: a whole number >= 1,
// or an error naming the file, line, column and bad value.
func (t *table) count(i int, name string) (float64, error) {
	v, err := t.num(i, name)
	if err == nil && (v < 1 || v != math.Trunc(v)) {
		err = fmt.Errorf("%s:%d: column %s (%d): %q is not a node count >= 1", t.file, t.lines[i], name, t.col[name]+1, t.str(i, name))
	}
	return v, err
}

// optNum is like num but reports ok = false, without error, when the cell
// is empty or the column is absent.
func (t *table) optNum(i int, name string) (v float64, ok bool, err error) {
	s := t.str(i, name)
	if s == "" {
		return 0, false, nil
	}
	v, err = strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false, fmt.Errorf("%s:%d: column %s (%d): %q is not a finite number", t.file, t.lines[i], name, t.col[name]+1, s)
	}
	return v, true, nil
}

// interval reads a centre column and its optional name_lo, name_hi bounds
// into a Point (X left 0). Both bounds must be present for a CI, and must
// bracket the centre.
func (t *table) interval(i int, name string) (Point, error) {
	y, err := t.num(i, name)
	if err != nil {
		return Point{}, err
	}
	p := Point{Y: y, Lo: y, Hi: y}
	lo, okLo, err := t.optNum(i, name+"_lo")
	if err != nil {
		return Point{}, err
	}
	hi, okHi, err := t.optNum(i, name+"_hi")
	if err != nil {
		return Point{}, err
	}
	if okLo != okHi {
		return Point{}, fmt.Errorf("%s:%d: %s_lo and %s_hi: give both bounds or neither", t.file, t.lines[i], name, name)
	}
	if okLo {
		if lo > y || hi < y {
			return Point{}, fmt.Errorf("%s:%d: %s %v outside its interval [%v, %v]", t.file, t.lines[i], name, y, lo, hi)
		}
		p.Lo, p.Hi, p.CI = lo, hi, true
	}
	return p, nil
}

// runInfo is how one CSV result row was produced: the optional columns
// keys, sets, seed, hash, vnodes, eps, go_version and commit, as written
// (empty when absent), and the algorithm.
type runInfo struct {
	Algo, Keys, Sets, Seed, Hash, VNodes, Eps, Placement, GoVersion, Commit string
}

func (t *table) info(i int) runInfo {
	return runInfo{
		Algo: t.str(i, "algo"), Keys: t.str(i, "keys"), Sets: t.str(i, "sets"), Seed: t.str(i, "seed"),
		Hash: t.str(i, "hash"), VNodes: t.str(i, "vnodes"), Eps: t.str(i, "eps"), Placement: t.str(i, "placement"),
		GoVersion: t.str(i, "go_version"), Commit: t.str(i, "commit"),
	}
}

// runCaption summarises where the rows' numbers came from, e.g.
// "100,000 keys x 5 sets, xxhash, seed 1, ring vnodes 160, bounded eps 0.25; go1.26.8, commit 65ea173".
// A field with several values lists them joined by "/", or is left out
// when it has more than three (it is then what the plot varies); empty
// fields are left out. vnodes is shown only with ring or bounded rows, eps
// only with bounded rows.
func runCaption(infos []runInfo) string {
	distinct := func(get func(runInfo) string, only ...string) string {
		var vs []string
		for _, in := range infos {
			if len(only) > 0 && !slices.Contains(only, in.Algo) {
				continue
			}
			if v := get(in); v != "" && !slices.Contains(vs, v) {
				vs = append(vs, v)
			}
		}
		if len(vs) > 3 {
			return ""
		}
		return strings.Join(vs, "/")
	}
	var parts []string
	keys, sets := distinct(func(r runInfo) string { return r.Keys }), distinct(func(r runInfo) string { return r.Sets })
	if keys == "" {
		keys = keyRange(infos)
	}
	switch {
	case keys != "" && sets != "":
		parts = append(parts, thousands(keys)+" keys x "+sets+" sets")
	case keys != "":
		parts = append(parts, thousands(keys)+" keys")
	}
	if h := distinct(func(r runInfo) string { return r.Hash }); h != "" {
		parts = append(parts, h)
	}
	if s := distinct(func(r runInfo) string { return r.Seed }); s != "" {
		parts = append(parts, "seed "+s)
	}
	if v := distinct(func(r runInfo) string { return r.VNodes }, "ring", "bounded"); v != "" {
		parts = append(parts, "ring vnodes "+v)
	}
	if e := distinct(func(r runInfo) string { return r.Eps }, "bounded"); e != "" {
		parts = append(parts, "bounded eps "+e)
	}
	if pl := distinct(func(r runInfo) string { return r.Placement }, "ring", "bounded"); pl != "" {
		parts = append(parts, "placement "+pl)
	}
	out := strings.Join(parts, ", ")
	var build []string
	if g := distinct(func(r runInfo) string { return r.GoVersion }); g != "" {
		build = append(build, g)
	}
	if c := distinct(func(r runInfo) string { return r.Commit }); c != "" {
		build = append(build, "commit "+c)
	}
	if len(build) > 0 {
		if out != "" {
			out += "; "
		}
		out += strings.Join(build, ", ")
	}
	return out
}

// keyRange returns "lo-hi" for the keys column of infos when it holds
// several whole numbers (keys scaled per grid point), or "".
func keyRange(infos []runInfo) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, in := range infos {
		k, err := strconv.ParseFloat(in.Keys, 64)
		if err != nil {
			return ""
		}
		lo, hi = math.Min(lo, k), math.Max(hi, k)
	}
	if lo > hi {
		return ""
	}
	return strconv.FormatFloat(lo, 'f', -1, 64) + "-" + strconv.FormatFloat(hi, 'f', -1, 64)
}

// thousands puts commas between groups of three digits of a whole number
// written in s ("100000" -> "100,000"); other text is returned unchanged,
// and each "/"-separated part is handled on its own.
func thousands(s string) string {
	if a, b, ok := strings.Cut(s, "-"); ok && !strings.Contains(s, "/") {
		return thousands(a) + "-" + thousands(b)
	}
	parts := strings.Split(s, "/")
	for i, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			continue
		}
		var b strings.Builder
		for j, r := range p {
			if j > 0 && (len(p)-j)%3 == 0 {
				b.WriteByte(',')
			}
			b.WriteRune(r)
		}
		parts[i] = b.String()
	}
	return strings.Join(parts, "/")
}
