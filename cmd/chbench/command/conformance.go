package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/external"
	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/conformance"
	"github.com/chbench/chbench/schema"
)

// conformanceFlags are the flags of chbench conformance: the placements
// and their settings, the suite's sizes and statistics, the reference and
// the output.
type conformanceFlags struct {
	p        cli.Placement
	out      cli.Output
	cfg      conformance.Config
	nodeIDs  string
	only     string
	ref      string
	refHash  string
	vectors  string
	commit   string
	algos    []string
	ccfg     catalog.Config
	refCfg   catalog.Config
	explicit map[string]bool
}

func (c *conformanceFlags) register(fs *flag.FlagSet) {
	c.cfg = conformance.DefaultConfig()
	c.p.Register(fs, "the placement(s) to check, comma-separated: catalog or registered names"+cli.AlgoHelp)
	c.p.RegisterExec(fs)
	fs.IntVar(&c.cfg.Nodes, "nodes", c.cfg.Nodes, "nodes of the membership, node-0 ... node-{n-1}, each of weight 1 (3 to 10,000)")
	fs.StringVar(&c.nodeIDs, "node-ids", "", "comma-separated node IDs of the membership instead of -nodes (at least 3)")
	fs.IntVar(&c.cfg.Keys, "keys", c.cfg.Keys, "keys every check places, 1,000 to 100,000,000 (the statistical thresholds follow from it)")
	fs.Uint64Var(&c.cfg.Seed, "seed", c.cfg.Seed, "seed of the keys and of every random choice (which node leaves, the churn)")
	fs.Float64Var(&c.cfg.Alpha, "alpha", c.cfg.Alpha, "probability that a placement exactly at a statistical tolerance fails its check, 0 < alpha < 0.5")
	fs.Float64Var(&c.cfg.CV, "cv", c.cfg.CV, "balance tolerance: the largest coefficient of variation of the nodes' shares that passes, 0 < cv <= 1")
	fs.IntVar(&c.cfg.Replicas, "replicas", c.cfg.Replicas, fmt.Sprintf("replication factor R of the replicas check, 2 to %d (at most what the placement serves)", algorithms.MaxReplicas))
	fs.IntVar(&c.cfg.ChurnSteps, "churn", c.cfg.ChurnSteps, "random joins and leaves of the churn check")
	fs.IntVar(&c.cfg.ChurnKeys, "churn-keys", c.cfg.ChurnKeys, "keys located after each churn step (1 to -keys)")
	fs.StringVar(&c.only, "only", "", "comma-separated properties to check (default all: "+strings.Join(conformance.Properties(), ", ")+")")
	fs.StringVar(&c.ref, "reference", "", "a placement to agree with key by key, replicas included: a catalog name (built with -reference-hash and the other settings) or exec:COMMAND")
	fs.StringVar(&c.refHash, "reference-hash", "", "key hash of a catalog -reference (default -hash)")
	fs.StringVar(&c.vectors, "vectors", "", "a file of KEY<TAB>OWNER lines (a dump, docs/external.md) to agree with, for the membership of -nodes or -node-ids")
	fs.StringVar(&c.commit, "commit", "", "source revision recorded in results (default: the binary's VCS revision, if known)")
	c.out.Register(fs, schema.FormatTable, schema.FormatCSV, schema.FormatJSON)
}

// parse checks every flag before any program is started; every error is
// a usage error.
func (c *conformanceFlags) parse(fs *flag.FlagSet, args []string) error {
	set, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	c.explicit = set
	if set["keys"] && c.cfg.Keys == 0 { // the library's 0 means its default; a user's 0 is out of range
		return fmt.Errorf("-keys 0: need 1000 to 100000000")
	}
	if fs.NArg() != 0 {
		return cli.Args(fs, 0, "")
	}
	if c.p.Algo == "" {
		return errors.New("-algo is required: the placement to check (a catalog name, or exec:COMMAND)")
	}
	if c.algos, err = cli.ParseAlgos(c.p.Algo); err != nil {
		return err
	}
	if err := c.p.CheckExec(); err != nil {
		return err
	}
	if err := c.out.Check(schema.FormatTable, schema.FormatCSV, schema.FormatJSON); err != nil {
		return err
	}
	c.ccfg = c.p.Config()
	if err := c.ccfg.Validate(); err != nil {
		return err
	}
	if c.nodeIDs != "" {
		if set["nodes"] {
			return errors.New("-nodes and -node-ids: give one or the other")
		}
		for _, id := range strings.Split(c.nodeIDs, ",") {
			c.cfg.IDs = append(c.cfg.IDs, strings.TrimSpace(id))
		}
	}
	if c.only != "" {
		for _, p := range strings.Split(c.only, ",") {
			c.cfg.Only = append(c.cfg.Only, strings.TrimSpace(p))
		}
		if err := cli.NoDuplicates("only", c.cfg.Only); err != nil {
			return err
		}
	}
	if c.commit == "" {
		c.commit = cli.Revision()
	}
	return c.checkReference()
}

