package analysis

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/bounded"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/slots"

	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/schema"
)

// MoveCount holds the counts of one key set over a chain of placements.
type MoveCount struct {
	Keys       int64 // keys in the set
	Moves      int64 // owner changes summed over the steps (a key can move at several steps)
	Collateral int64 // moves no ideal placement makes: from a node whose weight share did not shrink, or to one whose share did not grow (see ShareChanges)
	Net        int64 // keys whose final owner differs from their first owner
	// Steps, when the caller allocates it (one entry per step of the
	// chain), holds the moves and collateral moves of each step apart.
	Steps []StepCount
}

// StepCount is the moves of one key set at one step of a chain.
type StepCount struct {
	Moves, Collateral int64
}

// CountMoves streams src through the placements chain[0], chain[1], ...
// (each normally the previous one's Rebalance) and counts, per key set,
// the owner changes between consecutive placements. Owners are compared by
// node ID: each placement's node indexes are mapped once to IDs shared by
// the whole chain. It returns one MoveCount per set, or an error for a
// chain of fewer than two placements or a failing source or placement.
// The counts do not depend on workers. It holds the whole chain;
// [Movement] streams long chains in windows instead.
func CountMoves(src keyset.Source, chain []algorithms.Locator, workers int) ([]MoveCount, error) {
	return CountMovesPerSet(src, [][]algorithms.Locator{chain}, workers)
}

// CountMovesPerSet is CountMoves with one chain of placements per key set
// (chains[s] for set s, all of the same length), or a single chain
// (len(chains) == 1) for every set: the per-set placement mode, where each
// key set sees its own layout. It returns an error for a chain of fewer
// than two placements, a number of chains that is neither 1 nor the number
// of sets, or a failing source. It holds every chain at once.
func CountMovesPerSet(src keyset.Source, chains [][]algorithms.Locator, workers int) ([]MoveCount, error) {
	if len(chains) != 1 && len(chains) != src.Sets() {
		return nil, fmt.Errorf("%d chains of placements for %d key sets: want 1 or one per set", len(chains), src.Sets())
	}
	pcs := make([]passChain, len(chains))
	for c, chain := range chains {
		if len(chain) < 2 {
			return nil, fmt.Errorf("movement needs at least two placements, got %d", len(chain))
		}
		pcs[c] = newPassChain(nil, chain)
	}
	out := make([]MoveCount, src.Sets())
	if err := countPass(src, pcs, allSets(len(pcs)), workers, true, true, out); err != nil {
		return nil, err
	}
	for s, c := range out {
		if c.Keys == 0 {
			return nil, fmt.Errorf("key set %d is empty", s)
		}
	}
	return out, nil
}

// passChain is one chain's part of a pass over the keys: a window of
// consecutive placements, the chain's first placement when the window
// does not start with it (for net moves), and the global node numbers of
// both.
type passChain struct {
	first    algorithms.Locator // nil: window[0] is the first placement
	window   []algorithms.Locator
	step0    int       // the chain's step from window[0] to window[1], 0-based (MoveCount.Steps)
	firstIDs []int32   // global numbers of first's (or window[0]'s) nodes
	gids     [][]int32 // gids[t][i]: global number of window[t]'s node i
	needed   [][]uint8 // needed[t][g]: see ShareChanges
}

// newPassChain maps the node indexes of first (may be nil) and window to
// global node numbers, in order of first appearance by ID, and marks per
// window step whose weight share shrinks or grows (ShareChanges).
func newPassChain(first algorithms.Locator, window []algorithms.Locator) passChain {
	all := window
	if first != nil {
		all = append([]algorithms.Locator{first}, window...)
	}
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
	pc := passChain{first: first, window: window, firstIDs: gids[0]}
	if first != nil {
		gids = gids[1:]
	}
	pc.gids = gids
	// needed[t][g]: ShareShrinks when node g's weight share shrinks at
	// window step t+1 (a move from it can be necessary), ShareGrows when it
	// grows (a move to it can be); see ShareChanges.
	pc.needed = ShareChanges(window, gids, len(ids))
	return pc
}

