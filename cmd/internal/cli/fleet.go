package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/fleet"
	"github.com/chbench/chbench/memory"
	"github.com/chbench/chbench/schema"
)

// Fleet is the flag group of real fleets (move, replication, storm): an explicit membership
// (-node-ids, -weights, -members, -weight) and named or seeded changes.
type Fleet struct {
	NodeIDs, Weights, members string
	weight                    float64
	change                    analysis.FleetChange // -join, -leave, -reweight, then the rest by scenarios
	reweightFrac, leaveFrac   string
	// Memory is the run's budget, which a -members file's nodes are
	// reserved from (nil: the default budget).
	Memory *memory.Budget
}

func (f *Fleet) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.NodeIDs, "node-ids", "", "initial membership: comma-separated unique node IDs (instead of -from)")
	fs.StringVar(&f.Weights, "weights", "", "initial membership: comma-separated weights > 0, one per node of -node-ids or -from")
	fs.StringVar(&f.members, "members", "", "initial membership from a file: one node a line, id or id,weight (# comments)")
	fs.Float64Var(&f.weight, "weight", 1, "weight of every node of -from (with the change flags below)")
	fs.Func("join", "a node joins: id or id,weight (repeat the flag for several)", func(s string) error {
		n, err := fleet.ParseNodeWeight(s)
		f.change.Join = append(f.change.Join, n)
		return err
	})
	fs.Func("leave", "a member leaves: its id (repeat the flag for several)", func(s string) error {
		s = strings.TrimSpace(s)
		if s == "" {
			return fmt.Errorf("empty node ID")
		}
		// A node leaves once: a repeat would silently count once.
		if slices.Contains(f.change.Leave, s) {
			return fmt.Errorf("node %q: named twice", s)
		}
		f.change.Leave = append(f.change.Leave, s)
		return nil
	})
	fs.Func("reweight", "a member changes weight: id=weight (repeat the flag for several)", func(s string) error {
		n, err := fleet.ParseReweight(s)
		f.change.Reweight = append(f.change.Reweight, n)
		return err
	})
	fs.StringVar(&f.reweightFrac, "reweight-frac", "", "scenario reweight: a seeded random fraction of the nodes (0 < F <= 1; a comma-separated list sweeps) change weight to -reweight-to")
	fs.Float64Var(&f.change.ReweightTo, "reweight-to", 0, "the new weight of -reweight-frac nodes, > 0")
	fs.StringVar(&f.leaveFrac, "leave-frac", "", "a seeded random fraction of the nodes leave at once (0 < F < 1; a list sweeps)")
	fs.IntVar(&f.change.JoinN, "join-n", 0, "this many new nodes (node-N...) join at once")
	fs.IntVar(&f.change.Step, "step", 0, "stage the change: the -join nodes (or the -leave ones), or with -to M the resize, this many nodes at a time, each step reported apart (rows op <op>-step) beside the whole")
	fs.Float64Var(&f.change.JoinWeight, "join-weight", 1, "weight of the -join-n nodes")
}

// fleetFlagNames are the flags of Fleet, in the order Register adds
// them.
var fleetFlagNames = []string{"node-ids", "weights", "members", "weight", "join", "leave", "reweight", "reweight-frac", "reweight-to", "leave-frac", "join-n", "join-weight", "step"}

// Given returns the fleet flags given explicitly (set), as "-name", in
// fleetFlagNames' order.
func (f *Fleet) Given(set map[string]bool) []string {
	var out []string
	for _, n := range fleetFlagNames {
		if set[n] {
			out = append(out, "-"+n)
		}
	}
	return out
}

// Used reports whether any fleet flag was given.
func (f *Fleet) Used(set map[string]bool) bool { return len(f.Given(set)) > 0 }

// Conflict returns the error for flag name (to, op), which describes the
// change itself, given with fleet flags: it names the fleet flags given.
func (f *Fleet) Conflict(name string, set map[string]bool) error {
	return fmt.Errorf("-%s cannot be combined with %s: with fleet flags, give the change as -join, -leave, -reweight, -reweight-frac, -leave-frac or -join-n", name, strings.Join(f.Given(set), ", "))
}

