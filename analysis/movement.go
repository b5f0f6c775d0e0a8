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
	Collateral int64 // moves no ideal placement makes: from a node whose weight share did not shrink, or to one whose share did not grow (see ShareChanges)
	Net        int64 // keys whose final owner differs from their first owner
}

// CountMoves streams src through the placements chain[0], chain[1], ...
// (each normally the previous one's Rebalance) and counts, per key set,
// the owner changes between consecutive placements. Owners are compared by
// node ID: each placer's node indexes are mapped once to IDs shared by the
// whole chain. It returns one MoveCount per set, or an error for a chain of
// fewer than two placements or a failing source. The counts do not depend
// on workers. It holds the whole chain; [Movement] streams long chains in
// windows instead.
func CountMoves(src keyset.Source, chain []algorithms.Placer, workers int) ([]MoveCount, error) {
	if len(chain) < 2 {
		return nil, fmt.Errorf("movement needs at least two placements, got %d", len(chain))
	}
	out := make([]MoveCount, src.Sets())
	if err := countPass(src, nil, chain, workers, true, true, out); err != nil {
		return nil, err
	}
	for s, c := range out {
		if c.Keys == 0 {
			return nil, fmt.Errorf("key set %d is empty", s)
		}
	}
	return out, nil
}

// countPass streams src once through window, consecutive placements of a
// chain, and adds to out, per key set, the moves and collateral moves
// between them; with net set it also adds the keys whose owner under first
// (nil: window[0]) differs from their owner under the window's last
// placement, and with keys set the number of keys.
func countPass(src keyset.Source, first algorithms.Placer, window []algorithms.Placer, workers int, keys, net bool, out []MoveCount) error {
	all := window
	if first != nil {
		all = append([]algorithms.Placer{first}, window...)
	}
	// Global node numbers in order of first appearance.
	ids := map[string]int32{}
	gids := make([][]int32, len(all))
	for t, p := range all {
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
	firstIDs := gids[0]
	if first != nil {
		gids = gids[1:]
	}
	// needed[t][g]: ShareShrinks when node g's weight share shrinks at
	// window step t+1 (a move from it can be necessary), ShareGrows when it
	// grows (a move to it can be); see ShareChanges.
	needed := ShareChanges(window, gids, len(ids))
	sets := src.Sets()
	workers = keyset.Workers(workers)
	counts := make([][]MoveCount, workers)
	for w := range counts {
		counts[w] = make([]MoveCount, sets)
	}
	err := src.Each(workers, func(w, set int, keys []string) {
		c := &counts[w][set]
		var moves, coll, nt int64
		for _, k := range keys {
			p := window[0]
			start := gids[0][p.LocateHash(p.HashKey(k))]
			prev := start
			for t := 1; t < len(window); t++ {
				p = window[t]
				o := gids[t][p.LocateHash(p.HashKey(k))]
				if o != prev {
					moves++
					if needed[t-1][prev] != ShareShrinks || needed[t-1][o] != ShareGrows {
						coll++
					}
					prev = o
				}
			}
			if net {
				if first != nil {
					start = firstIDs[first.LocateHash(first.HashKey(k))]
				}
				if prev != start {
					nt++
				}
			}
		}
		c.Keys += int64(len(keys))
		c.Moves += moves
		c.Collateral += coll
		c.Net += nt
	})
	if err != nil {
		return err
	}
	for w := range counts { // fixed order; integer sums are exact anyway
		for s, c := range counts[w] {
			if keys {
				out[s].Keys += c.Keys
			}
			out[s].Moves += c.Moves
			out[s].Collateral += c.Collateral
			out[s].Net += c.Net
		}
	}
	return nil
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

// MaxChainCost bounds the work of building a movement's chain of
// placements, each built once: the sum over the placements of one unit per
// node, per virtual node (ring, bounded), per partition (bounded) and per
// hash slot (slots). 2^27 units admit every default sweep and build in
// tens of seconds at most; a shrink on tens of thousands of nodes (one
// placement per step) is refused up front instead of running for hours.
// Memory is bounded separately, by the budget (see [Movement]).
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
	if total > MaxChainCost {
		return fmt.Errorf("scenario %s from %d nodes: its %d placements would build more than %d nodes, virtual nodes, partitions and slots together (max %d): use fewer nodes, steps or vnodes",
			sc.Op, len(sc.Initial), len(sc.Steps)+1, total, MaxChainCost)
	}
	return nil
}

// passNodeBytes is what a pass over the keys adds per node of each
// placement it holds: the node's global number (4 B), its stable flag and
// its share of the ID map.
const passNodeBytes = 72

// chainPlan is what is known about a scenario's chain of placements before
// any is built.
type chainPlan struct {
	costs    []int64 // bytes of each placement (catalog.Estimate) and its pass tables
	ideal    float64 // sum of the steps' ideal fractions
	from, to int     // node counts of the first and last membership
}

// planChain walks the memberships of sc (two at a time), checks the chain's
// work against MaxChainCost and the memberships against the algorithm of o
// (catalog.Check), and checks that each step's two placements and the first fit in
// budget bytes at once (the least a streamed chain holds). The errors name
// the scenario, the step and the bytes.
func planChain(o Options, sc Scenario, budget int64) (chainPlan, error) {
	var pl chainPlan
	if err := checkChain(o, sc); err != nil {
		return pl, err
	}
	var last int
	err := sc.walk(func(t int, m []algorithms.Node, ideal float64) error {
		var err error
		// A step that only removes nodes cannot make a membership the
		// algorithm accepted unacceptable (catalog.Check), so only the
		// initial membership and those after joins or reweights are
		// checked in full.
		if t == 0 || len(sc.Steps[t-1].Join) > 0 || len(sc.Steps[t-1].Reweight) > 0 {
			err = catalog.Check(o.Algo, m, o.Config)
		}
		var c catalog.Cost
		if err == nil {
			c, err = catalog.Estimate(o.Algo, m, o.Config)
		}
		if err != nil {
			if t == 0 {
				return err
			}
			return fmt.Errorf("scenario %s: step %d: %w", sc.Op, t, err)
		}
		pl.costs = append(pl.costs, c.Bytes+int64(len(m))*passNodeBytes)
		pl.ideal += ideal
		last = len(m)
		return nil
	})
	if err != nil {
		return pl, err
	}
	pl.from, pl.to = len(sc.Initial), last
	for t := 1; t < len(pl.costs); t++ {
		need := pl.costs[t-1] + pl.costs[t]
		if t > 1 {
			need += pl.costs[0]
		}
		if need > budget {
			return pl, fmt.Errorf("scenario %s: step %d needs its placements before and after (and the first) at once, about %s of %s on %d nodes, over the memory budget of %s left for placements: use fewer nodes or raise the budget (-mem)",
				sc.Op, t, catalog.HumanBytes(need), o.Algo, pl.from, catalog.HumanBytes(budget))
		}
	}
	return pl, nil
}

// Placements builds the chain of placements of sc for the algorithm in o:
// catalog.New on the initial membership, then each step as the previous
// placement's Rebalance to the next membership. It returns the
// constructor's or Rebalance's error, naming the step, or an error when the
// chain would exceed MaxChainCost or, since it holds every placement at
// once, o.Config.Budget().
func Placements(o Options, sc Scenario) ([]algorithms.Placer, error) {
	budget := o.Config.Budget()
	pl, err := planChain(o, sc, budget)
	if err != nil {
		return nil, err
	}
	var total int64
	for _, c := range pl.costs {
		total += c
	}
	if total > budget {
		return nil, fmt.Errorf("scenario %s: its %d placements of %s held at once need about %s, over the memory budget of %s",
			sc.Op, len(pl.costs), o.Algo, catalog.HumanBytes(total), catalog.HumanBytes(budget))
	}
	var chain []algorithms.Placer
	err = sc.walk(func(t int, m []algorithms.Node, _ float64) error {
		if t == 0 {
			p, err := catalog.New(o.Algo, m, o.Config)
			chain = append(chain, p)
			return err
		}
		p, err := chain[t-1].Rebalance(m)
		if err != nil {
			return fmt.Errorf("scenario %s: step %d: %w", sc.Op, t, err)
		}
		chain = append(chain, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return chain, nil
}

// streamChain builds the placements of sc one at a time and streams src
// through them in windows of consecutive placements that fit, with the
// first placement, in budget bytes (pl.costs): one pass over the keys per
// window, so a long chain needs several passes but never holds more than
// the budget. It adds the counts to out.
// It returns the number of passes.
func streamChain(o Options, sc Scenario, pl chainPlan, budget int64, src keyset.Source, out []MoveCount) (int, error) {
	var first algorithms.Placer
	var window []algorithms.Placer
	var held int64 // bytes of the window's placements
	passes := 0
	flush := func(last bool) error {
		var f algorithms.Placer
		if passes > 0 { // window[0] is no longer the first placement
			f = first
		}
		err := countPass(src, f, window, o.Workers, passes == 0, last, out)
		passes++
		return err
	}
	err := sc.walk(func(t int, m []algorithms.Node, _ float64) error {
		if t == 0 {
			p, err := catalog.New(o.Algo, m, o.Config)
			if err != nil {
				return err
			}
			first, window, held = p, []algorithms.Placer{p}, pl.costs[0]
			return nil
		}
		extra := int64(0)
		if passes > 0 {
			extra = pl.costs[0]
		}
		if len(window) >= 2 && extra+held+pl.costs[t] > budget {
			if err := flush(false); err != nil {
				return err
			}
			window = []algorithms.Placer{window[len(window)-1]}
			held = pl.costs[t-1]
		}
		p, err := window[len(window)-1].Rebalance(m)
		if err != nil {
			return fmt.Errorf("scenario %s: step %d: %w", sc.Op, t, err)
		}
		window = append(window, p)
		held += pl.costs[t]
		return nil
	})
	if err != nil {
		return passes, err
	}
	return passes, flush(true)
}

// minWindow returns the bytes of the largest step's two placements and
// the first: the least a window must hold (planChain checked that it fits
// in the budget).
func minWindow(pl chainPlan) int64 {
	var m int64
	for t := 1; t < len(pl.costs); t++ {
		need := pl.costs[t-1] + pl.costs[t]
		if t > 1 {
			need += pl.costs[0]
		}
		m = max(m, need)
	}
	return m
}

// moveCounters returns what a movement's counters take, one MoveCount (32
// B) per key set per worker plus the merged counts, or an error naming the
// sets, workers, bytes and budget when that is over half the budget.
func moveCounters(o Options, sets int) (int64, error) {
	cb := int64(sets) * 32 * int64(keyset.Workers(o.Workers)+1)
	if b := o.Config.Budget(); cb > b/2 {
		return 0, fmt.Errorf("%d sets x %d workers need %s of movement counters, over half the memory budget of %s: use fewer sets or workers, or raise the budget (-mem)",
			sets, keyset.Workers(o.Workers), catalog.HumanBytes(cb), catalog.HumanBytes(b))
	}
	return cb, nil
}

// CheckMovement returns the error Movement(o, sc) would return before
// streaming its first key, apart from the key source's (see
// Options.Source, checked once per run by callers): an unknown algorithm,
// a bad config, too many workers, counters or a step over the memory
// budget, a chain over MaxChainCost, an invalid scenario or a membership
// the algorithm rejects. It builds no placement of a ring or bounded
// loads. Sweeps call it for every configuration before running any.
func CheckMovement(o Options, sc Scenario) error {
	if err := o.checkConfig(); err != nil {
		return err
	}
	cb, err := moveCounters(o, o.Sets)
	if err != nil {
		return err
	}
	_, err = planChain(o, sc, o.Config.Budget()-cb)
	return err
}

// Movement runs scenario sc for the algorithm and keys of o and returns its
// MoveResult. The chain of placements is streamed: placements are built one
// at a time, each the previous one's Rebalance, and keys pass through
// windows of consecutive placements that fit in the memory budget
// (o.Config.Budget(), less the counters), so memory stays within the budget
// however long the scenario; a chain that fits is one pass over the keys.
// It returns an error for invalid options (unknown algorithm, bad config,
// keys < 1, sets < 1, unreadable key file, workers > MaxWorkers), counters
// over the budget, an invalid scenario, a chain over MaxChainCost, a step
// whose placements do not fit in the budget, or a membership the algorithm
// rejects; every one of these before the first key is streamed, except a
// Rebalance error.
func Movement(o Options, sc Scenario) (*MoveResult, error) {
	src, rc, err := o.prepare()
	if err != nil {
		return nil, err
	}
	budget := o.Config.Budget()
	cb, err := moveCounters(o, src.Sets())
	if err != nil {
		return nil, err
	}
	pl, err := planChain(o, sc, budget-cb)
	if err != nil {
		return nil, err
	}
	counts := make([]MoveCount, src.Sets())
	// Windows fill half of what is left, so that the garbage of the previous
	// window, not yet collected, still fits in the budget.
	if _, err := streamChain(o, sc, pl, max((budget-cb)/2, minWindow(pl)), src, counts); err != nil {
		return nil, err
	}
	for s, c := range counts {
		if c.Keys == 0 {
			return nil, fmt.Errorf("key set %d is empty", s)
		}
	}
	r := &MoveResult{Config: rc, Op: sc.Op, From: pl.from, To: pl.to, Steps: len(sc.Steps), Ideal: pl.ideal}
	moved := make([]float64, len(counts))
	coll := make([]float64, len(counts))
	net := make([]float64, len(counts))
	for s, c := range counts {
		k := float64(c.Keys)
		moved[s], coll[s], net[s] = float64(c.Moves)/k, float64(c.Collateral)/k, float64(c.Net)/k
		r.Samples = append(r.Samples, MoveSample{Moved: moved[s], Collateral: coll[s], Net: net[s]})
	}
	var ci cis
	r.Moved, r.Collateral, r.Net = ci.of("moved fraction", moved), ci.of("collateral fraction", coll), ci.of("net moved fraction", net)
	if ci.err != nil {
		return nil, ci.err
	}
	r.MovedOverIdeal = r.Moved.Mean / r.Ideal // walk guarantees Ideal > 0
	return r, nil
}
