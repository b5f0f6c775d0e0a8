// Package analysis holds chbench's measures of what a key placement does
// to keys: how many move when the membership changes ([Movement], and the
// miss storm of a cache fleet, [Storm]), how evenly they spread over the
// nodes ([Spread]), the request load under Zipf popularity ([Load]), the
// three forms of consistent hashing with bounded loads
// ([SweepBoundedLoads]) and R replicas per key ([Replication]), with means
// and 95% confidence intervals over independent key sets, beside the ideal
// a perfect algorithm would reach. Each returns the rows of package
// schema, which writes them; [WriteMoveTable] and its siblings print the
// rows as aligned tables for terminals.
//
// Keys stream in chunks from the run's one [keyset.Source] (a seeded
// [keyset.Generator] or a [keyset.File], built by the caller, Options.Keys);
// workers on every core count owners per chunk into per-worker integer
// counters, merged after the pass, so memory stays flat in the number of
// keys and results are byte-identical for any worker count. The measures
// consume placements through [algorithms.Locator] (a batch of keys in,
// owner indexes out), built by the catalog for the run's configuration,
// so a placement outside chbench's process can enter every measure;
// owners are compared by node ID, and every membership change is the
// previous placement's Rebalance, so stateful algorithms move from their
// own state. Only what needs a placement's internals (exact shares, the
// partitions and bounds of bounded loads) asks for the Placer behind it.
//
// A membership is validated once where it enters ([Scenario] walks
// validate the initial nodes and each step's joins, [Spread], [Load] and
// [SweepBoundedLoads] their node list); the statistics inside (the balance
// of shares, noise and hot-key floors) trust it.
package analysis

import (
	"fmt"
	"runtime"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis/simulate"

	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/memory"
	"github.com/chbench/chbench/schema"
	"github.com/chbench/chbench/topology"
	"github.com/chbench/chbench/trace"
)

// Options configures one analysis run.
type Options struct {
	Algo   string         // algorithm registry name (catalog.Names)
	Config catalog.Config // hash, vnodes, eps, partitions, table size, probes, capacity
	// Keys is the run's key source, built once where the keys enter (a
	// flag) and passed down: a *keyset.Generator of generated keys, or a
	// [FileSource] (a *keyset.File of a key file, a trace's keys). Its
	// sets are the run's key sets; every mean and interval is over them.
	Keys keyset.Source
	// Seed is the seed of the scenarios' random choices (which node
	// leaves, churn's joins and leaves), recorded as the run's seed; a
	// generated key source has its own (the commands use the same).
	Seed    uint64
	Workers int    // goroutines; < 1 means runtime.GOMAXPROCS(0), at most MaxWorkers. Results do not depend on it.
	Commit  string // the caller's source revision, copied into results
	// Placement is schema.PlacementPerSet (each key set on its own layout,
	// for algorithms whose layout is random) or schema.PlacementFixed (one
	// layout, the given node IDs, for every set); "" means fixed.
	Placement string
	// Draws, if > 0, is the number of independent layouts (LayoutNodes(nodes,
	// r), r = 0..Draws-1) over which Spread summarises the exact
	// peak-to-mean and cv of an algorithm with a random layout and exact
	// shares (no keys involved): mean and 5th-95th percentiles.
	Draws int
	// MinMoves, if > 0, makes Movement use, for generated keys, at least
	// ceil(MinMoves / ideal fraction) keys per set (more than the source's
	// when needed), so that every key set expects at least MinMoves moved
	// keys; a scenario that would need more than MaxKeys keys per set is
	// refused with an error wrapping ErrTooFewMoves. Ignored for a key
	// file.
	MinMoves int
	// MaxKeys bounds the keys per set MinMoves may ask for (> 0 when
	// MinMoves > 0).
	MaxKeys int
	// Memory is the run's memory budget (package memory), through which
	// every allocation whose size the inputs control is reserved before
	// it is made; nil means a budget of Config.Budget() for this call.
	// Its limit should be Config.Budget(), which the placements' cost
	// estimates are checked against.
	Memory *memory.Budget
	// Domains, if not zero, places the run's nodes in failure domains
	// (a topology file or counts of racks and zones, and the
	// failure-domain level): replication spreads every algorithm's
	// replicas over its domains (catalog.NewInTopology), and measures of
	// owners (movement, spread) build an algorithm whose map is the
	// hierarchy (crush, catalog Info.TopologyMap) from it. Results record
	// it in Config.Topology and Config.Domain where it changed them.
	Domains topology.Spec
	// ItemOverhead is the bytes every object costs beyond its key and
	// value in the bytes a [RequestSource]'s spread reports (a cache's
	// item header: memcached's is about 56), >= 0.
	ItemOverhead int64
	// Opened holds placements the caller opened itself (catalog.Open),
	// by the name Algo and Sweep.Algos give them: programs speaking the
	// external protocol, named by their handshake. Such a name is built
	// with its Builder (from nothing for a scenario's first membership,
	// by Rebalance after), takes its facts from catalog.InfoOf, and runs
	// once per sweep whatever the hashes and vnodes (the program reads
	// neither); every other name is the catalog's. The measures close the
	// Locators they build (an external membership is dropped in the
	// program); the caller closes the Builders. A nil map opens nothing.
	Opened map[string]catalog.Builder
	// Progress, if not nil, is called with the number of keys just
	// processed (a delta, once per chunk of at most keyset.ChunkKeys keys), from
	// the worker goroutines at once: it must be safe for concurrent use
	// and cheap (an atomic add). It never changes results.
	Progress func(keys int64)
}

