package domains

import (
	"fmt"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/topology"
)

// ViolationCount is one key set's count of replicas sharing a domain.
type ViolationCount struct {
	Keys        int64 // keys in the set
	KeysShared  int64 // keys with at least two replicas in one domain
	Pairs       int64 // replica pairs: Keys * R(R-1)/2
	PairsShared int64 // replica pairs in one domain
	// KeysOneDomain counts keys with all R replicas in one domain (R >= 2):
	// one domain failure takes every copy.
	KeysOneDomain int64
}

// Violations is [CountViolations]'s result: for replication factor R at
// one level of a topology, how often replicas share a domain. A
// placement that promises one replica per domain (algorithms/domainaware
// with R <= Domains, crush with its rule) must show 0; a plain placement
// shows what it risks.
type Violations struct {
	Algorithm string
	Level     string
	Domains   int // domains at Level
	R         int
	// KeysShared is the fraction of keys with two or more replicas in one
	// domain; PairsShared the fraction of replica pairs in one domain;
	// KeysOneDomain the fraction of keys with every replica in one domain.
	KeysShared, PairsShared, KeysOneDomain Estimate
	// Unavoidable is true when R exceeds Domains: some replicas must
	// share, whatever the placement.
	Unavoidable bool
	Sets        []ViolationCount
}

// CountViolations streams src through loc with R replicas per key and
// counts, per key set, the keys and replica pairs whose replicas share a
// domain at level of t (nodes matched by ID). It returns an error for R
// outside 1..min(MaxReplicas, nodes), an unknown level or node, a failing
// source or locator, or an empty key set. The counts do not depend on
// workers.
func CountViolations(src keyset.Source, loc algorithms.Locator, t *topology.Topology, level string, r, workers int) (Violations, error) {
	return CountViolationsPerSet(src, []Layout{{loc, t}}, level, r, workers)
}

// A Layout is what key sets run through: a placement and the topology
// that places its nodes (nodes matched by ID).
type Layout struct {
	Loc      algorithms.Locator
	Topology *topology.Topology
}

// CountViolationsPerSet is [CountViolations] with one layout for every
// key set or one per set (key set s through layouts[s]: its own random
// layout of the same fleet, node i of every layout in the same domains),
// so that the interval covers layouts as well as keys. Domains is that of
// layouts[0]. It returns CountViolations's errors and one for a number of
// layouts other than 1 or the sets, or layouts of different algorithms or
// node counts.
func CountViolationsPerSet(src keyset.Source, layouts []Layout, level string, r, workers int) (Violations, error) {
	if len(layouts) == 0 {
		return Violations{}, fmt.Errorf("no placement")
	}
	sets := src.Sets()
	locs := make([]algorithms.Locator, len(layouts))
	doms := make([][]int32, len(layouts))
	nd := 0
	for i, ly := range layouts {
		locs[i] = ly.Loc
		if err := checkR(r, len(ly.Loc.Nodes())); err != nil {
			return Violations{}, err
		}
		dom, n, err := domainIndex(ly.Topology, level, ly.Loc.Nodes())
		if err != nil {
			return Violations{}, err
		}
		doms[i] = dom
		if i == 0 {
			nd = n
		}
	}
	if err := checkLayouts(sets, locs); err != nil {
		return Violations{}, err
	}
	counts := perWorker(keyset.Workers(workers), sets, func() ViolationCount { return ViolationCount{} })
	err := replicate(src, locs, r, workers, func(w, set int, keys []string, reps []int) {
		c := &counts[w][set]
		dom := forSet(doms, set)
		c.Keys += int64(len(keys))
		for i := range keys {
			set := reps[i*r : (i+1)*r]
			shared := int64(0)
			for a := range set {
				for b := a + 1; b < len(set); b++ {
					if dom[set[a]] == dom[set[b]] {
						shared++
					}
				}
			}
			c.Pairs += int64(r * (r - 1) / 2)
			c.PairsShared += shared
			if shared > 0 {
				c.KeysShared++
			}
			if r >= 2 && shared == int64(r*(r-1)/2) {
				c.KeysOneDomain++
			}
		}
	})
	if err != nil {
		return Violations{}, err
	}
	v := Violations{Algorithm: locs[0].Algorithm(), Level: level, Domains: nd, R: r, Unavoidable: r > nd, Sets: make([]ViolationCount, sets)}
	ks, ps, one := make([]float64, sets), make([]float64, sets), make([]float64, sets)
	for s := range sets {
		for w := range counts {
			c := counts[w][s]
			v.Sets[s].Keys += c.Keys
			v.Sets[s].KeysShared += c.KeysShared
			v.Sets[s].Pairs += c.Pairs
			v.Sets[s].PairsShared += c.PairsShared
			v.Sets[s].KeysOneDomain += c.KeysOneDomain
		}
		c := v.Sets[s]
		if c.Keys == 0 {
			return Violations{}, fmt.Errorf("key set %d is empty", s)
		}
		ks[s] = float64(c.KeysShared) / float64(c.Keys)
		one[s] = float64(c.KeysOneDomain) / float64(c.Keys)
		if c.Pairs > 0 {
			ps[s] = float64(c.PairsShared) / float64(c.Pairs)
		}
	}
	v.KeysShared, v.PairsShared, v.KeysOneDomain = fraction(ks), fraction(ps), fraction(one)
	return v, nil
}

// RandomSetShared returns the probability that a uniformly random set of
// r distinct nodes, from domains of the given sizes (nodes per domain),
// has two nodes in one domain: 1 - (sum over r-sets of distinct domains of
// the product of their sizes) / C(n, r). It is what a placement that
// ignores domains and spreads replica sets uniformly (rendezvous at equal
// weights) shows as KeysShared. It returns an error for r < 1 or r > n.
func RandomSetShared(sizes []int, r int) (float64, error) {
	n := 0
	for _, s := range sizes {
		n += s
	}
	if r < 1 || r > n {
		return 0, fmt.Errorf("replicas %d: need 1 to %d (the nodes)", r, n)
	}
	// e[k] = elementary symmetric polynomial of degree k of the sizes: the
	// number of k-sets of nodes in k distinct domains.
	e := make([]float64, r+1)
	e[0] = 1
	for _, s := range sizes {
		for k := r; k >= 1; k-- {
			e[k] += e[k-1] * float64(s)
		}
	}
	total := 1.0
	for k := range r {
		total = total * float64(n-k) / float64(k+1)
	}
	return 1 - e[r]/total, nil
}
