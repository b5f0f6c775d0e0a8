package report

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text that comes from an input (a profile's name and paths, the machine
// line of lookup.txt, commits, Go versions, key file paths, directory
// names, node IDs) reaches the Markdown only through md or code. The
// readers have already refused what is not plain text (internal/text:
// invalid UTF-8, control and invisible format characters); these two make
// sure the rest shows as itself, never as markup.

// mdSpecial are the characters Markdown (CommonMark with GitHub's
// tables, strikethrough and math) or HTML could read as markup in the
// middle of a line or in a table cell: escapes and code, emphasis, links
// and images, HTML tags and entities, cell ends, math. (Line-start markup
// such as "#" or "-" cannot arise: input text is never written at the
// start of a line.) CommonMark lets any ASCII punctuation character be
// escaped with a backslash.
const mdSpecial = "\\`*_[]<>|&$~"

// md returns s as Markdown text that shows s: a backslash before every
// character of mdSpecial, so "<script>" is text, "**x**" is not bold and
// "|" does not end a table cell; and every byte or character that is not
// visible text (invalid UTF-8, a control character such as NUL or ESC, a
// format character such as a zero-width space or a bidirectional
// control, U+2028 and U+2029) as its Go escape (\x00, \u200b), so no raw
// byte from an input reaches the Markdown (a "\x" is not a Markdown
// escape: it shows as written).
func md(s string) string {
	if !strings.ContainsAny(s, mdSpecial) && !hasInvisible(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case invisible(r):
			if r < 0x80 {
				fmt.Fprintf(&b, "\\x%02x", r)
			} else {
				fmt.Fprintf(&b, "\\u%04x", r)
			}
		default:
			if r < 0x80 && strings.ContainsRune(mdSpecial, r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// invisible reports whether r is not visible text: a control (Cc) or
// format (Cf) character, or U+2028 or U+2029.
func invisible(r rune) bool {
	return unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

// hasInvisible reports whether s holds invalid UTF-8 or an invisible
// character.
func hasInvisible(s string) bool {
	return !utf8.ValidString(s) || strings.IndexFunc(s, invisible) >= 0
}

// code returns s as a Markdown code span, which shows its content as it
// is, when that is safe: s is not empty, holds no backquote or "|" (a
// table cell ends at "|" even inside a code span), nothing invisible
// (which a span would pass on raw) and does not begin or end with a space
// (which the span would drop); otherwise md(s).
func code(s string) string {
	if s == "" || strings.ContainsAny(s, "`|") || strings.TrimSpace(s) != s || hasInvisible(s) {
		return md(s)
	}
	return "`" + s + "`"
}
