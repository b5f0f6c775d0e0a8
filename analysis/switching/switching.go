// Package switching measures what it costs to switch a fleet from one
// placement to another: two clients or proxies (dialects) on the same
// server list, two algorithms, or one of each. For the same keys it
// counts the keys the two placements route to different servers (the keys
// whose cache entries are lost by the switch), with a 95% interval over
// independent key sets, the from -> to matrix of where keys go, and the
// first keys that route differently.
//
// The placements are compared by node ID: both must hold the same set of
// IDs (each may list them in its own order). Keys are routed in batches
// through [algorithms.Locator], so placements outside the process fit.
// Memory is the flows between node pairs (at most one entry per pair that
// some key takes) and the first mismatches, not the keys.
package switching

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/analysis/interval"
	"github.com/chbench/chbench/keyset"
)

// Confidence is the level of the interval over key sets.
const Confidence = interval.Confidence

// Flow is one cell of the from -> to matrix: Keys keys routed to node
// From by the first placement and to node To by the second (indexes into
// Result.Nodes; From == To for keys that stay).
type Flow struct {
	From, To int
	Keys     int64
}

// Mismatch is one key the two placements route to different nodes.
type Mismatch struct {
	Key      string
	From, To string // node IDs
}

// Result is the switching cost between two placements of one fleet.
type Result struct {
	From, To string   // the placements' names (Algorithm())
	Nodes    []string // the fleet's node IDs, in the first placement's order (of Compare's from, of Pairs' ls[0]); Flow indexes refer to it
	Keys     int64    // keys compared, over all sets
	Sets     int      // key sets
	Differ   int64    // keys routed to different nodes
	// Fraction is the mean over key sets of each set's fraction of keys
	// routed differently (0..1), and [Lo, Hi] its 95% Student-t interval
	// (mean ± t(0.975, S-1) s/sqrt(S), cut to [0, 1]). With one key set the
	// interval cannot be computed: Lo and Hi are nil.
	Fraction float64
	Lo, Hi   *float64
	PerSet   []float64 // each set's fraction routed differently
	// Flows is the from -> to matrix without its zero cells, sorted by
	// From, then To (nil when Pairs was not asked for flows).
	Flows []Flow
	// First holds the first mismatching keys, in the order the keys were
	// streamed (set 0 first for generated keys and Compare), at most the
	// number asked for.
	First []Mismatch
}

// Matrix returns the from -> to matrix as a dense n x n table of key
// counts, n = len(Nodes): Matrix()[i][j] keys went from node i to node j.
func (r Result) Matrix() [][]int64 {
	m := make([][]int64, len(r.Nodes))
	for i := range m {
		m[i] = make([]int64, len(r.Nodes))
	}
	for _, f := range r.Flows {
		m[f.From][f.To] = f.Keys
	}
	return m
}

// Compare routes every key of every set through from and to and returns
// the switching cost, keeping the first maxFirst mismatching keys
// (maxFirst >= 0) and the from -> to matrix. It returns an error when the
// two placements do not hold the same node IDs (naming one that
// differs), when there is no key set or a set is empty, or when a
// placement fails to route.
func Compare(from, to algorithms.Locator, sets [][]string, maxFirst int) (Result, error) {
	if len(sets) == 0 {
		return Result{}, fmt.Errorf("no key sets: a comparison needs at least one")
	}
	for i, s := range sets {
		if len(s) == 0 {
			return Result{}, fmt.Errorf("key set %d is empty", i)
		}
	}
	rs, err := Pairs([]algorithms.Locator{from, to}, []Pair{{0, 1}}, sliceSource(sets), Options{MaxFirst: maxFirst, Flows: true})
	if err != nil {
		return Result{}, err
	}
	return rs[0], nil
}

// Pair is one switch to measure: from placement From to placement To,
// indexes into the placements given to [Pairs].
type Pair struct{ From, To int }

