package simulate_test

import (
	"bytes"
	"sync"
	"testing"

	"github.com/chbench/chbench/internal/cputime"
	"time"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis/simulate"
	"github.com/chbench/chbench/trace"
	"github.com/chbench/chbench/workload"
)

// benchTrace is 2^21 requests of an oracle-general trace (the fast
// reader, so the replay dominates): Zipf 0.99 over 200,000 objects with
// log-normal sizes (median 230 B), at 10,000 requests per second, so an
// object is requested about 10 times (the low end of Twitter's clusters,
// whose mean object frequencies run from about 10 to thousands).
var benchTrace = sync.OnceValue(func() []byte {
	w, err := workload.New(workload.Config{Keys: 200000, Zipf: 0.99, Requests: 1 << 21, Rate: 10000, Numeric: true,
		Values: workload.Sizes{Kind: workload.LogNormal, Median: 230, Sigma: 1, Min: 1, Max: 1 << 20}, Seed: 1})
	if err != nil {
		panic(err)
	}
	var buf bytes.Buffer
	tw, err := trace.NewWriter(&buf, trace.OracleGeneral)
	if err != nil {
		panic(err)
	}
	if err := trace.Copy(tw, w); err != nil {
		panic(err)
	}
	return buf.Bytes()
})

// benchConfig is 40 nodes of 1 MiB, so the LRU caches evict (the
// trace's objects take about 75 MiB), and a join of 20 nodes halfway.
func benchConfig(b *testing.B) simulate.Config {
	cfg := simulate.Config{Nodes: nodes(b, 40), Capacity: simulate.Capacity{PerWeight: 1 << 20}, Window: 10 * time.Second}
	evs, err := simulate.ParseEvents("104s join node-40\n104s join node-41\n104s join node-42\n104s join node-43\n104s join node-44\n104s join node-45\n104s join node-46\n104s join node-47\n104s join node-48\n104s join node-49\n104s join node-50\n104s join node-51\n104s join node-52\n104s join node-53\n104s join node-54\n104s join node-55\n104s join node-56\n104s join node-57\n104s join node-58\n104s join node-59\n")
	if err != nil {
		b.Fatal(err)
	}
	cfg.Events = evs
	return cfg
}

// BenchmarkReplay is one placement's replay with LRU per node: ns/op is
// per request (read, routed, replayed), on one core for the replay plus
// the reader's goroutine. The target: at least 5 million requests
// per second per replay.
func BenchmarkReplay(b *testing.B) {
	data := benchTrace()
	for _, algo := range []string{"jump", "ring", "rendezvous", "maglev"} {
		b.Run("algo="+algo, func(b *testing.B) {
			cfg := benchConfig(b)
			b.ReportAllocs()
			var n int64
			cpu0 := cputime.Used()
			for b.Loop() {
				r, err := trace.NewReader(bytes.NewReader(data), trace.Options{Format: trace.OracleGeneral})
				if err != nil {
					b.Fatal(err)
				}
				out, err := simulate.Run(r, []simulate.Placement{placement(b, algo, cfg.Nodes)}, cfg)
				if err != nil {
					b.Fatal(err)
				}
				n += out.Stats.Requests
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/req")
			b.ReportMetric(float64(n)/b.Elapsed().Seconds()/1e6, "Mreq/s")
			cpu := float64(cputime.Used()-cpu0) / float64(n)
			b.ReportMetric(cpu, "cpu-ns/req")
			b.ReportMetric(1e3/cpu, "Mreq/cpu-s")
		})
	}
}

// BenchmarkReplayAll is every algorithm of the catalog on the same trace
// in one Run (one read, 16 replays over the cores): replay-Mreq/s counts
// every replay's requests per second of wall time, replay-Mreq/cpu-s per
// second of CPU (the trace's one read included), the rate one replay
// keeps on a core of its own.
func BenchmarkReplayAll(b *testing.B) {
	data := benchTrace()
	cfg := benchConfig(b)
	b.ReportAllocs()
	var n int64
	cpu0 := cputime.Used()
	for b.Loop() {
		var ps []simulate.Placement
		for _, name := range catalog.Names() {
			ps = append(ps, placement(b, name, cfg.Nodes))
		}
		r, err := trace.NewReader(bytes.NewReader(data), trace.Options{Format: trace.OracleGeneral})
		if err != nil {
			b.Fatal(err)
		}
		out, err := simulate.Run(r, ps, cfg)
		if err != nil {
			b.Fatal(err)
		}
		n += out.Stats.Requests * int64(len(ps))
	}
	cpu := float64(cputime.Used()-cpu0) / float64(n)
	b.ReportMetric(float64(n)/b.Elapsed().Seconds()/1e6, "replay-Mreq/s")
	b.ReportMetric(cpu, "cpu-ns/replay-req")
	// The rate one replay keeps per second of CPU: on this shared machine
	// the cores the wall clock sees are not all this benchmark's.
	b.ReportMetric(1e3/cpu, "replay-Mreq/cpu-s")
}
