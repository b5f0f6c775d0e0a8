// Package conformance gives a placement a verdict per property, each with
// the number measured, the threshold it is held to, and PASS or FAIL. It
// takes any placement a [catalog.Builder] builds: chbench's own
// algorithms, one added by catalog.Register from the user's module, or a
// program speaking the external protocol (docs/protocol.md), so a library
// author can check an implementation in any language against the same
// promises chbench's algorithms make. It is shaped like
// testing/fstest.TestFS: [Run] checks everything and returns a [Report];
// [Test] does the same inside the user's own go test.
//
// Every property opens its own instance of the placement (a new process
// for an external one), so a crash under one check cannot spoil the
// others. All checks place the same K keys (keyset.Keys(K, Seed)) on the
// same membership of n nodes of weight 1 (Config.IDs, default node-0 to
// node-9), and every random choice comes from Seed: the same Config gives
// the same Report on any machine. The properties, and what each check
// measures (its Value must not exceed its Threshold):
//
//   - determinism: the fraction of keys (K plus keys with unusual bytes:
//     empty, spaces, '%', control and non-UTF-8 bytes, a 10 KB key) whose
//     owner differs between two lookups on one placement, a second
//     placement of the same membership, and a placement in a second
//     instance (a restart: seeds from the clock and Python's per-process
//     hash() show here). Threshold 0.
//   - order: the fraction of keys whose owner differs between the
//     membership as listed, reversed and shuffled. Threshold 0. Not
//     applicable to a placement that declares itself ordered.
//   - balance: the coefficient of variation of the nodes' shares, measured
//     as sqrt(X^2/K) from Pearson's X^2 of the counts. A perfect placement
//     shows sampling noise alone, about sqrt((n-1)/K); the threshold is
//     the 1-alpha quantile of what a placement whose true cv is the
//     tolerance Config.CV gives (noncentral chi-square, see shareTest), so
//     a placement at the tolerance fails with probability alpha; the power
//     against 1.5 times the tolerance is in the Detail.
//   - join: a node joins (appended): the fraction of keys that moved
//     between nodes present before and after (collateral, threshold 0),
//     and the fraction moved, held to the ideal 1/(n+1) times 1 + z*CV
//     (the deviation the balance tolerance allows one node, z the one-sided
//     normal quantile at alpha) plus z binomial standard errors.
//   - leave: a node leaves (a random one but the last, or the last for a
//     placement that declares that only the last leaves): the fraction of
//     keys that moved between nodes that stay. Threshold 0.
//   - weights: the membership with weights 1, 2, 3, 4, 1, 2, ...: the cv of
//     the nodes' loads relative to their weight shares w_i/W, held to the
//     balance threshold. Not applicable to an unweighted placement.
//   - replicas: the fraction of keys whose R replicas (Config.Replicas, at
//     most the placement's) repeat a node or do not begin with the owner.
//     Threshold 0. Not applicable to a placement without replicas.
//   - churn: random joins and leaves (Config.ChurnSteps, between n/2 and
//     2n nodes, half the joins bringing back a node that left, keys
//     located after each step): the number of steps not completed because
//     of an error. Threshold 0.
//   - reference: the fraction of keys placed otherwise than by the
//     reference (another placement, on the same membership, replicas
//     included when both serve them; or a vector file of key<TAB>owner
//     lines). Threshold 0. Not applicable without a reference.
package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/external"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/schema"
)

// The properties, in the order a Report lists them.
const (
	Determinism = "determinism"
	Order       = "order"
	Balance     = "balance"
	Join        = "join"
	Leave       = "leave"
	Weights     = "weights"
	Replicas    = "replicas"
	Churn       = "churn"
	Reference   = "reference"
)

// Properties returns the property names in report order.
func Properties() []string {
	return []string{Determinism, Order, Balance, Join, Leave, Weights, Replicas, Churn, Reference}
}

// Verdict is the outcome of one check.
type Verdict int

const (
	Pass          Verdict = iota // the Value is within the Threshold
	Fail                         // it is not, or the check could not run
	NotApplicable                // the placement declares it does not make this promise
)

func (v Verdict) String() string {
	switch v {
	case Pass:
		return "PASS"
	case Fail:
		return "FAIL"
	}
	return "n/a"
}

