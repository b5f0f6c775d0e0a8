package schema

// Column names, for the readers of [Table] (package plots and report) until they read typed rows.

const (
	ColAlgo             = "algo"
	ColHash             = "hash"
	ColVNodes           = "vnodes"
	ColOp               = "op"
	ColFrom             = "from"
	ColTo               = "to"
	ColKeys             = "keys"
	ColSets             = "sets"
	ColSeed             = "seed"
	ColMovedFrac        = "moved_frac"
	ColMovedFracLo      = "moved_frac_lo"
	ColMovedFracHi      = "moved_frac_hi"
	ColIdealFrac        = "ideal_frac"
	ColMovedOverIdeal   = "moved_over_ideal"
	ColCollateralFrac   = "collateral_frac"
	ColCollateralFracLo = "collateral_frac_lo"
	ColCollateralFracHi = "collateral_frac_hi"
	ColNetMovedFrac     = "net_moved_frac"
	ColNetMovedFracLo   = "net_moved_frac_lo"
	ColNetMovedFracHi   = "net_moved_frac_hi"
	ColSteps            = "steps"
	ColEps              = "eps"
	ColPartitions       = "partitions"
	ColKeyFile          = "key_file"
	ColGoVersion        = "go_version"
	ColCommit           = "commit"
	ColTableSize        = "table_size"
	ColProbes           = "probes"
	ColCapacity         = "capacity"
	ColNodes            = "nodes"
	ColMinShare         = "min_share"
	ColMinShareLo       = "min_share_lo"
	ColMinShareHi       = "min_share_hi"
	ColMaxShare         = "max_share"
	ColMaxShareLo       = "max_share_lo"
	ColMaxShareHi       = "max_share_hi"
	ColPeakToMean       = "peak_to_mean"
	ColPeakToMeanLo     = "peak_to_mean_lo"
	ColPeakToMeanHi     = "peak_to_mean_hi"
	ColCV               = "cv"
	ColCVLo             = "cv_lo"
	ColCVHi             = "cv_hi"
	ColNoisePeakToMean  = "noise_peak_to_mean"
	ColNoiseCV          = "noise_cv"
	ColNoiseMethod      = "noise_method"
	ColExactPeakToMean  = "exact_peak_to_mean"
	ColExactCV          = "exact_cv"
	ColExactMinShare    = "exact_min_share"
	ColExactMaxShare    = "exact_max_share"
	ColID               = "id"
	ColWeight           = "weight"
	ColWeightShare      = "weight_share"
	ColShare            = "share"
	ColShareLo          = "share_lo"
	ColShareHi          = "share_hi"
	ColShareError       = "share_error"
	ColExactShare       = "exact_share"

	// placement: "per-set" or "fixed" (Config.Placement); label: the
	// algorithm and its variant ("bounded (partitions)", "jump
	// (swap-last)"); expected_moves: ideal fraction x keys of one set;
	// placements*: exact peak-to-mean and cv over independent layouts
	// (count, mean, 5th and 95th percentiles); theory_*: expected max of n
	// Gamma(k, k) loads and sqrt((n-1)/(nk+1)) for rings; load_factor,
	// key_load_over_bound (+lo/hi), partition_load_over_bound: bounded
	// loads' max load over ceil(c*m*w/W) on keys and on partitions.
	ColPlacement               = "placement"
	ColLabel                   = "label"
	ColExpectedMoves           = "expected_moves"
	ColPlacements              = "placements"
	ColPlacementsPeakToMean    = "placements_peak_to_mean"
	ColPlacementsPeakToMeanP5  = "placements_peak_to_mean_p5"
	ColPlacementsPeakToMeanP95 = "placements_peak_to_mean_p95"
	ColPlacementsCV            = "placements_cv"
	ColPlacementsCVP5          = "placements_cv_p5"
	ColPlacementsCVP95         = "placements_cv_p95"
	ColTheoryPeakToMean        = "theory_peak_to_mean"
	ColTheoryCV                = "theory_cv"
	ColLoadFactor              = "load_factor"
	ColKeyLoadOverBound        = "key_load_over_bound"
	ColKeyLoadOverBoundLo      = "key_load_over_bound_lo"
	ColKeyLoadOverBoundHi      = "key_load_over_bound_hi"
	ColPartitionLoadOverBound  = "partition_load_over_bound"
)