// initial returns the initial memberships: the explicit one (-members, or
// -node-ids and/or -weights), or one of -weight nodes per -from count.
func (f *Fleet) initial(from string, set map[string]bool) ([][]algorithms.Node, error) {
	explicit := f.members != "" || f.NodeIDs != "" || f.Weights != ""
	if f.members != "" && (f.NodeIDs != "" || f.Weights != "") {
		return nil, fmt.Errorf("-members %q: give the membership in the file or with -node-ids/-weights, not both", f.members)
	}
	if explicit && set["weight"] {
		return nil, fmt.Errorf("-weight applies to the nodes of -from; the explicit membership carries its own weights")
	}
	if f.members != "" {
		if from != "" {
			return nil, fmt.Errorf("-from %q and -members: give one membership", from)
		}
		nodes, err := fleet.ReadMembership(f.members, f.Memory)
		if err != nil {
			return nil, fmt.Errorf("-members: %w", err)
		}
		return [][]algorithms.Node{nodes}, nil
	}
	if explicit {
		p := Placement{NodeIDs: f.NodeIDs, Weights: f.Weights}
		if from != "" {
			n, err := strconv.Atoi(from)
			if err != nil {
				return nil, fmt.Errorf("from %q: one node count with -weights or -node-ids", from)
			}
			p.Nodes, set = n, map[string]bool{"nodes": true}
		} else if f.NodeIDs == "" {
			p.Nodes, set = len(strings.Split(f.Weights, ",")), map[string]bool{"nodes": true}
		}
		nodes, err := p.Membership(set)
		return [][]algorithms.Node{nodes}, err
	}
	if from == "" {
		return nil, fmt.Errorf("-from is required (or -node-ids, -weights, -members)")
	}
	if err := algorithms.ValidateWeight(f.weight); err != nil {
		return nil, fmt.Errorf("-weight: %w", err)
	}
	ns, err := NodeCounts("from", from)
	if err != nil {
		return nil, err
	}
	var out [][]algorithms.Node
	for _, n := range ns {
		nodes, err := algorithms.DefaultNodes(n)
		if err != nil {
			return nil, err
		}
		for i := range nodes {
			nodes[i].Weight = f.weight
		}
		out = append(out, nodes)
	}
	return out, nil
}

// Scenarios returns the scenarios the fleet flags describe
// (analysis.FleetChange), for each initial membership: the named step
// (-join, -leave, -reweight), then each -reweight-frac, each -leave-frac
// and -join-n.
func (f *Fleet) Scenarios(from string, set map[string]bool, seed uint64) ([]analysis.Scenario, error) {
	inits, err := f.initial(from, set)
	if err != nil {
		return nil, err
	}
	c := f.change
	if set["reweight-to"] != (f.reweightFrac != "") {
		return nil, fmt.Errorf("-reweight-frac and -reweight-to go together")
	}
	if set["join-weight"] && c.JoinN == 0 {
		return nil, fmt.Errorf("-join-weight needs -join-n")
	}
	if set["join-n"] && c.JoinN < 1 {
		return nil, fmt.Errorf("-join-n %d: need at least 1 node", c.JoinN)
	}
	if set["step"] && (c.Step < 1 || len(c.Join)+len(c.Leave) == 0) {
		return nil, fmt.Errorf("-step %d: stages -join or -leave nodes (or a -to resize), at least 1 a step", c.Step)
	}
	if f.reweightFrac != "" {
		if c.ReweightFracs, err = Fractions("reweight-frac", f.reweightFrac); err != nil {
			return nil, err
		}
	}
	if f.leaveFrac != "" {
		if c.LeaveFracs, err = Fractions("leave-frac", f.leaveFrac); err != nil {
			return nil, err
		}
	}
	if !c.Named() && c.ReweightFracs == nil && c.LeaveFracs == nil && c.JoinN == 0 {
		return nil, fmt.Errorf("no membership change: give -join, -leave, -reweight, -reweight-frac, -leave-frac or -join-n")
	}
	return c.Scenarios(inits, seed)
}

// Change is -from, -to and -op beside the fleet flags: the
// membership changes move and replication run.
type Change struct {
	From  string
	ops   string
	to    int
	Fleet Fleet
}

func (c *Change) Register(fs *flag.FlagSet, fromHelp, toHelp, opsHelp string) {
	fs.StringVar(&c.From, "from", "", fromHelp)
	fs.IntVar(&c.to, "to", 0, toHelp)
	fs.StringVar(&c.ops, "op", "", opsHelp)
	c.Fleet.Register(fs)
}

