// Package text is chbench's one rule for text that comes from an input
// and is written into an output: node IDs (flags, members files, result
// files), a profile's name, the commit, the configuration lines of a
// benchmark file (cpu, goos, goarch). Such text is written into CSV,
// JSON, the Go benchmark format, Markdown and SVG, each of which needs
// text, so chbench refuses at input, naming the value, what none of them
// can carry faithfully:
//
//   - bytes that are not valid UTF-8 (encoding/json would replace each by
//     U+FFFD, so two distinct IDs could be written as one);
//   - control characters (Unicode category Cc: NUL, newline, tab, ESC,
//     DEL, C1 controls), which end a line of a line format or drive a
//     terminal;
//   - format characters (category Cf: the byte-order mark U+FEFF,
//     zero-width spaces and joiners, the bidirectional controls U+202A to
//     U+202E and U+2066 to U+2069, soft hyphen), which are invisible, so
//     that two IDs that look the same differ, or that reorder what is
//     shown around them;
//   - the line and paragraph separators U+2028 and U+2029.
//
// Markdown's own characters (such as < * [ |) are text and pass; the
// report escapes them where it writes them.
package text

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Check returns nil when s is plain text by the rule of the package doc,
// else an error naming the first offending byte or character and its
// byte offset (0-based).
func Check(s string) error {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !validAt(s, i):
			return fmt.Errorf("byte %d (0x%02x) is not valid UTF-8", i, s[i])
		case unicode.Is(unicode.Cc, r):
			return fmt.Errorf("byte %d holds the control character %U", i, r)
		case unicode.Is(unicode.Cf, r):
			return fmt.Errorf("byte %d holds the invisible format character %U", i, r)
		case r == '\u2028' || r == '\u2029':
			return fmt.Errorf("byte %d holds the line or paragraph separator %U", i, r)
		}
	}
	return nil
}

// validAt reports whether the U+FFFD at byte i of s is written there (as
// its three-byte encoding) rather than standing for an invalid byte.
func validAt(s string, i int) bool {
	r, size := utf8.DecodeRuneInString(s[i:])
	return r == utf8.RuneError && size == 3
}

// Plain reports whether s passes [Check].
func Plain(s string) bool { return Check(s) == nil }
