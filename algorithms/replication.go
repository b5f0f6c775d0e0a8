package algorithms

import "slices"

// MaxReplicas is the largest replication factor R a [Replicator] serves:
// Replicas fills at most this many entries of dst.
const MaxReplicas = 8

// Replicator is implemented by placers with a standard scheme for placing
// R copies of a key on R distinct nodes (replication factor R).
//
// Replicas writes into dst[:0] the indexes into Nodes() of the replicas of
// a key whose HashKey is h, in preference order, and returns that slice:
// min(len(dst), len(Nodes()), MaxReplicas) distinct indexes, the first
// always LocateHash(h) (so R = 1 is the single owner). It must not
// allocate, and, like every lookup, must be safe for concurrent use.
type Replicator interface {
	Replicas(h uint64, dst []int) []int
}

// ReplicaSalt is the odd constant (2^64 / golden ratio) that separates the
// probes of [SaltedReplicas]: probe i of key hash h looks up
// Mix64(h + i*ReplicaSalt), truncated to the key hash's width.
const ReplicaSalt = 0x9E3779B97F4A7C15

// Replicas returns the replicas of key hash h on p (see [Replicator]):
// p's own scheme when p is a Replicator, else [SaltedReplicas] with the
// width hashBits (32 or 64) of p's key hashes.
func Replicas(p Placer, h uint64, hashBits int, dst []int) []int {
	if r, ok := p.(Replicator); ok {
		return r.Replicas(h, dst)
	}
	return SaltedReplicas(p, h, hashBits, dst)
}

// SaltedReplicas is the generic replica scheme, used by placers that place
// a key by a function of its hash alone (modulo, jump, the range hashes):
// replica 0 is LocateHash(h); further replicas rehash the key with a salt,
// probe i = 1, 2, ... looking up LocateHash(Mix64(h + i*ReplicaSalt))
// (the splitmix64 finalizer; truncated to 32 bits when hashBits is 32, so
// that a 32-bit placement sees values of its own range), skipping nodes
// already chosen. After 64 probes per replica without finding enough
// distinct nodes (only with very uneven shares), the remaining replicas are
// the next indexes after replica 0 in Nodes() order, wrapping, skipping
// nodes already chosen, so the result always holds min(len(dst),
// len(Nodes()), MaxReplicas) distinct indexes. It does not allocate.
func SaltedReplicas(p Placer, h uint64, hashBits int, dst []int) []int {
	n := len(p.Nodes())
	want := min(len(dst), n, MaxReplicas)
	out := dst[:0]
	if want == 0 {
		return out
	}
	out = append(out, p.LocateHash(h))
	mask := ^uint64(0)
	if hashBits == 32 {
		mask = 1<<32 - 1
	}
	for i := uint64(1); len(out) < want && i <= uint64(64*want); i++ {
		o := p.LocateHash(Mix64(h+i*ReplicaSalt) & mask)
		if !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	for j := 1; len(out) < want; j++ {
		if o := (out[0] + j) % n; !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}
