package schema

import "fmt"

// The failure-domain results (chbench domains): replicas sharing a
// domain, load per replica rank, and what a node, rack or zone loss or a
// domain added moves. Each row names its replica scheme: [SchemePlain]
// or [SchemeAware]. The columns are documented in the package
// documentation (Failure domains).

// The replica schemes of the failure-domain results.
const (
	// SchemePlain is the algorithm's own replicas (algorithms.Replicas),
	// blind to failure domains; crush's flat map (one host per node).
	SchemePlain = "plain"
	// SchemeAware is one replica per failure domain while domains remain:
	// the algorithm's domain scheme (catalog.Info.Domains, through
	// algorithms/domainaware), crush's map of the topology with its rule.
	SchemeAware = "aware"
)

// Schemes returns the replica schemes, in the order rows list them.
func Schemes() []string { return []string{SchemePlain, SchemeAware} }

// The kinds of change of a [DomainChange].
const (
	EventLoss  = "loss"  // a node or every node of a domain fails (leaves)
	EventAdded = "added" // a new domain joins with its nodes
)

// DomainViolationSample holds one key set's counts.
type DomainViolationSample struct {
	Keys          int64 `json:"keys"`
	KeysShared    int64 `json:"keys_shared"`
	Pairs         int64 `json:"pairs"`
	PairsShared   int64 `json:"pairs_shared"`
	KeysOneDomain int64 `json:"keys_one_domain"`
}

// DomainViolation is how often replicas share a failure domain: one
// algorithm and scheme, one topology and level (Config.Topology,
// Config.Domain), one replication factor. One row of domains.csv.
type DomainViolation struct {
	Scheme              string   `json:"scheme"`
	Nodes               int      `json:"nodes"`
	Domains             int      `json:"domains"`
	Replicas            int      `json:"replicas"`
	KeysSharedFrac      float64  `json:"keys_shared_frac"`
	KeysSharedFracLo    *float64 `json:"keys_shared_frac_lo"`
	KeysSharedFracHi    *float64 `json:"keys_shared_frac_hi"`
	PairsSharedFrac     float64  `json:"pairs_shared_frac"`
	PairsSharedFracLo   *float64 `json:"pairs_shared_frac_lo"`
	PairsSharedFracHi   *float64 `json:"pairs_shared_frac_hi"`
	KeysOneDomainFrac   float64  `json:"keys_one_domain_frac"`
	KeysOneDomainFracLo *float64 `json:"keys_one_domain_frac_lo"`
	KeysOneDomainFracHi *float64 `json:"keys_one_domain_frac_hi"`
	RandomSharedFrac    float64  `json:"random_shared_frac"`
	Config              `json:"config"`
	Samples             []DomainViolationSample `json:"samples"`
}

func (DomainViolation) columns() []string {
	return []string{
		"algo", "hash", "vnodes", "scheme", "topology", "domain", "nodes", "domains", "replicas", "keys", "sets", "seed",
		"keys_shared_frac", "keys_shared_frac_lo", "keys_shared_frac_hi",
		"pairs_shared_frac", "pairs_shared_frac_lo", "pairs_shared_frac_hi",
		"keys_one_domain_frac", "keys_one_domain_frac_lo", "keys_one_domain_frac_hi",
		"random_shared_frac", "placement",
		"~eps", "~partitions", "~key_file", "~go_version", "~commit", "~table_size", "~probes", "~capacity",
	}
}

// Unavoidable reports whether R exceeds the domains, so that some
// replicas must share one whatever the placement.
func (r DomainViolation) Unavoidable() bool { return r.Replicas > r.Domains }

func (r DomainViolation) check() error {
	if err := checkScheme(r.Scheme); err != nil {
		return err
	}
	if r.Domain == "" {
		return columnErr("domain", "empty: a violation is counted at a failure-domain level")
	}
	if r.Domains > r.Nodes {
		return columnErr("domains", "%d domains for %d nodes", r.Domains, r.Nodes)
	}
	return nil
}

