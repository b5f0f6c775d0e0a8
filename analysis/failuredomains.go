package analysis

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis/domains"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/schema"
	"github.com/chbench/chbench/topology"
)

// This file runs the failure-domain measures of analysis/domains for the
// algorithms of a sweep on one fleet in its domains (Options.Domains) and
// returns their rows: replicas sharing a domain (SweepDomainViolations),
// load per replica rank (SweepDomainRanks) and what a node, rack or zone
// loss or a domain added moves (SweepDomainChanges). Every algorithm runs
// with its own replicas (schema.SchemePlain) and with one replica per
// domain (schema.SchemeAware: catalog.NewInTopology). In per-set placement
// mode an algorithm with a random layout runs key set s on LayoutNodes(..,
// s), its nodes in the same domains, so the intervals cover layouts. A
// placement the caller opened (Options.Opened: a program speaking the
// external protocol) runs with its own replicas only, up to the replicas
// its handshake declares: one replica per domain wraps an in-process
// placement (algorithms/domainaware needs an algorithms.Placer's hashes),
// so the aware scheme is refused for it ([DomainAwareRefused]).

// NodeLevel is the DomainEvent level of a single node's loss.
const NodeLevel = "node"

// DomainEvent is one change of a fleet in its domains: the loss of a node
// (Level NodeLevel) or of every node of a domain at Level, or a new
// domain at Level added (Kind schema.EventAdded). Domain names the node
// or domain lost; "" lets the run's seed choose one. A domain added gets
// a fresh name and the shape and weights of the first domain at its
// level, under the parent with the fewest children at that level.
type DomainEvent struct {
	Kind, Level, Domain string
}

// ParseDomainEvents parses a comma-separated list of events: "node" or
// "node:ID" (a node fails), "LEVEL" or "LEVEL:NAME" (every node of a
// domain at LEVEL fails), "+LEVEL" (a domain is added at LEVEL). It
// returns an error naming an empty or repeated entry; levels are checked
// against the topology when the events run.
func ParseDomainEvents(s string) ([]DomainEvent, error) {
	var out []DomainEvent
	seen := map[string]bool{}
	for _, e := range strings.Split(s, ",") {
		e = strings.TrimSpace(e)
		if e == "" || e == "+" {
			return nil, fmt.Errorf("event %q: give node, node:ID, LEVEL, LEVEL:NAME or +LEVEL", e)
		}
		if seen[e] {
			return nil, fmt.Errorf("event %q: given twice", e)
		}
		seen[e] = true
		if lvl, ok := strings.CutPrefix(e, "+"); ok {
			if strings.Contains(lvl, ":") {
				return nil, fmt.Errorf("event %q: an added domain takes no name (it gets a fresh one)", e)
			}
			out = append(out, DomainEvent{Kind: schema.EventAdded, Level: lvl})
			continue
		}
		lvl, name, _ := strings.Cut(e, ":")
		out = append(out, DomainEvent{Kind: schema.EventLoss, Level: lvl, Domain: name})
	}
	return out, nil
}

// DefaultDomainEvents returns the events of a run on a topology with the
// given levels (outermost first) and failure-domain level: a node fails,
// a domain of each level fails (innermost first), a domain is added at
// the failure-domain level.
func DefaultDomainEvents(levels []string, failure string) []DomainEvent {
	out := []DomainEvent{{Kind: schema.EventLoss, Level: NodeLevel}}
	for l := len(levels) - 1; l >= 0; l-- {
		out = append(out, DomainEvent{Kind: schema.EventLoss, Level: levels[l]})
	}
	return append(out, DomainEvent{Kind: schema.EventAdded, Level: failure})
}

// domainFleet is a fleet in its domains as a measure runs it: one layout
// for every key set, or one per set (random layouts), each with its nodes
// and their topology (nil without Options.Domains).
type domainFleet struct {
	nodes [][]algorithms.Node
	topos []*topology.Topology
	cfg   catalog.Config
	rc    schema.Config
}

