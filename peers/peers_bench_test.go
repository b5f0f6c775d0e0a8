package peers

import (
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/cespare/xxhash/v2"
	gojump "github.com/dgryski/go-jump"
	gorendezvous "github.com/dgryski/go-rendezvous"
	"github.com/golang/groupcache/consistenthash"
	"github.com/serialx/hashring"
	"github.com/stathat/consistent"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/bench"
)

// Sinks keep the lookups' results reachable so the compiler cannot drop
// the work.
var (
	sinkID   string
	sinkHash uint64
)

const poolMask = bench.PoolSize - 1

func nodeIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = algorithms.NodeID(i)
	}
	return ids
}

// newGroupcache is groupcache's ring with VNodes replicas per node and the
// low 32 bits of xxhash (its hash is 32-bit).
func newGroupcache(ids []string) *consistenthash.Map {
	m := consistenthash.New(VNodes, func(b []byte) uint32 { return uint32(xxhash.Sum64(b)) })
	m.Add(ids...)
	return m
}

// stathatRings caches stathat rings by node count: its Set re-sorts the
// whole ring after each node, O(n^2 V log(nV)), 10 s for 1000 nodes, which
// -count would otherwise pay again for every sample.
var stathatRings sync.Map // int -> *consistent.Consistent

// newStathat is stathat's ring with VNodes replicas per node; its hash is
// fixed (CRC-32 IEEE). ids must be nodeIDs(len(ids)).
func newStathat(ids []string) *consistent.Consistent {
	if c, ok := stathatRings.Load(len(ids)); ok {
		return c.(*consistent.Consistent)
	}
	c := consistent.New()
	c.NumberOfReplicas = VNodes
	c.Set(ids)
	stathatRings.Store(len(ids), c)
	return c
}

// xxKey is a 64-bit ring position for serialx/hashring.
type xxKey uint64

func (k xxKey) Less(o hashring.HashKey) bool { return k < o.(xxKey) }

// newSerialx is serialx's ring: a node of weight w gets w points, so
// weight VNodes gives VNodes virtual nodes; positions are xxhash.
func newSerialx(ids []string) *hashring.HashRing {
	w := make(map[string]int, len(ids))
	for _, id := range ids {
		w[id] = VNodes
	}
	return hashring.NewWithHashAndWeights(w, func(b []byte) hashring.HashKey { return xxKey(xxhash.Sum64(b)) })
}

// newGoRendezvous is dgryski's HRW with xxhash for keys and node IDs.
func newGoRendezvous(ids []string) *gorendezvous.Rendezvous {
	return gorendezvous.New(ids, xxhash.Sum64String)
}

