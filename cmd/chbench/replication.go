package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/schema"
)

// runReplication measures replica-set movement, replica load and distinct
// replica sets at replication factor R for each algorithm.
func runReplication(args []string, stdout, stderr io.Writer) (err error) {
	usage := true // errors before the work starts are usage errors (exit status 2)
	defer func() {
		if usage {
			err = badUsage(err)
		}
	}()
	var a analysisFlags
	fs := newFlagSet("replication", "-algo A[,B...] -replicas R[,R...] -from N[,N...] [-to M | -op OP[,OP...] | fleet flags] [flags]", stderr)
	a.register(fs)
	replicas := fs.String("replicas", "3", fmt.Sprintf("replication factor(s) R, 1..%d and at most the nodes before the change (a larger R is refused, not capped): distinct nodes per key; a comma-separated list sweeps", analysis.MaxReplicationFactor))
	from := fs.String("from", "", "node count(s) before the change: N, a comma-separated list, or grid")
	to := fs.Int("to", 0, "node count after the change (one -from only)")
	ops := fs.String("op", "", "scenario(s) instead of -to: "+strings.Join(schema.Ops(), ", ")+" (default add); multi-step scenarios compare the first and last placement")
	var ff fleetFlags
	ff.register(fs)
	set, err := parse(fs, args)
	if err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := a.tableCSVOrJSON("replication"); err != nil {
		return err
	}
	rs, err := parseInts("replicas", *replicas, 1)
	if err != nil {
		return err
	}
	for _, r := range rs {
		if r > analysis.MaxReplicationFactor {
			return fmt.Errorf("replicas %d: the replication factor must be 1 to %d", r, analysis.MaxReplicationFactor)
		}
	}
	o, sw, err := a.options()
	if err != nil {
		return err
	}
	// Each entry is the scenarios of one result: one for every key set,
	// or, for an op with random choices in per-set mode, one per set.
	var scs [][]analysis.Scenario
	switch {
	case ff.used(set):
		if set["to"] {
			return ff.conflict("to", set)
		}
		if *ops != "" {
			return ff.conflict("op", set)
		}
		fleets, err := ff.scenarios(*from, set, o.Seed)
		if err != nil {
			return err
		}
		for _, sc := range fleets {
			scs = append(scs, []analysis.Scenario{sc})
		}
	case *from == "":
		return fmt.Errorf("-from is required (or -node-ids, -weights, -members)")
	case set["to"]:
		if *ops != "" {
			return fmt.Errorf("-to %d and -op %q: give one or the other", *to, *ops)
		}
		ns, err := parseNodeList("from", *from)
		if err != nil {
			return err
		}
		if len(ns) != 1 {
			return fmt.Errorf("-to %d needs a single -from, got %q", *to, *from)
		}
		sc, err := analysis.Resize(ns[0], *to)
		if err != nil {
			return err
		}
		scs = [][]analysis.Scenario{{sc}}
	default:
		ns, err := parseNodeList("from", *from)
		if err != nil {
			return err
		}
		opList := []string{schema.OpAdd}
		if *ops != "" {
			if opList, err = parseOps(*ops); err != nil {
				return err
			}
		}
		for _, n := range ns {
			for _, op := range opList {
				per := 1
				if o.Placement == schema.PlacementPerSet && analysis.PerSetOp(op) {
					per = a.sets
				}
				var one []analysis.Scenario
				for s := range per {
					sc, err := analysis.NewScenarioForSet(op, n, o.Seed, s)
					if err != nil {
						return err
					}
					one = append(one, sc)
				}
				scs = append(scs, one)
			}
		}
	}
	// A key has at most one replica per node: R above the first
	// membership's nodes would be measured at fewer replicas than the
	// replicas column says.
	for _, sc := range scs {
		for _, r := range rs {
			if n := len(sc[0].Initial); r > n {
				return fmt.Errorf("replicas %d: the fleet before the change has only %d nodes%s, and a key has at most one replica per node; give -replicas %d or less, or more nodes", r, n, fromFlag(*from, n), n)
			}
		}
	}
	if ff.used(set) {
		var all []analysis.Scenario
		for _, sc := range scs {
			all = append(all, sc...)
		}
		skipUnweighted(&a, &o, &sw, all, stderr)
	}
	closeKeys, err := a.openKeys(&o) // a missing or empty key file, before any work
	if err != nil {
		usage = false // an input file's content is an error while running, as in move
		return err
	}
	defer closeKeys()
	// Every configuration x scenario x R, before the first key is
	// streamed: a bad one would otherwise fail after the others had run.
	err = sw.EachConfig(o, func(o analysis.Options) error {
		for _, sc := range scs {
			for _, r := range rs {
				if err := analysis.CheckReplication(o, sc, r); err != nil {
					return fmt.Errorf("%s from %d nodes, R=%d: %w", sc[0].Op, len(sc[0].Initial), r, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	usage = false
	bar := startProgress(stderr, &o, sweepKeys(o, sw, len(scs)*len(rs))) // stderr terminals only
	defer bar.stop()
	var results []schema.Replication
	err = sw.EachConfig(o, func(o analysis.Options) error {
		for _, sc := range scs {
			for _, r := range rs {
				res, err := analysis.Replication(o, sc, r)
				if err != nil {
					return fmt.Errorf("%s from %d nodes, R=%d: %w", sc[0].Op, len(sc[0].Initial), r, err)
				}
				results = append(results, res)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	bar.stop()
	switch a.format {
	case "csv":
		return schema.WriteCSV(stdout, results)
	case "json":
		return schema.WriteJSON(stdout, results)
	}
	return analysis.WriteReplicationTable(stdout, results)
}

// fromFlag returns " (-from N)" when the fleet of n nodes came from -from,
// else "" (it came from -node-ids, -weights or -members).
func fromFlag(from string, n int) string {
	if from == "" {
		return ""
	}
	return fmt.Sprintf(" (-from %d)", n)
}
