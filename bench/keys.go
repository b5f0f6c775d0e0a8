// Package bench holds chbench's lookup and build benchmarks over every
// algorithm in the catalog, and the key pool they (and the peers
// comparison in the nested peers module) share.
//
// The benchmarks live in the package's tests; run them and tabulate with
// benchstat (from the root module, which has it as a tool) with
//
//	go test -run '^$' -bench . -count 6 -benchtime 50ms ./bench/ > lookup.txt
//	go tool benchstat -filter '.name:Lookup .unit:sec/op' -table /from -col /algo -row /nodes lookup.txt
//	go tool benchstat -filter '.name:Build' -col /algo -row /nodes lookup.txt
//
// (`make lookup`'s settings: 3 minutes on 2 cores; with -short and
// -benchtime 20ms, one minute). `go test ./bench/` alone runs only the
// tests, in a few seconds.
//
// Benchmark names (every value is free of '/', spaces and trailing -digits):
//
//   - Lookup/algo=A/nodes=N/from=key: Placer.Locate, end to end from a key
//     string to the owner's node ID (hash the key, place the hash, index
//     the membership).
//   - Lookup/algo=A/nodes=N/from=hash: Placer.LocateHash from a key hash
//     computed before the timer: the placement step alone.
//   - LookupParallel/algo=A/nodes=N: Locate from GOMAXPROCS goroutines at
//     once on one shared placement (b.RunParallel): ns/op is wall time per
//     lookup across all of them.
//   - LookupSwap/algo=A/nodes=N: LookupParallel while a writer goroutine
//     swaps an atomic.Pointer between the placements of N and N+1 nodes
//     every [SwapInterval]; each lookup loads the pointer (lock-free).
//   - Hash/hash=H: the key hash alone, the floor under every lookup.
//   - Build/algo=A/nodes=N: catalog.New on N nodes of weight 1; besides
//     ns/op, B/op and allocs/op it reports retained-bytes (heap still held
//     by one placement after a garbage collection, measured once per
//     process; benchstat scales it in KiB/MiB) and retained-bytes/node.
//
// Every placement is built with the configuration the analyses use for
// the same membership ([Config]): at N nodes bounded places 1,024
// partitions a node (10,240,000 at 10,000 nodes), Maglev's table holds
// at least 100 N entries, anchor and dx have 2N buckets; LookupSwap's two
// placements are sized for N+1 nodes, as the movement analysis sizes a
// join to N+1. The names carry no configuration because there is one.
//
// Node counts are [NodeCounts] (10, 100, 1000, 10000); with -short the
// largest is left out of Build, LookupParallel and LookupSwap. The test
// flags -fleet-nodes N[,M...] and -fleet-algos A[,B...] (chbench fleet
// -lookup-args prints them for a fleet profile) make Lookup measure only
// those placements at only those node counts, dialects too.
//
// Lookup also measures [LookupDialects], one dialect of each lookup shape
// of the real clients and proxies, beside the algorithms under the same
// names (algo=DIALECT), on the default fleet of [Nodes] at
// [DialectNodeCounts] servers. All
// lookups draw keys from the same pool of [PoolSize] keys made by
// keyset.Keys(PoolSize, PoolSeed), indexed with a mask, and keep their results
// in package-level sinks so the compiler cannot drop the work.
package bench

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/dialect"
	"github.com/chbench/chbench/algorithms/dialect/goredis"
	"github.com/chbench/chbench/algorithms/dialect/haproxy"
	"github.com/chbench/chbench/algorithms/dialect/libmemcached"
	"github.com/chbench/chbench/algorithms/dialect/nginx"
	"github.com/chbench/chbench/algorithms/dialect/pymemcache"
	"github.com/chbench/chbench/algorithms/dialect/twemproxy"
	"github.com/chbench/chbench/algorithms/dialect/uhashring"
	"github.com/chbench/chbench/keyset"
)

// PoolSize is the number of keys in the benchmark key pool, a power of two
// so that the pool is indexed with i & (PoolSize-1).
const PoolSize = 1 << 16

// PoolSeed is the seed of the benchmark key pool.
const PoolSeed = 1

// NodeCounts are the membership sizes the benchmarks cover.
var NodeCounts = []int{10, 100, 1000, 10000}

// Config returns the configuration the benchmarks build a placement of
// up to maxNodes nodes with, the one the analyses use for it: every
// command's defaults, catalog.DefaultConfig() (`make bench` overrides none
// of them), with bounded's automatic partitions resolved for maxNodes,
// [catalog.Config.PartitionsFor](maxNodes) = 1,024 per node, at least
// 16,384. The spread analysis of n nodes resolves them for n, a movement
// scenario for its largest membership (n+1 for a join to n nodes). The
// other settings that depend on the node count are resolved by catalog.New
// from the membership, alike for benchmarks and analyses: Maglev's table
// size (65,537, grown to at least 100 n) and the capacity of anchor and dx
// (2n, at least 16). TestConfigMatchesAnalysis holds the benchmarks'
// placements to the analyses' ones.
func Config(maxNodes int) catalog.Config {
	c := catalog.DefaultConfig()
	c.Partitions = c.PartitionsFor(maxNodes)
	return c
}

