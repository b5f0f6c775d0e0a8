package analysis

import (
	"fmt"
	"math"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/bounded"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/slots"

	"github.com/chbench/chbench/analysis/schema"
	"github.com/chbench/chbench/keyset"
)

// MoveCount holds the counts of one key set over a chain of placements.
type MoveCount struct {
	Keys       int64 // keys in the set
	Moves      int64 // owner changes summed over the steps (a key can move at several steps)
	Collateral int64 // moves whose old and new owner are both members before and after that step
	Net        int64 // keys whose final owner differs from their first owner
}

// CountMoves streams src through the placements chain[0], chain[1], ...
// (each normally the previous one's Rebalance) and counts, per key set,
// the owner changes between consecutive placements. Owners are compared by
// node ID: each placer's node indexes are mapped once to IDs shared by the
// whole chain. It returns one MoveCount per set, or an error for a chain of
// fewer than two placements or a failing source. The counts do not depend
// on workers.
func CountMoves(src keyset.Source, chain []algorithms.Placer, workers int) ([]MoveCount, error) {
	if len(chain) < 2 {
		return nil, fmt.Errorf("movement needs at least two placements, got %d", len(chain))
	}
	// Global node numbers in order of first appearance along the chain.
	ids := map[string]int32{}
	gids := make([][]int32, len(chain))
	for t, p := range chain {
		nodes := p.Nodes()
		gids[t] = make([]int32, len(nodes))
		for i, n := range nodes {
			g, ok := ids[n.ID]
			if !ok {
				g = int32(len(ids))
				ids[n.ID] = g
			}
			gids[t][i] = g
		}
	}
	// stable[t][g]: node g is a member of chain[t] and chain[t+1].
	stable := make([][]bool, len(chain)-1)
	for t := range stable {
		in := make([]bool, len(ids))
		for _, g := range gids[t] {
			in[g] = true
		}
		stable[t] = make([]bool, len(ids))
		for _, g := range gids[t+1] {
			stable[t][g] = in[g]
		}
	}
	sets := src.Sets()
	workers = keyset.Workers(workers)
	counts := make([][]MoveCount, workers)
	for w := range counts {
		counts[w] = make([]MoveCount, sets)
	}
	err := src.Each(workers, func(w, set int, keys []string) {
		c := &counts[w][set]
		var moves, coll, net int64
		for _, k := range keys {
			p := chain[0]
			first := gids[0][p.LocateHash(p.HashKey(k))]
			prev := first
			for t := 1; t < len(chain); t++ {
				p = chain[t]
				o := gids[t][p.LocateHash(p.HashKey(k))]
				if o != prev {
					moves++
					if stable[t-1][prev] && stable[t-1][o] {
						coll++
					}
					prev = o
				}
			}
			if prev != first {
				net++
			}
		}
		c.Keys += int64(len(keys))
		c.Moves += moves
		c.Collateral += coll
		c.Net += net
	})
	if err != nil {
		return nil, err
	}
	out := make([]MoveCount, sets)
	for w := range counts { // fixed order; integer sums are exact anyway
		for s, c := range counts[w] {
			out[s].Keys += c.Keys
			out[s].Moves += c.Moves
			out[s].Collateral += c.Collateral
			out[s].Net += c.Net
		}
	}
	for s, c := range out {
		if c.Keys == 0 {
			return nil, fmt.Errorf("key set %d is empty", s)
		}
	}
	return out, nil
}

// MoveSample holds the fractions (0..1) measured on one key set.
type MoveSample = schema.MoveSample

// MoveResult is the movement of one algorithm through one scenario.
//
// Moved is the number of owner changes summed over the scenario's steps,
// as a fraction of the keys (for a one-step scenario, the moved fraction;
// for shrink and churn, the total, which can exceed 1). Ideal is the sum of
// the steps' [IdealFraction]s, MovedOverIdeal = Moved.Mean / Ideal.
// Collateral counts the moves between two nodes that were members both
// before and after the step. Net is the fraction of keys whose last owner
// differs from their first: for restore, the keys not back on their
// original owner. Estimates are means over the key sets with 95% intervals
// (see [MeanCI]).
type MoveResult struct {
	Config         RunConfig
	Op             string
	From, To       int // node counts before the first and after the last step
	Steps          int
	Moved          Estimate
	Ideal          float64
	MovedOverIdeal float64
	Collateral     Estimate
	Net            Estimate
	Samples        []MoveSample // one per key set, in set order
}

