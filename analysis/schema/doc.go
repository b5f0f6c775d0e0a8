// Package schema is the one definition of chbench's result files: the row
// types ([Move], [Spread], [Share], [Config]), their column names
// ([MoveColumns], [SpreadColumns], [ShareColumns] and the Col* constants),
// the writers for CSV, JSON and the Go benchmark format, and the reader
// ([Table]) that plots and other consumers use, so writer and readers
// cannot drift apart. The analysis package fills the rows
// (analysis.MoveRows, analysis.SpreadRows); cmd/chbench writes them; the
// plots package reads them back. [WriteFile] writes any results file
// atomically.
//
// # Formats
//
// CSV has one header line of column names, then one row per result;
// floats use the shortest representation that reads back exactly, and an
// absent value is an empty cell. JSON is an indented array of objects
// whose field names are the CSV column names, plus "config" (a [Config]
// object) and "samples" (the per-key-set values); for spread, "shares"
// (one [Share] per node); an absent value is null. In JSON, eps,
// partitions, table_size, probes, capacity, key_file, key_kind, go_version
// and commit live only in "config". The
// benchmark format (golang.org/x/perf/benchfmt, for benchstat) has one line
// per key set; see [WriteMoveBench] and [WriteSpreadBench] for the names,
// units and configuration lines.
//
// # Run configuration (every file)
//
//   - algo: the algorithm's catalog name.
//   - hash: the configured key hash, resolved ("" becomes the default);
//     slots always hashes with CRC-16 and ketama with MD5, whatever it says.
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
//   - key_kind (JSON config and benchfmt only, absent for the default
//     "random"): the shape of generated keys (keyset.KeyKinds).
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
//   - label: the algorithm and its variant as tables and plots name it,
//     e.g. "bounded (partitions)", "jump (swap-last)" where a node other
//     than the last leaves (catalog.Info.Label).
//
// Intervals (*_lo, *_hi) are 95% Student-t intervals over the key sets
// (gonum distuv.StudentsT); with one set there is none and lo = hi =
// mean. Intervals of quantities that cannot be negative are truncated at
// 0.
//
// # Movement (move): [MoveColumns]
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
//   - moved_over_ideal: moved_frac / ideal_frac (1 = ideal).
//   - collateral_frac (+ _lo, _hi): moves between two nodes present both
//     before and after a step.
//   - net_moved_frac (+ _lo, _hi): keys whose last owner differs from their
//     first; for restore, the keys not back on their original owner.
//   - steps: membership changes in the scenario.
//   - expected_moves: ideal_frac x keys of one set, the moved keys a key
//     set expects; with -min-moves (default 1,000) keys are raised until it
//     reaches that, and plots draw no point below 1,000.
//   - JSON samples: moved_frac, collateral_frac, net_moved_frac per key set.
//
// # Spread (spread): [SpreadColumns]
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
//     sqrt((n-1)/K); peak-to-mean simulated with a fixed seed).
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
//
// # Per-node shares (spread -shares): [ShareColumns]
//
// The run configuration and nodes as above, then per node: id, weight,
// weight_share (weight / total weight, the ideal share), share (+ _lo,
// _hi: the measured fraction of keys), share_error = share -
// weight_share, exact_share (empty without exact shares). JSON spread
// objects carry the same fields in "shares".
package schema
