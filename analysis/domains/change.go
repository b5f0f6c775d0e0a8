package domains

import (
	"fmt"
	"slices"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/topology"
)

// ChangeCount is one key set's count of what a membership change moves,
// replicas being (key, node) pairs, R per key.
type ChangeCount struct {
	Keys int64
	// Copies are the pairs of the placement after the change that were not
	// pairs before: the replicas that must be copied (re-replication).
	Copies int64
	// Collateral are the copies between nodes present before and after: per
	// key, the replicas that leave a node that stays, less those a joining
	// node takes (for a failure, every replica shed by a survivor; for an
	// addition, the copies that land on old nodes).
	Collateral int64
	// KeysMoved are the keys with at least one copy; KeysLost the keys all
	// of whose replicas were on nodes that left (no surviving copy to
	// replicate from: a restore, or for a cache a miss).
	KeysMoved, KeysLost int64
	// Cross[l] counts the copies whose source (the key's first surviving
	// replica, in the order before the change) is in another domain than
	// the destination at level l of the topology; copies of lost keys have
	// no source and are not counted.
	Cross []int64
	// Bytes is the sum of the value sizes of the copies, when sizes are
	// given.
	Bytes int64
}

// Change is [CountChange]'s result for one membership change (a node, a
// rack or a zone failing, a domain added), R replicas per key. Fractions
// are of the R*keys replicas, except KeysMoved and KeysLost (of keys) and
// Cross (of the copies with a source).
type Change struct {
	Algorithm string
	R         int
	Left      []string // IDs of the nodes present before and not after
	Joined    []string // IDs present after and not before
	// Copies: the replicas re-made; Ideal: the least any placement must
	// copy, the total-variation distance between the weight shares before
	// and after (sum over nodes of max(0, share after - share before),
	// shares w_i/W, 0 for an absent node): for one failed node its weight
	// share, for an added domain its share after. Collateral: copies
	// between nodes present before and after.
	Copies, Ideal, Collateral Estimate
	KeysMoved, KeysLost       Estimate
	// Levels are the topology's levels; Cross[l] the fraction of the
	// copies with a source that cross domains at level l.
	Levels []string
	Cross  []Estimate
	// Bytes is the mean of the copied value bytes per key set (set when
	// value sizes were given).
	Bytes    Estimate
	HasBytes bool
	Sets     []ChangeCount
}

