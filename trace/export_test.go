package trace

// SniffOracle exposes the oracle-general detector to the tests.
var SniffOracle = sniffOracle