// BenchmarkPeerLookup compares chbench's lookups (Placer.Locate) with the
// Go libraries people use, in one run, on the same key pool and node IDs,
// end to end from a key string to the owner's ID. See the package doc for
// the names.
func BenchmarkPeerLookup(b *testing.B) {
	keys := bench.Pool(b)
	nodeRun := func(b *testing.B, f func(b *testing.B, n int)) {
		for _, n := range NodeCounts {
			b.Run("nodes="+strconv.Itoa(n), func(b *testing.B) {
				b.ReportAllocs()
				f(b, n)
			})
		}
	}
	// cellRun runs f for each cell BenchCells lists for impl and algo, as
	// nodes=N or nodes=N/removed=R, on the placement that cell names.
	cellRun := func(b *testing.B, impl, algo string, f func(b *testing.B, p algorithms.Placer)) {
		for _, c := range BenchCells(impl, algo) {
			name := "nodes=" + strconv.Itoa(c.Nodes)
			if c.Removed > 0 {
				name += "/removed=" + strconv.Itoa(c.Removed)
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				f(b, bench.NewPlacerWithout(b, algo, c.Nodes, c.Removed))
			})
		}
	}
	// The key hash alone: the placer's own HashKey. Only algorithms in the
	// catalog are measured; targets naming others are reported as not
	// measured by Check.
	b.Run("impl=hash", func(b *testing.B) {
		for _, algo := range catalog.Names() {
			b.Run("algo="+algo, func(b *testing.B) {
				cellRun(b, "hash", algo, func(b *testing.B, p algorithms.Placer) {
					var h uint64
					i := 0
					for b.Loop() {
						h = p.HashKey(keys[i&poolMask])
						i++
					}
					sinkHash = h
				})
			})
		}
	})
	b.Run("impl=chbench", func(b *testing.B) {
		for _, algo := range catalog.Names() {
			b.Run("algo="+algo, func(b *testing.B) {
				cellRun(b, "chbench", algo, func(b *testing.B, p algorithms.Placer) {
					var id string
					i := 0
					for b.Loop() {
						id = p.Locate(keys[i&poolMask])
						i++
					}
					sinkID = id
				})
			})
		}
	})
	b.Run("impl=groupcache/algo=ring", func(b *testing.B) {
		nodeRun(b, func(b *testing.B, n int) {
			m := newGroupcache(nodeIDs(n))
			var id string
			i := 0
			for b.Loop() {
				id = m.Get(keys[i&poolMask])
				i++
			}
			sinkID = id
		})
	})
	b.Run("impl=stathat/algo=ring", func(b *testing.B) {
		nodeRun(b, func(b *testing.B, n int) {
			c := newStathat(nodeIDs(n))
			var id string
			i := 0
			for b.Loop() {
				id, _ = c.Get(keys[i&poolMask])
				i++
			}
			sinkID = id
		})
	})
	b.Run("impl=serialx/algo=ring", func(b *testing.B) {
		nodeRun(b, func(b *testing.B, n int) {
			r := newSerialx(nodeIDs(n))
			var id string
			i := 0
			for b.Loop() {
				id, _ = r.GetNode(keys[i&poolMask])
				i++
			}
			sinkID = id
		})
	})
	b.Run("impl=go-rendezvous/algo=rendezvous", func(b *testing.B) {
		nodeRun(b, func(b *testing.B, n int) {
			r := newGoRendezvous(nodeIDs(n))
			var id string
			i := 0
			for b.Loop() {
				id = r.Lookup(keys[i&poolMask])
				i++
			}
			sinkID = id
		})
	})
	b.Run("impl=go-jump/algo=jump", func(b *testing.B) {
		nodeRun(b, func(b *testing.B, n int) {
			ids := nodeIDs(n)
			var id string
			i := 0
			for b.Loop() {
				id = ids[gojump.Hash(xxhash.Sum64String(keys[i&poolMask]), n)]
				i++
			}
			sinkID = id
		})
	})
}

// TestPeersAgree checks that every peer is set up as the benchmark says:
// go-jump over xxhash places every key exactly as chbench's jump does, and
// every peer answers with a member ID. (1000 nodes are left out: building
// stathat's ring takes 10 s.)
func TestPeersAgree(t *testing.T) {
	keys := bench.Pool(t)[:4096]
	for _, n := range []int{10, 100} {
		t.Run(fmt.Sprintf("nodes=%d", n), func(t *testing.T) {
			ids := nodeIDs(n)
			member := make(map[string]bool, n)
			for _, id := range ids {
				member[id] = true
			}
			j := bench.NewPlacer(t, "jump", n)
			gc, st, sx, rv := newGroupcache(ids), newStathat(ids), newSerialx(ids), newGoRendezvous(ids)
			for _, k := range keys {
				if want, got := j.Locate(k), ids[gojump.Hash(xxhash.Sum64String(k), n)]; got != want {
					t.Fatalf("key %q: go-jump over xxhash gives %q, chbench jump %q", k, got, want)
				}
				sid, err := st.Get(k)
				if err != nil {
					t.Fatalf("stathat Get(%q): %v", k, err)
				}
				xid, ok := sx.GetNode(k)
				if !ok {
					t.Fatalf("serialx GetNode(%q): no node", k)
				}
				for impl, id := range map[string]string{"groupcache": gc.Get(k), "stathat": sid, "serialx": xid, "go-rendezvous": rv.Lookup(k)} {
					if !member[id] {
						t.Fatalf("%s places key %q on %q, not a member", impl, k, id)
					}
				}
			}
		})
	}
}