const (
	ColZipf                = "zipf"
	ColRequests            = "requests"
	ColHotShare            = "hot_share"
	ColHotShareLo          = "hot_share_lo"
	ColHotShareHi          = "hot_share_hi"
	ColFloor               = "floor"
	ColHotKeyNode          = "hot_key_node"
	ColHotIsBusiest        = "hot_is_busiest"
	ColAwayFrac            = "away_frac"
	ColAwayFracLo          = "away_frac_lo"
	ColAwayFracHi          = "away_frac_hi"
	ColMaxLoadOverCap      = "max_load_over_cap"
	ColInFlight            = "in_flight"
	ColKeyKind             = "key_kind"
	ColMovedJoinFrac       = "moved_join_frac"
	ColMovedJoinFracLo     = "moved_join_frac_lo"
	ColMovedJoinFracHi     = "moved_join_frac_hi"
	ColIdealJoinFrac       = "ideal_join_frac"
	ColMovedLeaveFrac      = "moved_leave_frac"
	ColMovedLeaveFracLo    = "moved_leave_frac_lo"
	ColMovedLeaveFracHi    = "moved_leave_frac_hi"
	ColIdealLeaveFrac      = "ideal_leave_frac"
	ColMovesPerCapJoin     = "moves_per_cap_join"
	ColMovesPerCapJoinLo   = "moves_per_cap_join_lo"
	ColMovesPerCapJoinHi   = "moves_per_cap_join_hi"
	ColMovesPerCapLeave    = "moves_per_cap_leave"
	ColMovesPerCapLeaveLo  = "moves_per_cap_leave_lo"
	ColMovesPerCapLeaveHi  = "moves_per_cap_leave_hi"
	ColBoundOneOverEpsSqrd = "bound_1_over_eps2"
)

const (
	ColReads          = "reads"            // Q: reads per second reaching the cache fleet
	ColHitRatio       = "hit_ratio"        // steady hit ratio before the change (storm.csv); in the timeline, the hit ratio at time_s
	ColWorkingSet     = "working_set"      // K: distinct keys the fleet serves (sets the refill time scale)
	ColHitAfter       = "hit_after"        // hit ratio right after the change, h (1 - moved_frac)
	ColDBReads        = "db_reads"         // database reads per second right after the change (storm.csv) or at time_s (timeline)
	ColDBSteady       = "db_steady"        // database reads per second before the change, Q (1 - h)
	ColDBMultiple     = "db_multiple"      // db_reads / db_steady
	ColExtraDBReads   = "extra_db_reads"   // database reads the change adds until the cache has refilled, h f K
	ColRecoveryS      = "recovery_s"       // seconds until the database load is back within 1.1x its steady state
	ColTauS           = "tau_s"            // the warm-up model's time constant K/Q, seconds
	ColTimeS          = "time_s"           // timeline: seconds after the change
	ColSteadyHitRatio = "steady_hit_ratio" // timeline: the hit ratio before the change
)

const (
	ColReplicas        = "replicas"          // replication factor R: distinct nodes per key
	ColPairsMovedFrac  = "pairs_moved_frac"  // key-replica pairs of the first placement whose node holds no replica of the key after
	ColAllLostFrac     = "all_lost_frac"     // keys none of whose replicas stays in the replica set after the change: re-homed entirely (every copy made anew; not data loss while an old copy is readable)
	ColLoadPeakToMean  = "load_peak_to_mean" // replicas per node, first placement: max of share / weight share
	ColLoadCV          = "load_cv"           // coefficient of variation of the replicas per node
	ColDistinctSets    = "distinct_sets"     // distinct replica sets among the keys of a key set
	ColMaxDistinctSets = "max_distinct_sets" // C(n, R), the most there can be
	colLo, colHi       = "_lo", "_hi"
)

const (
	ColLiveMemMB    = "live_mem_mb"   // memcached item memory per instance, megabytes
	ColValueBytes   = "value_bytes"   // bytes of every cached value
	ColWindow       = "window"        // window number: -1 the steady window before the change, then 0, 1, ...
	ColTimeEndS     = "time_end_s"    // end of the window, seconds after the change (time_s is its start)
	ColWindowReads  = "window_reads"  // reads replayed in the window
	ColHitLive      = "hit_live"      // hit ratio the real memcached fleet served in the window
	ColHitSim       = "hit_sim"       // the warm-up model's mean hit ratio over the same window
	ColDBReadsLive  = "db_reads_live" // database reads per second in the window: misses x reads / window_reads
	ColDBReadsSim   = "db_reads_sim"  // the model's mean database reads per second over the window
	ColExpiredReads = "expired_reads" // reads in the window whose key the client deleted first (emulated steady misses)
)

// Column lists of the row types, for the readers of [Table].
var (
	MoveColumns          = Columns[Move]()
	SpreadColumns        = Columns[Spread]()
	ShareColumns         = Columns[ShareRow]()
	LoadColumns          = Columns[Load]()
	BoundedColumns       = Columns[Bounded]()
	StormColumns         = Columns[Storm]()
	StormTimelineColumns = Columns[StormPoint]()
	ReplicationColumns   = Columns[Replication]()
	StormLiveColumns     = Columns[StormLive]()
)
