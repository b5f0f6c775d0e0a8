package live

import (
	"reflect"
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

// redis-cli's reshard output, fed in pieces as it arrives: the plan
// (indented, naming node IDs) is not a move; each announcement starts a
// slot and ends the one before; each dot after it is a key moved at the
// time its bytes arrived; the exit ends the last slot.
func TestReshardProgress(t *testing.T) {
	var p progress
	p.feed([]byte("Ready to move 2 slots.\n  Resharding plan:\n    Moving slot 0 from 1234abcd\n    Moving slot 1 from 1234abcd\n"), 0.1)
	p.feed([]byte("Moving slot 0 from 127.0.0.1:7000 to 127.0.0.1:7001: "), 0.2)
	p.feed([]byte(".."), 0.3)
	p.feed([]byte("."), 0.4)
	p.feed([]byte("\nMoving slot 1 from 127.0.0.1:7000 to 127.0.0.1:7001: ."), 0.5)
	p.feed([]byte(".\n"), 0.6)
	p.exit(0.7)
	want := []SlotMove{
		{Slot: 0, Start: 0.2, Moved: []float64{0.3, 0.3, 0.4}, End: 0.5},
		{Slot: 1, Start: 0.5, Moved: []float64{0.5, 0.6}, End: 0.7},
	}
	if !reflect.DeepEqual(p.moves, want) {
		t.Errorf("moves %+v, want %+v", p.moves, want)
	}
}
