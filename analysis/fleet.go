package analysis

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/internal/inputs"
	"github.com/chbench/chbench/internal/lines"
	"github.com/chbench/chbench/memory"
)

// This file holds real fleets: memberships with named nodes and weights
// read from a file or flags, named membership changes (joins, leaves,
// reweights), and changes of a seeded fraction of the fleet.

// ParseNodeWeight parses "id" or "id,weight" (weight 1 when absent). It
// returns an error naming s for an empty ID or a weight that is not a
// finite number > 0.
func ParseNodeWeight(s string) (algorithms.Node, error) {
	id, ws, hasW := strings.Cut(s, ",")
	n := algorithms.Node{ID: strings.TrimSpace(id), Weight: 1}
	if n.ID == "" {
		return n, fmt.Errorf("node %q: empty node ID", s)
	}
	if hasW {
		w, err := algorithms.ParseDecimal(ws)
		if err != nil {
			return n, fmt.Errorf("node %q: weight %q is not a number: %w", s, ws, err)
		}
		if err := algorithms.ValidateWeight(w); err != nil {
			return n, fmt.Errorf("node %q: %w", s, err)
		}
		n.Weight = w
	}
	return n, nil
}

// ParseReweight parses "id=weight", a member's new weight. It returns an
// error naming s when the "=" is missing, the ID is empty or the weight is
// not a finite number > 0.
func ParseReweight(s string) (algorithms.Node, error) {
	id, ws, ok := strings.Cut(s, "=")
	if !ok {
		return algorithms.Node{}, fmt.Errorf("reweight %q: want id=weight", s)
	}
	n := algorithms.Node{ID: strings.TrimSpace(id)}
	if n.ID == "" {
		return n, fmt.Errorf("reweight %q: empty node ID", s)
	}
	w, err := algorithms.ParseDecimal(ws)
	if err != nil {
		return n, fmt.Errorf("reweight %q: weight %q is not a number: %w", s, ws, err)
	}
	if err := algorithms.ValidateWeight(w); err != nil {
		return n, fmt.Errorf("reweight %q: %w", s, err)
	}
	n.Weight = w
	return n, nil
}

// MaxMemberLineBytes is the longest line a members file may hold (a
// line of exactly this many bytes is read).
const MaxMemberLineBytes = 64 << 10

// memberBytes is what a node of a members file holds beside its ID's
// bytes: the algorithms.Node and its entries in the maps that validate
// and index a membership.
const memberBytes = 24 + 96

// ParseMembership reads a membership file from r (named name in errors)
// with the default memory budget: see [ReadMembership].
func ParseMembership(r io.Reader, name string) ([]algorithms.Node, error) {
	return parseMembership(r, name, nil)
}

// ReadMembership reads the members file at path (registered as an input
// of the command, internal/inputs) by the members file rule: a line is as
// package internal/lines reads it (a "\r\n" end and a UTF-8 byte-order
// mark at the start of the file are not part of it; at most
// MaxMemberLineBytes bytes); "#" at the start of a line or after a space
// or tab begins a comment that runs to the end of the line ("a # c" is
// the node a; "a#1" is the node a#1); what is left, trimmed of white
// space, is a node, "id" or "id,weight" (weight 1 when absent), or
// nothing (a blank line). Each node's ID obeys
// [algorithms.ValidateNodes]' rule (plain text: valid UTF-8 without
// control or invisible format characters). The nodes' bytes are reserved
// from mem (nil: the default budget). It returns an error naming the
// file and line for a bad entry or a line too long, the membership errors
// of ValidateNodes (no nodes, duplicate IDs, ...), and the budget's error.
func ReadMembership(path string, mem *memory.Budget) ([]algorithms.Node, error) {
	f, err := inputs.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseMembership(f, path, mem)
}