// allSets returns the chain selector of a pass whose chains serve every
// key set: the single chain for every set, or chain s for set s.
func allSets(chains int) func(set int) int {
	if chains == 1 {
		return func(int) int { return 0 }
	}
	return func(set int) int { return set }
}

// countPass streams src once and adds to out, for every key set s with
// chainOf(s) >= 0, the moves and collateral moves between the consecutive
// placements of chains[chainOf(s)].window; with net set it also adds the
// keys whose owner under the chain's first placement differs from their
// owner under the window's last placement, and with keys set the number of
// keys. Sets with chainOf(s) < 0 are skipped (their keys still stream).
// Each chunk of keys goes to one placement after the other
// (Locator.LocateKeys), so a worker holds three owners per key of a chunk
// whatever the window's length. It returns the source's error or the
// first placement's that fails.
func countPass(src keyset.Source, chains []passChain, chainOf func(set int) int, workers int, keys, net bool, out []MoveCount) error {
	sets := src.Sets()
	workers = keyset.Workers(workers)
	counts := make([][]MoveCount, workers)
	bufs := make([]moveBuffers, workers)
	for w := range counts {
		counts[w] = make([]MoveCount, sets)
		for s := range counts[w] {
			if n := len(out[s].Steps); n > 0 {
				counts[w][s].Steps = make([]StepCount, n)
			}
		}
	}
	var failed errOnce
	err := src.Each(workers, func(w, set int, ks []string) {
		ci := chainOf(set)
		if ci < 0 {
			return
		}
		b := &bufs[w]
		c := &counts[w][set]
		pc := &chains[ci]
		for lo := 0; lo < len(ks); lo += moveBlock {
			blk := ks[lo:min(lo+moveBlock, len(ks))]
			b.grow(len(blk))
			if err := b.count(pc, blk, net, c); err != nil {
				failed.set(err)
				return
			}
		}
		c.Keys += int64(len(ks))
	})
	if err == nil {
		err = failed.get()
	}
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
			for t, sc := range c.Steps {
				out[s].Steps[t].Moves += sc.Moves
				out[s].Steps[t].Collateral += sc.Collateral
			}
		}
	}
	return nil
}

// moveBlock is the keys located under every placement of a window before
// the next keys: few enough that they stay in the first-level cache
// between placements (compute-bound placements such as jump and
// rendezvous would otherwise re-read them from further away), many enough
// that a placement's tables stay warm over the block.
const moveBlock = 512

// moveBuffers is one worker's owners of a chunk of keys: the index under
// the current placement, and the global node numbers under the first and
// the previous placement.
type moveBuffers struct {
	cur         []int
	start, prev []int32
}

// grow makes room for n keys.
func (b *moveBuffers) grow(n int) {
	if len(b.cur) < n {
		b.cur, b.start, b.prev = make([]int, n), make([]int32, n), make([]int32, n)
	}
}

// count adds to c the moves of the keys ks through pc's window (and with
// net, the keys not back on their first owner).
func (b *moveBuffers) count(pc *passChain, ks []string, net bool, c *MoveCount) error {
	n := len(ks)
	cur, start, prev := b.cur[:n], b.start[:n], b.prev[:n]
	if err := pc.window[0].LocateKeys(ks, cur); err != nil {
		return err
	}
	g0 := pc.gids[0]
	for i, o := range cur {
		prev[i] = g0[o]
	}
	copy(start, prev)
	var moves, coll, nt int64
	for t := 1; t < len(pc.window); t++ {
		if err := pc.window[t].LocateKeys(ks, cur); err != nil {
			return err
		}
		gt, needed := pc.gids[t], pc.needed[t-1]
		var m, cl int64
		for i, o := range cur {
			g := gt[o]
			if p := prev[i]; g != p {
				m++
				if needed[p] != ShareShrinks || needed[g] != ShareGrows {
					cl++
				}
				prev[i] = g
			}
		}
		moves, coll = moves+m, coll+cl
		if c.Steps != nil {
			st := &c.Steps[pc.step0+t-1]
			st.Moves, st.Collateral = st.Moves+m, st.Collateral+cl
		}
	}
	if net {
		if pc.first != nil {
			if err := pc.first.LocateKeys(ks, cur); err != nil {
				return err
			}
			for i, o := range cur {
				start[i] = pc.firstIDs[o]
			}
		}
		for i := range prev {
			if prev[i] != start[i] {
				nt++
			}
		}
	}
	c.Moves += moves
	c.Collateral += coll
	c.Net += nt
	return nil
}