// Options are what [Pairs] keeps beside the fraction of keys routed
// differently.
type Options struct {
	// MaxFirst (>= 0) is how many of the first mismatching keys each
	// result keeps.
	MaxFirst int
	// Flows keeps each pair's from -> to matrix (Result.Flows): at most
	// one entry per pair of nodes some key takes, held densely (8 B per
	// cell) for fleets of up to DenseFlowNodes nodes, in a map above.
	// Without it Flows is nil.
	Flows bool
}

// DenseFlowNodes is the largest fleet whose from -> to matrix Pairs
// counts in a dense n x n table (512 KiB at 256 nodes); a larger one is
// counted in a map of the cells keys take.
const DenseFlowNodes = 256

// sliceSource is a keyset.Source of key sets held in memory.
type sliceSource [][]string

func (s sliceSource) Sets() int { return len(s) }

func (s sliceSource) Each(_ int, fn func(worker, set int, keys []string)) error {
	for i, set := range s {
		for start := 0; start < len(set); start += batch {
			fn(0, i, set[start:min(start+batch, len(set))])
		}
	}
	return nil
}

// batch is the number of keys of an in-memory set routed per LocateKeys
// call (keyset.ChunkKeys, a source's chunk).
const batch = keyset.ChunkKeys

// tally is one pair's counts while Pairs streams the keys.
type tally struct {
	pair   Pair
	differ []int64 // per set
	dense  []int64 // n x n from -> to counts, or nil
	sparse map[[2]int]int64
	first  []Mismatch
}

