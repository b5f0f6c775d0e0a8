package schema

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
)

// A File is one result file of rows of type R, by its name in a results
// directory (results/ by default).
type File[R Row] struct {
	Name string // e.g. "movement.csv"
}

// Path returns the file's path in the results directory dir.
func (f File[R]) Path(dir string) string { return filepath.Join(dir, f.Name) }

// Exists reports whether the file is present in dir (a file that cannot
// be read still exists: [File.Read] reports why).
func (f File[R]) Exists(dir string) bool {
	_, err := os.Stat(f.Path(dir))
	return !errors.Is(err, fs.ErrNotExist)
}

// Read reads the file's rows from dir with [ReadCSV], through [OpenInput]
// (a regular file of at most MaxInputBytes); every error names the path.
func (f File[R]) Read(dir string) ([]R, error) {
	p := f.Path(dir)
	in, err := OpenInput(p)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	return ReadCSV[R](in, p)
}

// The result files that hold rows, by the command and settings of the
// Makefile that write them (see [Files] for every file of a run).
var (
	MovementFile          = File[Move]{"movement.csv"}
	ScenariosFile         = File[Move]{"scenarios.csv"}
	ReweightFile          = File[Move]{"reweight.csv"}
	SpreadFile            = File[Spread]{"spread.csv"}
	VNodesFile            = File[Spread]{"vnodes.csv"}
	HashesFile            = File[Spread]{"hashes.csv"}
	HashesSequentialFile  = File[Spread]{"hashes-sequential.csv"}
	WeightsFile           = File[ShareRow]{"weights.csv"}
	StormFile             = File[Storm]{"storm.csv"}
	StormTimelineFile     = File[StormPoint]{"storm-timeline.csv"}
	StormZipfFile         = File[Storm]{"storm-zipf.csv"}
	StormZipfTimelineFile = File[StormPoint]{"storm-zipf-timeline.csv"}
	ReplicationFile       = File[Replication]{"replication.csv"}
	LoadFile              = File[Load]{"load.csv"}
	BoundedFile           = File[Bounded]{"boundedloads.csv"}
	DomainsFile           = File[DomainViolation]{"domains.csv"}
	DomainRanksFile       = File[DomainRank]{"domains-ranks.csv"}
	DomainChangesFile     = File[DomainChange]{"domains-changes.csv"}
	SimWindowFile         = File[SimWindow]{"sim-window.csv"}
	SimNodeFile           = File[SimNode]{"sim-node.csv"}
	SimEventFile          = File[SimEvent]{"sim-event.csv"}
	SimSummaryFile        = File[SimSummary]{"sim-summary.csv"}
	SimTraceFile          = File[TraceStats]{"sim-trace.csv"}
	ConformanceFile       = File[Conformance]{"conformance.csv"}
	SwitchingFile         = File[Switch]{"switching.csv"}
	PropagateFile         = File[Propagate]{"propagate.csv"}
	PropagateCacheFile    = File[Propagate]{"propagate-cache.csv"}
	PropagateRedisFile    = File[Redirect]{"propagate-redis.csv"}
)

// The result files of a fleet profile's own runs (chbench fleet, make
// fleet), read by the report's "Your fleet" section. They are written only
// with PROFILE, so they are not among [Files].
var (
	// FleetStormFile: the storm of every planned change (op = the
	// change's name, NAME-step per step of a staged one).
	FleetStormFile = File[Storm]{"fleet-storm.csv"}
	// FleetSharesFile: each node's share today against its weight share.
	FleetSharesFile = File[ShareRow]{"fleet-shares.csv"}
	// FleetLoadFile: the request load today under the profile's Zipf law.
	FleetLoadFile = File[Load]{"fleet-load.csv"}
	// FleetSwitchingFile: leaving the profile's client for each other
	// placement on today's members.
	FleetSwitchingFile = File[Switch]{"fleet-switching.csv"}
	// FleetReplicationFile: every planned change at the profile's
	// replication factor R > 1 (op = the change's name, a staged change
	// whole).
	FleetReplicationFile = File[Replication]{"fleet-replication.csv"}
)

