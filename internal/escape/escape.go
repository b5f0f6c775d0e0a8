// Package escape is the byte escaping of chbench's line formats: the
// protocol spoken with an external placement (docs/protocol.md, version 1)
// and the key dumps and vector files read by the dump and conformance
// packages. It lets a key or node ID hold any bytes while every line stays
// printable ASCII without spaces, and it is the percent-encoding of RFC
// 3986 section 2.1 applied to every byte that is not a visible ASCII
// character:
//
//   - a byte 0x21..0x7E other than '%' stands for itself;
//   - any byte may be written as '%' and two hexadecimal digits (either
//     case), and the bytes 0x00..0x20 (space and control characters),
//     '%' (0x25), 0x7F and 0x80..0xFF must be;
//   - the empty string is the empty token.
//
// Writers here escape exactly the bytes that must be, with upper-case
// digits, so one string has one escaped form ("a b%" is "a%20b%25").
// Python's urllib.parse.unquote_to_bytes decodes it, and
// urllib.parse.quote_from_bytes(b, safe="!\"#$&'()*+,/:;<=>?@[\\]^`{|}~")
// writes the same form ("-._~" and alphanumerics are never quoted).
package escape

import "fmt"

const hexDigits = "0123456789ABCDEF"

// Plain reports whether byte c stands for itself in an escaped token:
// 0x21..0x7E except '%'.
func Plain(c byte) bool { return c > ' ' && c < 0x7F && c != '%' }

// Needed reports whether s has a byte that must be escaped (s is not its
// own escaped form).
func Needed(s string) bool {
	for i := 0; i < len(s); i++ {
		if !Plain(s[i]) {
			return true
		}
	}
	return false
}

// Append appends the escaped form of s to dst and returns the extended
// slice: each byte that is not [Plain] becomes '%' and two upper-case
// hexadecimal digits. It allocates only when dst must grow.
func Append(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if Plain(c) {
			dst = append(dst, c)
			continue
		}
		dst = append(dst, '%', hexDigits[c>>4], hexDigits[c&15])
	}
	return dst
}

// String returns the escaped form of s.
func String(s string) string {
	if !Needed(s) {
		return s
	}
	return string(Append(make([]byte, 0, len(s)+16), s))
}

// Error is a malformed escaped token: Offset is the 0-based position of
// the bad byte in the token.
type Error struct {
	Offset int
	Byte   byte
	Reason string
}

func (e *Error) Error() string {
	return fmt.Sprintf("byte %d (%q): %s", e.Offset, e.Byte, e.Reason)
}

// Decode appends the bytes the escaped token tok stands for to dst and
// returns the extended slice. It returns an [*Error] naming the offset of
// the first byte that may not appear in a token (space, a control
// character, a byte >= 0x7F) or of a '%' not followed by two hexadecimal
// digits; dst is then unspecified.
func Decode(dst, tok []byte) ([]byte, error) {
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case Plain(c):
			dst = append(dst, c)
		case c == '%':
			if i+2 >= len(tok) {
				return dst, &Error{Offset: i, Byte: c, Reason: "'%' must be followed by two hexadecimal digits"}
			}
			hi, ok1 := unhex(tok[i+1])
			lo, ok2 := unhex(tok[i+2])
			if !ok1 || !ok2 {
				return dst, &Error{Offset: i, Byte: c, Reason: "'%' must be followed by two hexadecimal digits"}
			}
			dst = append(dst, hi<<4|lo)
			i += 2
		default:
			return dst, &Error{Offset: i, Byte: c, Reason: "not allowed in a token (space, control and non-ASCII bytes are written %XX)"}
		}
	}
	return dst, nil
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
