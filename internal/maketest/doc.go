// Package maketest holds the tests of the repository's Makefile: that
// `make bench` writes exactly the result files package schema lists, how
// `make bench` and `make quick` behave when interrupted, what `make compare`
// passes to benchstat and when it warns, and where `make report` writes a
// profile's report. It has no code of its own; the tests run make on a
// copy of the Makefile with stand-ins for go, benchstat and chbench.
package maketest