// fleetOf builds the layouts of nodes for o.Algo and the run
// configuration rows record (the topology and level where there is one).
func (o Options) fleetOf(nodes []algorithms.Node) (domainFleet, error) {
	if err := o.checkConfig(); err != nil {
		return domainFleet{}, err
	}
	layouts, err := o.layouts(o.sets())
	if err != nil {
		return domainFleet{}, err
	}
	f := domainFleet{cfg: o.Config, rc: o.runConfig()}
	f.cfg.Partitions = f.cfg.PartitionsFor(len(nodes))
	f.rc.Partitions = usedPartitions(o.Algo, f.cfg.Partitions)
	if !o.Domains.IsZero() {
		f.rc.Topology, f.rc.Domain = o.Domains.Label, o.Domains.Level
	}
	for l := range layouts {
		ln := LayoutNodes(nodes, l)
		if err := o.checkNodes(ln, f.cfg); err != nil {
			return domainFleet{}, err
		}
		f.nodes = append(f.nodes, ln)
		if o.Domains.IsZero() {
			f.topos = append(f.topos, nil)
			continue
		}
		t, err := scenarioTopology(o.Domains, Scenario{Initial: ln})
		if err != nil {
			return domainFleet{}, err
		}
		f.topos = append(f.topos, t)
	}
	return f, nil
}

// schemes returns the schemes a fleet runs for o.Algo: plain, and aware
// with a topology for a placement in this process.
func (f domainFleet) schemes(o Options) []string {
	if _, ok := o.opened(); ok || f.topos[0] == nil {
		return []string{schema.SchemePlain}
	}
	return schema.Schemes()
}

// DomainAwareRefused returns the error that says why the domain measures
// run the opened placement name with its own replicas only: the
// one-replica-per-domain scheme (schema.SchemeAware) is refused for it.
func DomainAwareRefused(name string) error {
	return fmt.Errorf("%s: scheme %s refused: one replica per domain wraps a placement in this process (its key hashes), and %s is an external program; only its own replicas (scheme %s) are measured",
		name, schema.SchemeAware, name, schema.SchemePlain)
}

// checkOpenedReplicas returns an error when o.Algo is an opened placement
// whose handshake declares fewer than r replicas per key.
func (o Options) checkOpenedReplicas(r int) error {
	if b, ok := o.opened(); ok && b.Facts().Replicas < r {
		return fmt.Errorf("replicas %d: %s serves at most %d replicas per key (its handshake declared replicas=%d)", r, o.Algo, b.Facts().Replicas, b.Facts().Replicas)
	}
	return nil
}

