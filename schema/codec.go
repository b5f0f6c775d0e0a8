package schema

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// Row is a result row type of this package ([Move], [Spread], [ShareRow],
// [Load], [Bounded], [Storm], [StormPoint], [Replication], [StormLive],
// [SimWindow], [SimNode], [SimEvent], [SimSummary], [TraceStats],
// [Conformance], [DumpDiff], [DumpCell], [DumpMismatch], [DumpGuess],
// [DomainViolation], [DomainRank], [DomainChange], [Propagate], [Redirect]):
// the generic writers and readers ([WriteCSV], [ReadCSV], [WriteJSON],
// [ReadJSON], [WriteBench]) take and return slices of one of them.
type Row interface {
	// columns returns the row type's CSV header, in order. A name
	// prefixed with "~" is a CSV column that JSON keeps only inside the
	// "config" object; one prefixed with "?" (after any "~") is optional
	// when read: a file written before the column existed reads it as
	// absent (nil, an empty string or zero). Only columns that are absent
	// where they do not apply (pointers, labels) are optional.
	columns() []string
}

// field is one column of a row type: its name, where the value lives
// (index paths into the row struct: the row's own field, or a field of
// its embedded Config, or both when the row has a field of that name and
// Config does too: it is written from the first and read into both), and
// whether JSON shows it outside "config".
type field struct {
	name     string
	paths    [][]int
	json     bool
	optional bool // may be missing from a file read (see Row)
}

// layout is how the codec reads and writes one row type.
type layout struct {
	typ    reflect.Type
	cols   []field
	byName map[string]int // index into cols
	config []int          // index path of the embedded Config
	tail   []tailField    // JSON fields after "config" (shares, samples)
}

// tailField is a JSON field of a row that is no CSV column.
type tailField struct {
	name string
	path []int
}

var layouts sync.Map // reflect.Type -> *layout

// layoutOf returns the layout of row type R, built on first use. A column
// name that matches no field is a programming error of this package and
// panics (the tests build every layout).
func layoutOf[R Row]() *layout {
	var zero R
	t := reflect.TypeOf(zero)
	if l, ok := layouts.Load(t); ok {
		return l.(*layout)
	}
	l := &layout{typ: t, byName: map[string]int{}}
	own := map[string][]int{}
	var cfg map[string][]int
	for i := range t.NumField() {
		f := t.Field(i)
		name := jsonName(f)
		switch {
		case f.Type == reflect.TypeFor[Config]():
			l.config = []int{i}
			cfg = map[string][]int{}
			for j := range f.Type.NumField() {
				cfg[jsonName(f.Type.Field(j))] = []int{i, j}
			}
		case f.Anonymous && name == "":
			for j := range f.Type.NumField() {
				own[jsonName(f.Type.Field(j))] = []int{i, j}
			}
		case name != "":
			own[name] = []int{i}
		}
	}
	inCSV := map[string]bool{}
	for _, c := range zero.columns() {
		name, csvOnly := strings.CutPrefix(c, "~")
		name, optional := strings.CutPrefix(name, "?")
		fd := field{name: name, json: !csvOnly, optional: optional}
		if p, ok := own[name]; ok {
			fd.paths = append(fd.paths, p)
		}
		if p, ok := cfg[name]; ok {
			fd.paths = append(fd.paths, p)
		}
		if len(fd.paths) == 0 {
			panic(fmt.Sprintf("schema: column %q of %v names no field", name, t))
		}
		l.byName[name] = len(l.cols)
		l.cols = append(l.cols, fd)
		inCSV[name] = true
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if name := jsonName(f); name != "" && name != "config" && !inCSV[name] && !f.Anonymous {
			l.tail = append(l.tail, tailField{name, []int{i}})
		}
	}
	got, _ := layouts.LoadOrStore(t, l)
	return got.(*layout)
}

// jsonName returns the JSON name of a struct field ("" for none or "-").
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" {
		return ""
	}
	return name
}

// header returns the CSV header of the layout.
func (l *layout) header() []string {
	h := make([]string, len(l.cols))
	for i, c := range l.cols {
		h[i] = c.name
	}
	return h
}

// cell formats the value of column c of row v as the CSV writes it:
// floats in the shortest form that reads back exactly, nil pointers as an
// empty cell.
func cell(v reflect.Value, c field) string {
	x := v.FieldByIndex(c.paths[0])
	if x.Kind() == reflect.Pointer {
		if x.IsNil() {
			return ""
		}
		x = x.Elem()
	}
	switch x.Kind() {
	case reflect.String:
		return x.String()
	case reflect.Int:
		return strconv.FormatInt(x.Int(), 10)
	case reflect.Uint64:
		return strconv.FormatUint(x.Uint(), 10)
	case reflect.Float64:
		return strconv.FormatFloat(x.Float(), 'g', -1, 64)
	case reflect.Bool:
		return strconv.FormatBool(x.Bool())
	}
	panic(fmt.Sprintf("schema: column %s: unsupported type %v", c.name, x.Type()))
}

