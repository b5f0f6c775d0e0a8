package text

import (
	"strings"
	"testing"
)

// Check accepts text of any script and Markdown's characters, and refuses
// each kind of byte or character the rule names, naming its offset.
func TestCheck(t *testing.T) {
	for _, s := range []string{"", "node-1", "10.0.1.1:11211", "café", "東京-1", "a b", "<script>", "x|y*z", "\ufffd written as such"} {
		if err := Check(s); err != nil {
			t.Errorf("Check(%q) = %v, want nil", s, err)
		}
	}
	for _, c := range []struct{ s, says string }{
		{"a\xff", "byte 1 (0xff) is not valid UTF-8"},
		{"caf\xe9", "byte 3 (0xe9) is not valid UTF-8"},
		{"a\x00b", "byte 1 holds the control character U+0000"},
		{"a\nb", "U+000A"},
		{"\x1b[31m", "U+001B"},
		{"a\u0085", "U+0085"},
		{"\ufeffa", "byte 0 holds the invisible format character U+FEFF"},
		{"a\u200bb", "U+200B"},
		{"a\u202eb", "U+202E"},
		{"a\u2066b", "U+2066"},
		{"a\u2028b", "separator U+2028"},
	} {
		err := Check(c.s)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("Check(%q) = %v, want an error saying %q", c.s, err, c.says)
		}
	}
}
