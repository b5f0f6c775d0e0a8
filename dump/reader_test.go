package dump

import (
	"errors"
	"strings"
	"testing"
)

// Records come back decoded with their line numbers: escaped bytes, the
// empty key, a CRLF line end and plain keys that need no escaping.
func TestReader(t *testing.T) {
	in := "user:1\tcache-a\n\tcache-b\r\nwith%20space%09tab\t10.0.0.1:11211\n%FF%00\tcache%20c\n"
	want := []Record{{"user:1", "cache-a", 1}, {"", "cache-b", 2}, {"with space\ttab", "10.0.0.1:11211", 3}, {"\xff\x00", "cache c", 4}}
	r := NewReader(strings.NewReader(in), "d.tsv")
	var got []Record
	for r.Scan() {
		got = append(got, r.Record())
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("record %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	for _, rec := range want {
		if line := Format(rec.Key, rec.Server); !strings.Contains(in, line) {
			t.Errorf("Format(%q, %q) = %q, not the line of the dump", rec.Key, rec.Server, line)
		}
	}
}

// A malformed line stops the reader with a *SyntaxError naming the file,
// the line and what is wrong with it.
func TestReaderErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		line int
		msg  string
	}{
		{"a\tb\nno tab here\n", 2, "no tab"},
		{"a\tb\tc\n", 1, "3 tab-separated fields"},
		{"a\t\n", 1, "empty server name"},
		{"ok\tx\nbad key\tx\n", 2, "key: byte 3 (' ')"},
		{"k\tserver%G0\n", 1, "server: byte 6 ('%')"},
		{"k\t" + strings.Repeat("s", MaxLineBytes) + "\n", 1, "line longer than"},
	} {
		r := NewReader(strings.NewReader(tc.in), "dump.tsv")
		for r.Scan() {
		}
		var e *SyntaxError
		if !errors.As(r.Err(), &e) || e.Line != tc.line || e.File != "dump.tsv" || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%.40q: error %v, want dump.tsv line %d: %q", tc.in, r.Err(), tc.line, tc.msg)
		}
	}
}