// memory returns the run's budget: o.Memory, or one of Config.Budget().
func (o Options) memory() *memory.Budget {
	if o.Memory != nil {
		return o.Memory
	}
	return memory.New(o.Config.Budget())
}

// A FileSource is a key source read from a file: a *keyset.File, or the
// keys of a trace (trace.KeySource behind the command line's -trace).
// Keys is how many keys it streams over all its sets (each set holds
// floor or ceil of Keys/Sets), Path the file results record as key_file.
type FileSource interface {
	keyset.Source
	Keys() int
	Path() string
}

// A RequestSource is a FileSource whose keys come from requests that
// carry sizes (a trace): [Spread] also reports the bytes each node must
// hold for the objects it owns ([simulate.SpreadBytes] over Requests,
// which opens the requests anew on every call).
type RequestSource interface {
	FileSource
	Requests() (trace.Reader, error)
}

var _ FileSource = (*keyset.File)(nil)

// generated returns the options' key generator, or nil for a key file.
func (o Options) generated() *keyset.Generator {
	g, _ := o.Keys.(*keyset.Generator)
	return g
}

// sets returns the number of key sets of the options' source.
func (o Options) sets() int { return o.Keys.Sets() }

// MaxDraws bounds Options.Draws.
const MaxDraws = 100_000

// MaxWorkers bounds Options.Workers: every worker keeps its own counters
// (per key set, and for a spread per node), so an absurd count would
// exhaust memory rather than speed anything up. The counters of every
// run are also checked against the memory budget (Config.Budget()).
const MaxWorkers = 256

// checkConfig checks the algorithm, key source, workers and config of o.
func (o Options) checkConfig() error {
	if _, err := o.info(); err != nil {
		return err
	}
	switch o.Keys.(type) {
	case *keyset.Generator, FileSource:
	default:
		return fmt.Errorf("key source %T: want a *keyset.Generator or a FileSource (a key file, a trace's keys)", o.Keys)
	}
	if err := simulate.CheckItemOverhead(o.ItemOverhead); err != nil {
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

// runConfig returns the run configuration of o as results record it:
// the key source's keys (per set for generated keys, all of the file's
// for a key file), sets, file and kind (empty for the default random
// keys).
func (o Options) runConfig() schema.Config {
	mode, _ := o.placementMode() // checked by checkConfig
	h, _ := algorithms.LookupHash(o.Config.Hash)
	rc := schema.Config{
		Algo: o.Algo, Hash: h.Name(), VNodes: o.Config.VNodes, Eps: o.Config.Eps,
		Partitions: o.Config.Partitions, TableSize: o.Config.TableSize, Probes: o.Config.Probes, Capacity: o.Config.Capacity,
		Sets: o.sets(), Seed: o.Seed, Placement: mode,
		GoVersion: runtime.Version(), Commit: o.Commit,
	}
	switch s := o.Keys.(type) {
	case FileSource:
		rc.Keys, rc.KeyFile = s.Keys(), s.Path()
	case *keyset.Generator:
		rc.Keys = s.Keys()
		if s.Kind() != keyset.KindRandom {
			rc.KeyKind = string(s.Kind())
		}
	}
	return rc
}

// prepare validates o and returns its source (reporting progress) and run
// configuration.
func (o Options) prepare() (keyset.Source, schema.Config, error) {
	if err := o.checkConfig(); err != nil {
		return nil, schema.Config{}, err
	}
	return withProgress(o.Keys, o.Progress), o.runConfig(), nil
}
