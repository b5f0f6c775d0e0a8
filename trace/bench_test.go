package trace_test

import (
	"bytes"
	"sync"
	"testing"

	"github.com/chbench/chbench/internal/cputime"
	"unsafe"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/trace"
	"github.com/chbench/chbench/workload"
)

// benchRequests is the length of the benchmarks' binary trace: 2^21
// requests (48 MiB), Zipf 0.99 over 10^6 objects, as libCacheSim's
// oracleGeneral traces of key-value caches look.
const benchRequests = 1 << 21

var oracleTrace = sync.OnceValue(func() []byte {
	w, err := workload.New(workload.Config{Keys: 1000000, Zipf: 0.99, Requests: benchRequests, Rate: 10000, Numeric: true,
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

// sink keeps the compiler from discarding the measured work.
var sink int

// BenchmarkReadOracleGeneral reads libCacheSim's binary format from memory:
// decode, the key's decimal text, and the statistics (distinct keys
// included). ns/op is per request.
func BenchmarkReadOracleGeneral(b *testing.B) {
	data := oracleTrace()
	b.SetBytes(trace.OracleRecordSize)
	b.ReportAllocs()
	var r trace.Reader
	cpu0 := cputime.Used()
	for b.Loop() {
		if r == nil || !r.Scan() {
			var err error
			if r, err = trace.NewReader(bytes.NewReader(data), trace.Options{Format: trace.OracleGeneral}); err != nil {
				b.Fatal(err)
			}
			r.Scan()
		}
		sink += r.Record().(*trace.Request).ValueSize
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "Mreq/s")
	b.ReportMetric(float64(cputime.Used()-cpu0)/float64(b.N), "cpu-ns/req")
}

// BenchmarkReadRoute reads the binary trace and routes every request
// through a placement of 100 nodes with Locator.LocateKeys in batches of
// 4,096 keys (copied out of the reader, as the simulation does), one
// goroutine doing both. ns/op is per request; the target is well
// above 20 million requests per second (libCacheSim's replay speed).
func BenchmarkReadRoute(b *testing.B) {
	data := oracleTrace()
	nodes, _ := algorithms.DefaultNodes(100)
	for _, algo := range []string{"jump", "ring", "rendezvous", "maglev"} {
		b.Run("algo="+algo, func(b *testing.B) {
			p, err := catalog.New(algo, nodes, catalog.DefaultConfig())
			if err != nil {
				b.Fatal(err)
			}
			loc := algorithms.AsLocator(p, 64)
			const batch = 4096
			arena := make([]byte, 0, batch*24)
			ends := make([]int, 0, batch)
			keys := make([]string, 0, batch)
			owners := make([]int, batch)
			counts := make([]int, len(nodes))
			route := func() {
				keys = keys[:0]
				start := 0
				for _, e := range ends {
					keys = append(keys, unsafe.String(unsafe.SliceData(arena[start:]), e-start))
					start = e
				}
				loc.LocateKeys(keys, owners)
				for _, o := range owners[:len(keys)] {
					counts[o]++
				}
				arena, ends = arena[:0], ends[:0]
			}
			b.ReportAllocs()
			var r trace.Reader
			cpu0 := cputime.Used()
			for b.Loop() {
				if r == nil || !r.Scan() {
					if r, err = trace.NewReader(bytes.NewReader(data), trace.Options{Format: trace.OracleGeneral}); err != nil {
						b.Fatal(err)
					}
					r.Scan()
				}
				arena = append(arena, r.Record().(*trace.Request).Key...)
				ends = append(ends, len(arena))
				if len(ends) == batch {
					route()
				}
			}
			route()
			sink += counts[0]
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "Mreq/s")
			b.ReportMetric(float64(cputime.Used()-cpu0)/float64(b.N), "cpu-ns/req")
		})
	}
}

// BenchmarkReadRoutePipelined is BenchmarkReadRoute on both cores, as
// analysis/simulate.Run works: one goroutine reads the trace into batches
// of 4,096 keys, another routes each batch, and batches are recycled, so
// the rate is that of the slower stage.
func BenchmarkReadRoutePipelined(b *testing.B) {
	data := oracleTrace()
	nodes, _ := algorithms.DefaultNodes(100)
	for _, algo := range []string{"jump", "ring", "rendezvous", "maglev"} {
		b.Run("algo="+algo, func(b *testing.B) {
			p, err := catalog.New(algo, nodes, catalog.DefaultConfig())
			if err != nil {
				b.Fatal(err)
			}
			loc := algorithms.AsLocator(p, 64)
			type batch struct {
				arena []byte
				ends  []int
				keys  []string
			}
			const size, inFlight = 4096, 8
			free, full := make(chan *batch, inFlight), make(chan *batch, inFlight)
			for range inFlight {
				free <- &batch{arena: make([]byte, 0, size*24), ends: make([]int, 0, size), keys: make([]string, 0, size)}
			}
			done := make(chan int)
			go func() {
				owners := make([]int, size)
				counts := make([]int, len(nodes))
				for bt := range full {
					bt.keys = bt.keys[:0]
					start := 0
					for _, e := range bt.ends {
						bt.keys = append(bt.keys, unsafe.String(unsafe.SliceData(bt.arena[start:]), e-start))
						start = e
					}
					loc.LocateKeys(bt.keys, owners)
					for _, o := range owners[:len(bt.keys)] {
						counts[o]++
					}
					bt.arena, bt.ends = bt.arena[:0], bt.ends[:0]
					free <- bt
				}
				done <- counts[0]
			}()
			b.ReportAllocs()
			var r trace.Reader
			bt := <-free
			cpu0 := cputime.Used()
			for b.Loop() {
				if r == nil || !r.Scan() {
					if r, err = trace.NewReader(bytes.NewReader(data), trace.Options{Format: trace.OracleGeneral}); err != nil {
						b.Fatal(err)
					}
					r.Scan()
				}
				bt.arena = append(bt.arena, r.Record().(*trace.Request).Key...)
				bt.ends = append(bt.ends, len(bt.arena))
				if len(bt.ends) == size {
					full <- bt
					bt = <-free
				}
			}
			full <- bt
			close(full)
			sink += <-done
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "Mreq/s")
			b.ReportMetric(float64(cputime.Used()-cpu0)/float64(b.N), "cpu-ns/req")
		})
	}
}