func parseMembership(r io.Reader, name string, mem *memory.Budget) ([]algorithms.Node, error) {
	mem = memory.OrDefault(mem)
	var nodes []algorithms.Node
	var held int64
	err := lines.Scan(r, name, "a members file", MaxMemberLineBytes, func(b []byte, line int) error {
		tb := bytes.TrimSpace(stripComment(b))
		if len(tb) == 0 {
			return nil
		}
		if len(nodes) == algorithms.MaxNodes {
			return fmt.Errorf("%s:%d: more than %d nodes", name, line, algorithms.MaxNodes)
		}
		if err := mem.Reserve(fmt.Sprintf("members file %s: %d nodes so far", name, len(nodes)+1), int64(len(tb))+memberBytes); err != nil {
			return err
		}
		held += int64(len(tb)) + memberBytes
		n, err := ParseNodeWeight(string(tb)) // the one copy of the line: the node's ID is part of it
		if err == nil {
			err = algorithms.ValidateID(n.ID)
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		nodes = append(nodes, n)
		return nil
	})
	if err == nil {
		err = algorithms.ValidateNodes(nodes)
		if err != nil {
			err = fmt.Errorf("%s: %w", name, err)
		}
	}
	if err != nil {
		mem.Release(held)
		return nil, err
	}
	return nodes, nil
}

// stripComment returns line without its comment: from a "#" at the start
// or after a space or tab to the end.
func stripComment(line []byte) []byte {
	for i := 0; i < len(line); i++ {
		if line[i] == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
			return line[:i]
		}
	}
	return line
}

// ApplyReweight sets, in place, the weight of each member of nodes named
// in rw to rw's weight. It returns an error naming an ID that is not a
// member or is named twice, or a weight that is not a finite number > 0.
func ApplyReweight(nodes []algorithms.Node, rw []algorithms.Node) error {
	if len(rw) == 0 {
		return nil
	}
	at := make(map[string]int, len(nodes))
	for i, n := range nodes {
		at[n.ID] = i
	}
	done := make(map[string]bool, len(rw))
	for _, r := range rw {
		i, ok := at[r.ID]
		if !ok {
			return fmt.Errorf("reweighted node %q is not a member", r.ID)
		}
		if done[r.ID] {
			return fmt.Errorf("node %q is reweighted twice in one step", r.ID)
		}
		done[r.ID] = true
		if err := algorithms.ValidateWeight(r.Weight); err != nil {
			return fmt.Errorf("reweighted node %q: %w", r.ID, err)
		}
		nodes[i].Weight = r.Weight
	}
	return nil
}

// ChangeOp names a one-step change by what it does: "join", "leave",
// "reweight", or several joined by "+" in that order ("leave+reweight").
func ChangeOp(st Step) string {
	var parts []string
	if len(st.Join) > 0 {
		parts = append(parts, "join")
	}
	if len(st.Leave) > 0 {
		parts = append(parts, "leave")
	}
	if len(st.Reweight) > 0 {
		parts = append(parts, "reweight")
	}
	return strings.Join(parts, "+")
}

// Change returns the one-step scenario applying st to initial, named by
// [ChangeOp] unless op is given. It returns the error of
// [Scenario.Memberships] naming the bad step (unknown leaving or
// reweighted ID, joining ID already present, a change of nothing).
func Change(op string, initial []algorithms.Node, st Step) (Scenario, error) {
	if op == "" {
		op = ChangeOp(st)
	}
	if op == "" {
		return Scenario{}, fmt.Errorf("no membership change: give nodes that join, leave or change weight")
	}
	sc := Scenario{Op: op, Initial: slices.Clone(initial), Steps: []Step{st}}
	_, err := sc.Memberships()
	return sc, err
}

// pickFraction returns round(frac*n) distinct indexes of 0..n-1 (at least
// 1), chosen by a seeded shuffle (math/rand/v2 PCG seeded with (seed, 1)),
// in increasing order. It returns an error naming frac when it is not in
// (0, 1].
func pickFraction(n int, frac float64, seed uint64) ([]int, error) {
	if math.IsNaN(frac) || frac <= 0 || frac > 1 {
		return nil, fmt.Errorf("fraction %v: need 0 < fraction <= 1", frac)
	}
	k := max(1, int(math.Round(frac*float64(n))))
	rng := rand.New(rand.NewPCG(seed, 1))
	idx := rng.Perm(n)[:k]
	slices.Sort(idx)
	return idx, nil
}