// NewPlacer builds algo on n default nodes ([Nodes]: node-0 ...
// node-{n-1} of weight 1, or for a dialect the servers 127.0.0.1:11211 ...)
// with Config(n), for benchmarks and tests here and in the peers module. A
// construction error, or a constructor that panics, fails the calling test
// or benchmark alone, naming the algorithm, instead of ending the whole
// run.
func NewPlacer(tb testing.TB, algo string, n int) algorithms.Placer {
	tb.Helper()
	return newPlacer(tb, algo, n, Config(n))
}

// newPlacer is [NewPlacer] with the configuration cfg.
func newPlacer(tb testing.TB, algo string, n int, cfg catalog.Config) (p algorithms.Placer) {
	tb.Helper()
	nodes, err := Nodes(algo, n)
	if err != nil {
		tb.Fatal(err)
	}
	defer func() {
		if v := recover(); v != nil {
			tb.Fatalf("%s on %d nodes: constructor panicked: %v", algo, n, v)
		}
	}()
	p, err = catalog.New(algo, nodes, cfg)
	if err != nil {
		tb.Fatalf("%s on %d nodes: %v", algo, n, err)
	}
	return p
}

// Nodes returns the n nodes of weight 1 a benchmark places algo on: the
// default IDs node-0 ... node-{n-1} for an algorithm, and for a dialect
// (which hashes server addresses as its system's configuration spells
// them) the default fleet 127.0.0.1:11211 ... (dialect.DefaultNodes).
func Nodes(algo string, n int) ([]algorithms.Node, error) {
	if catalog.IsDialect(algo) {
		return dialect.DefaultNodes(n)
	}
	return algorithms.DefaultNodes(n)
}

// LookupDialects are the dialects BenchmarkLookup measures beside the
// algorithms: one of each lookup shape among the 56 dialects (each is
// its own placer type; the other dialects share one of these shapes with
// another key hash of similar cost), so that the lookup benchmarks stay
// within their share of `make bench`:
//   - libmemcached-ketama-weighted: libketama's continuum of 32-bit
//     points with MD5 keys (as twemproxy md5, spymemcached, npm hashring);
//   - libmemcached-modula: a server table indexed by a key hash modulo
//     its length (every modula, ARRAY_MOD, gomemcache, nginx hash,
//     HAProxy map-based);
//   - twemproxy-ketama-fnv1a-64: twemproxy's continuum, its default hash;
//   - python-memcached: crc32 buckets with the retry rehash;
//   - uhashring: 128-bit MD5 points, a binary search;
//   - nginx-hash-consistent: a continuum that walks to the next server;
//   - haproxy-consistent: HAProxy's tree, the nearer of two points;
//   - go-redis-ring: rendezvous over every shard, O(n).
//
// A test checks that every dialect's placer type is among them.
var LookupDialects = []string{
	libmemcached.KetamaWeightedName, libmemcached.ModulaName("default"), twemproxy.Name("ketama", "fnv1a_64"),
	pymemcache.Name, uhashring.MetaName, nginx.ConsistentName, haproxy.Name("consistent", "sdbm", false), goredis.Name,
}

// DialectNodeCounts are the fleet sizes of the dialects' lookup
// benchmarks; a dialect whose system takes fewer servers
// (catalog.DialectFacts.MaxNodes: libmemcached's continuum holds 100) is
// measured at its largest fleet instead.
var DialectNodeCounts = []int{10, 1000}

// dialectNodeCounts returns the fleet sizes BenchmarkLookup measures
// dialect name at: DialectNodeCounts, each capped at the system's
// MaxNodes.
func dialectNodeCounts(name string) []int {
	in, err := catalog.Describe(name)
	if err != nil || in.Dialect == nil {
		return nil
	}
	var out []int
	for _, n := range DialectNodeCounts {
		if m := in.Dialect.MaxNodes; m > 0 {
			n = min(n, m)
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// NewPlacerWithout builds algo on n default nodes like [NewPlacer], then
// lets removed of them leave one at a time through Rebalance, in an order
// drawn from a PCG generator seeded with (n, removed), so that stateful
// algorithms (anchor, memento) carry their removal state into the lookup.
// It fails tb, naming the algorithm, when removed is not in 0..n-1 or a
// removal fails.
func NewPlacerWithout(tb testing.TB, algo string, n, removed int) algorithms.Placer {
	tb.Helper()
	if removed < 0 || removed >= n {
		tb.Fatalf("%s on %d nodes: cannot remove %d nodes (need 0..%d)", algo, n, removed, n-1)
	}
	p := NewPlacer(tb, algo, n)
	r := rand.New(rand.NewPCG(uint64(n), uint64(removed)))
	for _, i := range r.Perm(n)[:removed] {
		next, err := algorithms.Leave(p, algorithms.NodeID(i))
		if err != nil {
			tb.Fatalf("%s on %d nodes: removing %s: %v", algo, n, algorithms.NodeID(i), err)
		}
		p = next
	}
	return p
}

// Pool returns the benchmark key pool, keyset.Keys(PoolSize, PoolSeed):
// the keys of a one-set analysis with seed PoolSeed. It fails tb on error.
func Pool(tb testing.TB) []string {
	tb.Helper()
	keys, err := keyset.Keys(PoolSize, PoolSeed)
	if err != nil {
		tb.Fatal(err)
	}
	return keys
}