func checkScheme(s string) error {
	if s != SchemePlain && s != SchemeAware {
		return columnErr("scheme", "%q: want %s or %s", s, SchemePlain, SchemeAware)
	}
	return nil
}

// DomainRank is one node's load at one replica rank: one algorithm and
// scheme, one fleet, one replication factor. One row of
// domains-ranks.csv. Rank 1 is the primary; rank 0 is every replica
// together (the node's share of the R x keys replicas).
type DomainRank struct {
	Scheme      string   `json:"scheme"`
	Nodes       int      `json:"nodes"`
	Replicas    int      `json:"replicas"`
	Rank        int      `json:"rank"`
	ID          string   `json:"id"`
	NodeDomain  string   `json:"node_domain"`
	Weight      float64  `json:"weight"`
	WeightShare float64  `json:"weight_share"`
	Share       float64  `json:"share"`
	ShareLo     *float64 `json:"share_lo"`
	ShareHi     *float64 `json:"share_hi"`
	Relative    float64  `json:"relative"`
	RelativeLo  *float64 `json:"relative_lo"`
	RelativeHi  *float64 `json:"relative_hi"`
	TheoryShare *float64 `json:"theory_share"`
	Config      `json:"config"`
	Samples     []float64 `json:"samples"`
}

func (DomainRank) columns() []string {
	return []string{
		"algo", "hash", "vnodes", "scheme", "topology", "domain", "nodes", "replicas", "rank", "id", "node_domain", "weight", "weight_share",
		"keys", "sets", "seed", "share", "share_lo", "share_hi", "relative", "relative_lo", "relative_hi", "theory_share", "placement",
		"~eps", "~partitions", "~key_file", "~go_version", "~commit", "~table_size", "~probes", "~capacity",
	}
}

func (r DomainRank) check() error {
	if err := checkScheme(r.Scheme); err != nil {
		return err
	}
	if r.Rank < 0 || r.Rank > r.Replicas {
		return columnErr("rank", "%d: want 0 (every replica) or 1 to the %d replicas", r.Rank, r.Replicas)
	}
	if r.TheoryShare != nil && (*r.TheoryShare < 0 || *r.TheoryShare > 1) {
		return columnErr("theory_share", "%v is not a fraction in 0..1", *r.TheoryShare)
	}
	return nil
}

// DomainChangeSample holds one key set's fractions.
type DomainChangeSample struct {
	Copies     float64 `json:"copies_frac"`
	Collateral float64 `json:"collateral_frac"`
	KeysMoved  float64 `json:"keys_moved_frac"`
	KeysLost   float64 `json:"keys_lost_frac"`
	Cross      float64 `json:"cross_frac"`
}

// DomainChange is what one failure-domain change moves: one algorithm
// and scheme, one topology, one replication factor, one event (a node, a
// whole domain lost, or a domain added). One row of domains-changes.csv.
// CrossOuterFrac is nil when the failure-domain level is the outermost.
type DomainChange struct {
	Scheme           string   `json:"scheme"`
	Nodes            int      `json:"nodes"`
	Replicas         int      `json:"replicas"`
	Event            string   `json:"event"`
	EventLevel       string   `json:"event_level"`
	EventDomain      string   `json:"event_domain"`
	NodesLeft        int      `json:"nodes_left"`
	NodesJoined      int      `json:"nodes_joined"`
	CopiesFrac       float64  `json:"copies_frac"`
	CopiesFracLo     *float64 `json:"copies_frac_lo"`
	CopiesFracHi     *float64 `json:"copies_frac_hi"`
	IdealFrac        float64  `json:"ideal_frac"`
	CollateralFrac   float64  `json:"collateral_frac"`
	CollateralFracLo *float64 `json:"collateral_frac_lo"`
	CollateralFracHi *float64 `json:"collateral_frac_hi"`
	KeysMovedFrac    float64  `json:"keys_moved_frac"`
	KeysMovedFracLo  *float64 `json:"keys_moved_frac_lo"`
	KeysMovedFracHi  *float64 `json:"keys_moved_frac_hi"`
	KeysLostFrac     float64  `json:"keys_lost_frac"`
	KeysLostFracLo   *float64 `json:"keys_lost_frac_lo"`
	KeysLostFracHi   *float64 `json:"keys_lost_frac_hi"`
	CrossFrac        float64  `json:"cross_frac"`
	CrossFracLo      *float64 `json:"cross_frac_lo"`
	CrossFracHi      *float64 `json:"cross_frac_hi"`
	OuterLevel       string   `json:"outer_level"`
	CrossOuterFrac   *float64 `json:"cross_outer_frac"`
	CrossOuterFracLo *float64 `json:"cross_outer_frac_lo"`
	CrossOuterFracHi *float64 `json:"cross_outer_frac_hi"`
	Config           `json:"config"`
	Samples          []DomainChangeSample `json:"samples"`
}

