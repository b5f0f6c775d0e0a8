package lines

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// Scan splits at "\n", drops a "\r" before it and a byte-order mark at
// the start of the file (not one later), and reads a last line without
// "\n".
func TestScanSplits(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"a\nb\n", []string{"a", "b"}},
		{"a\r\nb", []string{"a", "b"}},
		{BOM + "a\n" + BOM + "b\n", []string{"a", BOM + "b"}},
		{BOM, []string{""}},
		{"", nil},
		{"\n\n", []string{"", ""}},
		{"a\rb\n", []string{"a\rb"}},
	} {
		var got []string
		if err := Scan(strings.NewReader(c.in), "f", "a test file", 10, func(l []byte, _ int) error {
			got = append(got, string(l))
			return nil
		}); err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Scan(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// The limit is exact: a line of max bytes is read (with or without "\n",
// with "\r\n"), one of max+1 is an error naming the file, the line and
// the limit, at any position and however long the line is.
func TestScanLimit(t *testing.T) {
	const max = 1 << 20
	long := strings.Repeat("x", max)
	for _, in := range []string{long, long + "\n", long + "\r\n", "a\n" + long + "\nb", BOM + long} {
		n := 0
		if err := Scan(strings.NewReader(in), "f", "a test file", max, func(l []byte, _ int) error {
			if len(l) == max {
				n++
			}
			return nil
		}); err != nil || n != 1 {
			t.Errorf("a line of exactly %d bytes (input of %d bytes): err %v, read %d such lines", max, len(in), err, n)
		}
	}
	for _, c := range []struct {
		in   string
		line int
	}{{long + "x", 1}, {long + "x\n", 1}, {"a\n" + long + "x", 2}, {"a\nb\n" + long + long, 3}} {
		err := Scan(strings.NewReader(c.in), "f.txt", "a test file", max, func([]byte, int) error { return nil })
		var tl *TooLongError
		if !errors.As(err, &tl) || tl.Line != c.line || tl.Max != max {
			t.Errorf("a line of %d bytes at line %d: %v", len(c.in), c.line, err)
			continue
		}
		if want := "f.txt:" + string(rune('0'+c.line)) + ": line longer than 1048576 bytes, the limit of a line of a test file"; err.Error() != want {
			t.Errorf("message %q, want %q", err, want)
		}
	}
}