// The result files that hold no rows of this package.
const (
	// LookupFile is the Go benchmark output of package bench, read by
	// [ReadBenchmarks].
	LookupFile = "lookup.txt"
	// FleetLookupFile is the Go benchmark output of package bench's
	// BenchmarkLookup (from=key) at a fleet profile's sizes on its
	// placements (make fleet), read by [ReadBenchmarks]; written only with
	// PROFILE, so not among [Files].
	FleetLookupFile = "fleet-lookup.txt"
	// ReportFile is the design-review report (package report).
	ReportFile = "REPORT.md"
	// PlotsDir is the subdirectory the plots go to (package plots).
	PlotsDir = "plots"
)

// Entry describes one file of a results directory.
type Entry struct {
	Name string // file name ("plots/*.png" for the plots)
	Rows string // the row type a CSV or benchmark-format file holds ("Move"), "" otherwise
	Doc  string // what it holds and what writes it, one sentence
}

func rowsOf[R Row](f File[R], doc string) Entry {
	var zero R
	return Entry{Name: f.Name, Rows: reflect.TypeOf(zero).Name(), Doc: doc}
}

// Files returns every file a full run (`make bench`) writes into the
// results directory, in the order of the README's list: the Makefile
// writes exactly these (a test compares them).
func Files() []Entry {
	return []Entry{
		{LookupFile, "", "Go benchmark output of `bench/`: lookups from a key and from a hash, hashes, parallel lookups, lookups during placement swaps, builds with retained bytes"},
		{"lookup-benchstat.txt", "", "benchstat tables of the lookups: one column per algorithm, one row per node count, median and 95% interval"},
		{"parallel-benchstat.txt", "", "benchstat tables of `LookupParallel` and `LookupSwap` (wall time over all goroutines' lookups)"},
		{"build-benchstat.txt", "", "benchstat tables of the builds: time, allocations, retained bytes"},
		{"hash-benchstat.txt", "", "benchstat table of the key hashes alone"},
		{"peers.txt", "", "chbench's lookups next to popular Go libraries on the same keys and nodes (package peers)"},
		{"peers-benchstat.txt", "", "benchstat table of `peers.txt`, one column per implementation"},
		{"targets.txt", "", "each speed target with its measured ratio and PASS/FAIL, computed from `peers.txt` by `peers/cmd/targets`"},
		rowsOf(MovementFile, "`chbench move`: moved fraction of add, add-many, remove-last, remove-random and restore on the node grid, every algorithm"),
		{"movement.txt", "Move", "`movement.csv` in the Go benchmark format, one line per key set, for benchstat"},
		rowsOf(ScenariosFile, "`chbench move`: the multi-step scenarios shrink-random, shrink-lifo and churn"),
		rowsOf(SpreadFile, "`chbench spread`: spread of keys over 10, 100 and 1,000 nodes, every algorithm"),
		{"spread.txt", "Spread", "`spread.csv` in the Go benchmark format, one line per key set"},
		rowsOf(VNodesFile, "`chbench spread`: ring spread against virtual nodes"),
		rowsOf(HashesFile, "`chbench spread`: ring, rendezvous, jump and bounded under each key hash"),
		rowsOf(WeightsFile, "`chbench spread -shares`: a fleet weighted 1,1,2,4, each node's share against its weight share"),
		rowsOf(StormFile, "`chbench storm`: a cache fleet's miss storm on a resize, per algorithm"),
		rowsOf(StormTimelineFile, "`chbench storm -timeline`: the warm-up curve of that storm"),
		{"storm.txt", "", "`chbench storm`'s table of that storm, for terminals"},
		rowsOf(StormZipfFile, "`chbench storm -zipf`: the same storm under Zipf key popularity"),
		rowsOf(StormZipfTimelineFile, "`chbench storm -zipf -timeline`: its warm-up curve"),
		{"storm-zipf.txt", "", "`chbench storm -zipf`'s table, for terminals"},

		rowsOf(ReweightFile, "`chbench move` with fleet flags: named, weighted joins and leaves and reweights of part of a fleet"),
		rowsOf(ReplicationFile, "`chbench replication`: R replicas per key on a join and a random leave"),
		rowsOf(LoadFile, "`chbench load`: per-node request load under Zipf popularity, every placement, beside the hot-key floor"),
		{"load.txt", "Load", "`load.csv` in the Go benchmark format, one line per request stream"},
		rowsOf(BoundedFile, "`chbench bounded`: the three forms of bounded loads and the plain ring against eps"),
		rowsOf(HashesSequentialFile, "`chbench spread -keys-kind sequential`: `hashes.csv` on sequential keys"),
		rowsOf(DomainsFile, "`chbench domains`: keys and replica pairs sharing a rack or zone, each algorithm's own replicas beside its domain-aware ones, on even and uneven racks and zones"),
		rowsOf(DomainRanksFile, "`chbench domains -ranks`: each node's load at each replica rank, weights 3,3,3,1 beside the successive-sampling theory, and on uneven racks"),
		rowsOf(DomainChangesFile, "`chbench domains -changes`: what a node, a rack or a zone failing and a rack added copy, collateral, keys lost and cross-domain copies"),
		rowsOf(SimWindowFile, "`chbench simulate`: a generated Twitter-format trace replayed through 40 LRU caches (8 with twice the memory) as 20 join halfway, every algorithm: the fleet per time window"),
		rowsOf(SimNodeFile, "`chbench simulate`: the same replay per node and window: bytes held against capacity, gets and hits"),
		rowsOf(SimEventFile, "`chbench simulate`: the storm of each join: peak database reads against the baseline, extra reads, refill time"),
		rowsOf(SimSummaryFile, "`chbench simulate`: each algorithm's whole replay: hit ratio, database reads, evictions"),
		rowsOf(SimTraceFile, "`chbench simulate`: what the trace reader read: requests, distinct keys, bytes, span, operations, warnings"),
		{"sim.table", "", "`chbench simulate`'s tables of that replay, for terminals"},
		{"external.txt", "", "Go benchmark output of `BenchmarkLocateKeys` (algorithms/external): chbench's own CPU time per key of a placement in another process, against a trivial responder and the two example programs"},
		{"external-benchstat.txt", "", "benchstat tables of `external.txt`: cpu-ns/key (chbench's side) and ns/key (wall, the program's lookup included) per responder and batch size"},
		rowsOf(ConformanceFile, "`chbench conformance`: the verdict per property of the example programs (Python ring; C jump against chbench's jump)"),
		rowsOf(SwitchingFile, "`chbench switch`: the keys that route differently when a fleet of 10 servers switches between the common dialects of real clients and proxies, and the miss storm of each switch"),
		rowsOf(PropagateFile, "`chbench propagate` (its defaults, the headline scenario): requests routed by a stale view and sent astray while one join at 100 nodes rolls out over 30 s, per algorithm and second, beside the model"),
		rowsOf(PropagateCacheFile, "`chbench propagate -model gossip:... -cache`: the same join spread by gossip to a cache-aside fleet with writes: split misses, keys cached twice, stale reads, store reads not yet or no longer at their owner"),
		rowsOf(PropagateRedisFile, "`chbench propagate -live`: MOVED and ASK redirects met by a slot-map-caching client during a live Redis Cluster resharding, beside the model (written only when redis-server and redis-cli are installed)"),
		{"reference.txt", "", "`chbench reference`: every published value next to chbench's, PASS/FAIL"},
		{ReportFile, "", "`chbench report`: the design-review report built from the files above"},
		{PlotsDir + "/*.png", "", "`chbench plot`: every plot as PNG, and as SVG beside it"},
	}
}
