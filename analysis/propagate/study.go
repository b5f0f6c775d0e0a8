package propagate

import (
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/schema"
)

// Study is what chbench propagate runs: every scenario of Scenarios (each
// a membership history of 1..MaxChanges steps, analysis.Scenario) with its
// changes at the times At/Every, replayed through every algorithm while
// each change reaches the clients by Model ([Run]), on requests generated
// by Requests ([Generated]) or read from Trace.
type Study struct {
	Algorithms []string
	Catalog    catalog.Config
	Scenarios  []analysis.Scenario
	// At holds the change times in seconds: one per step of every
	// scenario, or the first change's time alone, the others following
	// Every seconds apart (Every > 0).
	At    []float64
	Every float64
	Model Model
	// Clients is C, 1..MaxClients.
	Clients int
	// Requests are the generated requests: Keys, Zipf, Rate, Writes and
	// Seed; Start, End and Clients are the study's.
	Requests GeneratedConfig
	// Trace, when not nil, replaces the generated requests (Requests'
	// Keys, Zipf, Rate and Writes are then unused): the requests of a
	// recorded trace on its own clock ([Trace]).
	Trace *Trace
	// Start and End bound the replay (seconds); both 0 means
	// [DefaultSpan] of each scenario's change times.
	Start, End float64
	Windows    int
	Replays    int
	Seed       uint64 // the propagation draws' seed (the requests have Requests.Seed)
	Cache      bool
	Handoff    float64 // store hand-off, seconds
	Workers    int
	Commit     string // source revision recorded in the rows
}

// ChangeTimes returns the times of the steps changes of a scenario: At
// itself when it has one time per step, else At[0], At[0] + Every, ...
// It returns an error naming the count when neither applies, or a time
// that is not finite or not after the one before.
func (s *Study) ChangeTimes(steps int) ([]float64, error) {
	var at []float64
	switch {
	case len(s.At) == steps:
		at = s.At
	case len(s.At) == 1 && s.Every > 0 && !math.IsInf(s.Every, 0):
		for i := range steps {
			at = append(at, s.At[0]+float64(i)*s.Every)
		}
	case len(s.At) == 1 && steps > 1:
		return nil, fmt.Errorf("%d membership changes but one change time %v s: give one time per change, or the seconds between changes", steps, s.At[0])
	default:
		return nil, fmt.Errorf("%d change times for %d membership changes: give one time per change", len(s.At), steps)
	}
	for i, t := range at {
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, fmt.Errorf("change time %v s: need a finite number of seconds", t)
		}
		if i > 0 && t <= at[i-1] {
			return nil, fmt.Errorf("change time %v s is not after the change before it at %v s", t, at[i-1])
		}
	}
	return at, nil
}

// DefaultSpan returns the replay span of changes at the times at (in
// increasing order) under model m with C clients: from the first change
// until the last one has reached (nearly) every client: T after it for a
// linear rollout, 1 s for the instant model (no request is then ever
// stale), else the 99.9th percentile of the learn delays, rounded up to
// two significant digits. It returns an error when the model's delays
// have no such percentile (clients that never learn).
func DefaultSpan(m Model, clients int, at []float64) (start, end float64, err error) {
	if len(at) == 0 {
		return 0, 0, fmt.Errorf("propagate: no change times")
	}
	var horizon float64
	switch m := m.(type) {
	case Linear:
		horizon = m.Duration
	case Instant:
		horizon = 1
	default:
		c, err := m.Curve(clients)
		if err != nil {
			return 0, 0, fmt.Errorf("propagate: %w", err)
		}
		q := c.Quantile(0.999)
		if math.IsInf(q, 0) || math.IsNaN(q) {
			return 0, 0, fmt.Errorf("propagate: model %s: some clients never learn a change, so the replay needs an explicit span", m.Spec())
		}
		horizon = roundUp2(q)
	}
	return at[0], at[len(at)-1] + horizon, nil
}

