package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/schema"
)

// ChurnSteps is the number of membership changes in the churn scenario.
const ChurnSteps = 20

// Step is one membership change: the nodes with IDs Leave leave, the
// members named in Reweight take their new weights in place (see
// [ApplyReweight]), then the nodes Join join, appended after the survivors
// (as [algorithms.Join] does). With Rejoin set, a joining node that was a
// member before goes back to the position in the list it held when it left
// (clamped to the end), so order-dependent algorithms (modulo, jump,
// slots) see the node return rather than a different fleet.
type Step struct {
	Leave    []string
	Join     []algorithms.Node
	Reweight []algorithms.Node // ID of a member and its new weight
	Rejoin   bool
}

// Scenario is a membership history as data: the Initial membership and the
// Steps applied to it in order. It names no algorithm: every placer runs
// the same history, each deriving the next placement from its current one
// with Rebalance.
type Scenario struct {
	Op      string
	Initial []algorithms.Node
	Steps   []Step
	// PerStep asks the sweeps to report every step apart as well as the
	// whole (MovementSteps; a miss storm per step): staged growth, where
	// each step is its own change.
	PerStep bool
}

// Memberships returns the membership before the first step and after each
// step (len(Steps)+1 node lists), in the order [algorithms.Join] and
// [algorithms.Leave] would give. It returns an error naming the first bad
// step: an invalid initial membership, an unknown leaving ID, a joining ID
// already present, an empty result, or a step that needs no movement
// (ideal fraction 0), such as one that changes nothing. It holds every
// membership at once; [Movement] walks them one at a time.
func (sc Scenario) Memberships() ([][]algorithms.Node, error) {
	var out [][]algorithms.Node
	err := sc.walk(func(_ int, m []algorithms.Node, _ ratio) error {
		out = append(out, m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// walk calls fn with the membership before the first step (t = 0) and
// after each step t = 1..len(Steps), holding only the current and the next
// membership, and with the step's IdealFraction as a ratio (0/1 for t = 0).
// Each slice passed to fn is a new one that walk does not modify
// afterwards. It returns the first error of Memberships' checks or
// of fn.
func (sc Scenario) walk(fn func(t int, m []algorithms.Node, ideal ratio) error) error {
	if err := algorithms.ValidateNodes(sc.Initial); err != nil {
		return fmt.Errorf("scenario %s: initial membership: %w", sc.Op, err)
	}
	if len(sc.Steps) == 0 {
		return fmt.Errorf("scenario %s: no membership change", sc.Op)
	}
	cur := slices.Clone(sc.Initial)
	// The current IDs, kept across steps, so that each step validates only
	// its joining nodes (and the weight shares of the whole): a shrink of n
	// nodes then costs O(n) per step in float sums, not in map inserts.
	ids := make(map[string]bool, len(cur))
	for _, n := range cur {
		ids[n.ID] = true
	}
	if err := fn(0, cur, ratio{0, 1}); err != nil {
		return err
	}
	// The position each departed node held when it left, kept only when a
	// step puts a node back (Rejoin): a shrink of n nodes needs no map.
	var lastPos map[string]int
	if slices.ContainsFunc(sc.Steps, func(st Step) bool { return st.Rejoin }) {
		lastPos = map[string]int{}
	}
	for i, st := range sc.Steps {
		next := make([]algorithms.Node, 0, len(cur)+len(st.Join))
		leave := newIDSet(st.Leave) // remove-last can drop ~all of n nodes
		for _, id := range st.Leave {
			if !ids[id] {
				return fmt.Errorf("scenario %s: step %d: leaving node %q is not a member", sc.Op, i+1, id)
			}
		}
		for j, n := range cur {
			if leave.has(n.ID) {
				if lastPos != nil {
					lastPos[n.ID] = j
				}
			} else {
				next = append(next, n)
			}
		}
		for _, id := range st.Leave {
			delete(ids, id)
		}
		if len(st.Join) > 0 {
			if err := algorithms.ValidateNodes(st.Join); err != nil {
				return fmt.Errorf("scenario %s: step %d: joining nodes: %w", sc.Op, i+1, err)
			}
		}
		if err := ApplyReweight(next, st.Reweight); err != nil {
			return fmt.Errorf("scenario %s: step %d: %w", sc.Op, i+1, err)
		}
		for _, n := range st.Join {
			if ids[n.ID] {
				return fmt.Errorf("scenario %s: step %d: duplicate node ID %q: the joining node is already a member", sc.Op, i+1, n.ID)
			}
			ids[n.ID] = true
		}
		for _, n := range st.Join {
			if j, ok := lastPos[n.ID]; ok && st.Rejoin {
				next = slices.Insert(next, min(j, len(next)), n)
			} else {
				next = append(next, n)
			}
		}
		if len(next) == 0 {
			return fmt.Errorf("scenario %s: step %d: %w", sc.Op, i+1, algorithms.ErrNoNodes)
		}
		if len(next) > algorithms.MaxNodes {
			return fmt.Errorf("scenario %s: step %d: %d nodes: at most %d nodes", sc.Op, i+1, len(next), algorithms.MaxNodes)
		}
		if err := algorithms.ValidateShares(next); err != nil {
			return fmt.Errorf("scenario %s: step %d: %w", sc.Op, i+1, err)
		}
		var ideal ratio
		if len(st.Reweight) > 0 { // survivors' weights changed: the general form
			ideal = idealRatio(cur, next)
		} else {
			ideal = stepIdeal(cur, next, leave, st.Join)
		}
		if ideal.num == 0 {
			return fmt.Errorf("scenario %s: step %d changes no node's share (ideal fraction 0)", sc.Op, i+1)
		}
		if err := fn(i+1, next, ideal); err != nil {
			return err
		}
		cur = next
	}
	return nil
}

// stepIdeal is idealRatio(before, after) for a step that removes the
// IDs in leave from before and appends joins, and reweights no one:
// survivors keep their weights, so a node's weight after is its join weight if it
// (re)joins, 0 if it left, else its own. It sums the same terms in the same
// order as idealRatio, so the result is bit-identical, without a map of
// every node.
func stepIdeal(before, after []algorithms.Node, leave idSet, joins []algorithms.Node) ratio {
	wb, wa := algorithms.TotalWeight(before), algorithms.TotalWeight(after)
	rejoin := newIDSet(nil)
	if leave.len() > 0 && len(joins) > 0 { // a node leaving and joining in one step
		var ids []string
		for _, n := range joins {
			ids = append(ids, n.ID)
		}
		rejoin = newIDSet(ids)
	}
	s := newShareLoss(wb, wa)
	for _, n := range before {
		var now float64
		if !leave.has(n.ID) {
			now = n.Weight
		} else if rejoin.has(n.ID) {
			for _, j := range joins {
				if j.ID == n.ID {
					now = j.Weight
				}
			}
		}
		s.add(n.Weight, now)
	}
	return s.ratio()
}

// ratio is a fraction num/den of two floats, kept apart until it is used
// so that num/den and x*num/den each round once: for integer weights num
// and den are exact integers, so 3 -> 4 nodes gives exactly 0.25 (not
// 0.24999999999999994) and 170,000 keys x 1/170 exactly 1,000.
type ratio struct{ num, den float64 }

// value returns num/den.
func (r ratio) value() float64 { return r.num / r.den }

// times returns x*num/den, rounded once when x*num is exact (integers
// below 2^53).
func (r ratio) times(x float64) float64 { return x * r.num / r.den }

// shareLoss sums the ideal fraction's terms max(0, old share - new share)
// over nodes. When the product of the total weights is a normal finite
// float, it sums max(0, w_old*W_after - w_new*W_before) and divides once
// by W_before*W_after, which is exact for integer weights (the terms and
// their sum are exact integers); otherwise (totals near the float range's
// ends) it sums the share differences and divides by 1.
type shareLoss struct {
	wb, wa   float64
	products bool
	sum      float64
}

func newShareLoss(wb, wa float64) shareLoss {
	p := wb * wa
	// Every weight share is >= algorithms.MinWeightShare = 2^-53, so with
	// p >= 2^-960 no product w*W underflows below 2^-1013.
	return shareLoss{wb: wb, wa: wa, products: p >= 0x1p-960 && !math.IsInf(p, 1)}
}

// add adds the term of a node of weight old before and now after (0 if it
// left).
func (s *shareLoss) add(old, now float64) {
	if s.products {
		s.sum += math.Max(0, old*s.wa-now*s.wb)
	} else {
		s.sum += math.Max(0, old/s.wb-now/s.wa)
	}
}

func (s *shareLoss) ratio() ratio {
	if s.products {
		return ratio{s.sum, s.wb * s.wa}
	}
	return ratio{s.sum, 1}
}

// idSet is a set of node IDs: a slice scanned for the few IDs of a
// typical step (cheaper than hashing every member's ID), a map for many.
type idSet struct {
	few  []string
	many map[string]bool
}

func newIDSet(ids []string) idSet {
	if len(ids) <= 8 {
		return idSet{few: ids}
	}
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return idSet{many: m}
}

func (s idSet) has(id string) bool {
	if s.many != nil {
		return s.many[id]
	}
	for _, x := range s.few {
		if x == id {
			return true
		}
	}
	return false
}

func (s idSet) len() int { return len(s.few) + len(s.many) }

// IdealFraction returns the smallest fraction of keys (0..1) that any
// placement must move to go from membership before to membership after
// while giving every node its weight share w_i/W: the sum over nodes of
// max(0, oldShare - newShare), where a departed node's new share is 0 and
// a joining node's old share is 0. Nodes are matched by ID. For n -> m
// nodes of equal weight it is |m-n|/max(n,m): 1/(n+1) for one join, 1/n for
// one leave. With integer weights it is the float nearest the exact
// fraction (one rounding, see ratio). Both memberships must be valid
// ([algorithms.ValidateNodes]).
func IdealFraction(before, after []algorithms.Node) float64 {
	return idealRatio(before, after).value()
}

// idealRatio is IdealFraction as a ratio.
func idealRatio(before, after []algorithms.Node) ratio {
	wb, wa := algorithms.TotalWeight(before), algorithms.TotalWeight(after)
	weightAfter := make(map[string]float64, len(after)) // IndexOf per node would be O(n^2)
	for _, n := range after {
		weightAfter[n.ID] = n.Weight
	}
	s := newShareLoss(wb, wa)
	for _, n := range before {
		s.add(n.Weight, weightAfter[n.ID]) // 0 for a departed node
	}
	return s.ratio()
}

// Resize returns the scenario from nodes equal-weight nodes node-0 ...
// node-{from-1} to to nodes: for to > from, nodes node-from ... node-{to-1}
// join at once (op "add" for one, "add-many" for more); for to < from, the
// last from-to nodes leave at once (op "remove-last"). It returns an error
// naming from or to when either is < 1 or > algorithms.MaxNodes or they
// are equal.
func Resize(from, to int) (Scenario, error) {
	if from < 1 {
		return Scenario{}, fmt.Errorf("from %d: need at least 1 node", from)
	}
	if to < 1 {
		return Scenario{}, fmt.Errorf("to %d: need at least 1 node", to)
	}
	if from == to {
		return Scenario{}, fmt.Errorf("from %d to %d: the membership does not change", from, to)
	}
	if to > algorithms.MaxNodes {
		return Scenario{}, fmt.Errorf("to %d: at most %d nodes", to, algorithms.MaxNodes)
	}
	initial, err := algorithms.DefaultNodes(from)
	if err != nil {
		return Scenario{}, fmt.Errorf("from %d: %w", from, err)
	}
	sc := Scenario{Initial: initial}
	var st Step
	switch {
	case to == from+1:
		sc.Op = schema.OpAdd
	case to > from:
		sc.Op = schema.OpAddMany
	default:
		sc.Op = schema.OpRemoveLast
	}
	for i := from; i < to; i++ {
		st.Join = append(st.Join, algorithms.Node{ID: algorithms.NodeID(i), Weight: 1})
	}
	for i := from - 1; i >= to; i-- {
		st.Leave = append(st.Leave, algorithms.NodeID(i))
	}
	sc.Steps = []Step{st}
	return sc, nil
}

// Staged returns staged growth or shrinkage of equal-weight nodes node-0
// ... node-{from-1} to to nodes, step nodes at a time (the last step may
// be smaller): for to > from, nodes node-from ... node-{to-1} join in
// order (op "grow"); for to < from, the last nodes leave, the newest
// first (op "shrink"). It is reported step by step (PerStep). It returns
// an error naming from, to or step when from or to is < 1 or >
// algorithms.MaxNodes, they are equal, or step < 1.
func Staged(from, to, step int) (Scenario, error) {
	if step < 1 {
		return Scenario{}, fmt.Errorf("step %d: need at least 1 node per step", step)
	}
	sc, err := Resize(from, to)
	if err != nil {
		return Scenario{}, err
	}
	st := sc.Steps[0]
	sc.Op, sc.PerStep, sc.Steps = schema.OpGrow, true, nil
	if to < from {
		sc.Op = schema.OpShrink
	}
	sc.Steps = StepsOf(st, step)
	return sc, nil
}

// StepsOf splits one step's joins (or, without joins, its leaves) into
// steps of k nodes each, in order (the last may be smaller); a step that
// also reweights, or both joins and leaves, is returned whole, as is
// every step when k < 1.
func StepsOf(st Step, k int) []Step {
	if k < 1 || len(st.Reweight) > 0 || (len(st.Join) > 0 && len(st.Leave) > 0) {
		return []Step{st}
	}
	var out []Step
	for i := 0; i < len(st.Join); i += k {
		out = append(out, Step{Join: st.Join[i:min(i+k, len(st.Join))], Rejoin: st.Rejoin})
	}
	for i := 0; i < len(st.Leave); i += k {
		out = append(out, Step{Leave: st.Leave[i:min(i+k, len(st.Leave))]})
	}
	return out
}

// ShrinkTarget returns the node count the shrink scenarios stop at: 10% of
// n, rounded up.
func ShrinkTarget(n int) int { return (n + 9) / 10 }

// NewScenario returns the named scenario (see [schema.Ops]) on n equal-weight nodes
// node-0 ... node-{n-1}. Random choices (which node leaves, churn joins and
// leaves) come from math/rand/v2's PCG seeded with (seed, 0), so the same
// seed gives the same history. New nodes get fresh IDs node-n, node-{n+1},
// ...; a restored node comes back with its old ID and weight at its old
// position in the list (Step.Rejoin). It returns an error
// naming op when it is unknown, or n when the scenario needs more nodes
// (remove-*, restore: n >= 2; shrink-*: n >= 2 so that there is something
// to shrink; n >= 1 otherwise), or n > algorithms.MaxNodes.
func NewScenario(op string, n int, seed uint64) (Scenario, error) {
	return NewScenarioForSet(op, n, seed, 0)
}

// RandomOp reports whether scenario op makes random choices (which node
// leaves, churn's joins and leaves), so that two seeds or two key sets can
// see different histories.
func RandomOp(op string) bool {
	switch op {
	case schema.OpRemoveRandom, schema.OpRestore, schema.OpShrinkRandom, schema.OpChurn:
		return true
	}
	return false
}

// PerSetOp reports whether replication draws scenario op's random choices
// once per key set (NewScenarioForSet): the ops whose histories all end
// at the same node counts and ideal fraction (remove-random, restore,
// shrink-random). Churn's histories differ in both, so one history serves
// every set, as in Movement.
func PerSetOp(op string) bool { return RandomOp(op) && op != schema.OpChurn }

// NewScenarioForSet is NewScenario with its random choices drawn from
// math/rand/v2's PCG seeded with (seed, set): key set set's own history,
// independent of every other set's, so that estimates over key sets cover
// which node fails as well as the keys. Set 0 is NewScenario(op, n, seed);
// an op without random choices ([RandomOp] false) gives the same scenario
// for every set. set must be >= 0; the errors are NewScenario's.
func NewScenarioForSet(op string, n int, seed uint64, set int) (Scenario, error) {
	if n < 1 {
		return Scenario{}, fmt.Errorf("nodes %d: need at least 1 node", n)
	}
	if set < 0 {
		return Scenario{}, fmt.Errorf("key set %d: must be >= 0", set)
	}
	rng := rand.New(rand.NewPCG(seed, uint64(set)))
	need2 := func() error {
		if n < 2 {
			return fmt.Errorf("scenario %s: nodes %d: need at least 2 nodes", op, n)
		}
		return nil
	}
	initial, err := algorithms.DefaultNodes(n)
	if err != nil {
		return Scenario{}, err
	}
	sc := Scenario{Op: op, Initial: initial}
	switch op {
	case schema.OpAdd:
		return Resize(n, n+1)
	case schema.OpAddMany:
		sc, err := Resize(n, 2*n)
		sc.Op = schema.OpAddMany
		return sc, err
	case schema.OpRemoveLast:
		if err := need2(); err != nil {
			return Scenario{}, err
		}
		return Resize(n, n-1)
	case schema.OpRemoveRandom, schema.OpRestore:
		if err := need2(); err != nil {
			return Scenario{}, err
		}
		gone := initial[rng.IntN(n)]
		sc.Steps = []Step{{Leave: []string{gone.ID}}}
		if op == schema.OpRestore {
			sc.Steps = append(sc.Steps, Step{Join: []algorithms.Node{gone}, Rejoin: true})
		}
	case schema.OpShrinkRandom, schema.OpShrinkLIFO:
		if err := need2(); err != nil {
			return Scenario{}, err
		}
		// One membership per step, n down to ShrinkTarget(n): refuse
		// before building O(n^2) steps that no chain could afford to build
		// (MaxChainCost, the bound Movement enforces).
		if t := int64(ShrinkTarget(n)); (int64(n)+t)*(int64(n)-t+1)/2 > MaxChainCost {
			return Scenario{}, fmt.Errorf("scenario %s: nodes %d: its %d memberships have %d nodes together, more than a chain may build (max %d)", op, n, int64(n)-t+1, (int64(n)+t)*(int64(n)-t+1)/2, int64(MaxChainCost))
		}
		cur := slices.Clone(initial)
		for len(cur) > ShrinkTarget(n) {
			i := len(cur) - 1 // newest first
			if op == schema.OpShrinkRandom {
				i = rng.IntN(len(cur))
			}
			sc.Steps = append(sc.Steps, Step{Leave: []string{cur[i].ID}})
			cur = slices.Delete(cur, i, i+1)
		}
	case schema.OpChurn:
		cur := slices.Clone(initial)
		next := n
		for range ChurnSteps {
			if len(cur) == 1 || rng.IntN(2) == 0 {
				nd := algorithms.Node{ID: algorithms.NodeID(next), Weight: 1}
				next++
				sc.Steps = append(sc.Steps, Step{Join: []algorithms.Node{nd}})
				cur = append(cur, nd)
			} else {
				i := rng.IntN(len(cur))
				sc.Steps = append(sc.Steps, Step{Leave: []string{cur[i].ID}})
				cur = slices.Delete(cur, i, i+1)
			}
		}
	default:
		return Scenario{}, fmt.Errorf("unknown scenario op %q (known: %v)", op, schema.Ops())
	}
	return sc, nil
}
