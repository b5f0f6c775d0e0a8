// Package report writes chbench's design-review report (REPORT.md): the
// run (machine, Go version, commit, seed, keys, fleet shape), verdicts (the
// first pick of each rule), a trade-off table with one row per algorithm
// and per form of bounded loads, one section per question a review asks
// (how much moves, how even, hot keys, lookup time, the cost of a node
// failure with replicas), each with its plot and a takeaway, and "pick
// this if" rules applied to the table.
//
// Every number and every ordering in the report is read or computed from
// the result files of one directory (lookup.txt, movement.csv, spread.csv,
// load.csv, storm.csv, replication.csv, boundedloads.csv, as
// package schema defines them; lookup medians and their intervals through
// x/perf's benchmath) and the catalog's facts; the sentences are
// templates, so a different run rewrites them. Orderings respect the 95%
// intervals the files give: values whose intervals overlap the best's are
// reported as tied (bold cells, "≈" in the rules), never ranked. The
// rules' conditions are measured numbers against stated limits (moved/ideal
// at most 1.1, at most 1 key in 10,000 losing every replica, lookup growth
// at most 2x), except "takes weights", a catalog capability; each rule
// names what it left out and the number that failed.
// A [Profile] says which node counts, replication factor and Zipf exponent
// the reader cares about; the report uses the nearest values the files
// hold and says which. [Compare] lists how the headline numbers of two
// runs differ.
//
// Like plots, the package reads results and never runs an algorithm.
package report
