package propagate

import (
	"math"
	"strings"
	"testing"
)

// One slot of 4 keys moves at t = 1, 2, 3, 4 and is handed over by t = 5;
// with no slack each request's ASK probability is the share of keys moved
// when it is processed:
//
//	0.5..0.6   nothing moved                         f = 0
//	2.5..2.6   2 of 4 moved                          f = 0.5 (bracket 0.5..0.5)
//	4.5..4.6   all moved, the hand-over may be done:  ASK or MOVED (bracket 0..1, model 1)
//	5.5..5.6   after the hand-over                   f = 0, MOVED certain
//	2.5..2.6   a slot that does not migrate          nothing
//
// Windows of 3 s: the first holds the first two and the other slot's
// request, the second the last two.
func TestExpectRedirects(t *testing.T) {
	migs := []SlotMigration{{Slot: 7, Keys: 4, Start: 0.9, Moved: []float64{1, 2, 3, 4}, End: 5}}
	reqs := []SlotRequest{
		{Slot: 7, Sent: 0.5, Done: 0.6}, {Slot: 7, Sent: 2.5, Done: 2.6, Asked: 1}, {Slot: 9, Sent: 2.5, Done: 2.6},
		{Slot: 7, Sent: 4.5, Done: 4.6, Moved: 1}, {Slot: 7, Sent: 5.5, Done: 5.6},
	}
	m, err := ExpectRedirects(migs, reqs, 0, 0, 6, 2)
	if err != nil {
		t.Fatal(err)
	}
	tot := m.Total
	for name, c := range map[string][2]float64{
		"requests": {float64(tot.Requests), 5}, "asked": {float64(tot.Asked), 1}, "moved": {float64(tot.Moved), 1},
		"ask expected": {tot.AskExpected, 1.5}, "ask lo": {tot.AskLo, 0.5}, "ask hi": {tot.AskHi, 1.5},
		"ask sd": {tot.AskSD, 0.5}, "moved lo": {float64(tot.MovedLo), 1}, "moved hi": {float64(tot.MovedHi), 1},
		"window 0 ask": {m.Windows[0].AskExpected, 0.5}, "window 1 ask": {m.Windows[1].AskExpected, 1},
		"window 0 requests": {float64(m.Windows[0].Requests), 3}, "window 1 moved hi": {float64(m.Windows[1].MovedHi), 1},
		"window 0 moved hi": {float64(m.Windows[0].MovedHi), 0},
	} {
		if math.Abs(c[0]-c[1]) > 1e-12 {
			t.Errorf("%s = %v, want %v", name, c[0], c[1])
		}
	}
	// A slack of 0.3 s widens the bracket of the request at 2.5..2.6 to
	// f(2.5) = 0.5 .. f(2.9) = 0.5 and of the one at 0.5..0.6 to f(0.9) = 0,
	// and leaves the rest.
	m, err = ExpectRedirects(migs, reqs, 0.3, 0, 6, 2)
	if err != nil {
		t.Fatal(err)
	}
	if m.Total.AskLo != 0.5 || m.Total.AskHi != 1.5 {
		t.Errorf("slack 0.3 s: bracket %v..%v, want 0.5..1.5", m.Total.AskLo, m.Total.AskHi)
	}
	for _, bad := range []struct {
		migs  []SlotMigration
		slack float64
		n     int
		want  string
	}{
		{[]SlotMigration{{Slot: 1, Keys: 0}}, 0, 1, "slot 1: 0 keys"},
		{[]SlotMigration{{Slot: 1, Keys: 1, Moved: []float64{1, 2}}}, 0, 1, "2 moves"},
		{[]SlotMigration{{Slot: 1, Keys: 2, Moved: []float64{2, 1}, End: 3}}, 0, 1, "moves in time order"},
		{[]SlotMigration{{Slot: 1, Keys: 2, Start: 2, End: 1}}, 0, 1, "need start <= end"},
		{nil, -1, 1, "slack -1 s"},
		{nil, 0, 0, "windows 0"},
	} {
		if _, err := ExpectRedirects(bad.migs, nil, bad.slack, 0, 1, bad.n); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: %v, want an error containing %q", bad, err, bad.want)
		}
	}
}