// roundUp2 rounds x > 0 up to two significant digits (13.8 -> 14, 0.513
// -> 0.52); 1 for x <= 0.
func roundUp2(x float64) float64 {
	if !(x > 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x))-1)
	v, _ := strconv.ParseFloat(strconv.FormatFloat(math.Ceil(x/p-1e-9)*p, 'g', 2, 64), 64)
	return v
}

// MaxStudyRequests bounds the requests of one study: scenarios x replays
// x requests per replay, each located under every membership by every
// algorithm (about 40 ns each for the fast algorithms on one core).
const MaxStudyRequests = 1 << 34

// cacheBytesPerKey is a bound on the cache-aside state of one distinct
// key and algorithm (its entry and two cached copies), and
// generatedBytesPerKey on a key of the generated universe with its Zipf
// table entry (MaxGeneratedKeys).
const (
	cacheBytesPerKey     = 96
	generatedBytesPerKey = 64
)

// Check validates the study before any work: the budget, and for every
// scenario its memberships, change times, span, request count and the
// Run configuration. Its errors are those of [Study.Rows] that need no
// run.
func (s *Study) Check() error {
	if len(s.Scenarios) == 0 {
		return fmt.Errorf("propagate: no scenarios")
	}
	if err := s.checkBudget(); err != nil {
		return err
	}
	for _, sc := range s.Scenarios {
		if _, _, err := s.plan(sc); err != nil {
			return err
		}
	}
	return nil
}

// Rows runs the study and returns its rows: for each scenario and
// algorithm, one per window and then the whole span (window -1). It
// returns the errors of [Study.Check] (a bad value of the study, of a
// scenario or of the requests; a memory estimate, the key universe and
// with Cache the cached copies of every key per algorithm, above
// Catalog.MemoryBudget) and Run's errors.
func (s *Study) Rows() ([]schema.Propagate, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	var rows []schema.Propagate
	for _, sc := range s.Scenarios {
		cfg, gc, _ := s.plan(sc) // checked
		var src Source
		if s.Trace != nil {
			src = s.Trace.source(cfg.Start, cfg.End, cfg.Clients, s.Requests.Seed)
		} else {
			g, err := NewGenerated(gc)
			if err != nil {
				return nil, fmt.Errorf("propagate: scenario %s from %d nodes: %w", sc.Op, len(sc.Initial), err)
			}
			src = g
		}
		res, err := Run(cfg, src)
		if err != nil {
			return nil, err
		}
		if s.Trace != nil { // what the trace held inside the span
			gc = GeneratedConfig{Keys: s.Trace.Keys, Start: cfg.Start, End: cfg.End, Clients: cfg.Clients, Seed: s.Requests.Seed}
			t := res.Totals[0]
			gc.Rate, gc.Writes = traceRate(t.Requests, t.Reads, cfg.Start, cfg.End)
		}
		out := RowsOf(cfg, gc, sc.Op, res, s.Commit)
		if s.Trace != nil {
			for i := range out {
				out[i].KeyFile = s.Trace.Path
			}
		}
		rows = append(rows, out...)
	}
	return rows, nil
}

// checkBudget refuses a study whose memory estimate exceeds the budget.
func (s *Study) checkBudget() error {
	budget := s.Catalog.MemoryBudget
	if budget <= 0 {
		budget = catalog.DefaultMemoryBudget
	}
	keys := int64(s.Requests.Keys)
	est := keys * generatedBytesPerKey
	if s.Trace != nil { // the trace's keys are streamed, not held
		keys, est = int64(s.Trace.Keys), 0
	}
	cached := ""
	if s.Cache {
		est += keys * int64(len(s.Algorithms)) * cacheBytesPerKey
		cached = fmt.Sprintf(" cached by %d algorithms", len(s.Algorithms))
	}
	if est > budget {
		return fmt.Errorf("propagate: %d keys%s need about %s, more than the memory budget %s: fewer keys or algorithms, or a larger budget",
			keys, cached, catalog.HumanBytes(est), catalog.HumanBytes(budget))
	}
	if g, ok := s.Model.(Gossip); ok {
		if curve := g.CurveBytes(s.Clients); est+curve > budget {
			return fmt.Errorf("propagate: the gossip curve of %d clients (%d simulated spreads) needs about %s beside the keys' %s, more than the memory budget %s: fewer clients, or a larger budget",
				s.Clients, GossipCurveDraws(s.Clients), catalog.HumanBytes(curve), catalog.HumanBytes(est), catalog.HumanBytes(budget))
		}
	}
	return nil
}

