package schema

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Table is a results CSV file read by header name, the way every reader
// of MoveColumns, SpreadColumns and ShareColumns should read them: columns
// may come in any order, unknown columns are ignored, and every error
// names the file, line, column and bad value.
type Table struct {
	file  string
	col   map[string]int
	rows  [][]string
	lines []int // 1-based line number of each row
}

// ReadTable reads the CSV file at path and checks that every name in
// required is a column of its header. It returns an error for an empty
// file, a header without rows, a repeated or missing column, or malformed
// CSV, and the errors of OpenInput (not a regular file, too large).
func ReadTable(path string, required []string) (*Table, error) {
	f, err := OpenInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseTable(f, path, required)
}

// ParseTable is ReadTable on r, naming it file in errors.
func ParseTable(r io.Reader, file string, required []string) (*Table, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file, want a CSV header", file)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	t := &Table{file: file, col: map[string]int{}}
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
		for j, c := range rec {
			if strings.ContainsFunc(c, unicode.IsControl) {
				return nil, fmt.Errorf("%s:%d: column %d: %q: control characters are not allowed", file, line, j+1, c)
			}
		}
		t.rows = append(t.rows, rec)
		t.lines = append(t.lines, line)
	}
	if len(t.rows) == 0 { // like an empty file: a run that wrote nothing
		return nil, fmt.Errorf("%s: header but no rows, want at least one result", file)
	}
	return t, nil
}

// Len returns the number of rows (at least 1).
func (t *Table) Len() int { return len(t.rows) }

// Line returns the 1-based line number of row i in the file.
func (t *Table) Line(i int) int { return t.lines[i] }

// Errorf returns an error "FILE:LINE: column NAME (N): MSG" about the cell
// of row i in column name.
func (t *Table) Errorf(i int, name, format string, args ...any) error {
	return fmt.Errorf("%s:%d: column %s (%d): %s", t.file, t.lines[i], name, t.col[name]+1, fmt.Sprintf(format, args...))
}

// Str returns column name of row i ("" if the table has no such column).
func (t *Table) Str(i int, name string) string {
	c, ok := t.col[name]
	if !ok {
		return ""
	}
	return t.rows[i][c]
}

// Num returns column name of row i as a finite number, or an error naming
// the file, line, column and bad value.
func (t *Table) Num(i int, name string) (float64, error) {
	v, ok, err := t.OptNum(i, name)
	if err == nil && !ok {
		err = t.Errorf(i, name, "empty, want a number")
	}
	return v, err
}

// Count returns column name of row i as a node count: a whole number >= 1,
// or an error naming the file, line, column and bad value.
func (t *Table) Count(i int, name string) (float64, error) {
	v, err := t.Num(i, name)
	if err == nil && (v < 1 || v != math.Trunc(v)) {
		err = t.Errorf(i, name, "%q is not a node count >= 1", t.Str(i, name))
	}
	return v, err
}

// OptNum is like Num but reports ok = false, without error, when the cell
// is empty or the column is absent.
func (t *Table) OptNum(i int, name string) (v float64, ok bool, err error) {
	s := t.Str(i, name)
	if s == "" {
		return 0, false, nil
	}
	v, err = strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false, t.Errorf(i, name, "%q is not a finite number", s)
	}
	return v, true, nil
}

// Interval is an estimate read from a centre column and its optional
// _lo and _hi bounds (a 95% interval).
type Interval struct {
	Mean, Lo, Hi float64
	CI           bool // false when the bounds are absent; then Lo = Hi = Mean
}

// Interval reads the centre column name of row i and its optional
// name_lo, name_hi bounds. Both bounds must be present for a CI, and must
// bracket the centre.
func (t *Table) Interval(i int, name string) (Interval, error) {
	y, err := t.Num(i, name)
	if err != nil {
		return Interval{}, err
	}
	p := Interval{Mean: y, Lo: y, Hi: y}
	lo, okLo, err := t.OptNum(i, name+"_lo")
	if err != nil {
		return Interval{}, err
	}
	hi, okHi, err := t.OptNum(i, name+"_hi")
	if err != nil {
		return Interval{}, err
	}
	if okLo != okHi {
		return Interval{}, fmt.Errorf("%s:%d: %s_lo and %s_hi: give both bounds or neither", t.file, t.lines[i], name, name)
	}
	if okLo {
		if lo > y || hi < y {
			return Interval{}, fmt.Errorf("%s:%d: %s %v outside its interval [%v, %v]", t.file, t.lines[i], name, y, lo, hi)
		}
		p.Lo, p.Hi, p.CI = lo, hi, true
	}
	return p, nil
}
