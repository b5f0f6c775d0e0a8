package cli

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/fleet"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/schema"
)

// Switch is the flag group of chbench switch: the placements switched
// from and to (lists measure every pair), the fleet (-nodes, -node-ids,
// -weights, -members), the algorithms' configuration, the keys, the cache
// fleet's model, -first and the output.
type Switch struct {
	from, to string
	Placement
	members string
	keys    int
	sets    int
	seed    uint64
	kind    string
	keyFile string
	// Trace is -trace: its distinct keys, each once in order of first
	// appearance, are the keys (trace.KeySource).
	Trace   Trace
	Model   analysis.StormModel
	First   int
	Format  string
	Formats []string // parsed -format
	Out     string
	commit  string
}

// Register adds the flags to fs.
func (s *Switch) Register(fs *flag.FlagSet) {
	names := "a dialect (" + catalog.DialectGroup + ", " + catalog.CommonDialectGroup + ") or an algorithm"
	fs.StringVar(&s.from, "from", "", "placement the fleet runs today: "+names+"; a comma-separated list measures every pair with -to")
	fs.StringVar(&s.to, "to", "", "placement the fleet switches to (a list: every pair of -from and -to but a placement with itself)")
	def := catalog.DefaultConfig()
	fs.IntVar(&s.VNodes, "vnodes", def.VNodes, "algorithms: virtual nodes per node of weight 1 (ring, bounded)")
	fs.StringVar(&s.Hash, "hash", def.Hash, "algorithms: key hash: "+strings.Join(algorithms.HashNames(), ", ")+" (dialects hash as their system does)")
	fs.Float64Var(&s.Eps, "eps", def.Eps, "bounded: load factor c = 1 + eps, eps > 0")
	fs.IntVar(&s.Partitions, "partitions", def.Partitions, "bounded: number of fixed partitions (0 = automatic)")
	registerTable(fs, &s.TableSize, &s.Probes, &s.Capacity)
	registerMem(fs, &s.Mem)
	fs.IntVar(&s.Nodes, "nodes", 10, "servers of the default fleet (127.0.0.1:11211, 127.0.0.1:11212, ... when a dialect is switched; node-0, ... otherwise), without -node-ids or -members")
	fs.StringVar(&s.NodeIDs, "node-ids", "", "the fleet: comma-separated unique server IDs, as the systems' configurations spell them (host:port for most dialects)")
	fs.StringVar(&s.Weights, "weights", "", "comma-separated server weights > 0, one per server (default all 1)")
	fs.StringVar(&s.members, "members", "", "the fleet from a file: one server a line, id or id,weight (# comments)")
	fs.IntVar(&s.keys, "keys", 100000, "keys per generated key set (ignored with -keyfile)")
	fs.IntVar(&s.sets, "sets", 5, "independent key sets; the interval of the fraction routed differently is over sets (>= 2 for an interval)")
	fs.Uint64Var(&s.seed, "seed", 1, "seed of the key generator")
	fs.StringVar(&s.kind, "keys-kind", string(keyset.KindRandom), "shape of generated keys: "+kindNames()+" (ignored with -keyfile)")
	s.Trace.Register(fs, "")
	fs.StringVar(&s.keyFile, "keyfile", "", "read keys from this file, one per line, split into -sets disjoint sets (line i -> set i mod sets); - is standard input")
	m := analysis.DefaultStormModel()
	fs.Float64Var(&s.Model.Reads, "reads", m.Reads, "storm of the switch: reads per second reaching the cache fleet, Q > 0")
	fs.Float64Var(&s.Model.HitRatio, "hit", m.HitRatio, "storm of the switch: steady hit ratio before it, 0 <= h < 1")
	fs.IntVar(&s.Model.WorkingSet, "working-set", m.WorkingSet, "storm of the switch: distinct keys the fleet serves, K >= 1 (refill time constant K/Q)")
	fs.Float64Var(&s.Model.Zipf, "zipf", m.Zipf, "storm of the switch: Zipf exponent of the key popularity, >= 0 (0 = uniform)")
	fs.IntVar(&s.First, "first", 10, "keep the first N keys routed differently and the from -> to matrix of each switch (table and json; 0 = none)")
	registerOutput(fs, &s.Format, &s.Out)
	fs.StringVar(&s.commit, "commit", "", "source revision recorded in results (default: the binary's VCS revision, if known)")
}