// plan returns the Run configuration and the request generator's
// configuration of scenario sc, checked; the error names the scenario.
func (s *Study) plan(sc analysis.Scenario) (Config, GeneratedConfig, error) {
	cfg, gc, err := s.planOf(sc)
	if err != nil {
		// Run's checks name the package already.
		return cfg, gc, fmt.Errorf("propagate: scenario %s from %d nodes: %s", sc.Op, len(sc.Initial), strings.TrimPrefix(err.Error(), "propagate: "))
	}
	return cfg, gc, nil
}

func (s *Study) planOf(sc analysis.Scenario) (Config, GeneratedConfig, error) {
	var gc GeneratedConfig
	if len(sc.Steps) < 1 || len(sc.Steps) > MaxChanges {
		return Config{}, gc, fmt.Errorf("%d membership changes: need 1 to %d", len(sc.Steps), MaxChanges)
	}
	members, err := sc.Memberships()
	if err != nil {
		return Config{}, gc, err
	}
	at, err := s.ChangeTimes(len(sc.Steps))
	if err != nil {
		return Config{}, gc, err
	}
	start, end := s.Start, s.End
	if start == 0 && end == 0 {
		if start, end, err = DefaultSpan(s.Model, s.Clients, at); err != nil {
			return Config{}, gc, err
		}
	}
	cfg := Config{Algorithms: s.Algorithms, Catalog: s.Catalog, Nodes: members[0], Model: s.Model, Clients: s.Clients,
		Start: start, End: end, Windows: s.Windows, Replays: s.Replays, Seed: s.Seed, Cache: s.Cache, Handoff: s.Handoff, Workers: s.Workers}
	for i, t := range at {
		cfg.Changes = append(cfg.Changes, Change{At: t, Nodes: members[i+1]})
	}
	if err := cfg.validate(); err != nil {
		return Config{}, gc, err
	}
	gc = s.Requests
	gc.Start, gc.End, gc.Clients = start, end, s.Clients
	if s.Trace != nil { // the trace's own requests, bounded as they are read
		return cfg, gc, nil
	}
	n := math.Ceil((end - start) * gc.Rate)
	switch {
	case !(gc.Rate > 0) || math.IsInf(gc.Rate, 0):
		return Config{}, gc, fmt.Errorf("rate %v: need a finite number of requests per second > 0", gc.Rate)
	case n > MaxRequests:
		return Config{}, gc, fmt.Errorf("%v s at %v requests/s is %.4g requests: at most %d per replay", end-start, gc.Rate, n, MaxRequests)
	case n*float64(s.Replays)*float64(len(s.Scenarios)) > MaxStudyRequests:
		return Config{}, gc, fmt.Errorf("%.4g requests per replay x %d replays x %d scenarios: at most %d requests in all", n, s.Replays, len(s.Scenarios), int64(MaxStudyRequests))
	}
	return cfg, gc, nil
}

// Study returns the headline scenario as a [Study] whose rows carry
// commit: the same scenario, placements, requests and draws as
// [Headline], as scenario "add" from Nodes to Nodes + 1, over the
// default span (the rollout, [0, T)).
func (h HeadlineConfig) Study(commit string) (Study, error) {
	sc, err := analysis.Resize(h.Nodes, h.Nodes+1)
	if err != nil {
		return Study{}, fmt.Errorf("propagate: headline: %w", err)
	}
	return Study{Algorithms: h.Algorithms, Catalog: h.Catalog, Scenarios: []analysis.Scenario{sc}, At: []float64{0},
		Model: Linear{Duration: h.Rollout}, Clients: h.Clients,
		Requests: GeneratedConfig{Keys: h.Keys, Zipf: h.Zipf, Rate: h.Rate, Seed: h.Seed},
		Windows:  h.Windows, Replays: h.Replays, Seed: h.Seed, Workers: h.Workers, Commit: commit}, nil
}

