package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/schema"
)

// fleetFlags are move's flags for real fleets: an explicit membership
// (-node-ids, -weights, -members, -weight) and named or seeded changes.
type fleetFlags struct {
	nodeIDs, weights, members string
	weight                    float64
	join, leave               []algorithms.Node
	reweight                  []algorithms.Node
	reweightFrac, leaveFrac   string
	reweightTo                float64
	joinN                     int
	joinWeight                float64
}

func (f *fleetFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.nodeIDs, "node-ids", "", "initial membership: comma-separated unique node IDs (instead of -from)")
	fs.StringVar(&f.weights, "weights", "", "initial membership: comma-separated weights > 0, one per node of -node-ids or -from")
	fs.StringVar(&f.members, "members", "", "initial membership from a file: one node a line, id or id,weight (# comments)")
	fs.Float64Var(&f.weight, "weight", 1, "weight of every node of -from (with the change flags below)")
	fs.Func("join", "a node joins: id or id,weight (repeat the flag for several)", func(s string) error {
		n, err := analysis.ParseNodeWeight(s)
		f.join = append(f.join, n)
		return err
	})
	fs.Func("leave", "a member leaves: its id (repeat the flag for several)", func(s string) error {
		s = strings.TrimSpace(s)
		if s == "" {
			return fmt.Errorf("empty node ID")
		}
		// A node leaves once: a repeat would silently count once.
		if slices.ContainsFunc(f.leave, func(n algorithms.Node) bool { return n.ID == s }) {
			return fmt.Errorf("node %q: named twice", s)
		}
		f.leave = append(f.leave, algorithms.Node{ID: s})
		return nil
	})
	fs.Func("reweight", "a member changes weight: id=weight (repeat the flag for several)", func(s string) error {
		n, err := analysis.ParseReweight(s)
		f.reweight = append(f.reweight, n)
		return err
	})
	fs.StringVar(&f.reweightFrac, "reweight-frac", "", "scenario reweight: a seeded random fraction of the nodes (0 < F <= 1; a comma-separated list sweeps) change weight to -reweight-to")
	fs.Float64Var(&f.reweightTo, "reweight-to", 0, "the new weight of -reweight-frac nodes, > 0")
	fs.StringVar(&f.leaveFrac, "leave-frac", "", "a seeded random fraction of the nodes leave at once (0 < F < 1; a list sweeps)")
	fs.IntVar(&f.joinN, "join-n", 0, "this many new nodes (node-N...) join at once")
	fs.Float64Var(&f.joinWeight, "join-weight", 1, "weight of the -join-n nodes")
}

// fleetFlagNames are the flags of fleetFlags, in the order register adds
// them.
var fleetFlagNames = []string{"node-ids", "weights", "members", "weight", "join", "leave", "reweight", "reweight-frac", "reweight-to", "leave-frac", "join-n", "join-weight"}

// given returns the fleet flags given explicitly (set), as "-name", in
// fleetFlagNames' order.
func (f *fleetFlags) given(set map[string]bool) []string {
	var out []string
	for _, n := range fleetFlagNames {
		if set[n] {
			out = append(out, "-"+n)
		}
	}
	return out
}

// used reports whether any fleet flag was given.
func (f *fleetFlags) used(set map[string]bool) bool { return len(f.given(set)) > 0 }

// conflict returns the error for flag name (to, op), which describes the
// change itself, given with fleet flags: it names the fleet flags given.
func (f *fleetFlags) conflict(name string, set map[string]bool) error {
	return fmt.Errorf("-%s cannot be combined with %s: with fleet flags, give the change as -join, -leave, -reweight, -reweight-frac, -leave-frac or -join-n", name, strings.Join(f.given(set), ", "))
}

