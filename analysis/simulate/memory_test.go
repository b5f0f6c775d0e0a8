package simulate_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/chbench/chbench/analysis/simulate"
	"github.com/chbench/chbench/trace"
	"github.com/chbench/chbench/workload"
)

// A replay's memory is what its caches hold, not the trace's length:
// three times the requests over the same 5,000 keys (one window, so the
// rows do not grow either) cost no more than a few allocations more than
// once the caches are full. The reader, the chunks and the caches are
// reused; only the caches' growth allocates.
func TestMemoryFlatInTraceLength(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: replays 400,000 requests")
	}
	mallocs := func(requests int64) uint64 {
		w, err := workload.New(workload.Config{Keys: 5000, Zipf: 0.8, Requests: requests, Rate: 1000, Seed: 1,
			Values: workload.Sizes{Kind: workload.Fixed, Size: 100},
			Ops:    []workload.OpShare{{Op: trace.OpGet, Share: 0.9}, {Op: trace.OpSet, Share: 0.1}}})
		if err != nil {
			t.Fatal(err)
		}
		cfg := simulate.Config{Nodes: nodes(t, 8), Capacity: simulate.Capacity{PerWeight: 1 << 20}, Window: 1000 * time.Hour}
		p := placement(t, "ring", cfg.Nodes)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := simulate.Run(w, []simulate.Placement{p}, cfg); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.Mallocs - before.Mallocs
	}
	short, long := mallocs(100000), mallocs(300000)
	if long > short+50 {
		t.Errorf("%d allocations for 100,000 requests, %d for 300,000: the replay allocates per request", short, long)
	}
	t.Logf("allocations: %d for 100,000 requests, %d for 300,000", short, long)
}
