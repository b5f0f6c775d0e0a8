package analysis

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

// DefaultNodeGrid returns the node counts of the default sweep: a log grid
// from 3 to 10,000 with 4 points per decade (see NodeGrid).
func DefaultNodeGrid() []int {
	g, _ := NodeGrid(3, 10000, 4)
	return g
}

// NodeGrid returns node counts from lo to hi (both included) spaced
// evenly on a log scale, perDecade per factor of 10: round(lo *
// 10^(i/perDecade)) for i = 0, 1, ... while below hi, then hi, without
// duplicates, ascending. It returns an error naming the bad value when lo
// < 1, hi < lo or perDecade < 1.
func NodeGrid(lo, hi, perDecade int) ([]int, error) {
	if lo < 1 {
		return nil, fmt.Errorf("grid start %d: need at least 1 node", lo)
	}
	if hi < lo {
		return nil, fmt.Errorf("grid end %d is below its start %d", hi, lo)
	}
	if perDecade < 1 {
		return nil, fmt.Errorf("points per decade %d: need at least 1", perDecade)
	}
	var out []int
	for i := 0; ; i++ {
		x := int(math.Round(float64(lo) * math.Pow(10, float64(i)/float64(perDecade))))
		if x >= hi {
			break
		}
		out = append(out, x)
	}
	out = append(out, hi)
	return slices.Compact(out), nil
}

// RingVNodeGrid returns the virtual-node counts of the ring sweep: 1, 10,
// 50, 100, 200, 500, 1000.
func RingVNodeGrid() []int { return []int{1, 10, 50, 100, 200, 500, 1000} }

// WeightedNodes returns one node per weight, with the default IDs node-0,
// node-1, ... It returns an error naming the first weight that is not a
// finite number > 0, or for no weights.
func WeightedNodes(weights []float64) ([]algorithms.Node, error) {
	if len(weights) == 0 {
		return nil, algorithms.ErrNoNodes
	}
	nodes := make([]algorithms.Node, len(weights))
	for i, w := range weights {
		if err := algorithms.ValidateWeight(w); err != nil {
			return nil, fmt.Errorf("node %d: %w", i, err)
		}
		nodes[i] = algorithms.Node{ID: algorithms.NodeID(i), Weight: w}
	}
	return nodes, nil
}

// Sweep is a grid of configurations. Every field left empty takes the
// single value from the Options passed to SweepSpread or SweepMove.
type Sweep struct {
	Algos  []string // algorithm names; empty: Options.Algo
	Hashes []string // hash names; empty: Options.Config.Hash
	VNodes []int    // applied to ring and bounded only; empty: Options.Config.VNodes
	Nodes  []int    // node counts (equal weights); empty: 10
	Ops    []string // movement scenarios (see schema.Ops); empty: "add"
	// Scenarios, if not empty, are explicit membership changes (a resize,
	// a real fleet's planned changes: FleetChange.Scenarios) that every
	// configuration runs instead of Nodes x Ops. An explicit scenario is
	// what the user asked for: one that cannot reach Options.MinMoves is
	// an error, not left out.
	Scenarios []Scenario
	// Members, if not empty, is an explicit membership (named nodes,
	// weights) that every configuration spreads keys over instead of
	// Nodes equal-weight nodes.
	Members []algorithms.Node
	// Addresses names the nodes the sweep generates (Nodes counts and
	// the scenarios of Ops) by server addresses, node i being
	// 127.0.0.1:<11211+i> ([AddressID]), instead of node-i: set it when
	// Algos include a dialect ([HasDialect]), which places host:port IDs
	// only. Scenarios and Members are used as given.
	Addresses bool
}

// eachScenario calls fn with the options of every configuration of s and
// each of s.Scenarios, configurations outermost; errors name the
// configuration and the scenario (once: the scenario's own errors name
// it already).
func (s Sweep) eachScenario(o Options, fn func(o Options, sc Scenario) error) error {
	return s.EachConfig(o, func(c Options) error {
		for _, sc := range s.Scenarios {
			if err := fn(c, sc); err != nil {
				return scenarioError(sc, err)
			}
		}
		return nil
	})
}

// scenarioError returns err naming sc ("<op> from <n> nodes: "), unless
// it names it already ("scenario <op> ...").
func scenarioError(sc Scenario, err error) error {
	if strings.HasPrefix(err.Error(), "scenario "+sc.Op+" ") || strings.HasPrefix(err.Error(), "scenario "+sc.Op+":") {
		return err
	}
	return fmt.Errorf("%s from %d nodes: %w", sc.Op, len(sc.Initial), err)
}

