// Package domains measures placements against failure domains (racks,
// zones): how often replicas share a domain ([CountViolations]), how
// evenly each replica rank loads the nodes ([CountRankLoad], with the
// exact law of successive sampling by weight, [SuccessiveSampling]), and
// what a change moves ([CountChange]: a node, a whole rack or a whole
// zone failing, a domain added), with the least any placement must move,
// the copies between surviving nodes, the keys left without a replica,
// and how many re-replication copies cross domains.
//
// Every measure takes placements through [algorithms.Locator] (in-process
// placers through [algorithms.AsLocator], domain-aware ones through
// algorithms/domainaware, CRUSH through its own rule) and streams key sets
// from a [keyset.Source] in chunks, counting per set; each fraction is the
// mean over the key sets with a 95% Student-t interval
// (gonum.org/v1/gonum/stat/distuv), and the per-set counts are kept for
// the results layer. Nothing here names a file or prints.
package domains

import (
	"fmt"
	"math"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/analysis/interval"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/topology"
)

// Confidence is the level of every interval: 95%.
const Confidence = interval.Confidence

// MaxReplicas is the largest replication factor the measures take.
const MaxReplicas = algorithms.MaxReplicas

// Estimate is a mean over key sets with its 95% Student-t interval [Lo,
// Hi], nil when it cannot be computed (one key set): [interval.Estimate].
type Estimate = interval.Estimate

// estimate returns the mean of xs (one value per key set, len >= 1) and
// its Student-t interval with len(xs)-1 degrees of freedom. Samples that
// give no mean (none, or one not finite: ratios of counts never are)
// give a NaN mean, which the results layer refuses naming the column.
func estimate(xs []float64) Estimate {
	e, err := interval.MeanCI(xs)
	if err != nil {
		return Estimate{Mean: math.NaN()}
	}
	return e
}

// nonNegative is estimate of a quantity that cannot be negative (a
// ratio of shares): the interval is cut at 0.
func nonNegative(xs []float64) Estimate { return estimate(xs).Clip(0, math.Inf(1)) }

// fraction is estimate of a fraction: the interval is cut to [0, 1].
func fraction(xs []float64) Estimate { return estimate(xs).Clip(0, 1) }

// checkR returns an error naming r unless 1 <= r <= min(MaxReplicas, n).
func checkR(r, n int) error { return algorithms.CheckReplicas(r, n) }

// perWorker allocates one value per worker and key set for a counter
// type, merged by the caller after Each.
func perWorker[C any](workers, sets int, init func() C) [][]C {
	out := make([][]C, workers)
	for w := range out {
		out[w] = make([]C, sets)
		for s := range out[w] {
			out[w][s] = init()
		}
	}
	return out
}

// replicate streams src through locs (one locator for every key set, or
// one per set: key set s through locs[s]), R replicas per key, calling fn
// with each chunk's keys and their replicas (reps[i*r:(i+1)*r] for key i)
// from up to workers goroutines; per-worker scratch grows to the largest
// chunk. The first error of the source or a locator is returned.
func replicate(src keyset.Source, locs []algorithms.Locator, r, workers int, fn func(w, set int, keys []string, reps []int)) error {
	workers = keyset.Workers(workers)
	scratch := make([][]int, workers)
	errs := make([]error, workers)
	err := src.Each(workers, func(w, set int, keys []string) {
		if errs[w] != nil {
			return
		}
		if need := r * len(keys); cap(scratch[w]) < need {
			scratch[w] = make([]int, need)
		}
		reps := scratch[w][:r*len(keys)]
		loc := forSet(locs, set)
		if err := loc.ReplicateKeys(keys, r, reps); err != nil {
			errs[w] = fmt.Errorf("%s: %w", loc.Algorithm(), err)
			return
		}
		fn(w, set, keys, reps)
	})
	if err != nil {
		return err
	}
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// forSet returns the element of per (one for every key set, or one per
// set) that serves key set s.
func forSet[T any](per []T, s int) T {
	if len(per) == 1 {
		return per[0]
	}
	return per[s]
}

// checkLayouts returns an error unless there is one layout for every key
// set or one per set, all of one algorithm with the same number of nodes.
func checkLayouts(sets int, locs []algorithms.Locator) error {
	if len(locs) != 1 && len(locs) != sets {
		return fmt.Errorf("%d placements for %d key sets: want 1 or one per set", len(locs), sets)
	}
	for s, l := range locs[1:] {
		if l.Algorithm() != locs[0].Algorithm() || len(l.Nodes()) != len(locs[0].Nodes()) {
			return fmt.Errorf("key set %d: placement %s of %d nodes differs from set 0's %s of %d", s+1, l.Algorithm(), len(l.Nodes()), locs[0].Algorithm(), len(locs[0].Nodes()))
		}
	}
	return nil
}

// domainIndex returns the domain index at level of each node of nodes,
// matched by ID in t, with the number of domains; an unknown level or
// node is an error.
func domainIndex(t *topology.Topology, level string, nodes []algorithms.Node) ([]int32, int, error) {
	l, err := t.Level(level)
	if err != nil {
		return nil, 0, err
	}
	dom, err := t.DomainsOf(l, nodes)
	if err != nil {
		return nil, 0, err
	}
	return dom, len(t.Domains(l)), nil
}