// ReweightFraction returns the "reweight" scenario: a seeded random
// fraction frac of the members of initial (round(frac*n), at least one)
// change their weight to w, in place. Its op records the fraction and the
// weights, e.g. "reweight-5%-1-to-127" (the old weight appears when all
// members share it). It returns an error naming frac or w when out of
// range, or when the change moves nothing (every chosen node already has
// weight w, or all nodes are reweighted to one common weight).
func ReweightFraction(initial []algorithms.Node, frac, w float64, seed uint64) (Scenario, error) {
	if err := algorithms.ValidateNodes(initial); err != nil {
		return Scenario{}, err
	}
	if err := algorithms.ValidateWeight(w); err != nil {
		return Scenario{}, fmt.Errorf("new %w", err)
	}
	idx, err := pickFraction(len(initial), frac, seed)
	if err != nil {
		return Scenario{}, fmt.Errorf("reweight %w", err)
	}
	var st Step
	for _, i := range idx {
		st.Reweight = append(st.Reweight, algorithms.Node{ID: initial[i].ID, Weight: w})
	}
	op := "reweight-" + labelNum(100*frac) + "%-"
	if algorithms.Uniform(initial) {
		op += labelNum(initial[0].Weight) + "-"
	}
	op += "to-" + labelNum(w)
	return Change(op, initial, st)
}

// LeaveFraction returns the one-step scenario in which a seeded random
// fraction frac of the members of initial (round(frac*n), at least one)
// leave at once, op "leave-<percent>%". It returns an error naming frac
// when out of range or when no node would remain.
func LeaveFraction(initial []algorithms.Node, frac float64, seed uint64) (Scenario, error) {
	if err := algorithms.ValidateNodes(initial); err != nil {
		return Scenario{}, err
	}
	idx, err := pickFraction(len(initial), frac, seed)
	if err != nil {
		return Scenario{}, fmt.Errorf("leave %w", err)
	}
	if len(idx) == len(initial) {
		return Scenario{}, fmt.Errorf("leave fraction %v: no node would remain of %d", frac, len(initial))
	}
	var st Step
	for _, i := range idx {
		st.Leave = append(st.Leave, initial[i].ID)
	}
	return Change("leave-"+labelNum(100*frac)+"%", initial, st)
}

// JoinCount returns the one-step scenario in which k new nodes of weight w
// join initial at once, named node-i for the smallest indexes i >= len(initial)
// not already taken, op "join-<k>". It returns an error naming k or w when
// k < 1 or w is not a finite number > 0.
func JoinCount(initial []algorithms.Node, k int, w float64) (Scenario, error) {
	if k < 1 || k > algorithms.MaxNodes {
		return Scenario{}, fmt.Errorf("join count %d: need 1 to %d nodes", k, algorithms.MaxNodes)
	}
	if err := algorithms.ValidateWeight(w); err != nil {
		return Scenario{}, fmt.Errorf("joining node %w", err)
	}
	taken := make(map[string]bool, len(initial))
	for _, n := range initial {
		taken[n.ID] = true
	}
	var st Step
	for i := len(initial); len(st.Join) < k; i++ {
		if id := algorithms.NodeID(i); !taken[id] {
			st.Join = append(st.Join, algorithms.Node{ID: id, Weight: w})
		}
	}
	return Change("join-"+strconv.Itoa(k), initial, st)
}

// FleetChange is the planned change of a real fleet, as the commands'
// fleet flags give it (and a fleet profile will): a named step (nodes
// that join, leave or change weight), seeded random fractions of the
// fleet that change weight or leave, and a number of new nodes that join.
// Each part given is one scenario, for each initial membership.
type FleetChange struct {
	Join     []algorithms.Node // nodes that join in the named step
	Leave    []string          // members that leave in the named step
	Reweight []algorithms.Node // members and their new weights in the named step
	// ReweightFracs are fractions of the members (each its own scenario,
	// seeded: ReweightFraction) whose weight changes to ReweightTo.
	ReweightFracs []float64
	ReweightTo    float64
	// LeaveFracs are fractions of the members (each its own scenario,
	// seeded: LeaveFraction) that leave at once.
	LeaveFracs []float64
	// JoinN, if not 0, is the number of new nodes of weight JoinWeight
	// that join at once (JoinCount).
	JoinN      int
	JoinWeight float64
}