// errOnce keeps the first error reported by concurrent workers.
type errOnce struct {
	mu  sync.Mutex
	err error
}

func (e *errOnce) set(err error) {
	e.mu.Lock()
	if e.err == nil {
		e.err = err
	}
	e.mu.Unlock()
}

func (e *errOnce) get() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

// MaxChainCost bounds the work of building a movement's chain of
// placements, each built once: the sum over the placements of one unit per
// node, per virtual node (ring, bounded), per partition (bounded) and per
// hash slot (slots). 2^27 units admit every default sweep and build in
// tens of seconds at most; a shrink on tens of thousands of nodes (one
// placement per step) is refused up front instead of running for hours.
// Memory is bounded separately, by the budget (see [Movement]).
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
		return fmt.Errorf("scenario %s from %d nodes: its %d placements (x %d layouts) would build more than %d nodes, virtual nodes, partitions and slots together (max %d): use fewer nodes, steps, vnodes or key sets, or -placement fixed",
			sc.Op, len(sc.Initial), len(sc.Steps)+1, layouts, total, MaxChainCost)
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
	cfg          catalog.Config // o.Config with partitions for the largest membership
	costs        []int64        // bytes of each placement of one layout (catalog.Estimate) and its pass tables
	ideal        float64        // sum of the steps' ideal fractions
	steps        []ratio        // each step's ideal fraction, for expectedMoves
	from, to     int            // node counts of the first and last membership
	sizes        []int          // node count of every membership, in order
	layouts      int            // chains: one per key set in per-set mode, else 1
	leavesInside bool           // some step removes a node that is not among the last ones
}

// expectedMoves returns the moved keys a set of keys keys expects: the
// sum over the steps of keys x the step's ideal fraction, each term rounded
// once (see ratio), so that 170,000 keys x 1/170 is 1,000, not
// 999.9999999999984.
func (pl chainPlan) expectedMoves(keys float64) float64 {
	var e float64
	for _, r := range pl.steps {
		e += r.times(keys)
	}
	return e
}

