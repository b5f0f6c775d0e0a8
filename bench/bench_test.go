package bench

import (
	"flag"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
)

// SwapInterval is how often the writer in BenchmarkLookupSwap replaces the
// placement: 10,000 membership changes a second, far more than any real
// cluster sees, so the cost of the atomic load under change is visible.
const SwapInterval = 100 * time.Microsecond

// Sinks: every benchmark stores its last result here. A package-level
// variable escapes the compiler's view, so the lookups cannot be removed as
// dead code.
var (
	sinkID    string
	sinkIndex int
	sinkHash  uint64
	sinkLen   atomic.Int64 // parallel benchmarks add up the ID lengths they saw
	sinkPlace algorithms.Placer
)

const poolMask = PoolSize - 1

// nodeCounts returns NodeCounts, without the largest in -short mode when
// large is false.
func nodeCounts(large bool) []int {
	if testing.Short() && !large {
		return NodeCounts[:len(NodeCounts)-1]
	}
	return NodeCounts
}

// hashes returns p.HashKey of every key, for the placement-only benchmarks.
func hashes(p algorithms.Placer, keys []string) []uint64 {
	hs := make([]uint64, len(keys))
	for i, k := range keys {
		hs[i] = p.HashKey(k)
	}
	return hs
}

// The flags of a fleet's lookups (chbench fleet -lookup-args prints them
// for a fleet profile): BenchmarkLookup at the fleet's node counts, on
// its placements, instead of NodeCounts and every algorithm.
var (
	fleetNodes = flag.String("fleet-nodes", "", "BenchmarkLookup only at these comma-separated node counts (a fleet's sizes), every placement alike, dialects included")
	fleetAlgos = flag.String("fleet-algos", "", "BenchmarkLookup only on these comma-separated placements (algorithms and dialects)")
)

// fleetCounts returns the node counts of -fleet-nodes (nil without it),
// each a whole number >= 1, in increasing order without repeats.
func fleetCounts() ([]int, error) {
	if *fleetNodes == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(*fleetNodes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-fleet-nodes %q: %q is not a node count >= 1", *fleetNodes, f)
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// lookupCounts returns the node counts BenchmarkLookup measures algo at:
// the -fleet-nodes counts when given, else every one of NodeCounts for
// an algorithm and the dialectNodeCounts of a dialect.
func lookupCounts(algo string) ([]int, error) {
	fc, err := fleetCounts()
	switch {
	case err != nil || fc != nil:
		return fc, err
	case catalog.IsDialect(algo):
		return dialectNodeCounts(algo), nil
	}
	return nodeCounts(true), nil
}

// lookupNames returns the default placements of BenchmarkLookup: every
// algorithm, then LookupDialects.
func lookupNames() []string { return append(catalog.Names(), LookupDialects...) }

// lookupPlacements returns the placements BenchmarkLookup measures: those
// of -fleet-algos when given (each known to the catalog), else
// lookupNames.
func lookupPlacements() ([]string, error) {
	if *fleetAlgos == "" {
		return lookupNames(), nil
	}
	names := strings.Split(*fleetAlgos, ",")
	for _, n := range names {
		if _, err := catalog.Describe(n); err != nil {
			return nil, fmt.Errorf("-fleet-algos %q: %w", *fleetAlgos, err)
		}
	}
	return names, nil
}

// BenchmarkLookup measures one lookup per op: from=key is Locate on a key
// string (end to end), from=hash is LocateHash on a precomputed key hash
// (placement alone); for every algorithm and LookupDialects, or with
// -fleet-algos and -fleet-nodes a fleet's placements at its sizes.
func BenchmarkLookup(b *testing.B) {
	keys := Pool(b)
	names, err := lookupPlacements()
	if err != nil {
		b.Fatal(err)
	}
	for _, algo := range names {
		b.Run("algo="+algo, func(b *testing.B) {
			counts, err := lookupCounts(algo)
			if err != nil {
				b.Fatal(err)
			}
			for _, n := range counts {
				b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
					p := NewPlacer(b, algo, n)
					hs := hashes(p, keys)
					b.Run("from=key", func(b *testing.B) {
						b.ReportAllocs()
						var id string
						i := 0
						for b.Loop() {
							id = p.Locate(keys[i&poolMask])
							i++
						}
						sinkID = id
					})
					b.Run("from=hash", func(b *testing.B) {
						b.ReportAllocs()
						var idx int
						i := 0
						for b.Loop() {
							idx = p.LocateHash(hs[i&poolMask])
							i++
						}
						sinkIndex = idx
					})
				})
			}
		})
	}
}