// Parse checks the flags and returns the options (config, generated keys,
// seed, commit), the fleet and the switches; every error is a usage
// error. A fleet generated from -nodes is named by server addresses when
// a dialect is switched (noted on stderr).
func (s *Switch) Parse(set map[string]bool, stderr io.Writer) (analysis.Options, []algorithms.Node, []analysis.SwitchPair, error) {
	var o analysis.Options
	if s.from == "" || s.to == "" {
		return o, nil, nil, fmt.Errorf("-from and -to are required: the placement the fleet runs and the one it switches to")
	}
	for _, f := range [][2]string{{"from", s.from}, {"to", s.to}} {
		if err := NoExec("switch", f[0], f[1], "it builds both placements of each switch in process, on the fleet's layout"); err != nil {
			return o, nil, nil, err
		}
	}
	from, err := catalog.ParseNames(s.from)
	if err != nil {
		return o, nil, nil, fmt.Errorf("-from: %w", err)
	}
	to, err := catalog.ParseNames(s.to)
	if err != nil {
		return o, nil, nil, fmt.Errorf("-to: %w", err)
	}
	for flag, names := range map[string][]string{"from": from, "to": to} {
		if err := NoDuplicates(flag, names); err != nil {
			return o, nil, nil, err
		}
	}
	if err := RefuseUnusedConfig(set, "-from/-to", append(slices.Clone(from), to...)); err != nil {
		return o, nil, nil, err
	}
	var pairs []analysis.SwitchPair
	for _, f := range from {
		for _, t := range to {
			if f != t || len(from)*len(to) == 1 {
				pairs = append(pairs, analysis.SwitchPair{From: f, To: t})
			}
		}
	}
	if err := s.Trace.Check(set, "keyfile", "keys", "keys-kind"); err != nil {
		return o, nil, nil, err
	}
	if s.First < 0 {
		return o, nil, nil, fmt.Errorf("first %d: give 0 (none) or more", s.First)
	}
	if s.keyFile == "" && !s.Trace.Given() && s.keys < 1 {
		return o, nil, nil, fmt.Errorf("keys %d: need at least 1 key per set", s.keys)
	}
	if s.sets < 1 || s.sets > keyset.MaxSets {
		return o, nil, nil, fmt.Errorf("sets %d: need 1 to %d key sets", s.sets, keyset.MaxSets)
	}
	if err := s.Model.Validate(); err != nil {
		return o, nil, nil, err
	}
	if s.Formats, err = parseFormats(s.Format, s.Out); err != nil {
		return o, nil, nil, err
	}
	if slices.Contains(s.Formats, schema.FormatBench) {
		return o, nil, nil, fmt.Errorf("format bench: switch writes table, csv or json")
	}
	if err := checkOut(s.Out, s.Formats); err != nil {
		return o, nil, nil, err
	}
	commit := s.commit
	if commit == "" {
		commit = Revision()
	}
	if err := checkCommit(commit); err != nil {
		return o, nil, nil, err
	}
	cfg := s.Config()
	if err := cfg.Validate(); err != nil {
		return o, nil, nil, err
	}
	nodes, err := s.fleet(set, append(from, to...), stderr)
	if err != nil {
		return o, nil, nil, err
	}
	if pairs, err = s.keepWeighted(pairs, nodes, stderr); err != nil {
		return o, nil, nil, err
	}
	o = analysis.Options{Algo: from[0], Config: cfg, Seed: s.seed, Commit: commit, Placement: schema.PlacementFixed}
	if s.keyFile == "" && !s.Trace.Given() {
		kind, err := keyset.ParseKeyKind(s.kind)
		if err != nil {
			return o, nil, nil, err
		}
		g, err := keyset.NewGenerator(s.keys, s.sets, s.seed)
		if err != nil {
			return o, nil, nil, err
		}
		if o.Keys, err = g.WithKind(kind); err != nil {
			return o, nil, nil, err
		}
	}
	return o, nodes, pairs, nil
}

