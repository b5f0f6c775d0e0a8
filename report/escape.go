package report

import "strings"

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
// "|" does not end a table cell.
func md(s string) string {
	if !strings.ContainsAny(s, mdSpecial) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && strings.ContainsRune(mdSpecial, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// code returns s as a Markdown code span, which shows its content as it
// is, when that is safe: s is not empty, holds no backquote or "|" (a
// table cell ends at "|" even inside a code span) and does not begin or
// end with a space (which the span would drop); otherwise md(s).
func code(s string) string {
	if s == "" || strings.ContainsAny(s, "`|") || strings.TrimSpace(s) != s {
		return md(s)
	}
	return "`" + s + "`"
}
