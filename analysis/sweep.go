package analysis

import (
	"errors"
	"fmt"
	"math"
	"slices"

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
// nodes and returns the results in sweep order. The vnodes values vary only
// for algorithms that use them. Every configuration is checked first
// ([CheckSpread]), so a bad one fails before any key is streamed; the error
// names the configuration.
func SweepSpread(o Options, s Sweep) ([]schema.Spread, error) {
	if err := s.CheckSpread(o); err != nil {
		return nil, err
	}
	var out []schema.Spread
	err := s.each(o, func(c Options, n int) error {
		nodes, err := algorithms.DefaultNodes(n)
		if err != nil {
			return err
		}
		r, err := Spread(c, nodes)
		if err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// CheckSpread returns the first error SweepSpread(o, s) would meet before
// streaming a key ([CheckSpread] of every configuration and node count),
// naming the configuration.
func (s Sweep) CheckSpread(o Options) error {
	var kept int64
	return s.each(o, func(c Options, n int) error {
		nodes, err := algorithms.DefaultNodes(n)
		if err != nil {
			return err
		}
		if err := CheckSpread(c, nodes); err != nil {
			return err
		}
		kept += keptSpreadBytes(c, n)
		return checkKept(c, kept)
	})
}

// CheckSpreadEach returns the first error SpreadEach(o, s, nodes) would
// meet before streaming a key, naming the configuration.
func (s Sweep) CheckSpreadEach(o Options, nodes []algorithms.Node) error {
	var kept int64
	return s.EachConfig(o, func(c Options) error {
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
	// The work bound first, for every configuration: it needs no
	// membership, so a chain too long to build is refused at once.
	err := s.each(o, func(c Options, n int) error {
		for _, op := range orOne(s.Ops, schema.OpAdd) {
			sc, err := NewScenario(op, n, c.Seed)
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
			sc, err := NewScenario(op, n, c.Seed)
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

// SpreadEach runs Spread on one explicit membership for every algorithm,
// hash and vnodes configuration of s (s.Nodes and s.Ops are ignored),
// after checking every configuration ([CheckSpread]); the error names the
// configuration.
func SpreadEach(o Options, s Sweep, nodes []algorithms.Node) ([]schema.Spread, error) {
	if err := s.CheckSpreadEach(o, nodes); err != nil {
		return nil, err
	}
	var out []schema.Spread
	err := s.EachConfig(o, func(c Options) error {
		r, err := Spread(c, nodes)
		out = append(out, r)
		return err
	})
	return out, err
}

// MoveEach runs Movement through one explicit scenario for every algorithm,
// hash and vnodes configuration of s (s.Nodes and s.Ops are ignored),
// after checking every configuration ([CheckMovement]); the error names
// the configuration.
func MoveEach(o Options, s Sweep, sc Scenario) ([]schema.Move, error) {
	if err := s.EachConfig(o, func(c Options) error { return CheckMovement(c, sc) }); err != nil {
		return nil, err
	}
	var out []schema.Move
	err := s.EachConfig(o, func(c Options) error {
		r, err := Movement(c, sc)
		out = append(out, r)
		return err
	})
	return out, err
}

// SweepMove runs Movement for every configuration of s and every scenario
// op in s.Ops (NewScenario(op, n, o.Seed)) and returns the results in sweep
// order, ops innermost. Every configuration and scenario is checked first
// ([CheckMovement]), so a bad one fails before any key is streamed. A
// scenario that cannot reach o.MinMoves expected moves within o.MaxKeys
// keys per set is left out and described in skipped (one line per
// scenario, naming the op, node count and keys needed, whatever the
// algorithms). It stops at the first other error, naming the configuration.
func SweepMove(o Options, s Sweep) (out []schema.Move, skipped []string, err error) {
	if err := s.CheckMove(o); err != nil {
		return nil, nil, err
	}
	err = s.each(o, func(c Options, n int) error {
		for _, op := range orOne(s.Ops, schema.OpAdd) {
			sc, err := NewScenario(op, n, c.Seed)
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