// RowsOf returns the rows of res, the result of Run(cfg, src) on requests
// generated by gc, for scenario op: per algorithm, the windows in order,
// then the whole span (window -1).
func RowsOf(cfg Config, gc GeneratedConfig, op string, res *Result, commit string) []schema.Propagate {
	h, _ := algorithms.LookupHash(cfg.Catalog.Hash) // checked by Run
	at := make([]string, len(cfg.Changes))
	for i, c := range cfg.Changes {
		at[i] = strconv.FormatFloat(c.At, 'g', -1, 64)
	}
	base := schema.Propagate{Op: op, From: len(cfg.Nodes), To: len(cfg.Changes[len(cfg.Changes)-1].Nodes),
		Changes: len(cfg.Changes), At: strings.Join(at, ";"), Model: res.Model, Clients: res.Clients,
		Rate: gc.Rate, Zipf: gc.Zipf, Writes: gc.Writes, Replays: res.Replays, HandoffS: res.Handoff}
	var rows []schema.Propagate
	for a, name := range cfg.Algorithms {
		info, _ := catalog.Describe(name)
		rc := schema.Config{Algo: name, Hash: h.Name(), VNodes: cfg.Catalog.VNodes, Eps: cfg.Catalog.Eps,
			TableSize: cfg.Catalog.TableSize, Probes: cfg.Catalog.Probes, Capacity: cfg.Catalog.Capacity,
			Keys: gc.Keys, Seed: res.Seed, GoVersion: runtime.Version(), Commit: commit}
		if info.UsesPartitions {
			rc.Partitions = cfg.Catalog.PartitionsFor(len(cfg.Nodes))
		}
		w := len(res.Windows) / len(res.Totals)
		for _, r := range append(append([]Row(nil), res.Windows[a*w:(a+1)*w]...), res.Totals[a]) {
			rows = append(rows, rowOf(base, rc, r, res.Cache))
		}
	}
	return rows
}

// rowOf fills one schema row from base, the run configuration rc and the
// counts of r.
func rowOf(base schema.Propagate, rc schema.Config, r Row, cache bool) schema.Propagate {
	p := base
	p.Config = rc
	p.Label, p.Window, p.StartS, p.EndS = r.Label, r.Window, r.Start, r.End
	p.Requests, p.Reads, p.MovedFrac = r.Requests, r.Reads, r.Moved
	p.Stale, p.StaleLo, p.StaleHi, p.StaleExpected = r.Stale.Mean, r.Stale.Lo, r.Stale.Hi, r.StaleExpected
	p.Misrouted, p.MisroutedLo, p.MisroutedHi, p.MisroutedExpected = r.Misrouted.Mean, r.Misrouted.Lo, r.Misrouted.Hi, r.MisroutedExpected
	p.NotYet, p.NotYetLo, p.NotYetHi, p.NotYetExpected = r.NotYet.Mean, r.NotYet.Lo, r.NotYet.Hi, r.NotYetExpected
	p.AnyMore, p.AnyMoreLo, p.AnyMoreHi, p.AnyMoreExpected = r.AnyMore.Mean, r.AnyMore.Lo, r.AnyMore.Hi, r.AnyMoreExpected
	if cache {
		ptr := func(e analysis.Estimate) (*float64, *float64, *float64) { return &e.Mean, e.Lo, e.Hi }
		p.Misses, p.MissesLo, p.MissesHi = ptr(r.Misses)
		p.SplitMisses, p.SplitMissesLo, p.SplitMissesHi = ptr(r.SplitMisses)
		p.DoubleCached, p.DoubleCachedLo, p.DoubleCachedHi = ptr(r.DoubleCached)
		p.StaleReads, p.StaleReadsLo, p.StaleReadsHi = ptr(r.StaleReads)
	}
	return p
}
