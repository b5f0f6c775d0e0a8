// Package analysis measures what a key placement does to keys: how many
// move when the membership changes (movement) and how evenly they spread
// over the nodes (spread), with means and 95% confidence intervals over
// independent key sets, beside the ideal a perfect algorithm would reach.
//
// Keys stream in chunks from a [keyset.Source] (a seeded [keyset.Generator] or a
// [keyset.File]); workers on every core count owners per chunk into per-worker
// integer counters, merged after the pass, so memory stays flat in the
// number of keys and results are byte-identical for any worker count. The
// analysis knows placers only through [algorithms.Placer]: owners are
// compared by node ID, and every membership change is the previous
// placement's Rebalance, so stateful algorithms move from their own state.
//
// Request load ([Load]) weighs keys by a Zipf popularity law ([Zipf]) or a
// request log, and [SweepBoundedLoads] measures the three forms of
// consistent hashing with bounded loads (partition, key, request level).
//
// Results ([MoveResult], [SpreadResult], [LoadResult], [BoundedResult])
// carry their configuration; they print as aligned tables here
// ([WriteMoveTable], [WriteSpreadTable], [WriteLoadTable],
// [WriteBoundedTable]) and become rows of the results schema ([MoveRows],
// [SpreadRows], [LoadRows], [BoundedRows]), which package schema writes as
// CSV, JSON and the Go benchmark format.
package analysis

import (
	"fmt"
	"runtime"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"

	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/schema"
)

// Options configures one analysis run.
type Options struct {
	Algo    string         // algorithm registry name (catalog.Names)
	Config  catalog.Config // hash, vnodes, eps, partitions, table size, probes, capacity
	Keys    int            // keys per generated set (>= 1); ignored with KeyFile
	Sets    int            // number of independent key sets S (>= 1)
	Seed    uint64         // seed of the key generator and of random scenario choices
	KeyFile string         // if set, keys are read from this file (see KeyFile) instead of generated
	KeyKind keyset.KeyKind // shape of generated keys (see keyset.KeyKind); "" = keyset.KindRandom
	Workers int            // goroutines; < 1 means runtime.GOMAXPROCS(0), at most MaxWorkers. Results do not depend on it.
	Commit  string         // the caller's source revision, copied into results
	// Placement is schema.PlacementPerSet (each key set on its own layout, for
	// algorithms whose layout is random) or schema.PlacementFixed (one layout,
	// the given node IDs, for every set); "" means schema.PlacementFixed.
	Placement string
	// Draws, if > 0, is the number of independent layouts (LayoutNodes(nodes,
	// r), r = 0..Draws-1) over which Spread summarises the exact
	// peak-to-mean and cv of an algorithm with a random layout and exact
	// shares (no keys involved): mean and 5th-95th percentiles.
	Draws int
	// MinMoves, if > 0, makes Movement use, for generated keys, at least
	// ceil(MinMoves / ideal fraction) keys per set (more than Keys when
	// needed), so that every key set expects at least MinMoves moved keys;
	// a scenario that would need more than MaxKeys keys per set is refused
	// with an error wrapping ErrTooFewMoves. Ignored with KeyFile.
	MinMoves int
	// MaxKeys bounds the keys per set MinMoves may ask for (> 0 when
	// MinMoves > 0).
	MaxKeys int
	// Progress, if not nil, is called with the number of keys just
	// processed (a delta, once per chunk of at most keyset.ChunkKeys keys), from
	// the worker goroutines at once: it must be safe for concurrent use
	// and cheap (an atomic add). It never changes results.
	Progress func(keys int64)
}

// Source returns the key source the options describe: keyset.NewFile(KeyFile,
// Sets) when KeyFile is set, else keyset.NewGenerator(Keys, Sets, Seed)
// generating keys of kind KeyKind (an unknown kind is an error).
func (o Options) Source() (keyset.Source, error) {
	if o.KeyFile != "" {
		return keyset.NewFile(o.KeyFile, o.Sets)
	}
	g, err := keyset.NewGenerator(o.Keys, o.Sets, o.Seed)
	if err != nil || o.KeyKind == "" {
		return g, err
	}
	return g.WithKind(o.KeyKind)
}

// RunConfig is the configuration a result was produced with, as the
// results schema records it.
type RunConfig = schema.Config

// MaxDraws bounds Options.Draws.
const MaxDraws = 100_000

// MaxWorkers bounds Options.Workers: every worker keeps its own counters
// (per key set, and for a spread per node), so an absurd count would
// exhaust memory rather than speed anything up. The counters of every
// run are also checked against the memory budget (Config.Budget()).
const MaxWorkers = 256

// checkConfig checks the algorithm, workers and config of o.
func (o Options) checkConfig() error {
	if _, err := catalog.Describe(o.Algo); err != nil {
		return err
	}
	if o.Workers > MaxWorkers {
		return fmt.Errorf("workers %d: at most %d", o.Workers, MaxWorkers)
	}
	if _, err := o.placementMode(); err != nil {
		return err
	}
	if o.Draws < 0 || o.Draws > MaxDraws {
		return fmt.Errorf("draws %d: give 0 to %d layouts", o.Draws, MaxDraws)
	}
	return o.Config.Validate()
}

// prepare validates o and returns its source and run configuration.
func (o Options) prepare() (keyset.Source, RunConfig, error) {
	if err := o.checkConfig(); err != nil {
		return nil, RunConfig{}, err
	}
	mode, _ := o.placementMode() // checked above
	src, err := o.Source()
	if err != nil {
		return nil, RunConfig{}, err
	}
	h, _ := algorithms.LookupHash(o.Config.Hash) // validated above
	rc := RunConfig{
		Algo: o.Algo, Hash: h.Name(), VNodes: o.Config.VNodes, Eps: o.Config.Eps,
		Partitions: o.Config.Partitions, TableSize: o.Config.TableSize, Probes: o.Config.Probes, Capacity: o.Config.Capacity,
		Sets: o.Sets, Seed: o.Seed, Placement: mode,
		GoVersion: runtime.Version(), Commit: o.Commit,
	}
	switch s := src.(type) {
	case *keyset.File:
		rc.Keys, rc.KeyFile = s.Keys(), s.Path()
	case *keyset.Generator:
		rc.Keys = s.Keys()
		if s.Kind() != keyset.KindRandom {
			rc.KeyKind = string(s.Kind())
		}
	default:
		return nil, RunConfig{}, fmt.Errorf("unexpected key source %T", src)
	}
	return withProgress(src, o.Progress), rc, nil
}