// locators builds o.Algo on every layout of f with scheme.
func (f domainFleet) locators(o Options, scheme string) ([]algorithms.Locator, error) {
	out := make([]algorithms.Locator, len(f.nodes))
	for l := range out {
		var err error
		if scheme == schema.SchemePlain {
			out[l], err = o.newLocator(f.nodes[l], f.cfg)
		} else {
			out[l], err = catalog.NewInTopology(o.Algo, f.topos[l], o.Domains.Level, f.cfg)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// domainSizes returns the number of nodes of each domain at level of t.
func domainSizes(t *topology.Topology, level string) ([]int, error) {
	l, err := t.Level(level)
	if err != nil {
		return nil, err
	}
	sizes := make([]int, len(t.Domains(l)))
	for _, d := range t.DomainOf(l) {
		sizes[d]++
	}
	return sizes, nil
}

// checkDomainRs returns an error naming an R outside 1..MaxReplicas or
// above the nodes.
func checkDomainRs(rs []int, nodes int) error {
	if len(rs) == 0 {
		return errors.New("no replication factor")
	}
	for _, r := range rs {
		if err := algorithms.CheckReplicas(r, nodes); err != nil {
			return err
		}
	}
	return nil
}

// CheckDomainViolations returns the error SweepDomainViolations(o, s,
// nodes, rs) would meet before streaming a key: no topology, a bad R, a
// configuration or membership an algorithm rejects, a topology that does
// not fit the nodes; it names the configuration.
func (s Sweep) CheckDomainViolations(o Options, nodes []algorithms.Node, rs []int) error {
	if o.Domains.IsZero() {
		return errors.New("violations need failure domains: give a topology (-topology, -racks or -zones)")
	}
	if err := checkDomainRs(rs, len(nodes)); err != nil {
		return err
	}
	return s.EachConfig(o, func(c Options) error {
		if err := c.checkOpenedReplicas(slices.Max(rs)); err != nil {
			return err
		}
		_, err := c.fleetOf(nodes)
		return err
	})
}

// SweepDomainViolations counts, for every configuration of s, each
// scheme and each replication factor of rs, the keys and replica pairs of
// o's key sets whose replicas share a domain at the failure-domain level
// of o.Domains ([domains.CountViolationsPerSet]), beside
// RandomSharedFrac, what uniformly random replica sets would show
// ([domains.RandomSetShared]). It checks everything first
// (CheckDomainViolations).
func SweepDomainViolations(o Options, s Sweep, nodes []algorithms.Node, rs []int) ([]schema.DomainViolation, error) {
	if err := s.CheckDomainViolations(o, nodes, rs); err != nil {
		return nil, err
	}
	var out []schema.DomainViolation
	err := s.EachConfig(o, func(c Options) error {
		rows, err := domainViolations(c, nodes, rs)
		out = append(out, rows...)
		return err
	})
	return out, err
}

func domainViolations(o Options, nodes []algorithms.Node, rs []int) ([]schema.DomainViolation, error) {
	f, err := o.fleetOf(nodes)
	if err != nil {
		return nil, err
	}
	src, _, err := o.prepare()
	if err != nil {
		return nil, err
	}
	sizes, err := domainSizes(f.topos[0], o.Domains.Level)
	if err != nil {
		return nil, err
	}
	var out []schema.DomainViolation
	for _, scheme := range f.schemes(o) {
		locs, err := f.locators(o, scheme)
		if err != nil {
			return nil, err
		}
		layouts := make([]domains.Layout, len(locs))
		for l := range locs {
			layouts[l] = domains.Layout{Loc: locs[l], Topology: f.topos[l]}
		}
		for _, r := range rs {
			v, err := domains.CountViolationsPerSet(src, layouts, o.Domains.Level, r, o.Workers)
			if err != nil {
				return nil, fmt.Errorf("%s R=%d: %w", scheme, r, err)
			}
			random, err := domains.RandomSetShared(sizes, r)
			if err != nil {
				return nil, err
			}
			row := schema.DomainViolation{Config: f.rc, Scheme: scheme, Nodes: len(nodes), Domains: v.Domains, Replicas: r, RandomSharedFrac: random}
			setEstimate(&row.KeysSharedFrac, &row.KeysSharedFracLo, &row.KeysSharedFracHi, v.KeysShared)
			setEstimate(&row.PairsSharedFrac, &row.PairsSharedFracLo, &row.PairsSharedFracHi, v.PairsShared)
			setEstimate(&row.KeysOneDomainFrac, &row.KeysOneDomainFracLo, &row.KeysOneDomainFracHi, v.KeysOneDomain)
			for _, c := range v.Sets {
				row.Samples = append(row.Samples, schema.DomainViolationSample{Keys: c.Keys, KeysShared: c.KeysShared, Pairs: c.Pairs, PairsShared: c.PairsShared, KeysOneDomain: c.KeysOneDomain})
			}
			out = append(out, row)
		}
		if err := release(locs...); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// CheckDomainRanks returns the error SweepDomainRanks(o, s, nodes, r)
// would meet before streaming a key, naming the configuration.
func (s Sweep) CheckDomainRanks(o Options, nodes []algorithms.Node, r int) error {
	if err := checkDomainRs([]int{r}, len(nodes)); err != nil {
		return err
	}
	return s.EachConfig(o, func(c Options) error {
		if err := c.checkOpenedReplicas(r); err != nil {
			return err
		}
		_, err := c.fleetOf(nodes)
		return err
	})
}

// SweepDomainRanks counts, for every configuration of s and each scheme
// (aware only with a topology), each node's share of the keys at each
// replica rank 1..r and of all r x keys replicas (rank 0)
// ([domains.CountRankLoadPerSet]), relative to its weight share, beside
// the successive-sampling shares of drawing r distinct nodes by weight
// ([domains.SuccessiveSampling]: weighted rendezvous's and straw2's law
// without domains), where those can be computed. It checks everything
// first (CheckDomainRanks).
func SweepDomainRanks(o Options, s Sweep, nodes []algorithms.Node, r int) ([]schema.DomainRank, error) {
	if err := s.CheckDomainRanks(o, nodes, r); err != nil {
		return nil, err
	}
	var out []schema.DomainRank
	err := s.EachConfig(o, func(c Options) error {
		rows, err := domainRanks(c, nodes, r)
		out = append(out, rows...)
		return err
	})
	return out, err
}

func domainRanks(o Options, nodes []algorithms.Node, r int) ([]schema.DomainRank, error) {
	f, err := o.fleetOf(nodes)
	if err != nil {
		return nil, err
	}
	src, _, err := o.prepare()
	if err != nil {
		return nil, err
	}
	var names []string // each node's domain at the failure-domain level
	if t := f.topos[0]; t != nil {
		l, _ := t.Level(o.Domains.Level)
		for _, d := range t.DomainOf(l) {
			names = append(names, t.Domains(l)[d])
		}
	}
	var out []schema.DomainRank
	for _, scheme := range f.schemes(o) {
		locs, err := f.locators(o, scheme)
		if err != nil {
			return nil, err
		}
		rl, err := domains.CountRankLoadPerSet(src, locs, r, o.Workers)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", scheme, err)
		}
		out = append(out, rankRows(f, rl, scheme, nodes, names)...)
		if err := release(locs...); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// rankRows turns a rank load into rows: ranks 1..R, then rank 0 (every
// replica), one row per node in the order of nodes (rl counts the nodes
// by their position in its locator, which may differ: jump's bucket
// order).
func rankRows(f domainFleet, rl domains.RankLoad, scheme string, nodes []algorithms.Node, names []string) []schema.DomainRank {
	at := make(map[string]int, len(rl.Nodes))
	for i, n := range rl.Nodes {
		at[n.ID] = i
	}
	W := algorithms.TotalWeight(nodes)
	var out []schema.DomainRank
	for _, rank := range append(seq(1, rl.R), 0) {
		for i, n := range nodes {
			j := at[f.nodes[0][i].ID]
			row := schema.DomainRank{Config: f.rc, Scheme: scheme, Nodes: len(nodes), Replicas: rl.R, Rank: rank, ID: n.ID,
				Weight: n.Weight, WeightShare: n.Weight / W}
			if names != nil {
				row.NodeDomain = names[i]
			}
			share, rel := rl.Load[j], rl.LoadRelative[j]
			if rank > 0 {
				share, rel = rl.Share[rank-1][j], rl.Relative[rank-1][j]
			}
			setEstimate(&row.Share, &row.ShareLo, &row.ShareHi, share)
			setEstimate(&row.Relative, &row.RelativeLo, &row.RelativeHi, rel)
			if rl.Theory != nil && scheme == schema.SchemePlain { // the law without domains
				th := 0.0
				if rank > 0 {
					th = rl.Theory[rank-1][j]
				} else {
					for k := range rl.R {
						th += rl.Theory[k][j] / float64(rl.R)
					}
				}
				row.TheoryShare = &th
			}
			for _, c := range rl.Sets {
				if rank > 0 {
					row.Samples = append(row.Samples, float64(c.Count[rank-1][j])/float64(c.Keys))
					continue
				}
				sum := int64(0)
				for k := range rl.R {
					sum += c.Count[k][j]
				}
				row.Samples = append(row.Samples, float64(sum)/float64(int64(rl.R)*c.Keys))
			}
			out = append(out, row)
		}
	}
	return out
}

// seq returns lo, lo+1, ..., hi.
func seq(lo, hi int) []int {
	var out []int
	for i := lo; i <= hi; i++ {
		out = append(out, i)
	}
	return out
}

// domainScenario materialises event e on the topology t of a fleet's
// nodes: the node or domain the seed chooses where e names none (PCG
// seeded with (seed, event index)), a domain added with fresh names.
func domainScenario(t *topology.Topology, e DomainEvent, seed uint64, index int) (domains.Scenario, error) {
	rng := rand.New(rand.NewPCG(seed, uint64(index)))
	if e.Kind == schema.EventAdded {
		return addedDomain(t, e.Level)
	}
	if e.Level == NodeLevel {
		id := e.Domain
		if id == "" {
			id = t.Nodes()[rng.IntN(len(t.Nodes()))].ID
		}
		return domains.NodeLoss(t, id)
	}
	l, err := t.Level(e.Level)
	if err != nil {
		return domains.Scenario{}, err
	}
	name := e.Domain
	if name == "" {
		names := t.Domains(l)
		if len(names) < 2 {
			return domains.Scenario{}, fmt.Errorf("event %s: the topology has one %s, whose loss would leave no node", e.Level, e.Level)
		}
		name = names[rng.IntN(len(names))]
	}
	return domains.DomainLoss(t, e.Level, name)
}

// addedDomain is a new domain at level shaped like the first one there
// (as many nodes, of the same weights, in as many domains at each inner
// level), named "<level>-<k>" with the first k free, under the domain one
// level out with the fewest children at level (the first of equals). New
// nodes are "node-<n>" with the first free numbers.
func addedDomain(t *topology.Topology, level string) (domains.Scenario, error) {
	l, err := t.Level(level)
	if err != nil {
		return domains.Scenario{}, err
	}
	levels := t.Levels()
	members := t.Members()
	// The parent path: the domain one level out with the fewest children
	// at level.
	var parent []string
	if l > 0 {
		children := make([]int, len(t.Domains(l-1)))
		for d := range t.Domains(l) {
			children[t.Parent(l, d)]++
		}
		best := 0
		for p, c := range children {
			if c < children[best] {
				best = p
			}
		}
		for _, m := range members {
			if m.Domains[l-1] == t.Domains(l - 1)[best] {
				parent = m.Domains[:l]
				break
			}
		}
	}
	// The template: the first domain at level; its inner domains map to
	// fresh names in order.
	template := t.Domains(l)[0]
	inner := make([]map[string]string, len(levels))
	ids := map[string]bool{}
	for _, m := range members {
		ids[m.Node.ID] = true
	}
	next := len(members)
	newID := func() string {
		for ; ; next++ {
			if id := algorithms.NodeID(next); !ids[id] {
				ids[id] = true
				return id
			}
		}
	}
	name := freshFrom(t, levels, l, nil)
	var added []topology.Member
	for _, m := range members {
		if m.Domains[l] != template {
			continue
		}
		ds := append(slices.Clone(parent), name)
		for k := l + 1; k < len(levels); k++ {
			if inner[k] == nil {
				inner[k] = map[string]string{}
			}
			if _, ok := inner[k][m.Domains[k]]; !ok {
				inner[k][m.Domains[k]] = freshFrom(t, levels, k, inner[k])
			}
			ds = append(ds, inner[k][m.Domains[k]])
		}
		added = append(added, topology.Member{Node: algorithms.Node{ID: newID(), Weight: m.Node.Weight}, Domains: ds})
	}
	return domains.DomainAdded(t, level, name, added)
}

// freshFrom returns the first name "<level>-<k>" at level index at that
// neither t nor the names already given (taken's values) use.
func freshFrom(t *topology.Topology, levels []string, at int, taken map[string]string) string {
	used := slices.Clone(t.Domains(at))
	for _, v := range taken {
		used = append(used, v)
	}
	for k := len(t.Domains(at)); ; k++ {
		if n := levels[at] + "-" + fmt.Sprint(k); !slices.Contains(used, n) {
			return n
		}
	}
}

// layoutDomainScenario returns the scenario of layout r of a fleet: every node
// ID of sc's topologies salted by LayoutID (sc itself for r = 0).
func layoutDomainScenario(sc domains.Scenario, r int) (domains.Scenario, error) {
	if r == 0 {
		return sc, nil
	}
	rename := func(t *topology.Topology) (*topology.Topology, error) {
		ms := t.Members()
		for i := range ms {
			ms[i].Node.ID = LayoutID(ms[i].Node.ID, r)
		}
		return topology.New(t.Levels(), ms)
	}
	var err error
	if sc.Before, err = rename(sc.Before); err != nil {
		return sc, err
	}
	sc.After, err = rename(sc.After)
	return sc, err
}

// CheckDomainChanges returns the error SweepDomainChanges(o, s, nodes, r,
// events) would meet before streaming a key: no topology, a bad R, an
// event the topology cannot have (an unknown level, node or domain, the
// loss of every node), a configuration or membership an algorithm
// rejects; it names the configuration and the event.
func (s Sweep) CheckDomainChanges(o Options, nodes []algorithms.Node, r int, events []DomainEvent) error {
	if o.Domains.IsZero() {
		return errors.New("changes need failure domains: give a topology (-topology, -racks or -zones)")
	}
	if err := checkDomainRs([]int{r}, len(nodes)); err != nil {
		return err
	}
	return s.EachConfig(o, func(c Options) error {
		if err := c.checkOpenedReplicas(r); err != nil {
			return err
		}
		f, err := c.fleetOf(nodes)
		if err != nil {
			return err
		}
		for i, e := range events {
			sc, err := domainScenario(f.topos[0], e, c.Seed, i)
			if err != nil {
				return fmt.Errorf("event %s: %w", eventName(e), err)
			}
			if err := algorithms.CheckReplicas(r, len(sc.After.Nodes())); err != nil {
				return fmt.Errorf("event %s: %d nodes remain: %w", eventName(e), len(sc.After.Nodes()), err)
			}
			if err := c.checkNodes(sc.After.Nodes(), f.cfg); err != nil {
				return fmt.Errorf("event %s: %w", eventName(e), err)
			}
		}
		return nil
	})
}

// eventName is how errors name an event: its flag form.
func eventName(e DomainEvent) string {
	switch {
	case e.Kind == schema.EventAdded:
		return "+" + e.Level
	case e.Domain != "":
		return e.Level + ":" + e.Domain
	}
	return e.Level
}

// SweepDomainChanges measures, for every configuration of s, each scheme
// and each event, what the change copies at replication factor r
// ([domains.CountChangePerSet]): replicas copied against the ideal (the
// total-variation distance of the weight shares), copies between
// surviving nodes (collateral), keys with a copy and keys left with no
// surviving replica, and the copies crossing domains at the
// failure-domain level and the outermost. A loss is the placement's
// Rebalance to the surviving nodes; an addition, for the aware scheme,
// its RebalanceTopology (the new nodes in their domains), for the plain,
// Rebalance. It checks everything first (CheckDomainChanges).
func SweepDomainChanges(o Options, s Sweep, nodes []algorithms.Node, r int, events []DomainEvent) ([]schema.DomainChange, error) {
	if err := s.CheckDomainChanges(o, nodes, r, events); err != nil {
		return nil, err
	}
	var out []schema.DomainChange
	err := s.EachConfig(o, func(c Options) error {
		rows, err := domainChanges(c, nodes, r, events)
		out = append(out, rows...)
		return err
	})
	return out, err
}

func domainChanges(o Options, nodes []algorithms.Node, r int, events []DomainEvent) ([]schema.DomainChange, error) {
	f, err := o.fleetOf(nodes)
	if err != nil {
		return nil, err
	}
	src, _, err := o.prepare()
	if err != nil {
		return nil, err
	}
	var out []schema.DomainChange
	for i, e := range events {
		sc0, err := domainScenario(f.topos[0], e, o.Seed, i)
		if err != nil {
			return nil, err
		}
		for _, scheme := range f.schemes(o) {
			ch, err := countDomainChange(o, f, src, scheme, sc0, r)
			if err != nil {
				return nil, fmt.Errorf("event %s, %s: %w", eventName(e), scheme, err)
			}
			out = append(out, changeRow(f, ch, scheme, e, sc0, o.Domains.Level))
		}
	}
	return out, nil
}

// countDomainChange runs scenario sc0 (on layout 0's node IDs) through
// every layout of f with scheme.
func countDomainChange(o Options, f domainFleet, src keyset.Source, scheme string, sc0 domains.Scenario, r int) (domains.Change, error) {
	cfg := f.cfg
	cfg.Partitions = cfg.PartitionsFor(max(len(sc0.Before.Nodes()), len(sc0.After.Nodes())))
	_, opened := o.opened()
	layouts := make([]domains.ChangeLayout, len(f.nodes))
	for l := range layouts {
		sc, err := layoutDomainScenario(sc0, l)
		if err != nil {
			return domains.Change{}, err
		}
		var before, after algorithms.Locator
		switch {
		case scheme == schema.SchemePlain && (sc.Kind == "added" || opened):
			if before, err = o.newLocator(sc.Before.Nodes(), cfg); err == nil {
				after, err = before.Rebalance(sc.After.Nodes())
			}
		case scheme == schema.SchemePlain:
			if before, err = catalog.NewFailureLocator(o.Algo, sc.Before.Nodes(), cfg); err == nil {
				after, err = domains.Apply(before, sc)
			}
		default:
			if before, err = catalog.NewInTopology(o.Algo, sc.Before, o.Domains.Level, cfg); err == nil {
				after, err = domains.Apply(before, sc)
			}
		}
		if err != nil {
			return domains.Change{}, err
		}
		layouts[l] = domains.ChangeLayout{Before: before, After: after, Topology: sc.Union()}
	}
	ch, err := domains.CountChangePerSet(src, layouts, r, o.Workers, nil)
	for _, ly := range layouts {
		err = errors.Join(err, release(ly.Before, ly.After))
	}
	return ch, err
}

// changeRow turns a measured change into its row: cross-domain copies at
// the failure-domain level and, when it is not the outermost, at the
// outermost level.
func changeRow(f domainFleet, ch domains.Change, scheme string, e DomainEvent, sc domains.Scenario, level string) schema.DomainChange {
	row := schema.DomainChange{Config: f.rc, Scheme: scheme, Nodes: len(sc.Before.Nodes()), Replicas: ch.R, Event: e.Kind, EventLevel: e.Level,
		NodesLeft: len(ch.Left), NodesJoined: len(ch.Joined)}
	row.EventDomain = sc.Domain
	if e.Level == NodeLevel {
		row.EventDomain = strings.TrimPrefix(sc.Name, "node ")
	}
	setEstimate(&row.CopiesFrac, &row.CopiesFracLo, &row.CopiesFracHi, ch.Copies)
	row.IdealFrac = IdealFraction(sc.Before.Nodes(), sc.After.Nodes()) // ch.Ideal, with one rounding
	setEstimate(&row.CollateralFrac, &row.CollateralFracLo, &row.CollateralFracHi, ch.Collateral)
	setEstimate(&row.KeysMovedFrac, &row.KeysMovedFracLo, &row.KeysMovedFracHi, ch.KeysMoved)
	setEstimate(&row.KeysLostFrac, &row.KeysLostFracLo, &row.KeysLostFracHi, ch.KeysLost)
	fd := slices.Index(ch.Levels, level)
	setEstimate(&row.CrossFrac, &row.CrossFracLo, &row.CrossFracHi, ch.Cross[fd])
	if fd > 0 {
		c := ch.Cross[0]
		row.OuterLevel = ch.Levels[0]
		setOptional(&row.CrossOuterFrac, &row.CrossOuterFracLo, &row.CrossOuterFracHi, c)
	}
	for _, c := range ch.Sets {
		pairs := float64(c.Keys) * float64(ch.R)
		smp := schema.DomainChangeSample{Copies: float64(c.Copies) / pairs, Collateral: float64(c.Collateral) / pairs,
			KeysMoved: float64(c.KeysMoved) / float64(c.Keys), KeysLost: float64(c.KeysLost) / float64(c.Keys)}
		if withSource := c.Copies - c.KeysLost*int64(ch.R); withSource > 0 {
			smp.Cross = float64(c.Cross[fd]) / float64(withSource)
		}
		row.Samples = append(row.Samples, smp)
	}
	return row
}