// Named reports whether c has a named step.
func (c FleetChange) Named() bool { return len(c.Join)+len(c.Leave)+len(c.Reweight) > 0 }

// Scenarios returns the scenarios of c for each initial membership, in
// that order: the named step, then each reweighted fraction, each leaving
// fraction and the joining count, the seeded ones drawn with seed. It
// returns an error for a change that changes nothing and the scenario
// constructors' errors, naming the fleet's size.
func (c FleetChange) Scenarios(initial [][]algorithms.Node, seed uint64) ([]Scenario, error) {
	if !c.Named() && len(c.ReweightFracs)+len(c.LeaveFracs) == 0 && c.JoinN == 0 {
		return nil, fmt.Errorf("no membership change: give nodes that join, leave or change weight")
	}
	var out []Scenario
	for _, init := range initial {
		if c.Named() {
			sc, err := Change("", init, Step{Join: c.Join, Leave: c.Leave, Reweight: c.Reweight})
			if err != nil {
				return nil, err
			}
			out = append(out, sc)
		}
		for _, x := range c.ReweightFracs {
			sc, err := ReweightFraction(init, x, c.ReweightTo, seed)
			if err != nil {
				return nil, fmt.Errorf("%d nodes: %w", len(init), err)
			}
			out = append(out, sc)
		}
		for _, x := range c.LeaveFracs {
			sc, err := LeaveFraction(init, x, seed)
			if err != nil {
				return nil, fmt.Errorf("%d nodes: %w", len(init), err)
			}
			out = append(out, sc)
		}
		if c.JoinN != 0 {
			sc, err := JoinCount(init, c.JoinN, c.JoinWeight)
			if err != nil {
				return nil, err
			}
			out = append(out, sc)
		}
	}
	return out, nil
}

// How a node's weight share changes at one step of a chain of placements
// (see ShareChanges).
const (
	ShareSame    uint8 = 0 // same share before and after (or absent from both)
	ShareShrinks uint8 = 1 // smaller share after; a departing node's share shrinks to 0
	ShareGrows   uint8 = 2 // larger share after; a joining node's share grows from 0
)

// ShareChanges returns, for each step t (chain[t] -> chain[t+1]) and each
// global node number g, whether g's weight share w_g/W shrinks, grows or
// stays the same (relative tolerance 1e-12). gids[t][i] is the global
// number of chain[t].Nodes()[i], and n the count of global numbers.
//
// An ideal placement (one that moves only [IdealFraction]) moves keys only
// from nodes whose share shrinks to nodes whose share grows, so a move from
// a node whose share did not shrink, or to one whose share did not grow, is
// collateral. For a join every old node's share shrinks (moves between two
// old nodes are collateral); for a leave every survivor's grows; for a
// reweight of a fraction of the nodes to one weight, the reweighted nodes'
// shares all move the same way, so moves between two of them are
// collateral too.
func ShareChanges(chain []algorithms.Locator, gids [][]int32, n int) [][]uint8 {
	out := make([][]uint8, len(chain)-1)
	share := func(t int) []float64 {
		s := make([]float64, n)
		nodes := chain[t].Nodes()
		w := algorithms.TotalWeight(nodes)
		for i, g := range gids[t] {
			s[g] = nodes[i].Weight / w
		}
		return s
	}
	before := share(0)
	for t := range out {
		after := share(t + 1)
		out[t] = make([]uint8, n)
		for g := range n {
			d := after[g] - before[g]
			switch {
			case d > 1e-12*math.Max(after[g], before[g]):
				out[t][g] = ShareGrows
			case -d > 1e-12*math.Max(after[g], before[g]):
				out[t][g] = ShareShrinks
			}
		}
		before = after
	}
	return out
}

// labelNum formats x for a scenario label: 6 significant digits, so that
// 100 x 0.07 reads 7, not 7.000000000000001, and 1e200 stays short.
func labelNum(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
