// Package peers compares chbench's lookups with the Go libraries in common
// use, and checks chbench's lookup-speed targets against the results. It is
// a nested module (github.com/chbench/chbench/peers) so that the peers'
// dependencies stay out of the root module.
//
// BenchmarkPeerLookup runs every implementation in one run, on the same
// key pool as ../bench (bench.Pool: keyset.Keys(bench.PoolSize, bench.PoolSeed)), the
// same node IDs ("node-0" ...), nodes in [NodeCounts] and [VNodes] virtual
// nodes per node, end to end from a key string to the owner's ID. Names are
// BenchmarkPeerLookup/impl=I/algo=A/nodes=N, and
// BenchmarkPeerLookup/impl=I/algo=A/nodes=N/removed=R for a placement of N
// nodes after R of them left:
//
//   - impl=chbench: bench.NewPlacer(A, N), the placement the analyses
//     measure at N nodes (bench.Config: bounded with 1,024 partitions a
//     node), Placer.Locate, for every algorithm in the catalog, at the cells
//     [BenchCells] lists: NodeCounts, plus what a target compares (the
//     range hashes up to 10,000 nodes, anchor and memento with 10% of
//     their nodes removed).
//   - impl=hash: the same placer's HashKey alone (xxhash; CRC-16 for
//     slots): the floor under the lookup, at the cells BenchCells lists.
//   - impl=groupcache, algo=ring: github.com/golang/groupcache/consistenthash
//     with the low 32 bits of xxhash (its hash type is 32-bit).
//   - impl=stathat, algo=ring: github.com/stathat/consistent (CRC-32; it
//     offers no choice of hash) with NumberOfReplicas = VNodes.
//   - impl=serialx, algo=ring: github.com/serialx/hashring with xxhash
//     positions and weight VNodes (its weight is the point count).
//   - impl=go-rendezvous, algo=rendezvous: github.com/dgryski/go-rendezvous
//     with xxhash.
//   - impl=go-jump, algo=jump: github.com/dgryski/go-jump's
//     Hash(xxhash(key), n), then the ID of that bucket.
//
// The targets command (cmd/targets) reads the output and checks
// [DefaultTargets].
package peers

// VNodes is the number of virtual nodes per node in every ring compared,
// chbench's default.
const VNodes = 160

// NodeCounts are the membership sizes compared.
var NodeCounts = []int{10, 100, 1000}

// RangeNodeCounts are the membership sizes of the range hashes' targets
// (jumpback, fliphash, powerch, binomial): their cost must not grow with n,
// so they are measured up to 10,000 nodes, chbench and the key hash only.
var RangeNodeCounts = []int{10, 100, 1000, 10000}