// initial returns the initial memberships: the explicit one (-members, or
// -node-ids and/or -weights), or one of -weight nodes per -from count.
func (f *fleetFlags) initial(from string, set map[string]bool) ([][]algorithms.Node, error) {
	explicit := f.members != "" || f.nodeIDs != "" || f.weights != ""
	if f.members != "" && (f.nodeIDs != "" || f.weights != "") {
		return nil, fmt.Errorf("-members %q: give the membership in the file or with -node-ids/-weights, not both", f.members)
	}
	if explicit && set["weight"] {
		return nil, fmt.Errorf("-weight applies to the nodes of -from; the explicit membership carries its own weights")
	}
	if f.members != "" {
		if from != "" {
			return nil, fmt.Errorf("-from %q and -members: give one membership", from)
		}
		nodes, err := analysis.ReadMembership(f.members)
		if err != nil {
			return nil, fmt.Errorf("-members: %w", err)
		}
		return [][]algorithms.Node{nodes}, nil
	}
	if explicit {
		p := placementFlags{nodeIDs: f.nodeIDs, weights: f.weights}
		if from != "" {
			n, err := strconv.Atoi(from)
			if err != nil {
				return nil, fmt.Errorf("from %q: one node count with -weights or -node-ids", from)
			}
			p.nodes, set = n, map[string]bool{"nodes": true}
		} else if f.nodeIDs == "" {
			p.nodes, set = len(strings.Split(f.weights, ",")), map[string]bool{"nodes": true}
		}
		nodes, err := p.membership(set)
		return [][]algorithms.Node{nodes}, err
	}
	if from == "" {
		return nil, fmt.Errorf("-from is required (or -node-ids, -weights, -members)")
	}
	if err := algorithms.ValidateWeight(f.weight); err != nil {
		return nil, fmt.Errorf("-weight: %w", err)
	}
	ns, err := parseNodeList("from", from)
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

// fractions parses a comma-separated list of distinct fractions in
// parseDecimal's syntax (their range is checked by the scenario
// constructors); the error names the flag and the bad or repeated entry.
func fractions(flagName, s string) ([]float64, error) {
	var out []float64
	for _, p := range strings.Split(s, ",") {
		v, err := parseDecimal(p)
		if err != nil {
			return nil, fmt.Errorf("%s %w", flagName, err)
		}
		if slices.Contains(out, v) {
			return nil, fmt.Errorf("%s %q: listed twice (each change would run and be written twice)", flagName, p)
		}
		out = append(out, v)
	}
	return out, nil
}

// scenarios returns the scenarios the fleet flags describe, for each
// initial membership: the named step (-join, -leave, -reweight), then each
// -reweight-frac, each -leave-frac and -join-n.
func (f *fleetFlags) scenarios(from string, set map[string]bool, seed uint64) ([]analysis.Scenario, error) {
	inits, err := f.initial(from, set)
	if err != nil {
		return nil, err
	}
	named := len(f.join)+len(f.leave)+len(f.reweight) > 0
	if set["reweight-to"] != (f.reweightFrac != "") {
		return nil, fmt.Errorf("-reweight-frac and -reweight-to go together")
	}
	if set["join-weight"] && f.joinN == 0 {
		return nil, fmt.Errorf("-join-weight needs -join-n")
	}
	var rf, lf []float64
	if f.reweightFrac != "" {
		if rf, err = fractions("reweight-frac", f.reweightFrac); err != nil {
			return nil, err
		}
	}
	if f.leaveFrac != "" {
		if lf, err = fractions("leave-frac", f.leaveFrac); err != nil {
			return nil, err
		}
	}
	if !named && rf == nil && lf == nil && !set["join-n"] {
		return nil, fmt.Errorf("no membership change: give -join, -leave, -reweight, -reweight-frac, -leave-frac or -join-n")
	}
	var out []analysis.Scenario
	for _, init := range inits {
		if named {
			st := analysis.Step{Join: f.join, Reweight: f.reweight}
			for _, n := range f.leave {
				st.Leave = append(st.Leave, n.ID)
			}
			sc, err := analysis.Change("", init, st)
			if err != nil {
				return nil, err
			}
			out = append(out, sc)
		}
		for _, x := range rf {
			sc, err := analysis.ReweightFraction(init, x, f.reweightTo, seed)
			if err != nil {
				return nil, fmt.Errorf("%d nodes: %w", len(init), err)
			}
			out = append(out, sc)
		}
		for _, x := range lf {
			sc, err := analysis.LeaveFraction(init, x, seed)
			if err != nil {
				return nil, fmt.Errorf("%d nodes: %w", len(init), err)
			}
			out = append(out, sc)
		}
		if set["join-n"] {
			sc, err := analysis.JoinCount(init, f.joinN, f.joinWeight)
			if err != nil {
				return nil, err
			}
			out = append(out, sc)
		}
	}
	return out, nil
}

// runFleetMove is move with fleet flags: every scenario of ff for every
// configuration of the analysis flags (configurations outermost).
func runFleetMove(a *analysisFlags, ff *fleetFlags, from string, set map[string]bool, stdout, stderr io.Writer) (err error) {
	usage := true // errors before the work starts are usage errors (exit status 2)
	defer func() {
		if usage {
			err = badUsage(err)
		}
	}()
	for _, n := range []string{"to", "op"} {
		if set[n] {
			return ff.conflict(n, set)
		}
	}
	o, sw, err := a.options()
	if err != nil {
		return err
	}
	scs, err := ff.scenarios(from, set, o.Seed)
	if err != nil {
		return err
	}
	skipUnweighted(a, &o, &sw, scs, stderr)
	usage = false
	closeKeys, err := a.openKeys(&o)
	if err != nil {
		return err
	}
	defer closeKeys()
	bar := startProgress(stderr, &o, sweepKeys(o, sw, len(scs))) // stderr terminals only
	defer bar.stop()
	var results []schema.Move
	err = sw.EachConfig(o, func(o analysis.Options) error {
		for _, sc := range scs {
			r, err := analysis.Movement(o, sc)
			if err != nil {
				return fmt.Errorf("%s from %d nodes: %w", sc.Op, len(sc.Initial), err)
			}
			results = append(results, r)
		}
		return nil
	})
	if err != nil {
		return err
	}
	bar.stop()
	return writeMoves(a, stdout, results)
}

// weighted reports whether a membership of any scenario has a node of
// weight other than 1.
func weighted(scs []analysis.Scenario) bool {
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

// skipUnweighted narrows -algo all to the algorithms that accept weights
// when a membership of scs has weights other than 1, naming the skipped
// ones on stderr. An algorithm named explicitly is kept (and its
// constructor's error reported).
func skipUnweighted(a *analysisFlags, o *analysis.Options, sw *analysis.Sweep, scs []analysis.Scenario, stderr io.Writer) {
	if a.algo != "all" || !weighted(scs) {
		return
	}
	var keep, skip []string
	for _, name := range sw.Algos {
		if in, _ := catalog.Describe(name); in.Weighted {
			keep = append(keep, name)
		} else {
			skip = append(skip, name)
		}
	}
	if len(skip) > 0 {
		fmt.Fprintf(stderr, "chbench: skipping %s: no weights other than 1\n", strings.Join(skip, ", "))
	}
	sw.Algos, o.Algo = keep, keep[0]
}