// KeepWeighted narrows s.Algos to the algorithms that accept weights when
// a membership of s.Scenarios has a node of weight other than 1, and
// returns the algorithms it leaves out (none when every weight is 1).
func (s *Sweep) KeepWeighted() (skipped []string) {
	if !weighted(s.Scenarios) {
		return nil
	}
	var keep []string
	for _, name := range s.Algos {
		if in, _ := catalog.Describe(name); in.Weighted {
			keep = append(keep, name)
		} else {
			skipped = append(skipped, name)
		}
	}
	s.Algos = keep
	return skipped
}

// weighted reports whether a membership of any scenario has a node of
// weight other than 1.
func weighted(scs []Scenario) bool {
	for _, sc := range scs {
		ms, err := sc.Memberships()
		if err != nil {
			return true // reported when the scenario runs
		}
		for _, m := range ms {
			for _, n := range m {
				if n.Weight != 1 {
					return true
				}
			}
		}
	}
	return false
}

// SweepKeys returns the keys a sweep of s streams, for a progress
// display's total: per configuration, one run of o.RunKeys keys for each
// of s.Scenarios, or for each node count and op.
func SweepKeys(o Options, s Sweep) int64 {
	runs := len(s.Scenarios)
	if runs == 0 {
		runs = len(orOne(s.Nodes, 10)) * len(orOne(s.Ops, schema.OpAdd))
	}
	configs := 0
	_ = s.EachConfig(o, func(Options) error { configs++; return nil })
	return o.RunKeys() * int64(configs) * int64(runs)
}

func orOne[T any](xs []T, def T) []T {
	if len(xs) == 0 {
		return []T{def}
	}
	return xs
}

// each calls fn with the options of every configuration of s and every
// node count, in the order algos, hashes, vnodes, nodes (nested loops,
// outermost first).
func (s Sweep) each(o Options, fn func(o Options, n int) error) error {
	return s.EachConfig(o, func(c Options) error {
		for _, n := range orOne(s.Nodes, 10) {
			if err := fn(c, n); err != nil {
				return fmt.Errorf("nodes=%d: %w", n, err)
			}
		}
		return nil
	})
}

