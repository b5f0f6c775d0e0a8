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
	return CountChangePerSet(src, []ChangeLayout{{Before: before, After: after, Topology: t}}, r, workers, valueBytes)
}

// A ChangeLayout is what key sets run through for one change: the
// placements before and after it, and the topology that places the nodes
// of both.
type ChangeLayout struct {
	Before, After algorithms.Locator
	Topology      *topology.Topology
}

// changePlan is one layout's numbering of the nodes of both sides: before's
// nodes, then those only after has (toG maps after's indexes), which of
// them are present after, and each one's domain at every level.
type changePlan struct {
	nb           int
	toG          []int32
	present      []bool
	dom          [][]int32
	left, joined []string
	ideal        float64
}

func planChange(ly ChangeLayout) (changePlan, error) {
	bn, an := ly.Before.Nodes(), ly.After.Nodes()
	p := changePlan{nb: len(bn), toG: make([]int32, len(an)), ideal: idealShare(bn, an)}
	id := make(map[string]int32, len(bn)+len(an))
	for i, n := range bn {
		id[n.ID] = int32(i)
	}
	for i, n := range an {
		g, ok := id[n.ID]
		if !ok {
			g = int32(len(id))
			id[n.ID] = g
			p.joined = append(p.joined, n.ID)
		}
		p.toG[i] = g
	}
	all := make([]algorithms.Node, len(id))
	copy(all, bn)
	for i, n := range an {
		all[p.toG[i]] = n
	}
	p.present = make([]bool, len(all)) // present after
	for _, g := range p.toG {
		p.present[g] = true
	}
	for i, n := range bn {
		if !p.present[i] {
			p.left = append(p.left, n.ID)
		}
	}
	levels := ly.Topology.Levels()
	p.dom = make([][]int32, len(levels))
	for l := range levels {
		d, err := ly.Topology.DomainsOf(l, all)
		if err != nil {
			return changePlan{}, err
		}
		p.dom[l] = d
	}
	return p, nil
}

// CountChangePerSet is [CountChange] with one layout for every key set or
// one per set (key set s through layouts[s]: its own random layout of the
// same fleet and change), so that the intervals cover layouts as well as
// keys. Left, Joined and Levels are those of layouts[0]. It returns
// CountChange's errors and one for a number of layouts other than 1 or the
// sets, or layouts of different algorithms, node counts or levels.
func CountChangePerSet(src keyset.Source, layouts []ChangeLayout, r, workers int, valueBytes func(key string) int64) (Change, error) {
	if len(layouts) == 0 {
		return Change{}, fmt.Errorf("no placement")
	}
	sets := src.Sets()
	befores, afters := make([]algorithms.Locator, len(layouts)), make([]algorithms.Locator, len(layouts))
	plans := make([]changePlan, len(layouts))
	levels := layouts[0].Topology.Levels()
	for i, ly := range layouts {
		if err := checkR(r, min(len(ly.Before.Nodes()), len(ly.After.Nodes()))); err != nil {
			return Change{}, err
		}
		if len(ly.Topology.Levels()) != len(levels) {
			return Change{}, fmt.Errorf("key set %d: a topology of %d levels, set 0's has %d", i, len(ly.Topology.Levels()), len(levels))
		}
		p, err := planChange(ly)
		if err != nil {
			return Change{}, err
		}
		befores[i], afters[i], plans[i] = ly.Before, ly.After, p
	}
	if err := checkLayouts(sets, befores); err != nil {
		return Change{}, err
	}
	if err := checkLayouts(sets, afters); err != nil {
		return Change{}, err
	}
	workers = keyset.Workers(workers)
	counts := perWorker(workers, sets, func() ChangeCount { return ChangeCount{Cross: make([]int64, len(levels))} })
	scratch := make([][]int, workers)
	errs := make([]error, workers)
	err := replicate(src, befores, r, workers, func(w, set int, keys []string, rb []int) {
		if errs[w] != nil {
			return
		}
		if need := r * len(keys); cap(scratch[w]) < need {
			scratch[w] = make([]int, need)
		}
		ra := scratch[w][:r*len(keys)]
		after := forSet(afters, set)
		if err := after.ReplicateKeys(keys, r, ra); err != nil {
			errs[w] = fmt.Errorf("%s after the change: %w", after.Algorithm(), err)
			return
		}
		countChangeChunk(&counts[w][set], forSet(plans, set), r, keys, rb, ra, valueBytes)
	})
	if err != nil {
		return Change{}, err
	}
	for _, e := range errs {
		if e != nil {
			return Change{}, e
		}
	}
	p0 := plans[0]
	res := Change{Algorithm: befores[0].Algorithm(), R: r, Left: p0.left, Joined: p0.joined, Levels: levels, HasBytes: valueBytes != nil, Sets: make([]ChangeCount, sets)}
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
		by[s], id2[s] = float64(m.Bytes), forSet(plans, s).ideal
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

// countChangeChunk adds to c the changes of keys: rb holds each key's r
// replicas before the change, ra after (indexes of each side's nodes; ra
// is renumbered in place to p's numbering).
func countChangeChunk(c *ChangeCount, p changePlan, r int, keys []string, rb, ra []int, valueBytes func(string) int64) {
	c.Keys += int64(len(keys))
	for i, k := range keys {
		b, a := rb[i*r:(i+1)*r], ra[i*r:(i+1)*r]
		for j := range a {
			a[j] = int(p.toG[a[j]])
		}
		source := -1 // first replica before that survives
		for _, x := range b {
			if p.present[x] {
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
				for l := range p.dom {
					if p.dom[l][source] != p.dom[l][x] {
						c.Cross[l]++
					}
				}
			}
		}
		// Replicas leaving a node that stays, beyond those that a joining
		// node takes, moved between nodes present before and after.
		shed, toNew := int64(0), int64(0)
		for _, x := range b {
			if p.present[x] && !slices.Contains(a, x) {
				shed++
			}
		}
		for _, x := range a {
			if x >= p.nb {
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