// Pairs measures the switching cost of every pair of placements ls[p.From]
// -> ls[p.To] on the same keys: every placement routes each chunk of keys
// once (Locator.LocateKeys), and each pair counts the keys its two
// placements route to different nodes, per key set of keys, with the
// first o.MaxFirst mismatches in the order the source yields them (for a
// generated source, set 0 first and key order within a set: keys are
// streamed by one worker so that this order is fixed) and, with o.Flows,
// the from -> to matrix. Every placement must hold the same node IDs as
// ls[0] (in any order); every result's Nodes is ls[0]'s order. Memory is
// the chunk's owners per placement and each pair's counts, not the keys.
// It returns an error naming a node one placement lacks, a bad pair
// index, a source without keys in some set, or a placement that fails to
// route.
func Pairs(ls []algorithms.Locator, pairs []Pair, keys keyset.Source, o Options) ([]Result, error) {
	if o.MaxFirst < 0 {
		return nil, fmt.Errorf("first mismatches %d: must be >= 0", o.MaxFirst)
	}
	if len(ls) == 0 || len(pairs) == 0 {
		return nil, fmt.Errorf("no placements or no pairs to compare")
	}
	if keys.Sets() < 1 {
		return nil, fmt.Errorf("no key sets: a comparison needs at least one")
	}
	ids, toFleet, err := fleetIndexes(ls)
	if err != nil {
		return nil, err
	}
	n := len(ids)
	ts := make([]*tally, len(pairs))
	for i, p := range pairs {
		if p.From < 0 || p.From >= len(ls) || p.To < 0 || p.To >= len(ls) {
			return nil, fmt.Errorf("pair %d: placements %d -> %d: want indexes 0..%d", i, p.From, p.To, len(ls)-1)
		}
		t := &tally{pair: p, differ: make([]int64, keys.Sets())}
		switch {
		case !o.Flows:
		case n <= DenseFlowNodes:
			t.dense = make([]int64, n*n)
		default:
			t.sparse = map[[2]int]int64{}
		}
		ts[i] = t
	}
	perSet := make([]int64, keys.Sets())
	owners := make([][]int, len(ls))
	var routeErr error
	err = keys.Each(1, func(_, set int, chunk []string) {
		if routeErr != nil {
			return
		}
		for p, l := range ls {
			if cap(owners[p]) < len(chunk) {
				owners[p] = make([]int, len(chunk))
			}
			owners[p] = owners[p][:len(chunk)]
			if err := l.LocateKeys(chunk, owners[p]); err != nil {
				routeErr = fmt.Errorf("%s: %w", l.Algorithm(), err)
				return
			}
			for i, o := range owners[p] {
				owners[p][i] = toFleet[p][o]
			}
		}
		perSet[set] += int64(len(chunk))
		for _, t := range ts {
			t.add(set, chunk, owners[t.pair.From], owners[t.pair.To], ids, n, o.MaxFirst)
		}
	})
	if routeErr != nil {
		return nil, routeErr
	}
	if err != nil {
		return nil, err
	}
	for s, k := range perSet {
		if k == 0 {
			return nil, fmt.Errorf("key set %d is empty", s)
		}
	}
	out := make([]Result, len(ts))
	for i, t := range ts {
		if out[i], err = t.result(ls, ids, perSet); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// add counts one chunk of set set, whose owners (fleet indexes) under the
// pair's two placements are a and b.
func (t *tally) add(set int, chunk []string, a, b []int, ids []string, n, maxFirst int) {
	var differ int64
	for i := range chunk {
		f, to := a[i], b[i]
		switch {
		case t.dense != nil:
			t.dense[f*n+to]++
		case t.sparse != nil:
			t.sparse[[2]int{f, to}]++
		}
		if f != to {
			differ++
			if len(t.first) < maxFirst {
				t.first = append(t.first, Mismatch{Key: strings.Clone(chunk[i]), From: ids[f], To: ids[to]})
			}
		}
	}
	t.differ[set] += differ
}

// result returns the pair's Result from its counts and the keys of each
// set (none empty); the error is interval.MeanCI's.
func (t *tally) result(ls []algorithms.Locator, ids []string, perSet []int64) (Result, error) {
	r := Result{From: ls[t.pair.From].Algorithm(), To: ls[t.pair.To].Algorithm(), Nodes: ids, Sets: len(perSet), First: t.first}
	for s, k := range perSet {
		r.Keys += k
		r.Differ += t.differ[s]
		r.PerSet = append(r.PerSet, float64(t.differ[s])/float64(k))
	}
	n := len(ids)
	for c, k := range t.dense {
		if k > 0 {
			r.Flows = append(r.Flows, Flow{From: c / n, To: c % n, Keys: k})
		}
	}
	for ft, k := range t.sparse {
		r.Flows = append(r.Flows, Flow{From: ft[0], To: ft[1], Keys: k})
	}
	slices.SortFunc(r.Flows, func(x, y Flow) int {
		if c := cmp.Compare(x.From, y.From); c != 0 {
			return c
		}
		return cmp.Compare(x.To, y.To)
	})
	e, err := interval.MeanCI(r.PerSet)
	if err != nil {
		return Result{}, fmt.Errorf("%s vs %s: fraction routed differently: %w", r.From, r.To, err)
	}
	e = e.Clip(0, 1)
	r.Fraction, r.Lo, r.Hi = e.Mean, e.Lo, e.Hi
	return r, nil
}

// fleetIndexes returns the node IDs of ls[0] and, for every placement,
// the map from its owner indexes to indexes into them; an error names a
// node that one placement holds and another does not.
func fleetIndexes(ls []algorithms.Locator) ([]string, [][]int, error) {
	first := ls[0].Nodes()
	ids := make([]string, len(first))
	index := make(map[string]int, len(first))
	for i, nd := range first {
		ids[i] = nd.ID
		index[nd.ID] = i
	}
	toFleet := make([][]int, len(ls))
	for p, l := range ls {
		nodes := l.Nodes()
		toFleet[p] = make([]int, len(nodes))
		for i, nd := range nodes {
			j, ok := index[nd.ID]
			if !ok {
				return nil, nil, fmt.Errorf("node %q is in %s's fleet but not in %s's: the placements must hold the same nodes", nd.ID, l.Algorithm(), ls[0].Algorithm())
			}
			toFleet[p][i] = j
		}
		if len(nodes) != len(first) {
			for _, nd := range first {
				if !slices.ContainsFunc(nodes, func(m algorithms.Node) bool { return m.ID == nd.ID }) {
					return nil, nil, fmt.Errorf("node %q is in %s's fleet but not in %s's: the placements must hold the same nodes", nd.ID, ls[0].Algorithm(), l.Algorithm())
				}
			}
		}
	}
	return ids, toFleet, nil
}
