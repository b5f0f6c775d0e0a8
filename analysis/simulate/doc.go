// Package simulate replays a trace (package trace) or a generated
// workload (package workload) through a simulated cache fleet: a client
// routes every request with a placement's algorithms.Locator to one of n
// caches, each holding at most its capacity in bytes with LRU eviction,
// in front of a database, while the membership changes at given times. It
// reports, per placement, a time series (hit ratio, database reads per
// second, per-node bytes and hit ratio per window) and the storm of each
// membership event (peak, extra database reads, refill time), and, on its
// own, the bytes each node must hold for a trace's objects ([SpreadBytes]).
//
// # The model
//
// The client is look-aside, as memcached clients in front of a database
// are: a read (get, gets) goes to its key's owner; a hit is served, a miss
// reads the database once and stores the value on the owner (unless
// Config.NoFill). Writes change only the cache, as memcached executes
// them: set stores; add stores if the key is absent; replace and cas
// store if it is present; append and prepend grow a present item by the
// request's value size; incr and decr touch a present item; delete
// removes it. An item costs its key size, value size and
// Config.ItemOverhead bytes; one larger than its node's whole capacity is
// not stored. A write's TTL expires the item TTL after the write;
// expired items are found and dropped when next touched (memcached's lazy
// expiry) and hold their bytes until then or until evicted. A read with
// value size 0 that misses fills with the mean value size seen so far.
// Counts (Meta's op_count) replay as that many requests at once.
//
// The clock is the trace's (Request.Time, from the first request), or
// record i at i/Config.Rate. A request earlier than the one before it is
// replayed at the earlier one's time. Windows lie on a grid of
// Config.Window from the first request and are cut at every event, so a
// row never mixes requests from before and after a change.
//
// Membership events (Config.Events, or a script for ParseEvents): a join
// adds an empty node; a leave removes a node and its cache; a failure
// loses the cache at once while clients keep routing to the dead node
// until it is detected (Event.Detect), every such read going to the
// database; a reweight changes a node's weight and, when its capacity
// comes from weights, its capacity. After each change the placement is
// Locator.Rebalance of the new membership, exactly as a client would
// rebuild it.
//
// # Eviction: written here, not hashicorp/golang-lru
//
// Each cache is an LRU list bounded by bytes (lru.go): an open-addressing
// table from a key's 64-bit hash to a flat array of entries threaded in
// recency order by index. hashicorp/golang-lru/v2 (simplelru) was tried
// first, driven by bytes (its entry bound set out of reach, the oldest
// entries evicted until the bytes fit): it is deterministic, but too slow
// here. Keyed by the same 64-bit hashes and replaying BenchmarkReplay's
// trace (2^21 requests, Zipf 0.99, 40 nodes evicting), it cost 495 CPU ns
// per request against this table's 305, measured back to back on this
// 2-core machine; keyed by the key strings it was slower still. Every
// item costs it an allocation (two with string keys), and its pointers
// make the garbage collector scan every cache of every replay. The flat
// table holds no pointers and no key bytes: an item is known by its key's
// salted xxHash64, so among D distinct keys about D^2/2^65 pairs are
// merged (2.7e-4 for D = 10^8).
// Its expirable variant would not fit either: it reads the wall clock,
// and the simulation's clock is the trace's.
//
// # Speed, memory, determinism
//
// [Run] reads the trace once and hands chunks of requests to one goroutine
// per placement; the replays run in parallel (Config.Workers) and each is
// sequential, so results are identical for any number of workers. Memory
// is what the caches hold (about 56 bytes per item: an entry and two
// table slots), the rows, and a few chunks; it does not grow with the
// trace's length.
package simulate