// BenchmarkHash measures each registered key hash on the key pool: the
// floor under every lookup that starts from a key string.
func BenchmarkHash(b *testing.B) {
	keys := Pool(b)
	for _, name := range algorithms.HashNames() {
		h := algorithms.MustHash(name)
		b.Run("hash="+name, func(b *testing.B) {
			b.ReportAllocs()
			var s uint64
			i := 0
			for b.Loop() {
				s = h.Sum(keys[i&poolMask])
				i++
			}
			sinkHash = s
		})
	}
}

// BenchmarkLookupParallel measures Locate from GOMAXPROCS goroutines on one
// shared placement. Each goroutine starts at a different point of the pool.
//
// The placement is built on the first call of the nodes=N function and
// kept for its later calls: a b.N benchmark's function runs again for
// every step of its ramp-up and every -count sample (some 30 times at
// -count 6), and a build takes up to seconds (bounded's 10 million
// partitions at 10,000 nodes).
func BenchmarkLookupParallel(b *testing.B) {
	keys := Pool(b)
	for _, algo := range catalog.Names() {
		b.Run("algo="+algo, func(b *testing.B) {
			for _, n := range nodeCounts(false) {
				var p algorithms.Placer // see [BenchmarkLookupParallel]
				b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
					if p == nil {
						p = NewPlacer(b, algo, n)
					}
					var start atomic.Int64
					b.ReportAllocs()
					b.ResetTimer()
					b.RunParallel(func(pb *testing.PB) {
						i := int(start.Add(PoolSize / 8))
						var total int64
						for pb.Next() {
							total += int64(len(p.Locate(keys[i&poolMask])))
							i++
						}
						sinkLen.Add(total)
					})
				})
				p = nil // released before the next node count is built
			}
		})
	}
}

// BenchmarkLookupSwap is BenchmarkLookupParallel during membership change:
// readers load the current placement from an atomic.Pointer for every
// lookup, while a writer goroutine alternates it between the placements of
// N and N+1 nodes ([swapPair]) every SwapInterval. No lock is taken on
// either side.
func BenchmarkLookupSwap(b *testing.B) {
	keys := Pool(b)
	for _, algo := range catalog.Names() {
		b.Run("algo="+algo, func(b *testing.B) {
			for _, n := range nodeCounts(false) {
				// Built once per node count, see [BenchmarkLookupParallel].
				var small, large algorithms.Placer
				b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
					if small == nil {
						small, large = swapPair(b, algo, n)
					}
					var cur atomic.Pointer[algorithms.Placer]
					cur.Store(&small)
					done := make(chan struct{})
					var swaps atomic.Int64
					go func() {
						t := time.NewTicker(SwapInterval)
						defer t.Stop()
						next := []*algorithms.Placer{&large, &small}
						for k := 0; ; k++ {
							select {
							case <-done:
								return
							case <-t.C:
								cur.Store(next[k&1])
								swaps.Add(1)
							}
						}
					}()
					var start atomic.Int64
					b.ReportAllocs()
					b.ResetTimer()
					b.RunParallel(func(pb *testing.PB) {
						i := int(start.Add(PoolSize / 8))
						var total int64
						for pb.Next() {
							total += int64(len((*cur.Load()).Locate(keys[i&poolMask])))
							i++
						}
						sinkLen.Add(total)
					})
					b.StopTimer()
					close(done)
				})
				small, large = nil, nil
			}
		})
	}
}

// swapPair returns the two placements BenchmarkLookupSwap alternates: algo
// on n default nodes, and the placement of n+1 nodes built from it with
// Join (node-n joins), both with Config(n+1): the two placements the
// movement analysis measures for a join to n+1 nodes (its "add" from n),
// which sizes bounded's partitions for the scenario's largest membership.
// It fails tb, naming the algorithm, when a build or the join fails.
func swapPair(tb testing.TB, algo string, n int) (small, large algorithms.Placer) {
	tb.Helper()
	small = newPlacer(tb, algo, n, Config(n+1))
	large, err := algorithms.Join(small, algorithms.Node{ID: algorithms.NodeID(n), Weight: 1})
	if err != nil {
		tb.Fatalf("%s: join node %d: %v", algo, n, err)
	}
	return small, large
}