// checkReference checks -reference, -reference-hash and -vectors; the
// reference's Opener is set by run, once the context is known.
func (c *conformanceFlags) checkReference() error {
	switch {
	case c.ref != "" && c.vectors != "":
		return errors.New("-reference and -vectors: give one reference")
	case c.refHash != "" && (c.ref == "" || strings.HasPrefix(c.ref, external.Prefix)):
		return errors.New("-reference-hash needs a catalog -reference")
	case c.vectors != "":
		c.cfg.Reference = &conformance.Ref{Vectors: c.vectors}
	case c.ref != "":
		c.refCfg = c.ccfg
		if c.refHash != "" {
			c.refCfg.Hash = c.refHash
		}
		if err := c.refCfg.Validate(); err != nil {
			return err
		}
		if _, isExec := external.Parse(c.ref); !isExec {
			if _, err := catalog.Describe(c.ref); err != nil {
				return fmt.Errorf("-reference: %w", err)
			}
		}
		// A placeholder until run knows the context: Check needs a reference
		// with exactly one of a placement and vectors.
		c.cfg.Reference = &conformance.Ref{Open: func() (catalog.Builder, error) { return nil, errors.New("not opened") }}
	}
	return c.cfg.Check()
}

// runConformance gives each -algo placement a verdict per property
// (package conformance) and writes the reports, as tables or as rows of
// schema.Conformance. It fails (exit status 1) when a check failed, after
// writing everything.
func runConformance(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c conformanceFlags
	fs := cli.NewFlagSet("conformance", "-algo NAME|exec:COMMAND [-reference NAME|exec:COMMAND | -vectors FILE] [flags]", stderr)
	c.register(fs)
	if err := c.parse(fs, args); err != nil {
		return cli.Usage(err)
	}
	if c.vectors != "" { // an input file that is missing: an error of the run
		if _, err := os.Stat(c.vectors); err != nil {
			return err
		}
	}
	if c.ref != "" {
		c.cfg.Reference = &conformance.Ref{Name: c.refName(), Open: c.opener(ctx, c.ref, c.refCfg)}
	}
	var reps []*conformance.Report
	for _, a := range c.algos {
		rep, err := conformance.Run(ctx, c.opener(ctx, a, c.ccfg), c.cfg)
		if err != nil {
			return fmt.Errorf("%s: %w", a, err)
		}
		reps = append(reps, rep)
	}
	cc := c.ccfg
	run := schema.Config{Hash: algorithms.MustHash(cc.Hash).Name(), VNodes: cc.VNodes, Eps: cc.Eps, Partitions: cc.Partitions,
		TableSize: cc.TableSize, Probes: cc.Probes, Capacity: cc.Capacity, GoVersion: runtime.Version(), Commit: c.commit}
	var rows []schema.Conformance
	for _, rep := range reps {
		rows = append(rows, rep.Rows(run)...)
	}
	err := cli.WriteEach(stdout, c.out.Out, c.out.Formats, func(format string, w io.Writer) error {
		if format != schema.FormatTable {
			return schema.Write(w, format, rows, nil)
		}
		for i, rep := range reps {
			if i > 0 {
				fmt.Fprintln(w)
			}
			if err := rep.WriteText(w); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return failures(reps)
}

// refName names the reference in reports: a catalog name with the key
// hash it reads, or the command of a program.
func (c *conformanceFlags) refName() string {
	if _, isExec := external.Parse(c.ref); isExec || !catalog.UsesHash(c.ref) {
		return c.ref
	}
	return c.ref + " (" + algorithms.MustHash(c.refCfg.Hash).Name() + ")"
}

// opener opens name with cfg and the program settings of -exec-timeout
// and -exec-batch under ctx: one instance per call (a new process for an
// exec: placement).
func (c *conformanceFlags) opener(ctx context.Context, name string, cfg catalog.Config) conformance.Opener {
	return func() (catalog.Builder, error) { return catalog.Open(ctx, name, cfg, c.p.Exec) }
}

// failures returns an error listing the failed checks of reps, or nil.
func failures(reps []*conformance.Report) error {
	var failed []string
	checks := 0
	for _, rep := range reps {
		checks += len(rep.Results)
		for _, res := range rep.Failed() {
			failed = append(failed, rep.Placement+" "+res.Property+" ("+res.Check+")")
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return fmt.Errorf("%d of %d checks failed: %s", len(failed), checks, strings.Join(slices.Compact(failed), ", "))
}
