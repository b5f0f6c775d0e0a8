package catalog

import (
	"fmt"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/keyset"
)

// dialectPoolSize and dialectPoolSeed are bench.PoolSize and bench.PoolSeed:
// the dialects' lookups draw from the same key pool as the algorithms'.
const (
	dialectPoolSize = 1 << 16
	dialectPoolSeed = 1
)

// Sinks keep the lookups' results reachable so the compiler cannot drop
// the work.
var (
	sinkDialectID    string
	sinkDialectIndex int
)

// BenchmarkLookup measures every dialect's lookup from a key string and
// from a precomputed key hash, on fleets of host:port servers, named as
// bench's BenchmarkLookup (algo=NAME/nodes=N/from=key|hash) so the two
// files merge into one benchstat table. libmemcached's continuum modes
// hold at most 100 servers; their 1,000-server cells are left out.
func BenchmarkLookup(b *testing.B) {
	keys, err := keyset.Keys(dialectPoolSize, dialectPoolSeed)
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range Dialects() {
		b.Run("algo="+name, func(b *testing.B) {
			for _, n := range []int{10, 100, 1000} {
				nodes := make([]algorithms.Node, n)
				for i := range nodes {
					nodes[i] = algorithms.Node{ID: fmt.Sprintf("10.0.%d.%d:11211", i/250, i%250+1), Weight: 1}
				}
				p, err := New(name, nodes, DefaultConfig())
				if err != nil {
					continue // more servers than the system takes
				}
				hs := make([]uint64, len(keys))
				for i, k := range keys {
					hs[i] = p.HashKey(k)
				}
				b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
					b.Run("from=key", func(b *testing.B) {
						b.ReportAllocs()
						var id string
						i := 0
						for b.Loop() {
							id = p.Locate(keys[i&(dialectPoolSize-1)])
							i++
						}
						sinkDialectID = id
					})
					b.Run("from=hash", func(b *testing.B) {
						b.ReportAllocs()
						var idx int
						i := 0
						for b.Loop() {
							idx = p.LocateHash(hs[i&(dialectPoolSize-1)])
							i++
						}
						sinkDialectIndex = idx
					})
				})
			}
		})
	}
}
