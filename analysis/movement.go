package analysis

import (
	"errors"
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
	Collateral int64 // moves no ideal placement makes: from a node whose weight share did not shrink, or to one whose share did not grow (see ShareChanges)
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
	return CountMovesPerSet(src, [][]algorithms.Placer{chain}, workers)
}

// chainIDs maps the node indexes of a chain of placements to global node
// numbers (gids[t][i], in order of first appearance along the chain by ID)
// and marks, per step t, whose weight share shrinks or grows
// (needed[t][g], see ShareChanges).
type chainIDs struct {
	gids   [][]int32
	needed [][]uint8
}

func newChainIDs(chain []algorithms.Placer) chainIDs {
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
	// needed[t][g]: ShareShrinks when node g's weight share shrinks at
	// step t+1 (a move from it can be necessary), ShareGrows when it grows
	// (a move to it can be); see ShareChanges.
	return chainIDs{gids, ShareChanges(chain, gids, len(ids))}
}

// CountMovesPerSet is CountMoves with one chain of placements per key set
// (chains[s] for set s, all of the same length), or a single chain
// (len(chains) == 1) for every set: the per-set placement mode, where each
// key set sees its own layout. It returns an error for a chain of fewer
// than two placements, a number of chains that is neither 1 nor the number
// of sets, or a failing source.
func CountMovesPerSet(src keyset.Source, chains [][]algorithms.Placer, workers int) ([]MoveCount, error) {
	if len(chains) != 1 && len(chains) != src.Sets() {
		return nil, fmt.Errorf("%d chains of placements for %d key sets: want 1 or one per set", len(chains), src.Sets())
	}
	maps := make([]chainIDs, len(chains))
	for c, chain := range chains {
		if len(chain) < 2 {
			return nil, fmt.Errorf("movement needs at least two placements, got %d", len(chain))
		}
		maps[c] = newChainIDs(chain)
	}
	sets := src.Sets()
	workers = keyset.Workers(workers)
	counts := make([][]MoveCount, workers)
	for w := range counts {
		counts[w] = make([]MoveCount, sets)
	}
	err := src.Each(workers, func(w, set int, keys []string) {
		c := &counts[w][set]
		chain, m := forSet(chains, set), forSet(maps, set)
		gids, needed := m.gids, m.needed
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
					if needed[t-1][prev] != ShareShrinks || needed[t-1][o] != ShareGrows {
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
// Collateral counts the moves no ideal placement makes (see
// [ShareChanges]): from a node whose weight share did not shrink or to one
// whose share did not grow; for joins and leaves of equal-weight nodes,
// exactly the moves between two nodes that were members both before and
// after the step. Net is the fraction of keys whose last owner
// differs from their first: for restore, the keys not back on their
// original owner. Estimates are means over the key sets with 95% intervals
// (see [MeanCI]).
type MoveResult struct {
	Config         RunConfig
	Label          string // catalog Info.Label: the algorithm, its variant and (when a node other than the last leaves) its leave policy
	Op             string
	From, To       int // node counts before the first and after the last step
	Steps          int
	Moved          Estimate
	Ideal          float64
	MovedOverIdeal float64
	// ExpectedMoves is the moved keys one key set expects: Ideal times its
	// keys (for a key file, times keys/sets). Below about 1,000 a set's
	// moved fraction is mostly counting noise.
	ExpectedMoves float64
	Collateral    Estimate
	Net           Estimate
	Samples       []MoveSample // one per key set, in set order
}

// MaxChainCost bounds the size of a movement's chain of placements, which
// are all held at once while keys stream through them: the sum over the
// placements of one unit per node, per virtual node (ring, bounded), per
// partition (bounded) and per hash slot (slots). 2^27 units, a few GiB at
// most, admit every default sweep; a shrink on tens of thousands of nodes
// (one placement per step) is refused up front instead of exhausting memory.
const MaxChainCost = 1 << 27

// maxMembers returns the size of the largest membership of sc, counted
// without building the memberships (joins minus leaves, step by step).
func maxMembers(sc Scenario) int {
	n := len(sc.Initial)
	best := n
	for _, st := range sc.Steps {
		n += len(st.Join) - len(st.Leave)
		best = max(best, n)
	}
	return best
}

// scenarioConfig returns o.Config with automatic bounded partitions
// resolved for the largest membership of sc, so that every placement of
// the chain has the same partitions.
func scenarioConfig(o Options, sc Scenario) catalog.Config {
	c := o.Config
	c.Partitions = c.PartitionsFor(maxMembers(sc))
	return c
}

// checkChain returns an error naming the scenario when its chains of
// placements (layouts of them, one per key set in per-set mode) for the
// algorithm of o would exceed MaxChainCost. It walks the steps with one
// map of the current members, without building the memberships.
func checkChain(o Options, sc Scenario, layouts int) error {
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
		fixed = int64(scenarioConfig(o, sc).Partitions)
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
		for _, n := range st.Reweight { // in place; unknown IDs are Memberships' error
			if old, ok := cur[n.ID]; ok {
				c := perNode(n.Weight)
				cur[n.ID] = c
				size += c - old
			}
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
	if total *= int64(layouts); total > MaxChainCost {
		return fmt.Errorf("scenario %s from %d nodes: its %d placements (x %d layouts) would hold more than %d nodes, virtual nodes, partitions and slots together (max %d): use fewer nodes, steps, vnodes or key sets, or -placement fixed",
			sc.Op, len(sc.Initial), len(sc.Steps)+1, layouts, total, MaxChainCost)
	}
	return nil
}

// Placements builds the chain of placements of sc for the algorithm in o:
// catalog.New on the initial membership, then each step as the previous
// placement's Rebalance to the next membership. Automatic bounded
// partitions are sized for the largest membership of sc. It returns the
// constructor's or Rebalance's error, naming the step, or an error when the
// chain would exceed MaxChainCost.
func Placements(o Options, sc Scenario) ([]algorithms.Placer, error) {
	if err := checkChain(o, sc, 1); err != nil {
		return nil, err
	}
	ms, err := sc.Memberships()
	if err != nil {
		return nil, err
	}
	p, err := catalog.New(o.Algo, ms[0], scenarioConfig(o, sc))
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

// leavesInside reports whether some step of sc (with memberships ms)
// removes a node that is not among the last ones of the list, which
// algorithms that can only drop the last bucket (jump) do by a policy.
func leavesInside(sc Scenario, ms [][]algorithms.Node) bool {
	for t, st := range sc.Steps {
		cur := ms[t]
		tail := make(map[string]bool, len(st.Leave))
		for _, n := range cur[max(0, len(cur)-len(st.Leave)):] {
			tail[n.ID] = true
		}
		for _, id := range st.Leave {
			if !tail[id] {
				return true
			}
		}
	}
	return false
}

// ErrTooFewMoves is wrapped by Movement's error when Options.MinMoves
// expected moves per key set would need more than Options.MaxKeys keys.
var ErrTooFewMoves = errors.New("too few expected moves")

// MovementKeys returns the keys per set Movement uses for a scenario whose
// ideal fractions sum to ideal: o.Keys, raised to ceil(o.MinMoves/ideal)
// when o.MinMoves > 0 and keys are generated. It returns an error wrapping
// ErrTooFewMoves when that exceeds o.MaxKeys.
func MovementKeys(o Options, ideal float64) (int, error) {
	if o.MinMoves <= 0 || o.KeyFile != "" {
		return o.Keys, nil
	}
	// The ideal fraction is a float sum (0.19999999999999996 for 4 -> 5):
	// a relative slack of 1e-12 keeps ceil from adding a key for it.
	need := math.Ceil(float64(o.MinMoves) / ideal * (1 - 1e-12))
	if need <= float64(o.Keys) {
		return o.Keys, nil
	}
	if o.MaxKeys > 0 && need > float64(o.MaxKeys) {
		return 0, fmt.Errorf("%w: %d expected moved keys per key set at ideal fraction %.3g need %.0f keys per set (max %d)", ErrTooFewMoves, o.MinMoves, ideal, need, o.MaxKeys)
	}
	return int(need), nil
}

// Movement runs scenario sc for the algorithm and keys of o and returns its
// MoveResult. In per-set placement mode an algorithm with a random layout
// runs key set s through the chain of LayoutNodes(.., s) (every ID of the
// scenario salted alike). With o.MinMoves set, the keys per set are
// MovementKeys. It returns an error for invalid options (unknown
// algorithm, bad config or placement mode, keys < 1, sets < 1, unreadable
// key file, workers > MaxWorkers, more than MaxCounters counters), an
// invalid scenario, a chain of placements over MaxChainCost, a membership
// the algorithm rejects, or (wrapping ErrTooFewMoves) too many keys needed.
func Movement(o Options, sc Scenario) (*MoveResult, error) {
	ms, err := sc.Memberships()
	if err != nil {
		return nil, err
	}
	var ideal float64
	for i := 1; i < len(ms); i++ {
		ideal += IdealFraction(ms[i-1], ms[i])
	}
	if o.Keys, err = MovementKeys(o, ideal); err != nil {
		return nil, fmt.Errorf("scenario %s from %d nodes: %w", sc.Op, len(sc.Initial), err)
	}
	src, rc, err := o.prepare()
	if err != nil {
		return nil, err
	}
	rc.Partitions = usedPartitions(o.Algo, scenarioConfig(o, sc).Partitions)
	if err := checkCounters(o.Workers, src.Sets(), 4, 1, "4 counts"); err != nil {
		return nil, err
	}
	layouts, err := o.layouts(src.Sets())
	if err != nil {
		return nil, err
	}
	if err := checkChain(o, sc, layouts); err != nil {
		return nil, err
	}
	chains := make([][]algorithms.Placer, layouts)
	for l := range chains {
		if chains[l], err = Placements(o, layoutScenario(sc, l)); err != nil {
			return nil, err
		}
	}
	counts, err := CountMovesPerSet(src, chains, o.Workers)
	if err != nil {
		return nil, err
	}
	info, _ := catalog.Describe(o.Algo) // checked by prepare
	r := &MoveResult{Config: rc, Label: info.Label(leavesInside(sc, ms)), Op: sc.Op, From: len(ms[0]), To: len(ms[len(ms)-1]), Steps: len(sc.Steps), Ideal: ideal}
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
	r.ExpectedMoves = r.Ideal * float64(rc.Keys)
	if o.KeyFile != "" {
		r.ExpectedMoves = r.Ideal * float64(rc.Keys) / float64(rc.Sets)
	}
	return r, nil
}