// planChain walks the memberships of sc (two at a time), checks the
// chains' work against MaxChainCost and the memberships against the
// algorithm of o (catalog.Check), and checks that each step's two
// placements and the first of one layout fit in budget bytes at once (the
// least a streamed chain holds). layouts is the number of chains
// ([Options.layouts]): every layout has the same node counts and weights,
// so one walk plans them all. The errors name the scenario, the step and
// the bytes.
func planChain(o Options, sc Scenario, budget int64, layouts int) (chainPlan, error) {
	pl := chainPlan{cfg: scenarioConfig(o, sc), layouts: layouts}
	if err := checkChain(o, sc, layouts); err != nil {
		return pl, err
	}
	// Salted layout IDs ("r<s>/ID") are longer by up to this many bytes.
	salt := int64(len(LayoutID("", max(layouts-1, 0))))
	var last int
	var prev []algorithms.Node
	err := sc.walk(func(t int, m []algorithms.Node, ideal ratio) error {
		var err error
		// A step that only removes nodes cannot make a membership the
		// algorithm accepted unacceptable (catalog.Check), so only the
		// initial membership and those after joins or reweights are
		// checked in full.
		if t == 0 || len(sc.Steps[t-1].Join) > 0 || len(sc.Steps[t-1].Reweight) > 0 {
			err = o.checkNodes(m, pl.cfg)
		}
		var c catalog.Cost
		if err == nil {
			c, err = o.estimate(m, pl.cfg)
		}
		if err != nil {
			if t == 0 {
				return err
			}
			return fmt.Errorf("scenario %s: step %d: %w", sc.Op, t, err)
		}
		if t > 0 && !pl.leavesInside {
			pl.leavesInside = leavesInside(prev, sc.Steps[t-1].Leave)
		}
		prev = m
		pl.sizes = append(pl.sizes, len(m))
		pl.costs = append(pl.costs, c.Bytes+int64(len(m))*(passNodeBytes+salt))
		if t > 0 {
			pl.ideal += ideal.value()
			pl.steps = append(pl.steps, ideal)
		}
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

// leavesInside reports whether leaving, the IDs a step removes from
// membership cur, includes a node that is not among the last len(leaving)
// of the list, which algorithms that can only drop the last bucket (jump)
// do by a policy.
func leavesInside(cur []algorithms.Node, leaving []string) bool {
	if len(leaving) == 0 {
		return false
	}
	tail := newIDSet(leaving)
	for _, n := range cur[max(0, len(cur)-len(leaving)):] {
		if !tail.has(n.ID) {
			return true
		}
	}
	return false
}

// Placements builds the chain of placements of sc for the algorithm in o:
// catalog.NewLocator (or an opened placement's New, see Options.Opened) on
// the initial membership (with a topology, o.Domains, an algorithm whose
// map is the hierarchy is built from it: firstLocator), then each step as
// the previous placement's Rebalance to the next membership. Automatic
// bounded partitions are sized for the largest membership of sc. It
// returns the constructor's or Rebalance's error, naming the step, or an
// error when the chain would exceed MaxChainCost or, since it holds every
// placement at once, o.Config.Budget(). The caller closes the Locators
// that are io.Closers (see algorithms.Locator) when done; on an error
// Placements closes those it built.
func Placements(o Options, sc Scenario) ([]algorithms.Locator, error) {
	return placements(o, sc, false)
}

// placements is Placements with, for replicas, every algorithm's replicas
// spread over the domains of o's topology (firstLocator).
func placements(o Options, sc Scenario, replicas bool) ([]algorithms.Locator, error) {
	budget := o.Config.Budget()
	pl, err := planChain(o, sc, budget, 1)
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
	var chain []algorithms.Locator
	err = sc.walk(func(t int, m []algorithms.Node, _ ratio) error {
		if t == 0 {
			p, err := o.firstLocator(sc, m, pl.cfg, replicas)
			if err != nil {
				return err
			}
			chain = append(chain, p)
			return nil
		}
		p, err := chain[t-1].Rebalance(m)
		if err != nil {
			return fmt.Errorf("scenario %s: step %d: %w", sc.Op, t, err)
		}
		chain = append(chain, p)
		return nil
	})
	if err != nil {
		release(chain...)
		return nil, err
	}
	return chain, nil
}

// streamChains builds the placements of sc one step at a time and streams
// src through them in windows of consecutive placements. With one layout
// the single chain serves every key set. With one layout per key set (the
// per-set placement mode) the chains of a group of layouts advance
// together: key set s runs through the chain of LayoutNodes(.., s), and
// the group is as many layouts as fit the budget at their least window
// (minWindow each), so a pass covers (sets of the group) x (steps of the
// window). Each group's window holds, per layout, consecutive placements
// and the first, in budget / group size bytes (pl.costs); one pass over the
// keys per window and group (sets outside the group are skipped), so
// memory stays within the budget however many sets and steps. It adds the
// counts to out and returns the number of passes.
func streamChains(o Options, sc Scenario, pl chainPlan, budget int64, src keyset.Source, out []MoveCount) (int, error) {
	mw := minWindow(pl)
	group := 1
	if mw > 0 {
		group = int(min(int64(pl.layouts), max(1, budget/mw)))
	}
	passes := 0
	for l0 := 0; l0 < pl.layouts; l0 += group {
		l1 := min(l0+group, pl.layouts)
		chainOf := allSets(1)
		if pl.layouts > 1 {
			chainOf = func(s int) int {
				if s >= l0 && s < l1 {
					return s - l0
				}
				return -1
			}
		}
		n, err := streamGroup(o, sc, pl, l0, l1, budget/int64(l1-l0), src, chainOf, out)
		passes += n
		if err != nil {
			return passes, err
		}
	}
	return passes, nil
}

// streamGroup streams the chains of layouts l0..l1-1 of sc in windows
// whose placements of each layout fit, with its first placement, in
// perLayout bytes (see streamChains). It returns the number of passes.
func streamGroup(o Options, sc Scenario, pl chainPlan, l0, l1 int, perLayout int64, src keyset.Source, chainOf func(int) int, out []MoveCount) (int, error) {
	k := l1 - l0
	first := make([]algorithms.Locator, k)
	windows := make([][]algorithms.Locator, k)
	// The placements a window drops when it moves on are closed at once,
	// so that an external program holds the memberships of one window
	// only; the rest on the way out (closing twice does nothing).
	defer func() {
		release(first...)
		for _, w := range windows {
			release(w...)
		}
	}()
	var held int64 // bytes of one layout's window placements
	passes := 0
	step0 := 0 // the chain's step at the start of the window
	flush := func(last bool) error {
		pcs := make([]passChain, k)
		for i := range pcs {
			var f algorithms.Locator
			if passes > 0 { // windows[i][0] is no longer the first placement
				f = first[i]
			}
			pcs[i] = newPassChain(f, windows[i])
			pcs[i].step0 = step0
		}
		err := countPass(src, pcs, chainOf, o.Workers, passes == 0, last, out)
		passes++
		step0 += len(windows[0]) - 1
		return err
	}
	err := sc.walk(func(t int, m []algorithms.Node, _ ratio) error {
		if t == 0 {
			for i := range k {
				p, err := o.firstLocator(layoutScenario(sc, l0+i), LayoutNodes(m, l0+i), pl.cfg, false)
				if err != nil {
					return err
				}
				first[i], windows[i] = p, []algorithms.Locator{p}
			}
			held = pl.costs[0]
			return nil
		}
		extra := int64(0)
		if passes > 0 {
			extra = pl.costs[0]
		}
		if len(windows[0]) >= 2 && extra+held+pl.costs[t] > perLayout {
			firstWindow := passes == 0 // its windows begin with the first placements, which stay
			if err := flush(false); err != nil {
				return err
			}
			for i, w := range windows {
				dropped := w[:len(w)-1]
				if firstWindow {
					dropped = dropped[1:]
				}
				if err := release(dropped...); err != nil {
					return err
				}
				windows[i] = []algorithms.Locator{w[len(w)-1]}
			}
			held = pl.costs[t-1]
		}
		for i := range k {
			w := windows[i]
			p, err := w[len(w)-1].Rebalance(LayoutNodes(m, l0+i))
			if err != nil {
				return fmt.Errorf("scenario %s: step %d: %w", sc.Op, t, err)
			}
			windows[i] = append(w, p)
		}
		held += pl.costs[t]
		return nil
	})
	if err != nil {
		return passes, err
	}
	return passes, flush(true)
}

// minWindow returns the bytes of the largest step's two placements and
// the first, of one layout: the least a window must hold (planChain
// checked that it fits in the budget).
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

// ErrTooFewMoves is wrapped by Movement's error when Options.MinMoves
// expected moves per key set would need more than Options.MaxKeys keys.
var ErrTooFewMoves = errors.New("too few expected moves")

// MovementKeys returns the keys per set Movement uses for a scenario whose
// ideal fractions sum to ideal, for generated keys: the source's, raised
// to ceil(o.MinMoves/ideal) when o.MinMoves > 0; 0 for a key file (its
// keys are what they are). It returns an error wrapping ErrTooFewMoves
// when that exceeds o.MaxKeys.
func MovementKeys(o Options, ideal float64) (int, error) {
	g := o.generated()
	if g == nil {
		return 0, nil
	}
	if o.MinMoves <= 0 {
		return g.Keys(), nil
	}
	// The ideal fraction is exact to one rounding for integer weights
	// (0.2 for 4 -> 5), but a sum over steps or fractional weights can be
	// off by a few ulps: a relative slack of 1e-12 keeps ceil from adding a
	// key for that.
	need := math.Ceil(float64(o.MinMoves) / ideal * (1 - 1e-12))
	if need <= float64(g.Keys()) {
		return g.Keys(), nil
	}
	if o.MaxKeys > 0 && need > float64(o.MaxKeys) {
		return 0, fmt.Errorf("%w: %d expected moved keys per key set at ideal fraction %.3g need %.0f keys per set (max %d)", ErrTooFewMoves, o.MinMoves, ideal, need, o.MaxKeys)
	}
	return int(need), nil
}

// checkExpectedMoves returns an error wrapping ErrTooFewMoves, naming the
// scenario, when o.MinMoves expected moves per key set would need more
// than o.MaxKeys keys for sc (see MovementKeys), and nil otherwise. It
// walks the memberships once and builds no placement, so a point left out
// for too few moves is said as such before its chain's cost is weighed: a
// long chain that would never be built must not turn the skip into an
// error.
func checkExpectedMoves(o Options, sc Scenario) error {
	if o.MinMoves <= 0 || o.generated() == nil {
		return nil
	}
	var ideal float64
	if err := sc.walk(func(t int, _ []algorithms.Node, id ratio) error {
		if t > 0 {
			ideal += id.value()
		}
		return nil
	}); err != nil {
		return err
	}
	if _, err := MovementKeys(o, ideal); err != nil {
		return fmt.Errorf("scenario %s from %d nodes: %w", sc.Op, len(sc.Initial), err)
	}
	return nil
}

// planMovement is the checks Movement and CheckMovement share: the
// counters, the chains' plan within what the counters leave of the budget,
// and the keys per set (MovementKeys). It returns the plan, the bytes left
// for placements and the keys per set.
func planMovement(o Options, sc Scenario, sets int) (chainPlan, int64, int, error) {
	cb, err := moveCounters(o, sets)
	if err != nil {
		return chainPlan{}, 0, 0, err
	}
	layouts, err := o.layouts(sets)
	if err != nil {
		return chainPlan{}, 0, 0, err
	}
	left := o.Config.Budget() - cb
	if err := checkExpectedMoves(o, sc); err != nil {
		return chainPlan{}, 0, 0, err
	}
	if err := o.checkTopology(sc, false); err != nil {
		return chainPlan{}, 0, 0, err
	}
	pl, err := planChain(o, sc, left, layouts)
	if err != nil {
		return pl, 0, 0, err
	}
	keys, err := MovementKeys(o, pl.ideal)
	if err != nil {
		return pl, 0, 0, fmt.Errorf("scenario %s from %d nodes: %w", sc.Op, len(sc.Initial), err)
	}
	return pl, left, keys, nil
}

// CheckMovement returns the error Movement(o, sc) would return before
// streaming its first key: an unknown algorithm or key source,
// a bad config or placement mode, too many workers, counters or a step over
// the memory budget, a chain over MaxChainCost, an invalid scenario, a
// membership the algorithm rejects, or (wrapping ErrTooFewMoves) too many
// keys needed. It builds no placement of a ring or bounded loads. Sweeps
// call it for every configuration before running any.
func CheckMovement(o Options, sc Scenario) error {
	if err := o.checkConfig(); err != nil {
		return err
	}
	_, _, _, err := planMovement(o, sc, o.sets())
	return err
}

// Movement runs scenario sc for the algorithm and keys of o and returns its
// row of movement results ([schema.Move]).
//
// MovedFrac is the number of owner changes summed over the scenario's
// steps, as a fraction of the keys (for a one-step scenario, the moved
// fraction; for shrink and churn, the total, which can exceed 1).
// IdealFrac is the sum of the steps' [IdealFraction]s, MovedOverIdeal =
// MovedFrac / IdealFrac. CollateralFrac counts the moves no ideal
// placement makes (see [ShareChanges]): from a node whose weight share did
// not shrink or to one whose share did not grow; for joins and leaves of
// equal-weight nodes, exactly the moves between two nodes that were
// members both before and after the step. NetMovedFrac is the fraction of
// keys whose last owner differs from their first: for restore, the keys
// not back on their original owner. Estimates are means over the key sets
// with 95% intervals (see [MeanCI]). ExpectedMoves is the moved keys one
// key set expects: IdealFrac times its keys (for a key file, times
// keys/sets), summed step by step with one rounding per step, so a round
// count comes out round; below about 1,000 a set's moved fraction is
// mostly counting noise.
//
// In per-set placement mode an algorithm with a random layout runs key set
// s through the chain of LayoutNodes(.., s) (every ID of the scenario
// salted alike). With o.MinMoves set, the keys per set are MovementKeys.
// The chains are streamed: placements are built one step at a time, each
// the previous one's Rebalance, and keys pass through windows of (key sets
// x consecutive steps) that fit in the memory budget (o.Config.Budget(),
// less the counters; see streamChains), so memory stays within the budget
// however long the scenario and however many per-set chains; a run that
// fits is one pass over the keys.
//
// It returns an error for invalid options (unknown algorithm or key
// source, bad config or placement mode, workers > MaxWorkers), counters
// over the budget, an invalid scenario, a chain over
// MaxChainCost, a step whose placements do not fit in the budget, a
// membership the algorithm rejects, or (wrapping ErrTooFewMoves) too many
// keys needed; every one of these before the first key is streamed,
// except a Rebalance error.
func Movement(o Options, sc Scenario) (schema.Move, error) {
	r, _, err := movement(o, sc, false)
	return r, err
}

// MovementSteps is [Movement] of a multi-step scenario with each step
// reported apart: one row per step (op "<op>-step", from and to the node
// counts before and after that step, steps 1, its own ideal fraction,
// moved and collateral fractions and expected moves; its net moved
// fraction is its moved fraction, a key moving at most once in a step),
// then the scenario's row as Movement returns it. Staged growth (40 -> 60
// nodes one at a time) shows which steps move more than their ideal.
func MovementSteps(o Options, sc Scenario) ([]schema.Move, error) {
	total, steps, err := movement(o, sc, true)
	if err != nil {
		return nil, err
	}
	return append(steps, total), nil
}

// StepOp is the op of the per-step rows of a scenario op (MovementSteps).
func StepOp(op string) string { return op + "-step" }

// movement is Movement, and with perStep the rows of its steps.
func movement(o Options, sc Scenario, perStep bool) (schema.Move, []schema.Move, error) {
	src, rc, err := o.prepare()
	if err != nil {
		return schema.Move{}, nil, err
	}
	pl, left, keys, err := planMovement(o, sc, src.Sets())
	if err != nil {
		return schema.Move{}, nil, err
	}
	if g := o.generated(); g != nil && keys != g.Keys() { // scaled for MinMoves
		if o.Keys, err = g.WithKeys(keys); err != nil {
			return schema.Move{}, nil, err
		}
		if src, rc, err = o.prepare(); err != nil {
			return schema.Move{}, nil, err
		}
	}
	rc.Partitions = usedPartitions(o.Algo, pl.cfg.Partitions)
	o.recordTopology(&rc, false)
	counts := make([]MoveCount, src.Sets())
	if perStep {
		for s := range counts {
			counts[s].Steps = make([]StepCount, len(sc.Steps))
		}
	}
	// Windows fill half of what is left, so that the garbage of the previous
	// window, not yet collected, still fits in the budget.
	if _, err := streamChains(o, sc, pl, max(left/2, minWindow(pl)), src, counts); err != nil {
		return schema.Move{}, nil, err
	}
	for s, c := range counts {
		if c.Keys == 0 {
			return schema.Move{}, nil, fmt.Errorf("key set %d is empty", s)
		}
	}
	info, _ := o.info() // checked by prepare
	r := schema.Move{Config: rc, Label: info.Label(pl.leavesInside), Op: sc.Op, From: pl.from, To: pl.to, Steps: len(sc.Steps), IdealFrac: pl.ideal}
	moved := make([]float64, len(counts))
	coll := make([]float64, len(counts))
	net := make([]float64, len(counts))
	for s, c := range counts {
		k := float64(c.Keys)
		moved[s], coll[s], net[s] = float64(c.Moves)/k, float64(c.Collateral)/k, float64(c.Net)/k
		r.Samples = append(r.Samples, schema.MoveSample{Moved: moved[s], Collateral: coll[s], Net: net[s]})
	}
	var ci cis
	// A key moves at most once per step, so the moved and collateral
	// fractions lie in [0, steps]; the net moved fraction in [0, 1].
	steps := float64(len(sc.Steps))
	m, c, n := ci.within("moved fraction", moved, 0, steps), ci.within("collateral fraction", coll, 0, steps), ci.fraction("net moved fraction", net)
	if ci.err != nil {
		return schema.Move{}, nil, ci.err
	}
	r.MovedFrac, r.MovedFracLo, r.MovedFracHi = m.Mean, m.Lo, m.Hi
	r.CollateralFrac, r.CollateralFracLo, r.CollateralFracHi = c.Mean, c.Lo, c.Hi
	r.NetMovedFrac, r.NetMovedFracLo, r.NetMovedFracHi = n.Mean, n.Lo, n.Hi
	r.MovedOverIdeal = r.MovedFrac / r.IdealFrac // walk guarantees IdealFrac > 0
	perSet := float64(rc.Keys)
	if o.generated() == nil { // a key file's keys are all its sets'
		perSet /= float64(rc.Sets)
	}
	r.ExpectedMoves = pl.expectedMoves(perSet)
	if !perStep {
		return r, nil, nil
	}
	stepRs, err := stepRows(r, pl, counts, perSet)
	return r, stepRs, err
}

// stepRows returns the rows of each step of the scenario whose row is
// total, from the per-step counts of every key set.
func stepRows(total schema.Move, pl chainPlan, counts []MoveCount, perSet float64) ([]schema.Move, error) {
	var out []schema.Move
	for t, ideal := range pl.steps {
		r := schema.Move{Config: total.Config, Label: total.Label, Op: StepOp(total.Op), From: pl.sizes[t], To: pl.sizes[t+1], Steps: 1, IdealFrac: ideal.value()}
		moved := make([]float64, len(counts))
		coll := make([]float64, len(counts))
		for s, c := range counts {
			k := float64(c.Keys)
			moved[s], coll[s] = float64(c.Steps[t].Moves)/k, float64(c.Steps[t].Collateral)/k
			r.Samples = append(r.Samples, schema.MoveSample{Moved: moved[s], Collateral: coll[s], Net: moved[s]})
		}
		var ci cis
		m, c := ci.of("moved fraction", moved), ci.of("collateral fraction", coll)
		if ci.err != nil {
			return nil, ci.err
		}
		r.MovedFrac, r.MovedFracLo, r.MovedFracHi = m.Mean, m.Lo, m.Hi
		r.CollateralFrac, r.CollateralFracLo, r.CollateralFracHi = c.Mean, c.Lo, c.Hi
		r.NetMovedFrac, r.NetMovedFracLo, r.NetMovedFracHi = m.Mean, m.Lo, m.Hi
		r.MovedOverIdeal = r.MovedFrac / r.IdealFrac
		r.ExpectedMoves = ideal.times(perSet)
		out = append(out, r)
	}
	return out, nil
}
