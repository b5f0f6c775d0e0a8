package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/chbench/chbench/algorithms"
)

// The scenario operations (the "op" column of movement results).
const (
	OpAdd          = "add"           // n -> n+1: one node joins
	OpAddMany      = "add-many"      // n -> m > n+1 (by default n -> 2n): m-n nodes join at once
	OpRemoveLast   = "remove-last"   // n -> m < n: the last n-m nodes leave at once (default m = n-1)
	OpRemoveRandom = "remove-random" // n -> n-1: a seeded random node leaves
	OpRestore      = "restore"       // n -> n-1 -> n: a seeded random node leaves and comes back to its old place
	OpShrinkRandom = "shrink-random" // n -> ceil(n/10), one seeded random node at a time
	OpShrinkLIFO   = "shrink-lifo"   // n -> ceil(n/10), the newest node first, one at a time
	OpChurn        = "churn"         // ChurnSteps seeded joins and leaves
)

// Ops returns the scenario operations NewScenario accepts, in a fixed order.
func Ops() []string {
	return []string{OpAdd, OpAddMany, OpRemoveLast, OpRemoveRandom, OpRestore, OpShrinkRandom, OpShrinkLIFO, OpChurn}
}

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
}

// Memberships returns the membership before the first step and after each
// step (len(Steps)+1 node lists), in the order [algorithms.Join] and
// [algorithms.Leave] would give. It returns an error naming the first bad
// step: an invalid initial membership, an unknown leaving ID, a joining ID
// already present, an empty result, or a step that needs no movement
// (ideal fraction 0), such as one that changes nothing.
func (sc Scenario) Memberships() ([][]algorithms.Node, error) {
	if err := algorithms.ValidateNodes(sc.Initial); err != nil {
		return nil, fmt.Errorf("scenario %s: initial membership: %w", sc.Op, err)
	}
	if len(sc.Steps) == 0 {
		return nil, fmt.Errorf("scenario %s: no membership change", sc.Op)
	}
	out := [][]algorithms.Node{slices.Clone(sc.Initial)}
	cur := sc.Initial
	lastPos := map[string]int{} // position each departed node held when it left
	for i, st := range sc.Steps {
		next := make([]algorithms.Node, 0, len(cur)+len(st.Join))
		leave := make(map[string]bool, len(st.Leave)) // a set: remove-last can drop ~all of n nodes
		for _, id := range st.Leave {
			leave[id] = true
		}
		for j, n := range cur {
			if leave[n.ID] {
				delete(leave, n.ID)
				lastPos[n.ID] = j
			} else {
				next = append(next, n)
			}
		}
		for _, id := range st.Leave {
			if leave[id] {
				return nil, fmt.Errorf("scenario %s: step %d: leaving node %q is not a member", sc.Op, i+1, id)
			}
		}
		if err := ApplyReweight(next, st.Reweight); err != nil {
			return nil, fmt.Errorf("scenario %s: step %d: %w", sc.Op, i+1, err)
		}
		for _, n := range st.Join {
			if j, ok := lastPos[n.ID]; ok && st.Rejoin {
				next = slices.Insert(next, min(j, len(next)), n)
			} else {
				next = append(next, n)
			}
		}
		if err := algorithms.ValidateNodes(next); err != nil {
			return nil, fmt.Errorf("scenario %s: step %d: %w", sc.Op, i+1, err)
		}
		if IdealFraction(cur, next) == 0 {
			return nil, fmt.Errorf("scenario %s: step %d changes no node's share (ideal fraction 0)", sc.Op, i+1)
		}
		out = append(out, next)
		cur = next
	}
	return out, nil
}