// Result is the verdict of one check of one property.
type Result struct {
	Property string // one of the property names
	Check    string // what Value measures, e.g. "collateral fraction"
	// Value is the number measured; a check passes when Value <=
	// Threshold. Both are 0 when Measured is false.
	Value, Threshold float64
	// Measured is false when the check did not run: not applicable, or
	// stopped by an error (Detail says which).
	Measured bool
	Verdict  Verdict
	Detail   string // how it was measured, the first counterexample, or why it did not run
}

// Report is the outcome of Run.
type Report struct {
	Placement string           // the name the placement gave
	Facts     algorithms.Facts // the promises it declared
	Config    Config           // the configuration used, defaults filled in
	Results   []Result         // in the order of Properties, one or more per property
}

// Failed returns the checks that failed.
func (r *Report) Failed() []Result {
	var out []Result
	for _, res := range r.Results {
		if res.Verdict == Fail {
			out = append(out, res)
		}
	}
	return out
}

// Verdict returns the verdict of a property: Fail when any of its checks
// failed, NotApplicable when none applied, Pass otherwise.
func (r *Report) Verdict(property string) Verdict {
	v, seen := NotApplicable, false
	for _, res := range r.Results {
		if res.Property != property {
			continue
		}
		seen = true
		switch res.Verdict {
		case Fail:
			return Fail
		case Pass:
			v = Pass
		}
	}
	if !seen {
		return NotApplicable
	}
	return v
}

// WriteText writes the report as an aligned table, one line per check,
// after a line naming the placement, its facts and the configuration. A
// Detail's line breaks (a program's standard error) become " | ".
func (r *Report) WriteText(w io.Writer) error {
	c := r.Config
	fmt.Fprintf(w, "conformance of %s (%s): %d nodes, %d keys, seed %d, alpha %g, cv tolerance %g\n",
		r.Placement, FactsText(r.Facts), len(c.IDs), c.Keys, c.Seed, c.Alpha, c.CV)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "property\tcheck\tvalue\tthreshold\tverdict\tdetail")
	for _, res := range r.Results {
		value, bound := "-", "-"
		if res.Measured {
			value, bound = number(res.Value), number(res.Threshold)
		}
		detail := strings.Join(strings.Fields(strings.ReplaceAll(res.Detail, "\n", " | ")), " ")
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", res.Property, res.Check, value, bound, res.Verdict, detail)
	}
	return tw.Flush()
}

// number formats a value in 4 significant digits.
func number(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }

// FactsText describes facts in a few words: "weighted, any node leaves,
// unordered, replicas 8".
func FactsText(f algorithms.Facts) string {
	parts := []string{"unweighted"}
	if f.Weighted {
		parts[0] = "weighted"
	}
	if f.OnlyLastLeaves {
		parts = append(parts, "only the last node leaves")
	} else {
		parts = append(parts, "any node leaves")
	}
	if f.Ordered {
		parts = append(parts, "ordered")
	} else {
		parts = append(parts, "unordered")
	}
	if f.Replicas > 1 {
		parts = append(parts, fmt.Sprintf("replicas %d", f.Replicas))
	} else {
		parts = append(parts, "no replicas")
	}
	if f.Stateful {
		parts = append(parts, "stateful")
	}
	return strings.Join(parts, ", ")
}

// Opener opens an instance of the placement under test: for an external
// placement it starts a process. Run opens one instance per property, and
// a second one for the determinism check's restart; it closes each.
type Opener func() (catalog.Builder, error)

// Open returns the Opener of a placement by name: a catalog algorithm
// configured by cfg, or external.Prefix + a command, started under ctx
// with the external package's defaults (see catalog.Open; for other
// settings of the program, write the Opener around catalog.Open).
func Open(ctx context.Context, name string, cfg catalog.Config) Opener {
	return func() (catalog.Builder, error) { return catalog.Open(ctx, name, cfg, external.Config{}) }
}