// BenchmarkBuild measures catalog.New on N nodes of weight 1 with
// Config(N), the configuration the analyses build N nodes with, and
// reports the heap one placement retains.
func BenchmarkBuild(b *testing.B) {
	for _, algo := range catalog.Names() {
		b.Run("algo="+algo, func(b *testing.B) {
			for _, n := range nodeCounts(false) {
				b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
					nodes, err := algorithms.DefaultNodes(n)
					if err != nil {
						b.Fatal(err)
					}
					cfg := Config(n)
					b.ReportAllocs()
					var p algorithms.Placer
					for b.Loop() {
						if p, err = catalog.New(algo, nodes, cfg); err != nil {
							b.Fatalf("%s on %d nodes: %v", algo, n, err)
						}
					}
					sinkPlace = p
					// Custom metrics go after the loop: the first b.Loop
					// call resets them.
					retained, err := retainedOnce(algo, n, func() (any, error) { return catalog.New(algo, nodes, cfg) })
					if err != nil {
						b.Fatalf("%s on %d nodes: %v", algo, n, err)
					}
					b.ReportMetric(float64(retained), "retained-bytes")
					b.ReportMetric(float64(retained)/float64(n), "retained-bytes/node")
				})
			}
		})
	}
}

// retained holds the retained bytes BenchmarkBuild measured per algorithm
// and node count, so that each is measured once per process rather than
// once per -count sample: the measurement builds the placement again (a
// second build of bounded's 10 million partitions at 10,000 nodes, 3 s on
// 2 cores), and its result is the same every time but for heap noise.
// Benchmarks run one at a time, so it needs no lock.
var retained = map[retainedKey]int64{}

type retainedKey struct {
	algo  string
	nodes int
}

// retainedOnce returns retainedBytes(build) for algo on n nodes, measured
// on the first call for them and remembered; an error is not remembered.
func retainedOnce(algo string, n int, build func() (any, error)) (int64, error) {
	k := retainedKey{algo, n}
	if d, ok := retained[k]; ok {
		return d, nil
	}
	d, err := retainedBytes(build)
	if err == nil {
		retained[k] = d
	}
	return d, err
}

// retainedBytes returns the bytes one result of build holds: the growth
// of the live heap (runtime.MemStats HeapAlloc after a full garbage
// collection) across calls of build, while their results are still
// reachable. A small placement (a range hash on 10 nodes holds a few
// hundred bytes) is measured over retainedCopies results at once and
// divided, so that one placement's bytes are not lost in the heap's
// rounding; a large one (>= retainedMinBytes) over a single result. It
// returns build's error, or an error if the heap did not grow (another
// goroutine freed memory during the measurement, so it is meaningless).
func retainedBytes(build func() (any, error)) (int64, error) {
	if d, err := heapGrowth(build, 1); err == nil && d >= retainedMinBytes {
		return d, nil
	}
	d, err := heapGrowth(build, retainedCopies)
	return d / retainedCopies, err
}

// retainedCopies results of a small build are measured together;
// retainedMinBytes is the growth above which one result is enough.
const (
	retainedCopies   = 64
	retainedMinBytes = 64 << 10
)

// heapGrowth returns the live heap's growth across copies calls of build,
// all results kept reachable until it is measured.
func heapGrowth(build func() (any, error), copies int) (int64, error) {
	var before, after runtime.MemStats
	vs := make([]any, copies)
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range vs {
		v, err := build()
		if err != nil {
			return 0, err
		}
		vs[i] = v
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(vs)
	// build and what it captures (the membership) were live before the
	// calls; keep them live after them, or their release would offset the
	// bytes the results hold.
	runtime.KeepAlive(build)
	d := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	if d <= 0 {
		return 0, fmt.Errorf("live heap changed by %d bytes across %d builds: measurement disturbed", d, copies)
	}
	return d, nil
}