// Sweep sets the changes of sw: the fleet flags' scenarios, the resize
// -from N -to M, or the grid of -from counts x -op scenarios (default
// add). fromRequired is the error for a missing -from.
func (c *Change) Sweep(sw *analysis.Sweep, set map[string]bool, seed uint64, fromRequired string) error {
	if set["step"] && set["to"] && !c.Fleet.Explicit() && len(c.Fleet.change.Join)+len(c.Fleet.change.Leave) == 0 {
		return c.staged(sw)
	}
	if c.Fleet.Used(set) {
		for _, n := range []string{"to", "op"} {
			if set[n] {
				return c.Fleet.Conflict(n, set)
			}
		}
		var err error
		sw.Scenarios, err = c.Fleet.Scenarios(c.From, set, seed)
		return err
	}
	if c.From == "" {
		return errors.New(fromRequired)
	}
	ns, err := NodeCounts("from", c.From)
	if err != nil {
		return err
	}
	ops := []string{schema.OpAdd}
	if c.ops != "" {
		if ops, err = ParseOps(c.ops); err != nil {
			return err
		}
	}
	if !set["to"] {
		sw.Nodes, sw.Ops = ns, ops
		return nil
	}
	if c.ops != "" {
		return fmt.Errorf("-to %d and -op %q: give one or the other", c.to, c.ops)
	}
	if len(ns) != 1 {
		return fmt.Errorf("-to %d needs a single -from, got %q", c.to, c.From)
	}
	sc, err := analysis.Resize(ns[0], c.to)
	sw.Scenarios = []analysis.Scenario{sc}
	return err
}

// KeepWeighted narrows -algo all to the algorithms that accept weights
// when a membership of sw's scenarios has weights other than 1
// (Sweep.KeepWeighted), naming the skipped ones on stderr. An algorithm
// named explicitly is kept (and its constructor's error reported).
func KeepWeighted(a *Analysis, o *analysis.Options, sw *analysis.Sweep, stderr io.Writer) {
	if a.Algo != "all" {
		return
	}
	if skip := sw.KeepWeighted(); len(skip) > 0 {
		fmt.Fprintf(stderr, "chbench: skipping %s: no weights other than 1\n", strings.Join(skip, ", "))
	}
	o.Algo = sw.Algos[0]
}

// SkipUnweighted returns the placements of algos (the list of -algo all)
// that can place nodes: all of them when every node weighs 1, else those
// that take weights (catalog Info.Weighted; a bounded-loads form as
// bounded), naming the others on stderr as KeepWeighted does. spread and
// load call it for -algo all, so that a weighted membership runs the
// algorithms that can place it in every command (fleet -shares and -load
// too) instead of failing on the first that cannot.
func SkipUnweighted(algos []string, nodes []algorithms.Node, stderr io.Writer) []string {
	if !slices.ContainsFunc(nodes, func(n algorithms.Node) bool { return n.Weight != 1 }) {
		return algos
	}
	var keep, skip []string
	for _, name := range algos {
		if in, ok := describeForm(name); ok && in.Weighted {
			keep = append(keep, name)
		} else {
			skip = append(skip, name)
		}
	}
	if len(skip) > 0 {
		fmt.Fprintf(stderr, "chbench: skipping %s: no weights other than 1\n", strings.Join(skip, ", "))
	}
	return keep
}

// Explicit reports whether the fleet flags give the initial membership
// themselves (-members, -node-ids or -weights) rather than a -from count.
func (f *Fleet) Explicit() bool { return f.members != "" || f.NodeIDs != "" || f.Weights != "" }

// Named reports whether the initial membership's node IDs came from the
// user (-members or -node-ids), not generated (node-0 ...).
func (f *Fleet) Named() bool { return f.members != "" || f.NodeIDs != "" }

// staged sets sw to the resize -from N -to M staged -step nodes at a
// time (analysis.Staged).
func (c *Change) staged(sw *analysis.Sweep) error {
	if c.ops != "" {
		return fmt.Errorf("-to %d and -op %q: give one or the other", c.to, c.ops)
	}
	n, err := strconv.Atoi(c.From)
	if err != nil {
		return fmt.Errorf("-from %q: a staged resize (-to, -step) needs one node count", c.From)
	}
	sc, err := analysis.Staged(n, c.to, c.Fleet.change.Step)
	sw.Scenarios = []analysis.Scenario{sc}
	return err
}

// StepSize returns -step: the nodes per step of a staged change (0: at once).
func (f *Fleet) StepSize() int { return f.change.Step }
