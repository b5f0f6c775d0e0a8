package analysis

// EachConfig calls fn with the options of every algorithm, hash and vnodes
// configuration of s (ignoring s.Nodes and s.Ops), in the order
// SweepSpread and SweepMove use: algos outermost, then hashes, then vnodes
// (varied only for algorithms that use them). It stops at the first error,
// naming the configuration. Callers use it to run one explicit membership or
// resize for every configuration.
func (s Sweep) EachConfig(o Options, fn func(o Options) error) error {
	one := s
	one.Nodes = []int{0}
	return one.each(o, func(c Options, _ int) error { return fn(c) })
}
