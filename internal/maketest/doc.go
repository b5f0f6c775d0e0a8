// Package maketest holds the tests of the repository's Makefile: how `make
// bench` and `make quick` behave when interrupted, what `make compare`
// passes to benchstat and when it warns, and where `make report` writes a
// profile's report. It has no code of its own; the tests run make on a
// copy of the Makefile with stand-ins for go, benchstat and chbench.
package maketest
