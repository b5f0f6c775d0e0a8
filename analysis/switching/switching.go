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
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/chbench/chbench/algorithms"
)

// Confidence is the level of the interval over key sets.
const Confidence = 0.95

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
	Nodes    []string // the fleet's node IDs, in the first placement's order; Flow indexes refer to it
	Keys     int64    // keys compared, over all sets
	Sets     int      // key sets
	Differ   int64    // keys routed to different nodes
	// Fraction is the mean over key sets of each set's fraction of keys
	// routed differently (0..1), and [Lo, Hi] its 95% Student-t interval
	// (mean ± t(0.975, S-1) s/sqrt(S), cut to [0, 1]). With one key set the
	// interval is undefined and Lo = Hi = Fraction.
	Fraction, Lo, Hi float64
	PerSet           []float64 // each set's fraction routed differently
	// Flows is the from -> to matrix without its zero cells, sorted by
	// From, then To.
	Flows []Flow
	// First holds the first mismatching keys, in key order (set 0 first),
	// at most the number asked for.
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

// batch is the number of keys routed per LocateKeys call.
const batch = 4096

// Compare routes every key of every set through from and to and returns
// the switching cost, keeping the first maxFirst mismatching keys
// (maxFirst >= 0). It returns an error when the two placements do not
// hold the same node IDs (naming one that differs), when there is no key
// set or a set is empty, or when a placement fails to route.
func Compare(from, to algorithms.Locator, sets [][]string, maxFirst int) (Result, error) {
	if maxFirst < 0 {
		return Result{}, fmt.Errorf("first mismatches %d: must be >= 0", maxFirst)
	}
	if len(sets) == 0 {
		return Result{}, fmt.Errorf("no key sets: a comparison needs at least one")
	}
	for i, s := range sets {
		if len(s) == 0 {
			return Result{}, fmt.Errorf("key set %d is empty", i)
		}
	}
	fn, tn := from.Nodes(), to.Nodes()
	res := Result{From: from.Algorithm(), To: to.Algorithm(), Sets: len(sets), Nodes: make([]string, len(fn))}
	index := make(map[string]int, len(fn))
	for i, n := range fn {
		res.Nodes[i] = n.ID
		index[n.ID] = i
	}
	// toIndex maps an owner index of `to` to the same node's index in Nodes.
	toIndex := make([]int, len(tn))
	for i, n := range tn {
		j, ok := index[n.ID]
		if !ok {
			return Result{}, fmt.Errorf("node %q is in %s's fleet but not in %s's: the two placements must hold the same nodes", n.ID, res.To, res.From)
		}
		toIndex[i] = j
	}
	if len(tn) != len(fn) {
		for _, n := range fn {
			if !slices.ContainsFunc(tn, func(m algorithms.Node) bool { return m.ID == n.ID }) {
				return Result{}, fmt.Errorf("node %q is in %s's fleet but not in %s's: the two placements must hold the same nodes", n.ID, res.From, res.To)
			}
		}
	}
	flows := map[[2]int]int64{}
	a, b := make([]int, batch), make([]int, batch)
	for _, set := range sets {
		var differ int64
		for start := 0; start < len(set); start += batch {
			keys := set[start:min(start+batch, len(set))]
			if err := from.LocateKeys(keys, a); err != nil {
				return Result{}, fmt.Errorf("%s: %w", res.From, err)
			}
			if err := to.LocateKeys(keys, b); err != nil {
				return Result{}, fmt.Errorf("%s: %w", res.To, err)
			}
			for i, k := range keys {
				f, t := a[i], toIndex[b[i]]
				flows[[2]int{f, t}]++
				if f != t {
					differ++
					if len(res.First) < maxFirst {
						res.First = append(res.First, Mismatch{Key: k, From: res.Nodes[f], To: res.Nodes[t]})
					}
				}
			}
		}
		res.Keys += int64(len(set))
		res.Differ += differ
		res.PerSet = append(res.PerSet, float64(differ)/float64(len(set)))
	}
	for ft, n := range flows {
		res.Flows = append(res.Flows, Flow{From: ft[0], To: ft[1], Keys: n})
	}
	slices.SortFunc(res.Flows, func(x, y Flow) int {
		if c := cmp.Compare(x.From, y.From); c != 0 {
			return c
		}
		return cmp.Compare(x.To, y.To)
	})
	res.Fraction, res.Lo, res.Hi = interval(res.PerSet)
	return res, nil
}

// interval returns the mean of fractions xs (each 0..1) and its
// Confidence Student-t interval, cut to [0, 1]; Lo = Hi = mean for one
// sample.
func interval(xs []float64) (mean, lo, hi float64) {
	mean = stat.Mean(xs, nil)
	if len(xs) == 1 {
		return mean, mean, mean
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(xs) - 1)}.Quantile(1 - (1-Confidence)/2)
	half := t * stat.StdDev(xs, nil) / math.Sqrt(float64(len(xs)))
	return mean, max(0, mean-half), min(1, mean+half)
}