// SweepSpread runs Spread for every configuration of s on equal-weight
// nodes (or on s.Members) and returns the results in sweep order. The
// vnodes values vary only for algorithms that use them. Every
// configuration is checked first ([CheckSpread]), so a bad one fails
// before any key is streamed; the error names the configuration.
func SweepSpread(o Options, s Sweep) ([]schema.Spread, error) {
	if err := s.CheckSpread(o); err != nil {
		return nil, err
	}
	var out []schema.Spread
	err := s.eachMembership(o, func(c Options, nodes []algorithms.Node) error {
		r, err := Spread(c, nodes)
		out = append(out, r)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// eachMembership calls fn with every configuration of s and s.Members, or
// each node count's equal-weight nodes (naming the count in errors).
func (s Sweep) eachMembership(o Options, fn func(c Options, nodes []algorithms.Node) error) error {
	if len(s.Members) > 0 {
		return s.EachConfig(o, func(c Options) error { return fn(c, s.Members) })
	}
	return s.each(o, func(c Options, n int) error {
		nodes, err := s.nodes(n)
		if err != nil {
			return err
		}
		return fn(c, nodes)
	})
}

// CheckSpread returns the first error SweepSpread(o, s) would meet before
// streaming a key ([CheckSpread] of every configuration and membership),
// naming the configuration.
func (s Sweep) CheckSpread(o Options) error {
	var kept int64
	return s.eachMembership(o, func(c Options, nodes []algorithms.Node) error {
		if err := CheckSpread(c, nodes); err != nil {
			return err
		}
		kept += keptSpreadBytes(c, len(nodes))
		return checkKept(c, kept)
	})
}

// keptNodeBytes is what a spread result keeps per node until it is written:
// its NodeShare row, and the CSV or JSON text of that row when it is
// encoded (about 200 B); 8 B per node and key set come on top.
const keptNodeBytes = 96 + 200

// keptSpreadBytes is what the result of a spread of o on n nodes keeps
// until the sweep's results are written.
func keptSpreadBytes(o Options, n int) int64 {
	return int64(n)*(keptNodeBytes+8*int64(o.sets())) + int64(o.sets())*keptSampleBytes
}

// checkKept returns an error when the results a sweep has kept so far
// (kept bytes) exceed half the memory budget of o: a sweep holds every
// result until it writes them, so many large fleets add up.
func checkKept(o Options, kept int64) error {
	if b := o.Config.Budget(); kept > b/2 {
		return fmt.Errorf("the sweep's results up to here keep about %s of per-node shares and per-set samples until they are written, over half the memory budget of %s: sweep fewer or smaller configurations or sets per run, or raise the budget (-mem)",
			catalog.HumanBytes(kept), catalog.HumanBytes(b))
	}
	return nil
}

// CheckMove returns the first error SweepMove(o, s) would meet before
// streaming a key ([CheckMovement] of every configuration, node count and
// scenario), naming the configuration.
func (s Sweep) CheckMove(o Options) error {
	if len(s.Scenarios) > 0 {
		var kept int64
		return s.eachScenario(o, func(c Options, sc Scenario) error {
			if err := CheckMovement(c, sc); err != nil {
				return err
			}
			kept += int64(c.sets()) * keptSampleBytes
			return checkKept(c, kept)
		})
	}
	// The work bound first, for every configuration: it needs no
	// membership, so a chain too long to build is refused at once.
	err := s.each(o, func(c Options, n int) error {
		for _, op := range orOne(s.Ops, schema.OpAdd) {
			sc, err := s.scenario(op, n, c.Seed, 0)
			if err != nil {
				return err
			}
			if err := checkExpectedMoves(c, sc); errors.Is(err, ErrTooFewMoves) {
				continue // left out by SweepMove, which lists it
			} else if err != nil {
				return fmt.Errorf("%s: %w", op, err)
			}
			layouts, err := c.layouts(c.sets())
			if err != nil {
				return err
			}
			if err := checkChain(c, sc, layouts); err != nil {
				return fmt.Errorf("%s: %w", op, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	var kept int64
	return s.each(o, func(c Options, n int) error {
		for _, op := range orOne(s.Ops, schema.OpAdd) {
			sc, err := s.scenario(op, n, c.Seed, 0)
			if err != nil {
				return err
			}
			if err := CheckMovement(c, sc); errors.Is(err, ErrTooFewMoves) {
				continue // left out by SweepMove, which lists it
			} else if err != nil {
				return fmt.Errorf("%s: %w", op, err)
			}
			kept += int64(c.sets()) * keptSampleBytes
			if err := checkKept(c, kept); err != nil {
				return err
			}
		}
		return nil
	})
}

// keptSampleBytes is what a result keeps per key set until it is written:
// the sample, and its line of benchfmt or JSON text when encoded.
const keptSampleBytes = 32 + 200

// SweepMove runs Movement for every configuration of s and every scenario
// op in s.Ops (NewScenario(op, n, o.Seed)), or every one of s.Scenarios,
// and returns the results in sweep order, scenarios innermost. Every configuration and scenario is checked first
// ([CheckMovement]), so a bad one fails before any key is streamed. A
// scenario that cannot reach o.MinMoves expected moves within o.MaxKeys
// keys per set is left out and described in skipped (one line per
// scenario, naming the op, node count and keys needed, whatever the
// algorithms). It stops at the first other error, naming the configuration.
func SweepMove(o Options, s Sweep) (out []schema.Move, skipped []string, err error) {
	if err := s.CheckMove(o); err != nil {
		return nil, nil, err
	}
	if len(s.Scenarios) > 0 {
		err := s.eachScenario(o, func(c Options, sc Scenario) error {
			r, err := Movement(c, sc)
			out = append(out, r)
			return err
		})
		if err != nil {
			return nil, nil, err
		}
		return out, nil, nil
	}
	err = s.each(o, func(c Options, n int) error {
		for _, op := range orOne(s.Ops, schema.OpAdd) {
			sc, err := s.scenario(op, n, c.Seed, 0)
			if err != nil {
				return err
			}
			r, err := Movement(c, sc)
			if errors.Is(err, ErrTooFewMoves) {
				// The keys needed depend on the scenario only: one line
				// for every algorithm.
				if msg := err.Error(); !slices.Contains(skipped, msg) {
					skipped = append(skipped, msg)
				}
				continue
			}
			if err != nil {
				return err
			}
			out = append(out, r)
		}
		return nil
	})
	if err != nil {
		return nil, skipped, err
	}
	return out, skipped, nil
}
