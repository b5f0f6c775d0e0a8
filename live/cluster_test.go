package live

import (
	"strings"
	"testing"
)

// MOVED and ASK replies parse into their slot and address; other replies
// are not redirects; a malformed redirect is an error.
func TestRedirectReplies(t *testing.T) {
	for _, tc := range []struct {
		r          Reply
		kind, to   string
		slot       int
		errContain string
	}{
		{Reply{Kind: '-', Str: "MOVED 3999 127.0.0.1:6381"}, "MOVED", "127.0.0.1:6381", 3999, ""},
		{Reply{Kind: '-', Str: "ASK 0 127.0.0.1:7000"}, "ASK", "127.0.0.1:7000", 0, ""},
		{Reply{Kind: '-', Str: "ERR unknown command"}, "", "", 0, ""},
		{Reply{Kind: '+', Str: "MOVED 1 127.0.0.1:1"}, "", "", 0, ""},
		{Reply{Kind: '$', Str: "ASK"}, "", "", 0, ""},
		{Reply{Kind: '-', Str: "MOVED 16384 127.0.0.1:1"}, "", "", 0, "bad slot"},
		{Reply{Kind: '-', Str: "ASK 12"}, "", "", 0, "malformed redirect"},
	} {
		kind, slot, to, err := redirect(tc.r)
		if tc.errContain != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errContain) {
				t.Errorf("%+v: error %v, want one containing %q", tc.r, err, tc.errContain)
			}
			continue
		}
		if err != nil || kind != tc.kind || slot != tc.slot || to != tc.to {
			t.Errorf("%+v: %q %d %q %v, want %q %d %q", tc.r, kind, slot, to, err, tc.kind, tc.slot, tc.to)
		}
	}
}
