package report

import "testing"

// md shows input text as it is and passes no raw byte on: Markdown's own
// characters get a backslash, and invalid UTF-8, controls (a NUL in a
// benchmark file's cpu line, ESC) and invisible format characters are
// written as their Go escapes, which Markdown shows as written; code
// spans fall back to md for such text.
func TestMarkdownEscapesEveryInputByte(t *testing.T) {
	for in, want := range map[string]string{
		"plain":           "plain",
		"<script>":        `\<script\>`,
		"cpu A\x00B":      `cpu A\x00B`,
		"a\xffb":          `a\xffb`,
		"zero\u200bwidth": `zero\u200bwidth`,
		"esc\x1b[31m":     `esc\x1b\[31m`,
		"rtl\u202eevil":   `rtl\u202eevil`,
		"line\u2028break": `line\u2028break`,
		"caf\u00e9 | x":   `café \| x`,
		"tab\there":       `tab\x09here`,
	} {
		if got := md(in); got != want {
			t.Errorf("md(%q) = %q, want %q", in, got, want)
		}
	}
	if got := code("id\x00"); got != `id\x00` {
		t.Errorf("code(%q) = %q, want md's escape", "id\x00", got)
	}
	if got := code("ring"); got != "`ring`" {
		t.Errorf("code(ring) = %q", got)
	}
}