// setCell parses s into column c of row v (every path of c). It returns
// an error message (without the position) for a cell that is not of the
// column's type.
func setCell(v reflect.Value, c field, s string) error {
	for _, p := range c.paths {
		x := v.FieldByIndex(p)
		if x.Kind() == reflect.Pointer {
			if s == "" {
				x.SetZero()
				continue
			}
			x.Set(reflect.New(x.Type().Elem()))
			x = x.Elem()
		}
		switch x.Kind() {
		case reflect.String:
			x.SetString(s)
		case reflect.Int:
			if s == "" {
				return errors.New("empty, want a whole number")
			}
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || !plainNumber(s, false) {
				return fmt.Errorf("%q is not a whole number", s)
			}
			x.SetInt(n)
		case reflect.Uint64:
			if s == "" {
				return errors.New("empty, want a whole number")
			}
			n, err := strconv.ParseUint(s, 10, 64)
			if err != nil || !plainNumber(s, false) {
				return fmt.Errorf("%q is not a whole number >= 0", s)
			}
			x.SetUint(n)
		case reflect.Bool:
			if s != "true" && s != "false" {
				return fmt.Errorf("%q is neither true nor false", s)
			}
			x.SetBool(s == "true")
		case reflect.Float64:
			if s == "" {
				return errors.New("empty, want a number")
			}
			f, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || !plainNumber(s, true) {
				return fmt.Errorf("%q is not a finite number written in plain decimal (digits with an optional '-', '.' and exponent, as chbench writes numbers)", s)
			}
			x.SetFloat(f)
		}
	}
	return nil
}

// plainNumber reports whether s is a number as chbench writes one
// (strconv.FormatFloat 'g' and FormatInt, encoding/json): an optional
// '-', digits, and for a float (fraction true) an optional '.' followed
// by digits and an optional exponent e or E with an optional sign and
// digits. strconv alone also reads "1_3", "0x1.4p0", "+1", ".5" and "Inf".
func plainNumber(s string, fraction bool) bool {
	digits := func(i int) int { // the index after the digits from i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i
	}
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	j := digits(i)
	if j == i {
		return false
	}
	if !fraction {
		return j == len(s)
	}
	if j < len(s) && s[j] == '.' {
		k := digits(j + 1)
		if k == j+1 {
			return false
		}
		j = k
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		j++
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := digits(j)
		if k == j {
			return false
		}
		j = k
	}
	return j == len(s)
}

