// Package report writes chbench's design-review report (REPORT.md): the
// run (machine, Go version, commit, seed, keys, fleet shape), a trade-off
// table with one row per algorithm, one section per question a review
// asks (how much moves, how even, hot keys, lookup time, the cost of a
// node failure with replicas), each with its plot and a takeaway, and
// "pick this if" rules applied to the table.
//
// Every number and every ordering in the report is read or computed from
// the result files of one directory (lookup.txt, movement.csv, spread.csv,
// load.csv, storm.csv, replication.csv, as analysis/schema defines them;
// lookup medians through x/perf's benchmath) and the catalog's facts; the
// sentences are templates, so a different run rewrites them. A [Profile]
// says which node counts, replication factor and Zipf exponent the reader
// cares about; the report uses the nearest values the files hold and says
// which. [Compare] lists how the headline numbers of two runs differ.
//
// Like plots, the package reads results and never runs an algorithm.
package report