// CountChange streams src through the placements before and after a
// change, R replicas per key, and counts per key set the replicas copied,
// those copied between surviving nodes, the keys moved and lost, the
// cross-domain copies at every level of t, and (valueBytes non-nil) the
// bytes copied. Nodes are matched by ID; t must place every node of
// before and after (its domains are the failure domains: pass the
// topology that holds both memberships, e.g. the one before a failure or
// after an addition). It returns an error for R outside 1..min(MaxReplicas,
// nodes of either), a node t does not place, a failing source or
// locator, or an empty key set.
func CountChange(src keyset.Source, before, after algorithms.Locator, t *topology.Topology, r, workers int, valueBytes func(key string) int64) (Change, error) {
	bn, an := before.Nodes(), after.Nodes()
	if err := checkR(r, min(len(bn), len(an))); err != nil {
		return Change{}, err
	}
	// Global numbering: before's nodes, then those only after has.
	id := make(map[string]int32, len(bn)+len(an))
	for i, n := range bn {
		id[n.ID] = int32(i)
	}
	toG := make([]int32, len(an))
	var joined []string
	for i, n := range an {
		g, ok := id[n.ID]
		if !ok {
			g = int32(len(id))
			id[n.ID] = g
			joined = append(joined, n.ID)
		}
		toG[i] = g
	}
	all := make([]algorithms.Node, len(id))
	copy(all, bn)
	for i, n := range an {
		all[toG[i]] = n
	}
	present := make([]bool, len(all)) // present after
	for _, g := range toG {
		present[g] = true
	}
	var left []string
	for i, n := range bn {
		if !present[i] {
			left = append(left, n.ID)
		}
	}
	levels := t.Levels()
	dom := make([][]int32, len(levels))
	for l := range levels {
		d, err := t.DomainsOf(l, all)
		if err != nil {
			return Change{}, err
		}
		dom[l] = d
	}
	sets := src.Sets()
	workers = keyset.Workers(workers)
	counts := perWorker(workers, sets, func() ChangeCount { return ChangeCount{Cross: make([]int64, len(levels))} })
	scratch := make([][]int, workers)
	errs := make([]error, workers)
	err := replicate(src, before, r, workers, func(w, set int, keys []string, rb []int) {
		if errs[w] != nil {
			return
		}
		if need := r * len(keys); cap(scratch[w]) < need {
			scratch[w] = make([]int, need)
		}
		ra := scratch[w][:r*len(keys)]
		if err := after.ReplicateKeys(keys, r, ra); err != nil {
			errs[w] = fmt.Errorf("%s after the change: %w", after.Algorithm(), err)
			return
		}
		c := &counts[w][set]
		c.Keys += int64(len(keys))
		for i, k := range keys {
			b, a := rb[i*r:(i+1)*r], ra[i*r:(i+1)*r]
			for j := range a {
				a[j] = int(toG[a[j]])
			}
			source := -1 // first replica before that survives
			for _, x := range b {
				if present[x] {
					source = x
					break
				}
			}
			copies := int64(0)
			for _, x := range a {
				if slices.Contains(b, x) {
					continue
				}
				copies++
				if source >= 0 {
					for l := range levels {
						if dom[l][source] != dom[l][x] {
							c.Cross[l]++
						}
					}
				}
			}
			// Replicas leaving a node that stays, beyond those that a joining
			// node takes, moved between nodes present before and after.
			shed, toNew := int64(0), int64(0)
			for _, x := range b {
				if present[x] && !slices.Contains(a, x) {
					shed++
				}
			}
			for _, x := range a {
				if x >= len(bn) {
					toNew++
				}
			}
			c.Collateral += max(0, shed-toNew)
			c.Copies += copies
			if copies > 0 {
				c.KeysMoved++
				if valueBytes != nil {
					c.Bytes += copies * valueBytes(k)
				}
			}
			if source < 0 {
				c.KeysLost++
			}
		}
	})
	if err != nil {
		return Change{}, err
	}
	for _, e := range errs {
		if e != nil {
			return Change{}, e
		}
	}
	res := Change{Algorithm: before.Algorithm(), R: r, Left: left, Joined: joined, Levels: levels, HasBytes: valueBytes != nil, Sets: make([]ChangeCount, sets)}
	ideal := idealShare(bn, an)
	cp, col, km, kl, by, id2 := make([]float64, sets), make([]float64, sets), make([]float64, sets), make([]float64, sets), make([]float64, sets), make([]float64, sets)
	cross := make([][]float64, len(levels))
	for l := range cross {
		cross[l] = make([]float64, sets)
	}
	for s := range sets {
		m := ChangeCount{Cross: make([]int64, len(levels))}
		for w := range counts {
			c := counts[w][s]
			m.Keys += c.Keys
			m.Copies += c.Copies
			m.Collateral += c.Collateral
			m.KeysMoved += c.KeysMoved
			m.KeysLost += c.KeysLost
			m.Bytes += c.Bytes
			for l := range levels {
				m.Cross[l] += c.Cross[l]
			}
		}
		if m.Keys == 0 {
			return Change{}, fmt.Errorf("key set %d is empty", s)
		}
		res.Sets[s] = m
		pairs := float64(m.Keys) * float64(r)
		cp[s], col[s] = float64(m.Copies)/pairs, float64(m.Collateral)/pairs
		km[s], kl[s] = float64(m.KeysMoved)/float64(m.Keys), float64(m.KeysLost)/float64(m.Keys)
		by[s], id2[s] = float64(m.Bytes), ideal
		withSource := m.Copies - lostCopies(m, r)
		for l := range levels {
			if withSource > 0 {
				cross[l][s] = float64(m.Cross[l]) / float64(withSource)
			}
		}
	}
	res.Copies, res.Collateral, res.Ideal = fraction(cp), fraction(col), fraction(id2)
	res.KeysMoved, res.KeysLost = fraction(km), fraction(kl)
	res.Bytes = estimate(by)
	res.Cross = make([]Estimate, len(levels))
	for l := range levels {
		res.Cross[l] = fraction(cross[l])
	}
	return res, nil
}

// lostCopies is the number of copies made for lost keys: all R replicas
// of each (none of its nodes survived, so none is kept).
func lostCopies(m ChangeCount, r int) int64 { return m.KeysLost * int64(r) }

// idealShare is the total-variation distance between the weight shares
// of two memberships (matched by ID; an absent node has share 0): the
// least fraction of replicas any placement that follows the weights must
// move (REFERENCES: weight change).
func idealShare(before, after []algorithms.Node) float64 {
	wb, wa := algorithms.TotalWeight(before), algorithms.TotalWeight(after)
	sb := make(map[string]float64, len(before))
	for _, n := range before {
		sb[n.ID] = n.Weight / wb
	}
	d := 0.0
	for _, n := range after {
		d += max(0, n.Weight/wa-sb[n.ID])
	}
	return d
}
