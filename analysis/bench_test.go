package analysis

import (
	"fmt"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"

	"github.com/chbench/chbench/keyset"
)

// benchKeys is the number of keys each benchmark iteration streams.
const benchKeys = 1 << 20

// sink keeps benchmark results alive so the compiler cannot drop the work.
var sink any

func benchChain(b *testing.B, algo string, n int) []algorithms.Locator {
	b.Helper()
	sc, err := Resize(n, n+1)
	if err != nil {
		b.Fatal(err)
	}
	chain, err := Placements(Options{Algo: algo, Config: catalog.DefaultConfig()}, sc)
	if err != nil {
		b.Fatal(err)
	}
	return chain
}

// BenchmarkMovement streams benchKeys generated keys through a one-step
// movement (n -> n+1) on all cores and reports ns/key: the wall time per
// key of generating it, locating it in both placements and counting.
// Compare with BenchmarkLookupPerKey (one lookup of a pre-built key, one
// core) and BenchmarkKeys (generation alone).
func BenchmarkMovement(b *testing.B) {
	for _, algo := range []string{"ring", "jump", "rendezvous", "slots", "bounded"} {
		b.Run(fmt.Sprintf("algo=%s/nodes=100", algo), func(b *testing.B) {
			chain := benchChain(b, algo, 100)
			g, err := keyset.NewGenerator(benchKeys, 1, 1)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				c, err := CountMoves(g, chain, 0)
				if err != nil {
					b.Fatal(err)
				}
				sink = c
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchKeys, "ns/key")
		})
	}
}

// BenchmarkSpreadCount is BenchmarkMovement for a spread count (one
// placement).
func BenchmarkSpreadCount(b *testing.B) {
	chain := benchChain(b, "ring", 100)
	g, _ := keyset.NewGenerator(benchKeys, 1, 1)
	b.ReportAllocs()
	for b.Loop() {
		c, err := CountOwners(g, chain[0], 0)
		if err != nil {
			b.Fatal(err)
		}
		sink = c
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchKeys, "ns/key")
}

// BenchmarkLookupPerKey is the bare lookup the movement is compared with:
// hash and locate one pre-built key, on one core.
func BenchmarkLookupPerKey(b *testing.B) {
	for _, algo := range []string{"ring", "jump", "rendezvous", "slots", "bounded"} {
		b.Run(fmt.Sprintf("algo=%s/nodes=100", algo), func(b *testing.B) {
			p, _ := algorithms.PlacerOf(benchChain(b, algo, 100)[0])
			g, _ := keyset.NewGenerator(keyset.ChunkKeys, 1, 1)
			keys := g.Chunk(nil, 0, 0) // built before the timer; indexed with a mask
			var acc int
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				acc += p.LocateHash(p.HashKey(keys[i&(keyset.ChunkKeys-1)]))
				i++
			}
			sink = acc
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/key")
		})
	}
}

// BenchmarkKeys measures key generation alone, on all cores.
func BenchmarkKeys(b *testing.B) {
	g, _ := keyset.NewGenerator(benchKeys, 1, 1)
	b.ReportAllocs()
	for b.Loop() {
		if err := g.Each(0, func(w, set int, keys []string) { sink = len(keys) }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchKeys, "ns/key")
}

// BenchmarkLoadCount measures a request-load run of one placement (ring,
// 100 nodes) over one stream of 2^20 Zipf requests on 2^16 keys and
// reports ns/request: drawing the requests, placing the keys and counting
// per node.
func BenchmarkLoadCount(b *testing.B) {
	nodes, err := algorithms.DefaultNodes(100)
	if err != nil {
		b.Fatal(err)
	}
	const requests = 1 << 20
	o := LoadOptions{Options: Options{Config: catalog.DefaultConfig(), Keys: genKeys(1<<16, 1, 1), Seed: 1}, Requests: requests, Zipfs: []float64{0.99}}
	b.ReportAllocs()
	for b.Loop() {
		rs, err := Load(o, []string{"ring"}, nodes)
		if err != nil {
			b.Fatal(err)
		}
		sink = rs
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/requests, "ns/request")
}