// IdealFraction returns the smallest fraction of keys (0..1) that any
// placement must move to go from membership before to membership after
// while giving every node its weight share w_i/W: the sum over nodes of
// max(0, oldShare - newShare), where a departed node's new share is 0 and
// a joining node's old share is 0. Nodes are matched by ID. For n -> m
// nodes of equal weight it is |m-n|/max(n,m): 1/(n+1) for one join, 1/n for
// one leave. Both memberships must be valid ([algorithms.ValidateNodes]).
func IdealFraction(before, after []algorithms.Node) float64 {
	wb, wa := algorithms.TotalWeight(before), algorithms.TotalWeight(after)
	weightAfter := make(map[string]float64, len(after)) // IndexOf per node would be O(n^2)
	for _, n := range after {
		weightAfter[n.ID] = n.Weight
	}
	var f float64
	for _, n := range before {
		old := n.Weight / wb
		var now float64
		if w, ok := weightAfter[n.ID]; ok {
			now = w / wa
		}
		f += math.Max(0, old-now)
	}
	return f
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
		sc.Op = OpAdd
	case to > from:
		sc.Op = OpAddMany
	default:
		sc.Op = OpRemoveLast
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

// ShrinkTarget returns the node count the shrink scenarios stop at: 10% of
// n, rounded up.
func ShrinkTarget(n int) int { return (n + 9) / 10 }

// NewScenario returns the named scenario (see [Ops]) on n equal-weight nodes
// node-0 ... node-{n-1}. Random choices (which node leaves, churn joins and
// leaves) come from math/rand/v2's PCG seeded with (seed, 0), so the same
// seed gives the same history. New nodes get fresh IDs node-n, node-{n+1},
// ...; a restored node comes back with its old ID and weight at its old
// position in the list (Step.Rejoin). It returns an error
// naming op when it is unknown, or n when the scenario needs more nodes
// (remove-*, restore: n >= 2; shrink-*: n >= 2 so that there is something
// to shrink; n >= 1 otherwise), or n > algorithms.MaxNodes.
func NewScenario(op string, n int, seed uint64) (Scenario, error) {
	if n < 1 {
		return Scenario{}, fmt.Errorf("nodes %d: need at least 1 node", n)
	}
	rng := rand.New(rand.NewPCG(seed, 0))
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
	case OpAdd:
		return Resize(n, n+1)
	case OpAddMany:
		sc, err := Resize(n, 2*n)
		sc.Op = OpAddMany
		return sc, err
	case OpRemoveLast:
		if err := need2(); err != nil {
			return Scenario{}, err
		}
		return Resize(n, n-1)
	case OpRemoveRandom, OpRestore:
		if err := need2(); err != nil {
			return Scenario{}, err
		}
		gone := initial[rng.IntN(n)]
		sc.Steps = []Step{{Leave: []string{gone.ID}}}
		if op == OpRestore {
			sc.Steps = append(sc.Steps, Step{Join: []algorithms.Node{gone}, Rejoin: true})
		}
	case OpShrinkRandom, OpShrinkLIFO:
		if err := need2(); err != nil {
			return Scenario{}, err
		}
		// One membership per step, n down to ShrinkTarget(n): refuse
		// before building O(n^2) steps that no chain could hold.
		if t := int64(ShrinkTarget(n)); (int64(n)+t)*(int64(n)-t+1)/2 > MaxChainCost {
			return Scenario{}, fmt.Errorf("scenario %s: nodes %d: its %d memberships would hold more than %d nodes together (max %d)", op, n, int64(n)-t+1, int64(MaxChainCost), int64(MaxChainCost))
		}
		cur := slices.Clone(initial)
		for len(cur) > ShrinkTarget(n) {
			i := len(cur) - 1 // newest first
			if op == OpShrinkRandom {
				i = rng.IntN(len(cur))
			}
			sc.Steps = append(sc.Steps, Step{Leave: []string{cur[i].ID}})
			cur = slices.Delete(cur, i, i+1)
		}
	case OpChurn:
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
		return Scenario{}, fmt.Errorf("unknown scenario op %q (known: %v)", op, Ops())
	}
	return sc, nil
}