// MaxChainCost bounds the size of a movement's chain of placements, which
// are all held at once while keys stream through them: the sum over the
// placements of one unit per node, per virtual node (ring, bounded), per
// partition (bounded) and per hash slot (slots). 2^27 units, a few GiB at
// most, admit every default sweep; a shrink on tens of thousands of nodes
// (one placement per step) is refused up front instead of exhausting memory.
const MaxChainCost = 1 << 27

// checkChain returns an error naming the scenario when its chain of
// placements for the algorithm of o would exceed MaxChainCost. It walks the
// steps with one map of the current members, without building the
// memberships.
func checkChain(o Options, sc Scenario) error {
	perNode := func(w float64) int64 {
		if !catalog.UsesVNodes(o.Algo) {
			return 1
		}
		return int64(math.Max(1, math.Min(math.Round(float64(o.Config.VNodes)*w), MaxChainCost+1)))
	}
	var fixed int64
	switch o.Algo {
	case slots.Name:
		fixed = slots.NumSlots
	case bounded.Name:
		fixed = int64(o.Config.Partitions)
	}
	cur := make(map[string]int64, len(sc.Initial))
	var size int64
	for _, n := range sc.Initial {
		c := perNode(n.Weight)
		cur[n.ID] = c
		size += c
	}
	total := size + fixed
	for _, st := range sc.Steps {
		for _, id := range st.Leave {
			size -= cur[id]
			delete(cur, id)
		}
		for _, n := range st.Join {
			c := perNode(n.Weight)
			cur[n.ID] = c
			size += c
		}
		if total += size + fixed; total > MaxChainCost {
			break
		}
	}
	if total > MaxChainCost {
		return fmt.Errorf("scenario %s from %d nodes: its %d placements would hold more than %d nodes, virtual nodes, partitions and slots together (max %d): use fewer nodes, steps or vnodes",
			sc.Op, len(sc.Initial), len(sc.Steps)+1, total, MaxChainCost)
	}
	return nil
}

// Placements builds the chain of placements of sc for the algorithm in o:
// catalog.New on the initial membership, then each step as the previous
// placement's Rebalance to the next membership. It returns the
// constructor's or Rebalance's error, naming the step, or an error when the
// chain would exceed MaxChainCost.
func Placements(o Options, sc Scenario) ([]algorithms.Placer, error) {
	if err := checkChain(o, sc); err != nil {
		return nil, err
	}
	ms, err := sc.Memberships()
	if err != nil {
		return nil, err
	}
	p, err := catalog.New(o.Algo, ms[0], o.Config)
	if err != nil {
		return nil, err
	}
	chain := []algorithms.Placer{p}
	for i, m := range ms[1:] {
		p, err = p.Rebalance(m)
		if err != nil {
			return nil, fmt.Errorf("scenario %s: step %d: %w", sc.Op, i+1, err)
		}
		chain = append(chain, p)
	}
	return chain, nil
}

// Movement runs scenario sc for the algorithm and keys of o and returns its
// MoveResult. It returns an error for invalid options (unknown algorithm,
// bad config, keys < 1, sets < 1, unreadable key file, workers > MaxWorkers,
// more than MaxCounters counters), an invalid scenario, a chain of
// placements over MaxChainCost, or a membership the algorithm rejects.
func Movement(o Options, sc Scenario) (*MoveResult, error) {
	src, rc, err := o.prepare()
	if err != nil {
		return nil, err
	}
	if err := checkCounters(o.Workers, src.Sets(), 4, 1, "4 counts"); err != nil {
		return nil, err
	}
	if err := checkChain(o, sc); err != nil {
		return nil, err
	}
	ms, err := sc.Memberships()
	if err != nil {
		return nil, err
	}
	chain, err := Placements(o, sc)
	if err != nil {
		return nil, err
	}
	counts, err := CountMoves(src, chain, o.Workers)
	if err != nil {
		return nil, err
	}
	r := &MoveResult{Config: rc, Op: sc.Op, From: len(ms[0]), To: len(ms[len(ms)-1]), Steps: len(sc.Steps)}
	for i := 1; i < len(ms); i++ {
		r.Ideal += IdealFraction(ms[i-1], ms[i])
	}
	moved := make([]float64, len(counts))
	coll := make([]float64, len(counts))
	net := make([]float64, len(counts))
	for s, c := range counts {
		k := float64(c.Keys)
		moved[s], coll[s], net[s] = float64(c.Moves)/k, float64(c.Collateral)/k, float64(c.Net)/k
		r.Samples = append(r.Samples, MoveSample{Moved: moved[s], Collateral: coll[s], Net: net[s]})
	}
	r.Moved, r.Collateral, r.Net = mustCI(moved), mustCI(coll), mustCI(net)
	r.MovedOverIdeal = r.Moved.Mean / r.Ideal // Memberships guarantees Ideal > 0
	return r, nil
}