// Config sets the sizes, the seed and the statistics of the checks. The
// zero value of every field but Seed means its default; DefaultConfig
// returns them.
type Config struct {
	// IDs are the node IDs of the membership the checks use, each of
	// weight 1 (the weights check sets its own weights), at least 3;
	// nil means node-0 ... node-{Nodes-1}.
	IDs []string
	// Nodes is the number of nodes when IDs is nil, 3 to 10,000
	// (default 10).
	Nodes int
	// Keys is the number of keys each check places, 1,000 to 10^8
	// (default 100,000).
	Keys int
	// Seed seeds the keys and every random choice (0 is a seed like any
	// other).
	Seed uint64
	// Alpha is the probability that a placement exactly at a statistical
	// tolerance fails its check, in (0, 0.5) (default 0.001).
	Alpha float64
	// CV is the balance tolerance: the largest coefficient of variation of
	// the nodes' shares (relative to their ideal) that passes, in (0, 1]
	// (default 0.1: a ring of 160 virtual nodes per node has about 0.08).
	CV float64
	// Replicas is the replication factor R of the replicas check, 2 to
	// algorithms.MaxReplicas (default 3); the placement's own maximum and
	// the membership size bound it.
	Replicas int
	// ChurnSteps is the number of random joins and leaves of the churn
	// check (default 2,000); ChurnKeys the keys located after each (1 to
	// Keys, default 100).
	ChurnSteps, ChurnKeys int
	// Reference is what the reference check compares with; nil: the check
	// is not applicable.
	Reference *Ref
	// Only lists the properties to check; nil checks all.
	Only []string
}

// Ref is the reference of the reference check: a placement (Open), or a
// vector file of KEY<TAB>OWNER lines for the checks' membership (Vectors,
// the dump format, see the dump package). Name is how reports name it.
type Ref struct {
	Name    string
	Open    Opener
	Vectors string
}

// DefaultConfig returns the defaults: node-0 to node-9, 100,000 keys, seed
// 1, alpha 0.001, cv tolerance 0.1, R = 3, 2,000 churn steps of 100 keys.
func DefaultConfig() Config {
	return Config{Nodes: 10, Keys: 100000, Seed: 1, Alpha: 0.001, CV: 0.1, Replicas: 3, ChurnSteps: 2000, ChurnKeys: 100}
}

// Check returns the error Run returns for c before it opens anything: an
// error naming the first bad value (nodes, keys, alpha, cv tolerance,
// replicas, churn, reference, an unknown property in Only).
func (c Config) Check() error {
	_, err := c.filled()
	return err
}

// filled returns c with defaults for its zero fields, or an error naming
// the first bad value.
func (c Config) filled() (Config, error) {
	d := DefaultConfig()
	if c.Nodes == 0 {
		c.Nodes = d.Nodes
	}
	if c.Keys == 0 {
		c.Keys = d.Keys
	}
	if c.Alpha == 0 {
		c.Alpha = d.Alpha
	}
	if c.CV == 0 {
		c.CV = d.CV
	}
	if c.Replicas == 0 {
		c.Replicas = d.Replicas
	}
	if c.ChurnSteps == 0 {
		c.ChurnSteps = d.ChurnSteps
	}
	if c.ChurnKeys == 0 {
		c.ChurnKeys = d.ChurnKeys
	}
	switch {
	case c.IDs == nil && (c.Nodes < 3 || c.Nodes > 10000):
		return c, fmt.Errorf("conformance: nodes %d: need 3 to 10000", c.Nodes)
	case c.IDs != nil && len(c.IDs) < 3:
		return c, fmt.Errorf("conformance: %d node IDs: need at least 3", len(c.IDs))
	case c.Keys < 1000 || c.Keys > 1e8:
		return c, fmt.Errorf("conformance: keys %d: need 1000 to 100000000", c.Keys)
	case !(c.Alpha > 0 && c.Alpha < 0.5):
		return c, fmt.Errorf("conformance: alpha %v: need 0 < alpha < 0.5", c.Alpha)
	case !(c.CV > 0 && c.CV <= 1):
		return c, fmt.Errorf("conformance: cv tolerance %v: need 0 < cv <= 1", c.CV)
	case c.Replicas < 2 || c.Replicas > algorithms.MaxReplicas:
		return c, fmt.Errorf("conformance: replicas %d: need 2 to %d", c.Replicas, algorithms.MaxReplicas)
	case c.ChurnSteps < 0:
		return c, fmt.Errorf("conformance: churn steps %d: need at least 1", c.ChurnSteps)
	case c.ChurnKeys < 1 || c.ChurnKeys > c.Keys:
		return c, fmt.Errorf("conformance: churn keys %d: need 1 to the %d keys", c.ChurnKeys, c.Keys)
	case c.Reference != nil && (c.Reference.Open == nil) == (c.Reference.Vectors == ""):
		return c, errors.New("conformance: a reference needs exactly one of a placement (Open) and a vector file")
	}
	for _, p := range c.Only {
		if !slices.Contains(Properties(), p) {
			return c, fmt.Errorf("conformance: unknown property %q (known: %s)", p, strings.Join(Properties(), ", "))
		}
	}
	if c.IDs == nil {
		c.IDs = make([]string, c.Nodes)
		for i := range c.IDs {
			c.IDs[i] = algorithms.NodeID(i)
		}
	}
	c.IDs = slices.Clone(c.IDs)
	c.Nodes = len(c.IDs)
	nodes := equal(c.IDs)
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return c, fmt.Errorf("conformance: %w", err)
	}
	return c, nil
}