// WriteCSV writes rows as CSV: the row type's header, then one line per
// row. Every row passes [Check] first; the first row that fails it is an
// error naming the row and the column, and nothing after it is written.
func WriteCSV[R Row](w io.Writer, rows []R) error {
	l := layoutOf[R]()
	cw := csv.NewWriter(w)
	if err := cw.Write(l.header()); err != nil {
		return err
	}
	rec := make([]string, len(l.cols))
	for i, r := range rows {
		if err := Check(r); err != nil {
			return fmt.Errorf("row %d: %w", i+1, err)
		}
		v := reflect.ValueOf(r)
		for j, c := range l.cols {
			rec[j] = cell(v, c)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadCSV reads rows of type R from CSV written by [WriteCSV], naming it
// file in errors. Columns are found by header name, in any order; columns
// the row type does not have are ignored. It returns an error for an empty
// file, a file that starts with a UTF-8 byte-order mark (chbench writes
// none), a header without rows, a repeated or missing column, malformed
// CSV, a cell holding a control character or not of its column's type (a
// number other than plain decimal: [plainNumber]), or a row that fails
// [Check]; every error names the file, the line and, for a cell, the
// column and the value.
func ReadCSV[R Row](r io.Reader, file string) ([]R, error) {
	l := layoutOf[R]()
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file, want a CSV header", file)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(header) > 0 && strings.HasPrefix(header[0], "\uFEFF") {
		return nil, fmt.Errorf("%s:1: the file starts with a UTF-8 byte-order mark (BOM), which chbench never writes: save it without one", file)
	}
	at := make([]int, len(l.cols)) // at[j]: position of column j in the file
	seen := map[string]bool{}
	for _, h := range header {
		if seen[h] {
			return nil, fmt.Errorf("%s:1: column %q appears twice", file, h)
		}
		seen[h] = true
	}
	for j, c := range l.cols {
		at[j] = -1
		for i, h := range header {
			if h == c.name {
				at[j] = i
			}
		}
		if at[j] < 0 && !c.optional {
			return nil, fmt.Errorf("%s:1: missing column %q", file, c.name)
		}
	}
	var out []R
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		line, _ := cr.FieldPos(0)
		for j, s := range rec {
			if strings.ContainsFunc(s, unicode.IsControl) {
				return nil, fmt.Errorf("%s:%d: column %d: %q: control characters are not allowed", file, line, j+1, s)
			}
		}
		var row R
		v := reflect.ValueOf(&row).Elem()
		for j, c := range l.cols {
			if at[j] < 0 { // an optional column the file does not have
				continue
			}
			if err := setCell(v, c, rec[at[j]]); err != nil {
				return nil, fmt.Errorf("%s:%d: column %s (%d): %w", file, line, c.name, at[j]+1, err)
			}
		}
		if err := Check(row); err != nil {
			var ce *ColumnError
			if errors.As(err, &ce) {
				return nil, fmt.Errorf("%s:%d: column %s (%d): %s", file, line, ce.Column, at[l.byName[ce.Column]]+1, ce.Msg)
			}
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		out = append(out, row)
	}
	if len(out) == 0 { // like an empty file: a run that wrote nothing
		return nil, fmt.Errorf("%s: header but no rows, want at least one result", file)
	}
	return out, nil
}

// WriteJSON writes rows as an indented JSON array of objects ([] when
// there are none): each object holds the row's columns under their CSV
// names (except those JSON keeps only in "config"), then "config" (the
// run's [Config]) and the row's other fields ("shares", "samples").
// Floats are written as encoding/json writes them. Every row passes
// [Check] first.
func WriteJSON[R Row](w io.Writer, rows []R) error {
	l := layoutOf[R]()
	var b bytes.Buffer
	b.WriteByte('[')
	for i, r := range rows {
		if err := Check(r); err != nil {
			return fmt.Errorf("row %d: %w", i+1, err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		if err := l.appendObject(&b, reflect.ValueOf(r)); err != nil {
			return err
		}
	}
	b.WriteByte(']')
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err := w.Write(out.Bytes())
	return err
}

// appendObject appends the compact JSON object of row v to b.
func (l *layout) appendObject(b *bytes.Buffer, v reflect.Value) error {
	b.WriteByte('{')
	first := true
	add := func(name string, x reflect.Value) error {
		enc, err := json.Marshal(x.Interface())
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		key, _ := json.Marshal(name)
		b.Write(key)
		b.WriteByte(':')
		b.Write(enc)
		return nil
	}
	for _, c := range l.cols {
		if c.json {
			if err := add(c.name, v.FieldByIndex(c.paths[0])); err != nil {
				return err
			}
		}
	}
	if l.config != nil {
		if err := add("config", v.FieldByIndex(l.config)); err != nil {
			return err
		}
	}
	for _, t := range l.tail {
		if err := add(t.name, v.FieldByIndex(t.path)); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// ReadJSON reads rows of type R from a JSON array written by [WriteJSON].
// "config" is read first, then the columns (a column JSON shows both at
// the top and inside "config", such as algo, takes the top-level value),
// then the other fields. A field the row type does not have, a value of
// the wrong type and a row that fails [Check] are errors naming the
// object (1-based).
func ReadJSON[R Row](r io.Reader) ([]R, error) {
	l := layoutOf[R]()
	var objs []map[string]json.RawMessage
	if err := json.NewDecoder(r).Decode(&objs); err != nil {
		return nil, fmt.Errorf("results JSON: %w", err)
	}
	type target struct {
		key   string
		paths [][]int
	}
	var order []target
	if l.config != nil {
		order = append(order, target{"config", [][]int{l.config}})
	}
	for _, c := range l.cols {
		if c.json {
			order = append(order, target{c.name, c.paths})
		}
	}
	for _, t := range l.tail {
		order = append(order, target{t.name, [][]int{t.path}})
	}
	out := make([]R, len(objs))
	for i, obj := range objs {
		v := reflect.ValueOf(&out[i]).Elem()
		used := 0
		for _, t := range order {
			raw, ok := obj[t.key]
			if !ok {
				continue
			}
			used++
			for _, p := range t.paths {
				dec := json.NewDecoder(bytes.NewReader(raw))
				dec.DisallowUnknownFields()
				if err := dec.Decode(v.FieldByIndex(p).Addr().Interface()); err != nil {
					return nil, fmt.Errorf("results JSON: object %d: %s: %w", i+1, t.key, err)
				}
			}
		}
		if used != len(obj) {
			var unknown []string
			for key := range obj {
				if !slices.ContainsFunc(order, func(t target) bool { return t.key == key }) {
					unknown = append(unknown, key)
				}
			}
			slices.Sort(unknown)
			return nil, fmt.Errorf("results JSON: object %d: unknown field %q", i+1, unknown[0])
		}
		if err := Check(out[i]); err != nil {
			return nil, fmt.Errorf("results JSON: object %d: %w", i+1, err)
		}
	}
	return out, nil
}
