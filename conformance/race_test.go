//go:build race

package conformance

// raceEnabled reports whether this test binary was built with -race: the
// example module is then tested with the same flags, so that it reuses
// this build's cached packages.
const raceEnabled = true