// fleet returns the servers: -members, -node-ids (with -weights), or
// -nodes of the default fleet, with -weights; the last are addresses
// when names include a dialect.
func (s *Switch) fleet(set map[string]bool, names []string, stderr io.Writer) ([]algorithms.Node, error) {
	if s.members != "" {
		for _, f := range []string{"node-ids", "weights", "nodes"} {
			if set[f] {
				return nil, fmt.Errorf("-members %q and -%s: give the fleet in the file or with flags, not both", s.members, f)
			}
		}
		nodes, err := fleet.ReadMembership(s.members, s.Placement.Budget()) // its nodes reserved from -mem
		if err != nil {
			return nil, fmt.Errorf("-members: %w", err)
		}
		return nodes, nil
	}
	if s.NodeIDs == "" && s.Weights != "" && !set["nodes"] {
		s.Nodes = len(strings.Split(s.Weights, ","))
	}
	nodes, err := s.Membership(map[string]bool{"nodes": s.NodeIDs == "" || set["nodes"]})
	if err != nil || s.NodeIDs != "" {
		return nodes, err
	}
	return AddressMembers(names, nodes, stderr)
}

// OpenKeys opens -keyfile, or -trace's distinct keys (read once here to
// count them, what it read said on stderr), as o.Keys (generated keys
// need nothing) and returns the function that closes it; an unreadable
// file or trace is an error of the run.
func (s *Switch) OpenKeys(o *analysis.Options, stderr io.Writer) (closeKeys func(), err error) {
	if s.Trace.Given() {
		in, err := s.Trace.Input(stderr, true)
		if err != nil {
			return nil, err
		}
		if o.Keys, _, err = in.KeySource(s.sets, true); err != nil {
			in.Close()
			return nil, err
		}
		return in.Close, nil
	}
	if s.keyFile == "" {
		return func() {}, nil
	}
	f, err := keyset.OpenFile(s.keyFile, s.sets, s.Placement.Budget())
	if err != nil {
		return nil, err
	}
	o.Keys = f
	return func() { f.Close() }, nil
}

// keepWeighted returns pairs without the placements that take no weights
// other than 1 when nodes has such weights and the placement came from a
// group of -from or -to (all, dialects, common-dialects), naming the
// skipped ones on stderr, as KeepWeighted does for -algo all; a placement
// named explicitly is kept (and its constructor's error reported). It
// returns an error when no pair is left.
func (s *Switch) keepWeighted(pairs []analysis.SwitchPair, nodes []algorithms.Node, stderr io.Writer) ([]analysis.SwitchPair, error) {
	if algorithms.Uniform(nodes) {
		return pairs, nil
	}
	named := map[string]bool{}
	for _, list := range []string{s.from, s.to} {
		for _, n := range strings.Split(list, ",") {
			named[strings.TrimSpace(n)] = true
		}
	}
	var skipped []string
	drop := func(name string) bool {
		if in, _ := catalog.Describe(name); in.Weighted || named[name] {
			return false
		}
		if !slices.Contains(skipped, name) {
			skipped = append(skipped, name)
		}
		return true
	}
	var kept []analysis.SwitchPair
	for _, p := range pairs {
		if !drop(p.From) && !drop(p.To) {
			kept = append(kept, p)
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintf(stderr, "chbench: skipping %s: no weights other than 1\n", strings.Join(skipped, ", "))
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("no switch left: none of the placements takes the weights of this fleet")
	}
	return kept, nil
}
