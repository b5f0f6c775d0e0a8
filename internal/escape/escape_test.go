package escape

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// allBytesPython is Python 3.11's
// urllib.parse.quote_from_bytes(bytes(range(256)), safe="!\"#$&'()*+,/:;<=>?@[\\]^`{|}~"),
// the form the package doc promises a Python author can write.
const allBytesPython = "%00%01%02%03%04%05%06%07%08%09%0A%0B%0C%0D%0E%0F%10%11%12%13%14%15%16%17%18%19%1A%1B%1C%1D%1E%1F%20" +
	"!\"#$%25&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~%7F" +
	"%80%81%82%83%84%85%86%87%88%89%8A%8B%8C%8D%8E%8F%90%91%92%93%94%95%96%97%98%99%9A%9B%9C%9D%9E%9F" +
	"%A0%A1%A2%A3%A4%A5%A6%A7%A8%A9%AA%AB%AC%AD%AE%AF%B0%B1%B2%B3%B4%B5%B6%B7%B8%B9%BA%BB%BC%BD%BE%BF" +
	"%C0%C1%C2%C3%C4%C5%C6%C7%C8%C9%CA%CB%CC%CD%CE%CF%D0%D1%D2%D3%D4%D5%D6%D7%D8%D9%DA%DB%DC%DD%DE%DF" +
	"%E0%E1%E2%E3%E4%E5%E6%E7%E8%E9%EA%EB%EC%ED%EE%EF%F0%F1%F2%F3%F4%F5%F6%F7%F8%F9%FA%FB%FC%FD%FE%FF"

func allBytes() string {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return string(b)
}

// Every byte value escapes exactly as Python's quote_from_bytes writes it
// with the documented safe set, and decodes back.
func TestAllBytesMatchPython(t *testing.T) {
	if got := String(allBytes()); got != allBytesPython {
		t.Errorf("escaped 0..255:\n got %s\nwant %s", got, allBytesPython)
	}
	dec, err := Decode(nil, []byte(allBytesPython))
	if err != nil || string(dec) != allBytes() {
		t.Errorf("decoding the Python form: %q, %v", dec, err)
	}
}

// Small cases: the empty token, a plain key left as it is, lower-case
// digits accepted, and escaped plain bytes decoded (writers never produce
// them, readers must accept them).
func TestCases(t *testing.T) {
	for _, tc := range []struct{ raw, esc string }{
		{"", ""},
		{"user:1000", "user:1000"},
		{"a b%", "a%20b%25"},
		{"line\nbreak\ttab", "line%0Abreak%09tab"},
		{"é", "%C3%A9"},
	} {
		if got := String(tc.raw); got != tc.esc {
			t.Errorf("String(%q) = %q, want %q", tc.raw, got, tc.esc)
		}
		if got, err := Decode(nil, []byte(tc.esc)); err != nil || string(got) != tc.raw {
			t.Errorf("Decode(%q) = %q, %v; want %q", tc.esc, got, err, tc.raw)
		}
	}
	for esc, raw := range map[string]string{"%c3%a9": "é", "%41%42c": "ABc", "100%25": "100%"} {
		if got, err := Decode(nil, []byte(esc)); err != nil || string(got) != raw {
			t.Errorf("Decode(%q) = %q, %v; want %q", esc, got, err, raw)
		}
	}
}

// Malformed tokens are errors naming the offset of the first bad byte.
func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		tok    string
		offset int
	}{
		{"a b", 1}, {"abc%", 3}, {"abc%4", 3}, {"%4G", 0}, {"x%zz", 1},
		{"tab\there", 3}, {"\x00", 0}, {"caf\xc3\xa9", 3}, {"del\x7f", 3},
	} {
		_, err := Decode(nil, []byte(tc.tok))
		var e *Error
		if !errors.As(err, &e) || e.Offset != tc.offset {
			t.Errorf("Decode(%q): %v, want an *Error at offset %d", tc.tok, err, tc.offset)
		}
	}
}

// Random byte strings survive a round trip, and their escaped form holds
// only plain bytes and '%' (so it fits on one space-separated line).
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.UintN(256))
		}
		esc := Append(nil, string(b))
		for _, c := range esc {
			if !Plain(c) && c != '%' {
				t.Fatalf("escaped form %q of %q holds byte %q", esc, b, c)
			}
		}
		dec, err := Decode(nil, esc)
		if err != nil || string(dec) != string(b) {
			t.Fatalf("round trip of %q: %q, %v", b, dec, err)
		}
		if Needed(string(b)) != (string(esc) != string(b)) {
			t.Fatalf("Needed(%q) = %v, but the escaped form is %q", b, Needed(string(b)), esc)
		}
	}
}

// Appending to a buffer with room does not allocate: the protocol writes
// every key of a batch this way.
func TestAppendNoAlloc(t *testing.T) {
	buf := make([]byte, 0, 256)
	if a := testing.AllocsPerRun(100, func() { buf = Append(buf[:0], "user:0123 4567%\xff") }); a != 0 {
		t.Errorf("Append allocates %v per call", a)
	}
}