// equal returns the nodes of ids, each of weight 1.
func equal(ids []string) []algorithms.Node {
	nodes := make([]algorithms.Node, len(ids))
	for i, id := range ids {
		nodes[i] = algorithms.Node{ID: id, Weight: 1}
	}
	return nodes
}

// Run checks every property (or those in cfg.Only) of the placement open
// opens, and returns the report. It returns an error for an invalid cfg,
// when the first instance cannot be opened (the placement cannot be
// tested at all), or when ctx is done; a failure inside a check is that
// check's FAIL.
func Run(ctx context.Context, open Opener, cfg Config) (*Report, error) {
	cfg, err := cfg.filled()
	if err != nil {
		return nil, err
	}
	first, err := open()
	if err == nil && first == nil {
		err = errors.New("the Opener returned no placement and no error")
	}
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	rep := &Report{Placement: first.Name(), Facts: first.Facts(), Config: cfg}
	first.Close()
	keys, err := keyset.Keys(cfg.Keys, cfg.Seed)
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	r := &run{ctx: ctx, open: open, cfg: cfg, facts: rep.Facts, nodes: equal(cfg.IDs), keys: keys}
	checks := map[string]func() []Result{
		Determinism: r.determinism, Order: r.order, Balance: r.balance, Join: r.join, Leave: r.leave,
		Weights: r.weights, Replicas: r.replicas, Churn: r.churn, Reference: r.reference,
	}
	for _, p := range Properties() {
		if cfg.Only != nil && !slices.Contains(cfg.Only, p) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("conformance: %w", err)
		}
		rep.Results = append(rep.Results, checks[p]()...)
	}
	return rep, nil
}

// Test runs the suite inside a go test: it logs the report and fails t
// with one error per failed check. A Run error fails t at once.
func Test(t testing.TB, open Opener, cfg Config) *Report {
	t.Helper()
	rep, err := Run(context.Background(), open, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rep.WriteText(&b)
	t.Log("\n" + b.String())
	for _, res := range rep.Failed() {
		t.Errorf("%s: %s %s (threshold %s): %s", rep.Placement, res.Property, res.Check, number(res.Threshold), res.Detail)
	}
	return rep
}

// Rows returns the report as result rows (schema.Conformance), one per
// check in report order: run is the run's configuration as results record
// it (hash, vnodes, go version, commit), into which the placement's name,
// the keys and the seed are copied. A Detail's line breaks become " | ",
// as in WriteText.
func (r *Report) Rows(run schema.Config) []schema.Conformance {
	run.Algo, run.Keys, run.Seed = r.Placement, r.Config.Keys, r.Config.Seed
	if run.Sets == 0 {
		run.Sets = 1
	}
	facts := FactsText(r.Facts)
	out := make([]schema.Conformance, 0, len(r.Results))
	for _, res := range r.Results {
		row := schema.Conformance{Property: res.Property, Check: res.Check, Verdict: res.Verdict.String(),
			Nodes: len(r.Config.IDs), Alpha: r.Config.Alpha, CVTol: r.Config.CV, Facts: facts,
			Detail: strings.Join(strings.Fields(strings.ReplaceAll(res.Detail, "\n", " | ")), " "), Config: run}
		if res.Measured {
			v, t := res.Value, res.Threshold
			row.Value, row.Threshold = &v, &t
		}
		out = append(out, row)
	}
	return out
}