func (DomainChange) columns() []string {
	return []string{
		"algo", "hash", "vnodes", "scheme", "topology", "domain", "nodes", "replicas",
		"event", "event_level", "event_domain", "nodes_left", "nodes_joined", "keys", "sets", "seed",
		"copies_frac", "copies_frac_lo", "copies_frac_hi", "ideal_frac",
		"collateral_frac", "collateral_frac_lo", "collateral_frac_hi",
		"keys_moved_frac", "keys_moved_frac_lo", "keys_moved_frac_hi",
		"keys_lost_frac", "keys_lost_frac_lo", "keys_lost_frac_hi",
		"cross_frac", "cross_frac_lo", "cross_frac_hi",
		"outer_level", "cross_outer_frac", "cross_outer_frac_lo", "cross_outer_frac_hi", "placement",
		"~eps", "~partitions", "~key_file", "~go_version", "~commit", "~table_size", "~probes", "~capacity",
	}
}

func (r DomainChange) check() error {
	if err := checkScheme(r.Scheme); err != nil {
		return err
	}
	// collateral_frac is a fraction here, one change's copies between
	// surviving nodes; a Move's, summed over a scenario's steps, is not.
	if r.CollateralFrac < 0 || r.CollateralFrac > 1 {
		return columnErr("collateral_frac", "%v is not a fraction in 0..1", r.CollateralFrac)
	}
	switch r.Event {
	case EventLoss:
		if r.NodesLeft < 1 || r.NodesJoined != 0 {
			return columnErr("nodes_left", "a loss of %d nodes (%d joining): want at least 1 leaving, none joining", r.NodesLeft, r.NodesJoined)
		}
	case EventAdded:
		if r.NodesJoined < 1 || r.NodesLeft != 0 {
			return columnErr("nodes_joined", "a domain added with %d nodes (%d leaving): want at least 1 joining, none leaving", r.NodesJoined, r.NodesLeft)
		}
	default:
		return columnErr("event", "%q: want %s or %s", r.Event, EventLoss, EventAdded)
	}
	if !IsLabel(r.EventLevel) || r.EventDomain == "" {
		return columnErr("event_level", "%q %q: want a level (a label) and a node or domain", r.EventLevel, r.EventDomain)
	}
	if (r.CrossOuterFrac == nil) != (r.OuterLevel == "") {
		return columnErr("cross_outer_frac", "set %v with outer level %q: both or neither", r.CrossOuterFrac != nil, r.OuterLevel)
	}
	if r.CrossOuterFrac == nil && (r.CrossOuterFracLo != nil || r.CrossOuterFracHi != nil) {
		return columnErr("cross_outer_frac_lo", "an interval without its value cross_outer_frac")
	}
	return nil
}

// String names the change as tables and plots show it, e.g. "rack
// rack-1 lost", "node node-3 lost", "rack rack-4 added".
func (r DomainChange) String() string {
	verb := "lost"
	if r.Event == EventAdded {
		verb = "added"
	}
	return fmt.Sprintf("%s %s %s", r.EventLevel, r.EventDomain, verb)
}
