package algorithms

import "slices"

// DomainReplicator is implemented by placers with a domain-aware replica
// scheme: replicas in distinct failure domains (racks, zones) as the
// field's systems place them (the ring's walk that skips racks already
// used, rendezvous's top R over distinct domains, slot tables preferring
// other domains).
//
// DomainReplicas writes into dst[:0] the replicas of a key whose HashKey
// is h and returns that slice, as [Replicator] does: R = min(len(dst),
// len(Nodes()), MaxReplicas) distinct node indexes, the first always
// LocateHash(h). domain[i] is the failure domain (any int32 label) of
// node i of Nodes(); len(domain) must be len(Nodes()). While a domain
// without a replica remains, no two replicas share a domain; only when R
// exceeds the number of domains do the remaining replicas reuse domains,
// in the order the scheme meets them. It must not allocate.
type DomainReplicator interface {
	DomainReplicas(h uint64, domain []int32, dst []int) []int
}

// DomainReplicas returns the domain-aware replicas of key hash h on p
// (see [DomainReplicator]): p's own scheme when it has one, else
// [SaltedDomainReplicas] with the width hashBits (32 or 64) of p's key
// hashes.
func DomainReplicas(p Placer, h uint64, hashBits int, domain []int32, dst []int) []int {
	if d, ok := p.(DomainReplicator); ok {
		return d.DomainReplicas(h, domain, dst)
	}
	return SaltedDomainReplicas(p, h, hashBits, domain, dst)
}

// SaltedDomainReplicas is [SaltedReplicas] with failure domains, for
// placers that place a key by a function of its hash alone (modulo, jump,
// the range hashes): replica 0 is LocateHash(h); probe i = 1, 2, ...
// looks up LocateHash(Mix64(h + i*ReplicaSalt)) (truncated to 32 bits
// when hashBits is 32) and takes the node unless it or its domain is
// already chosen, for up to 64 probes per replica. Then, while domains
// without a replica remain, the next node in Nodes() order after
// replica 0 (wrapping) in such a domain; then any node not chosen yet. It
// does not allocate.
func SaltedDomainReplicas(p Placer, h uint64, hashBits int, domain []int32, dst []int) []int {
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
		if o := p.LocateHash(Mix64(h+i*ReplicaSalt) & mask); !slices.Contains(out, o) && !DomainUsed(out, domain, domain[o]) {
			out = append(out, o)
		}
	}
	return FillDomains(out, want, n, domain)
}

// DomainUsed reports whether a node of domain d is among chosen (indexes
// into domain).
func DomainUsed(chosen []int, domain []int32, d int32) bool {
	for _, c := range chosen {
		if domain[c] == d {
			return true
		}
	}
	return false
}

// FillDomains completes a replica list that a scheme left short (out
// holds at least replica 0): first the nodes after out[0] in index order
// (wrapping) whose domain has no replica yet, then the nodes not chosen
// yet, until out holds want of the n nodes. It does not allocate when out
// has capacity want.
func FillDomains(out []int, want, n int, domain []int32) []int {
	for j := 1; len(out) < want && j < n; j++ {
		if o := (out[0] + j) % n; !slices.Contains(out, o) && !DomainUsed(out, domain, domain[o]) {
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
