// Package schema is chbench's results layer: the one definition of the
// result files that the measures (package analysis) write and the
// presenters (packages plots and report) read, so that writers and readers
// cannot drift apart and no other package names a file or a column.
//
// It holds:
//   - one row type per measure, each embedding the run's [Config]: [Move]
//     (movement), [Spread] and its per-node [ShareRow] (spread), [Load]
//     (request load), [Bounded] (bounded loads), [Storm] and [StormPoint]
//     (miss storm and its warm-up curve), [Replication], [StormLive] (the
//     storm against real memcached), [SimWindow], [SimNode], [SimEvent],
//     [SimSummary] and [TraceStats] (the fleet simulation and its trace),
//     [Conformance] (a placement's verdict per property), [DumpDiff],
//     [DumpCell], [DumpMismatch] and [DumpGuess] (a key dump against a
//     placement), [Switch] (switching clients), [Propagate] (requests
//     while a change propagates to the clients) and [Redirect] (a live
//     Redis Cluster resharding);
//   - one generic writer and reader for all of them: [WriteCSV] and
//     [ReadCSV] (header by name, errors naming file, line, column and
//     value), [WriteJSON] and [ReadJSON], [WriteBench] (the Go benchmark
//     format, with Unit lines), and [Check], the one validation every row
//     passes before it is written and after it is read;
//   - the result files and the row type each holds ([MovementFile],
//     [SpreadFile], ... and [Files], the list of every file a run writes,
//     which the Makefile is tested against), [ReadBenchmarks] for the
//     lookup benchmarks, and [WriteFile] and [WriteFiles], which replace a
//     file only once it is complete;
//   - the vocabulary: the scenario operations ([Ops]), the placement modes
//     ([PlacementModes]) and the names of the forms of bounded loads
//     ([VariantPartition], [LoadPlacements], [BoundedVariants]).
//
// # Formats
//
// CSV has one header line of column names, then one row per result;
// floats use the shortest representation that reads back exactly, booleans
// are true or false, and an absent value is an empty cell. Readers find
// columns by name, in any order, and ignore columns they do not know, so
// columns may be appended; a column of the row type missing from a file
// is an error, except the optional columns a row type added later (they
// read as absent: the bytes columns of spread and load). Values fixed
// by the configuration rather than measured (ideal_frac, expected_moves,
// ideal_join_frac, bound_1_over_eps2) are computed with a single rounding
// where the weights are integers, so a value that is mathematically round
// prints round (400, 0.25, 1000; not 399.99999999999994); measured means
// and intervals keep every digit their floats carry. JSON is an indented
// array of objects whose field names are the CSV column names, plus
// "config" (a [Config] object) and "samples" (the per-key-set values); for
// spread, "shares" (one [Share] per node); an absent value is null. In
// JSON, eps, partitions, table_size, probes, capacity, key_file, key_kind,
// go_version and commit live only in "config" (except eps in bounded-loads
// objects, where it is what the rows vary). The benchmark format
// (golang.org/x/perf/benchfmt, for benchstat) has one line per key set or
// request stream; see [WriteBench] for the configuration lines and each
// row type for its names and units.
//
// # Checks
//
// [Check] refuses a value that is not finite, a count (from, to, nodes,
// replicas, keys, sets) that is not a whole number >= 1, a fraction
// (share, pairs_moved_frac, all_lost_frac, steady_hit_ratio, differ_frac) outside
// [0, 1], a weight share outside (0, 1], an ideal fraction (ideal_frac,
// ideal_join_frac, ideal_leave_frac) or weight <= 0, an op that is not a
// label ([IsLabel]: it names plot files), an
// estimate X outside its interval [X_lo, X_hi], and what a row type's own
// relations between its columns forbid. It is the single place where a
// row's domain is stated: widen or narrow it there.
//
// # Run configuration (every file)
//
//   - algo: the algorithm's catalog name, or the name a program speaking
//     the external protocol (-algo exec:COMMAND) gave in its handshake.
//   - hash: the configured key hash, resolved ("" becomes the default);
//     slots always hashes with CRC-16 and ketama with MD5, whatever it says,
//     and an external program hashes keys its own way: it reads none of
//     the settings below either.
//   - vnodes: virtual nodes per node of weight 1; read only by algorithms
//     that use virtual nodes (catalog.UsesVNodes).
//   - eps, partitions: bounded loads' load factor c = 1 + eps and number of
//     partitions (after automatic sizing, 1,024 per node at least 16,384,
//     catalog.Config.PartitionsFor; 0 in rows of algorithms without
//     partitions); read only by the algorithms that use them.
//   - table_size, probes, capacity: Maglev's configured lookup table size
//     M (a prime; grown to keep M >= 100 n), multi-probe's probes per key,
//     and AnchorHash's and DxHash's bucket capacity (0 = twice the initial
//     nodes, at least 16); read only by the algorithms that use them
//     (catalog.Info.UsesTableSize, UsesProbes, UsesCapacity).
//   - key_kind: the shape of generated keys (keyset.KeyKinds: random,
//     sequential, uuid, url, numeric), empty (absent) for the default
//     "random", so default runs write the bytes they always wrote. A column
//     of the load and bounded-loads CSV; for move and spread it is recorded
//     in the JSON "config" and as the benchfmt configuration line
//     "keykind" only.
//   - keys: keys per key set for generated keys; with a key file, the keys
//     in the file (each set holds floor or ceil of keys/sets).
//   - sets: independent key sets; every mean and interval is over them.
//   - seed: the key generator's seed (and scenarios' random choices).
//   - key_file: the key file's path, empty for generated keys.
//   - go_version, commit: the toolchain and source revision of the run.
//   - placement (CSV, JSON and benchfmt): "per-set" when each key set of an
//     algorithm with a random layout (catalog.Info.RandomLayout: ring,
//     bounded, ketama, maglev, multiprobe) was placed on its own
//     independent layout (node IDs salted per set, set 0 on the given
//     IDs), so means and intervals cover layouts and keys together;
//     "fixed" when every set used the given IDs (this exact fleet).
//     Algorithms without a random layout give the same numbers in both.
//     In replication.csv per-set also gives every key set its own random
//     choices (which node leaves in remove-random, restore, shrink-random
//     and churn: set s draws from PCG(seed, s)), for every algorithm, so
//     its intervals cover the failing node as well; fixed keeps set 0's.
//   - label: the algorithm and its variant as tables and plots name it,
//     e.g. "bounded (partitions)", "jump (swap-last)" where a node other
//     than the last leaves (catalog.Info.Label).
//
// Intervals (*_lo, *_hi) are 95% Student-t intervals over the key sets
// (gonum distuv.StudentsT, analysis/interval). With one set an interval
// cannot be computed and is missing: both bounds are empty cells in CSV
// and null in JSON, never a made-up [mean, mean]; a row with one bound and
// not the other is refused. (The bench format carries each set's value,
// from which benchstat computes its own statistics.)
// Intervals are clipped to their quantity's domain: at 0 for quantities
// that cannot be negative, to [0, 1] for fractions, to [0, sqrt(n-1)]
// for a cv of n node loads, and for peak-to-mean ratios (>= 1 by
// definition, analysis.PeakToMeanCI) to [1, W / smallest weight]: with
// few sets, t(0.975, 1) = 12.7 for two, the Student-t interval would
// otherwise reach below 1 or past what the lightest node holding
// everything gives.
//
// # Movement (move): [Move]
//
//   - op: the scenario (add, add-many, remove-last, remove-random, restore,
//     shrink-random, shrink-lifo, churn; a -to resize is named add,
//     add-many or remove-last after its direction).
//   - from, to: node counts before the first and after the last step.
//   - moved_frac (+ _lo, _hi): owner changes / keys, mean over key sets;
//     summed over the steps of a multi-step scenario, so it can exceed 1.
//   - ideal_frac: the least a placement with exactly even (weighted) shares
//     must move: the sum over nodes of max(0, old share - new share),
//     1/(n+1) for one join, summed over the steps. An uneven placement can
//     move less, e.g. when a leaving node happened to own less than 1/n.
//   - moved_over_ideal: moved_frac / ideal_frac (1 = ideal); Check refuses
//     a row where it is not that quotient (relative RatioTolerance).
//   - collateral_frac (+ _lo, _hi): moves no ideal placement makes: from a
//     node whose weight share did not shrink, or to a node whose share did
//     not grow. For joins and leaves of equal-weight nodes these are
//     exactly the moves between two nodes present both before and after
//     the step; for a reweight, also moves between nodes reweighted alike.
//   - net_moved_frac (+ _lo, _hi): keys whose last owner differs from their
//     first; for restore, the keys not back on their original owner.
//   - steps: membership changes in the scenario.
//   - expected_moves: ideal_frac x keys of one set, the moved keys a key
//     set expects (keys x each step's ideal fraction, one rounding per
//     step: exactly 1000 for 169 -> 170 with 170,000 keys); with -min-moves
//     (default 1,000) keys are raised until it reaches that, and plots draw
//     no point below 1,000.
//   - JSON samples: moved_frac, collateral_frac, net_moved_frac per key set.
//
// # Spread (spread): [Spread]
//
//   - nodes: nodes in the membership.
//   - min_share, max_share (+ _lo, _hi): the smallest and largest fraction
//     of keys (0..1) a node owns.
//   - peak_to_mean (+ _lo, _hi): the peak-to-mean ratio, max over nodes of
//     share / weight share (max/mean count for equal weights).
//   - cv (+ _lo, _hi): coefficient of variation, population standard
//     deviation / mean of the per-node loads share / weight share.
//   - noise_peak_to_mean, noise_cv: what a perfectly even placement shows
//     by sampling noise alone with the same keys and nodes (cv =
//     sqrt((n-1)/K); peak-to-mean computed or simulated, see noise_method).
//   - noise_method: "analytic" when noise_peak_to_mean was computed (equal
//     weights on 1,000 nodes or more: E[max] of independent binomial
//     counts), "simulated" when it is the mean over seeded multinomial
//     draws (the last column).
//   - exact_peak_to_mean, exact_cv, exact_min_share, exact_max_share: the
//     same from exact ownership of the hash space (ring arcs, slot and
//     partition counts, modulo's residues); empty (null) for algorithms
//     without exact shares. In per-set placement they describe the layout of
//     the given node IDs (set 0).
//   - placements, placements_peak_to_mean, placements_cv (+ _p5, _p95): for
//     algorithms with a random layout and exact shares, the number of
//     independent layouts drawn (-draws, default 200) and the mean and 5th
//     and 95th percentiles of their exact peak-to-mean and cv (no keys).
//     The mean can lie outside the percentiles (bounded: most layouts at the
//     bound). Empty (null) otherwise.
//   - theory_peak_to_mean, theory_cv: for rings with equal weights
//     (catalog.Info.VNodeArcs), the expected maximum of n Gamma(k, k) loads
//     and sqrt((n-1)/(nk+1)) (analysis.RingTheory); empty otherwise.
//   - load_factor, key_load_over_bound (+ _lo, _hi),
//     partition_load_over_bound: bounded loads' c and the bound of
//     Mirrokni, Thorup and Zadimoghaddam read on keys (max over nodes of
//     keys / ceil(c·K·w/W), per set) and on partitions (max over nodes of
//     partitions / capacity, <= 1 by construction); empty otherwise.
//   - JSON samples: min_share, max_share, peak_to_mean, cv per key set.
//   - object_bytes, busiest_node, busiest_bytes, bytes_peak_to_mean,
//     bytes_cv, bytes_sample_rate (a -trace whose format carries sizes;
//     empty otherwise, and optional when read: files written before them
//     read them as empty): the spread by bytes (simulate.SpreadBytes):
//     every distinct object of the trace once, at its key size, its last
//     non-zero value size and -overhead bytes, on its owner in the layout
//     of the given node IDs (set 0). object_bytes is their sum; the busiest
//     node is the one with the most bytes for its weight, busiest_bytes
//     what it must hold; bytes_peak_to_mean and bytes_cv are over bytes /
//     weight share. bytes_sample_rate is 1 when every object was tracked,
//     else the hash sample's 2^-k (past 2^20 objects; the byte columns are
//     then estimates).
//
// # Per-node shares (spread -shares): [ShareRow]
//
// The run configuration and nodes as above, then per node: id, weight,
// weight_share (weight / total weight, the ideal share), share (+ _lo,
// _hi: the measured fraction of keys), share_error = share -
// weight_share, exact_share (empty without exact shares). JSON spread
// objects carry the same fields in "shares".
//
// # Request load (load): [Load]
//
// One row per placement and popularity law. Intervals are over the
// request streams (sets: each its own key set and its own draws).
//
//   - algo: the placement: a catalog algorithm, with the catalog's
//     bounded named bounded-partition, or bounded-key, bounded-request (the
//     three forms of bounded loads, see below).
//   - nodes: nodes in the membership.
//   - zipf: the exponent s of key popularity (key of rank i requested with
//     probability (i+1)^-s / H(N, s); 0 = uniform); empty (null) for a
//     request log.
//   - keys: N, the keys each stream's Zipf law spans (rank i = key i of the
//     stream's key set); for a request log, the lines of the log.
//   - requests: R, requests per stream (for a request log, all lines).
//   - peak_to_mean, cv (+ _lo, _hi): peak-to-mean ratio and coefficient of
//     variation of the per-node request counts, normalised by weight share.
//   - max_share (+ _lo, _hi): the busiest node's fraction of requests.
//   - hot_share (+ _lo, _hi): the hottest key's fraction of requests
//     (1/H(N, s) in every stream for a Zipf law).
//   - floor: the hot-key floor max(1, hot_share * W / w_max): no placement
//     of whole keys can bring peak_to_mean below it. It assumes the
//     hottest key lands on the largest node (weight w_max), the best case.
//   - floor_min_node: the floor when the hottest key lands on the smallest
//     node, max(1, hot_share * W / w_min), the worst case; equal to floor
//     at equal weights.
//   - floor_hot_node: the floor on the node that served the hottest key in
//     stream 0 (hot_key_node), max(1, hot_share * W / w of that node):
//     the least this row's peak_to_mean could be with its hot key where
//     it is.
//   - hot_key_node: the node serving most of the hottest key's requests in
//     stream 0; hot_is_busiest: the fraction of streams in which that node
//     is the busiest.
//   - away_frac (+ _lo, _hi): fraction of requests served away from their
//     first-choice node (0 for placements without a bound).
//   - max_load_over_cap: the largest load / capacity seen, <= 1 (partitions
//     for bounded-partition, keys for bounded-key, requests in flight for
//     bounded-request); empty (null) for placements without a capacity.
//   - in_flight: K, the requests in flight of bounded-request's service
//     model (K in flight, completing in arrival order); 0 for the others.
//   - JSON samples: peak_to_mean, cv, max_share, hot_share, away_frac,
//     hot_key_node, hot_is_busiest per stream (and bytes_peak_to_mean,
//     bytes_max_share for a trace with sizes).
//   - With -trace, the streams are the trace's requests (request i to
//     stream i mod sets, a record of op_count requests counting that
//     often), keys and requests count the trace's requests, zipf is empty
//     and key_file is the trace. bytes_peak_to_mean, bytes_max_share (+
//     _lo, _hi; a trace whose format carries sizes, empty otherwise and
//     optional when read): the same statistics of bytes served, every
//     request weighing its object's bytes (key size, the last non-zero
//     value size the trace gave the key, -overhead).
//
// # Bounded loads (bounded): [Bounded]
//
// One row per variant, eps and Zipf exponent: the plain ring (algo ring,
// no bound) and the three forms of consistent hashing with bounded loads
// (Mirrokni, Thorup, Zadimoghaddam 2018) at load factor c = 1 + eps:
// bounded-partition (the catalog's bounded: fixed partitions per node
// capped at ceil(c P w_i/W)), bounded-key (keys in rank order each take
// the first node clockwise with fewer than ceil(c m w_i/W) keys) and
// bounded-request (each request takes the first node clockwise with fewer
// than ceil(c (T+1) w_i/W) requests in flight, T in flight before it).
// nodes, zipf, keys, requests and in_flight as for request load.
//
//   - max_load_over_cap: the largest load / capacity over every stream and
//     membership (before, after the join, after the leave; for
//     bounded-request at every request), <= 1; empty (null) for ring.
//   - away_frac, peak_to_mean (+ _lo, _hi): as for request load.
//   - moved_join_frac (+ _lo, _hi): the moved fraction when node n joins:
//     of keys for ring, bounded-partition and bounded-key (owners compared
//     by ID), of requests for bounded-request (the same stream replayed on
//     both memberships); ideal_join_frac: the joining node's weight share
//     1/(W+1) (it has weight 1; 1/(n+1) for equal weights).
//   - moved_leave_frac (+ _lo, _hi): the same when a seeded random node
//     leaves (a different one per stream); ideal_leave_frac: the leaving
//     node's weight share, mean over streams.
//   - moves_per_cap_join, moves_per_cap_leave (+ _lo, _hi): moved units
//     (partitions for bounded-partition, keys for bounded-key) per node
//     capacity C = ceil(c m/n) before the change; empty (null) for ring and
//     bounded-request.
//   - bound_1_over_eps2: 1/eps^2, the shape of the paper's O(C/eps^2)
//     bound on expected moves per node update (its constant is not given),
//     for eps read as the decimal written (0.05 gives exactly 400).
//   - JSON samples: max_load_over_cap, away_frac, peak_to_mean,
//     moved_join_frac, moved_leave_frac, ideal_leave_frac,
//     moves_per_cap_join, moves_per_cap_leave per stream.
//
// # Miss storm (storm): [Storm], [StormPoint]
//
// One row per algorithm and membership change (storm.csv, the JSON array
// of [Storm]) or per algorithm and time point (storm-timeline.csv), the
// moved fraction of the same keys turned into hit ratio and database load
// by the warm-up model (analysis.StormModel); the constants' comments give
// each column. zipf is the Zipf exponent s of the key popularity the model
// assumes (0 = uniform reads): it leaves the values right after the change
// and the total extra reads h f K unchanged and shapes the decay
// (db_reads of the timeline, recovery_s): hot keys refill first, the long
// tail last. A file, and a plot, holds one fleet (reads, hit ratio,
// working set, zipf); storm-zipf.csv and storm-zipf-timeline.csv are the
// Zipf run of make storm.
//
// # Live miss storm (storm -live): [StormLive]
//
// One row per algorithm and window of reads replayed against real
// memcached servers on 127.0.0.1 (package live), beside the warm-up model
// (analysis.StormModel) for the same scenario:
//
//   - algo, hash, vnodes, op, from, to, seed: as above; seed also draws the
//     read sequence. The working set is keyset.Keys(working_set, seed).
//   - reads, hit_ratio, working_set: the model's Q (reads per second, which
//     sets the clock: read i happens i/Q seconds after the change), steady
//     hit ratio h and working set K.
//   - zipf: the Zipf exponent s of the key popularity: the replayed reads
//     name key i of the working set with probability (i+1)^-s / H(K, s)
//     (analysis.Zipf, seeded), and the model sums over the same law; 0 is
//     uniform.
//   - moved_frac: the fraction of the working set whose owner changed,
//     counted on those keys (no interval: one key set).
//   - live_mem_mb, value_bytes: memcached -m per instance and the size of
//     every cached value.
//   - window: -1 for the steady window before the change, then 0, 1, ...;
//     time_s, time_end_s: its start and end, seconds after the change
//     (negative before it); window_reads: reads in it; expired_reads: those
//     whose key the client deleted first, the emulated steady misses.
//   - hit_live, db_reads_live: the hit ratio the servers served and the
//     database reads per second (misses / window_reads x reads).
//   - hit_sim, db_reads_sim: the model's mean over the same window
//     (analysis.StormModel.MeanHitBetween with moved_frac; before the
//     change, h and Q (1-h)); db_steady: Q (1-h).
//   - JSON: the same fields plus "config"; go_version and commit live only
//     there.
//
// # Fleet simulation (simulate): [SimWindow], [SimNode], [SimEvent], [SimSummary], [TraceStats]
//
// A trace or a generated workload replayed through every placement to a
// fleet of LRU caches (package analysis/simulate); algo is the
// placement's label (a catalog name or an external program's), hash and
// vnodes the placements' settings, seed the workload's, key_file the trace
// (empty for a generated workload). Windows lie on a grid of window_s
// from the first request and are cut at every event. Counts are requests
// (a record of Count requests counts that often); a hit ratio is empty
// where there were no gets.
//
//   - sim-window.csv, per placement and window: window (0-based), start_s,
//     end_s (seconds since the first request), partial (the last window,
//     cut by the end of the trace: its rate divides by the whole window),
//     requests, gets (get, gets), hits, db_reads (every read that missed,
//     was routed to a failed node or was too large to cache; hits +
//     db_reads = gets), writes, deletes, hit_ratio, db_reads_per_s,
//     bytes and items the fleet holds at the window's end, evictions and
//     expired (items found expired) in the window, members and
//     capacity_bytes (their memory) at its end.
//   - sim-node.csv, per placement, window and node that was a member in
//     it: node, member and down (failed, not yet detected) at the end,
//     capacity_bytes, bytes and items held at the end (bytes <=
//     capacity_bytes), gets and hits routed to it, hit_ratio.
//   - sim-event.csv, per placement and event: event (its position in the
//     script), at_s, kind (join, leave, fail, reweight), node, weight (join,
//     reweight), detect_s (fail), reached (false: the trace ended first,
//     the storm columns empty); the storm, read off the windows from the
//     event to the next event's time or the end (events at one time share
//     it): baseline_miss_ratio and baseline_db_reads_per_s over the
//     -baseline windows before it (empty without gets there),
//     peak_db_reads_per_s and peak_window, peak_multiple (peak / baseline;
//     empty for a baseline of 0), min_hit_ratio, extra_db_reads (database
//     reads beyond the baseline miss ratio to the storm's end: may be
//     negative when the event adds memory), extra_db_reads_to_refill (the
//     same up to the refill window: the storm's own cost), refilled,
//     refill_s (from the event to the end of the first window whose miss
//     ratio is within 1.1x the baseline; one window's resolution) and
//     refill_window (empty when not refilled).
//   - sim-summary.csv, per placement: nodes and events of the run,
//     requests, gets, hits, hit_ratio, db_reads, writes, deletes,
//     evictions, expired, too_large (items larger than their node's whole
//     memory, never stored), down_reads (reads routed to a failed node
//     before it was detected), zero_size_fills (misses filled at the mean
//     value size because their own was 0), peak_node_bytes (the most any
//     node held at a window's end), window_s, item_overhead (bytes per
//     item beyond key and value), fill (misses fill the cache).
//   - sim-trace.csv (and chbench trace -format csv), one row: what the
//     reader read (trace.Stats): format, compressed (zstd), input_bytes,
//     records, requests, bad_records, distinct_keys and distinct_exact
//     (false: a HyperLogLog estimate past 65,536 keys), bytes (key + value
//     over requests), has_time, first_s, last_s, op_get ... op_decr (the
//     requests per operation), clients, zero_size_reads, warnings (the
//     reader's warnings joined by " | ").
//
// # Switching clients (switch): [Switch]
//
// One row per switch: the same fleet of servers, first placed by algo (a
// dialect of a real client or proxy, or an algorithm), then by to_algo;
// switching.csv holds every ordered pair of the common dialects
// (catalog.CommonDialects) on the default fleet of 10 servers, and the
// weighted dialects among them on a weighted fleet.
//
//   - algo, to_algo: the placement switched from and the one switched to.
//   - hash, vnodes, eps, partitions, table_size, probes, capacity: the
//     algorithms' configuration, as above (dialects read none of it).
//   - nodes, weights, first_node, last_node: the fleet: its size, each
//     server's weight in fleet order (one number when all are equal), and
//     its first and last server ID (the default fleet is 127.0.0.1:11211
//     ... 127.0.0.1:<11211+nodes-1>).
//   - keys, sets, seed, key_file, key_kind: the keys both placements route,
//     as above (every placement on one layout: the fleet as named).
//   - differ_frac, differ_frac_lo, differ_frac_hi: the fraction of keys
//     routed to different servers, mean over key sets with its 95%
//     Student-t interval: the keys whose cache entries the switch loses.
//   - reads, hit_ratio, working_set, zipf, hit_after, db_reads, db_steady,
//     db_multiple, extra_db_reads, recovery_s, tau_s (with _lo and _hi):
//     the miss storm of the switch, [Storm]'s columns with differ_frac as
//     the moved fraction.
//   - JSON: the same fields plus "config", and for a single switch
//     "flows" (the from -> to matrix: keys algo routes to from_node and
//     to_algo to to_node) and "first_mismatches" (the first keys routed
//     differently, with both servers).
//
// # Conformance (conformance): [Conformance]
//
// One row per check of the conformance suite (package conformance) on one
// placement, in the order of conformance.Properties:
//
//   - algo: the placement's name (a program's handshake name).
//   - property: determinism, order, balance, join, leave, weights,
//     replicas, churn or reference; check: what value measures (a
//     property has one or more checks).
//   - value, threshold: the number measured and the largest value that
//     passes (fractions of keys, a coefficient of variation, a count of
//     churn steps); both empty when the check did not run (n/a, or a FAIL
//     because of an error, which detail names).
//   - verdict: PASS (value <= threshold), FAIL, or n/a (the placement
//     declares it does not make the promise).
//   - nodes, keys, seed: the membership's nodes (each of weight 1), the
//     keys every check places (keyset.Keys(keys, seed)) and the seed of
//     every random choice; alpha: the probability that a placement exactly
//     at a statistical tolerance fails; cv_tolerance: the balance
//     tolerance.
//   - facts: the promises the placement made (its handshake, or the
//     catalog); detail: how the check was measured, the first
//     counterexample, or why it did not run (line breaks as " | ").
//   - hash, vnodes (and in JSON "config"): the catalog settings the run
//     gave; an external program reads none of them.
//
// # Key dumps (dump-diff): [DumpDiff], [DumpCell], [DumpMismatch], [DumpGuess]
//
// A dump is the owners a real system gave its keys, KEY<TAB>SERVER lines
// (package dump). Keys and servers are written in the dump's escaping
// (docs/protocol.md: every byte outside ! to ~, and %, as %XX).
//
//   - dump: the dump (A) as named on the command line; against: what it was
//     compared with (B), a placement's name or a second dump; algo: that
//     placement ("" for two dumps); hash: its key hash.
//   - keys: the keys compared (in both dumps, for two sorted dumps); agree:
//     those on the same server; agreement: agree/keys, with agreement_lo
//     and agreement_hi its 95% Clopper-Pearson interval; only_a, only_b:
//     keys in one sorted dump only; labels: the form in which the dump's
//     servers were compared with the placement's node IDs
//     (dump.LabelForms; "as given" compares them as they are).
//   - from_server, to_server, cell_keys: one cell of the from -> to
//     matrix: the keys A places on from_server and B on to_server.
//   - line, key, server_a, server_b, hashes: one of the first mismatches:
//     the line of A, the key, its server in A and B, and "name=0x..." for
//     every key hash and the Redis Cluster slot (to see which hash a
//     system applies).
//   - rank, labels, order, servers (DumpGuess): the closest chbench
//     placements to a dump, best first: the algorithm (algo) with its key
//     hash ("" for one that reads none), the form its node IDs took of the
//     dump's server names, the order of its membership ("as first seen"
//     or "sorted"; "" for unordered algorithms), the distinct servers, and
//     its agreement over the first keys records of the dump.
//
// # Propagation (propagate): [Propagate]
//
// One row per algorithm and time window of a replay in which membership
// changes reach the clients at different times (analysis/propagate; the
// models and formulas are in docs/propagate.md), and one per algorithm
// for the whole span (window -1). Counts are requests per replay: the
// mean over the replays with a 95% Student-t interval (_lo, _hi), and the
// analytic expectation (_expected) beside the routing and store counts.
// The placements are the exact fleet of the given node IDs (no layouts
// drawn), built for the first membership and moved by Rebalance.
//
//   - algo, hash, vnodes, eps, partitions, table_size, probes, capacity,
//     label: the placement, as above.
//   - op, from, to: the scenario (a scenario op or a fleet change label)
//     and its node counts before the first and after the last change.
//   - changes, at_s: the number of membership changes and their times,
//     seconds on the requests' clock, separated by ";".
//   - model: the propagation model in its text form (propagate.ParseModel:
//     instant, linear:T=30s, push:dist=exp,mean=2s, gossip:k=3,p=200ms).
//   - clients: C, the clients the model spreads each change to.
//   - rate, keys, zipf, writes, seed: the generated requests: rate per
//     second from all clients together, evenly spaced, each by a uniform
//     client on one of keys keys (keyset.Keys(keys, seed)) drawn uniformly
//     or with Zipf popularity zipf (0 = uniform), a write with probability
//     writes; seed also draws the propagation.
//   - key_file: the trace replayed in place of generated requests (empty
//     for generated ones; propagate -trace). Its requests come at their
//     own times (from the first request), each from client
//     Mix64(seed ^ salt ^ i) mod clients; keys is then the trace's distinct
//     keys, rate its requests per second over the span, writes the share
//     of its requests that are not gets, and zipf 0.
//   - replays: independent replays (propagation draws and request
//     streams); every interval is over them.
//   - handoff_s: the store workload's hand-off: a change's data is on its
//     new owners this many seconds after the change.
//   - window, start_s, end_s: the window (0-based; -1 the whole span) and
//     its bounds in seconds.
//   - requests, reads: requests and reads in the window (mean per replay).
//   - moved_frac: the share of all requests of a replay whose key the
//     first and the last membership place on different servers (0..1).
//   - stale (+ _lo, _hi, _expected): requests routed by a stale view (the
//     client had not learned the newest change issued).
//   - misrouted (+ _lo, _hi, _expected): the stale requests whose server
//     differs from the one the newest view names: requests sent astray.
//   - not_yet, any_more (+ _lo, _hi, _expected): store reads sent to a
//     server that does not own the key yet (the client's view is newer
//     than the data's) or any more (older).
//   - misses, split_misses, double_cached, stale_reads (+ _lo, _hi):
//     cache-aside: reads that miss; misses while the key's current value
//     is cached on another server, filled there through the other view;
//     fills that leave a key cached on two servers that views in use
//     both name; hits that return a value an invalidation should have
//     removed. Empty (null) without the cache-aside workload (-cache).
//   - JSON: the same fields plus "config".
//
// # Redis resharding (propagate -live): [Redirect]
//
// One row per window of a live resharding of a Redis Cluster on 127.0.0.1
// (live.RunReshard), and one for the whole run (window -1): the redirects
// a client that caches the slot map met, beside the redirect model of the
// same migration (propagate.ExpectRedirects, fed with the migration's
// timing as redis-cli printed it).
//
//   - slots, control_slots, keys_per_slot, pipeline: the slots redis-cli
//     moved from the first master to the second, the slots after them
//     that stay and hold keys too, the keys loaded into each, and the
//     keys per MIGRATE (--cluster-pipeline).
//   - rate, writes, seed: the most requests per second the client sent,
//     the fraction that are SETs, the seed of its request sequence.
//   - redis_version: redis-server's version.
//   - migration_start_s, migration_end_s: when redis-cli announced the
//     first slot and exited, seconds from the client's start.
//   - round_trip_p50_s, round_trip_p999_s, slack_s: the client's round
//     trips and the slack by which an observation of the migration may
//     lag its event (twice the 99.9th percentile).
//   - window, start_s, end_s, requests: the window (by each request's send
//     time; -1 the whole run), its bounds and the requests sent in it.
//   - ask, moved: the ASK and MOVED redirects observed.
//   - ask_model (+ _lo, _hi), ask_sd: the model's expected ASK count, its
//     bracket over the timing uncertainty and the binomial standard
//     deviation of the count; a count within the bracket +- 4 sd agrees.
//   - moved_model_lo, moved_model_hi: the MOVED count the model allows
//     (exactly one per migrated slot over the whole run).
//   - JSON: the same fields plus "config".
package schema
