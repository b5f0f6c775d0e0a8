package simulate_test

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chbench/chbench/analysis/simulate"
	"github.com/chbench/chbench/trace"
)

// An item overhead above MaxItemOverhead is refused by the simulation and
// by the spread by bytes, naming the value: at 2^63-1 the item's size sum
// wrapped around, and every item "fit".
func TestItemOverheadBound(t *testing.T) {
	ns := nodes(t, 2)
	cfg := simulate.Config{Nodes: ns, Capacity: simulate.Capacity{PerWeight: 1 << 20}, Window: time.Second}
	for _, o := range []int64{math.MaxInt64, simulate.MaxItemOverhead + 1, -1} {
		cfg.ItemOverhead = o
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "item overhead "+strconv.FormatInt(o, 10)+" bytes: need 0 to 1099511627776") {
			t.Errorf("overhead %d: Validate = %v, want the bound's refusal", o, err)
		}
		_, err := simulate.SpreadBytes(twitter(t, "0,a,1,9,1,get,0"), placement(t, "ring", ns).Locator, simulate.SpreadOptions{ItemOverhead: o})
		if err == nil || !strings.Contains(err.Error(), "item overhead "+strconv.FormatInt(o, 10)) {
			t.Errorf("overhead %d: SpreadBytes = %v, want the bound's refusal", o, err)
		}
	}
	cfg.ItemOverhead = simulate.MaxItemOverhead
	if err := cfg.Validate(); err != nil {
		t.Errorf("overhead 2^40: %v", err)
	}
}

// A node's request bytes that pass 2^63-1 are an error, never a sum that
// wrapped: 2^40 requests (one key-count record) of 2^40 + 1 bytes.
func TestSpreadBytesOverflow(t *testing.T) {
	r, err := trace.NewReader(strings.NewReader("k\t1099511627776\n"), trace.Options{Format: trace.KeyCount})
	if err != nil {
		t.Fatal(err)
	}
	_, err = simulate.SpreadBytes(r, placement(t, "ring", nodes(t, 1)).Locator, simulate.SpreadOptions{ItemOverhead: simulate.MaxItemOverhead})
	if err == nil || !strings.Contains(err.Error(), "node node-0: its requests' bytes pass 2^63-1 at a record of 1099511627776 requests of 1099511627777 bytes") {
		t.Errorf("err = %v, want the overflow named", err)
	}
}

// An append grows an item by the appended value only: the overhead is
// charged once, not again at every append (set of 1 + 10 B, append of 5
// B, overhead 100: 116 B, not 216).
func TestAppendChargesOverheadOnce(t *testing.T) {
	ns := nodes(t, 1)
	cfg := simulate.Config{Nodes: ns, Capacity: simulate.Capacity{PerWeight: 1 << 20}, Window: time.Minute, ItemOverhead: 100}
	out, err := simulate.Run(twitter(t, "0,a,1,10,1,set,0", "1,a,1,5,1,append,0"), []simulate.Placement{placement(t, "ring", ns)}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Results[0].Totals.PeakBytes; got != 116 {
		t.Errorf("peak bytes %d, want 116", got)
	}
}
