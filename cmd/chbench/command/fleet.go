package command

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/fleet"
	"github.com/chbench/chbench/schema"
)

// runFleet runs the miss storm (moved fraction and its cost to the
// database) of every planned change of a fleet profile: each change from
// the membership it starts from (today's, or after the change it names),
// on the profile's named members and weights, its key file and its
// traffic, every step of a staged change apart. It writes one storm.csv
// row set (schema.Storm) whose op column is the change's name (NAME-step
// for the steps of a staged one), for the report's "Your fleet" section.
// -shares, -load, -switching and -replication write instead the rows of
// spread -shares, load and switch on today's members, or of replication
// at the profile's R on every change (fleetReplication).
func runFleet(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("fleet", "-profile FILE [-algo A[,B...]] [-sets S] [-seed N] [-commit C] [-keys N]", stderr)
	profile := fs.String("profile", "", "the fleet profile (TOML, docs/fleet-profile.md); required")
	algo := fs.String("algo", "all", "comma-separated algorithms, or all (with the profile's client when it is a dialect); those that take no weights are left out of a weighted fleet's runs, -shares and -load too (said on stderr)")
	sets := fs.Int("sets", 5, "independent key sets; means and 95% intervals are over sets")
	seed := fs.Uint64("seed", 1, "seed of the generated keys")
	commit := fs.String("commit", "", "the commit recorded in the rows")
	keys := fs.Int("keys", 0, "keys per generated key set without a key file in the profile (0 = the profile's traffic keys)")
	load := fs.Bool("load", false, "instead of the storms: the request load on today's members under the profile's Zipf exponent over its keys, each node's requests against its weight (chbench load rows)")
	switching := fs.Bool("switching", false, "instead of the storms: what leaving the profile's client costs, on today's members: the keys each other placement routes differently and the miss storm of the switch (chbench switch rows)")
	replication := fs.Bool("replication", false, "instead of the storms: every planned change at the profile's replication factor R (> 1), the whole change at once: key-replica pairs re-homed and keys that lose every replica (chbench replication rows, op = the change's name)")
	lookupArgs := fs.Bool("lookup-args", false, "instead of measuring: print the bench package's flags that time lookups at the profile's sizes (today's members and the largest planned membership) on its placements: go test -bench '^BenchmarkLookup$' ./bench/ -args $(chbench fleet -profile F -lookup-args)")
	shares := fs.Bool("shares", false, "instead of the storms: each node's share of the keys on today's members against its weight share (chbench spread -shares rows)")
	set, err := cli.Parse(fs, args)
	if err != nil {
		return cli.Usage(err)
	}
	if fs.NArg() != 0 {
		return cli.Usage(cli.Args(fs, 0, ""))
	}
	if *profile == "" {
		return cli.Usage(errors.New("-profile FILE is required"))
	}
	if set["keys"] && *keys < 1 {
		return cli.Usage(fmt.Errorf("-keys %d: want at least 1 key per set", *keys))
	}
	p, err := fleet.Read(*profile)
	if err != nil {
		return cli.Usage(fmt.Errorf("-profile: %w", err))
	}
	if boolCount(*load, *shares, *switching, *replication, *lookupArgs) > 1 {
		return cli.Usage(errors.New("-load, -lookup-args, -replication, -shares and -switching: give one"))
	}
	if *replication && p.Replicas < 2 {
		return cli.Usage(fmt.Errorf("-replication: the profile %s has replicas = %d: at R = 1 a key's one copy moves as the storms' moved fraction says; give replicas = 2 or more", p.Path, p.Replicas))
	}
	if *switching && p.Client == "" {
		return cli.Usage(fmt.Errorf("-switching: the profile %s names no client", p.Path))
	}
	if len(p.Changes) == 0 && (*replication || !*shares && !*load && !*switching && !*lookupArgs) {
		return cli.Usage(fmt.Errorf("-profile %s: no [[change]]: nothing to measure", p.Path))
	}
	if *algo == "all" && p.Client != "" && catalog.IsDialect(p.Client) {
		// The client itself, bit for bit, beside every algorithm that can
		// place the fleet.
		var keep, out []string
		for _, name := range catalog.Names() {
			if in, err := catalog.Describe(name); err == nil && (in.Weighted || !p.Weighted()) {
				keep = append(keep, name)
			} else {
				out = append(out, name)
			}
		}
		if len(out) > 0 {
			fmt.Fprintf(stderr, "chbench: skipping %s: no weights other than 1\n", strings.Join(out, ", "))
		}
		*algo = strings.Join(append(keep, p.Client), ",")
	}
	switch {
	case *lookupArgs:
		err = cli.NoExec("fleet -lookup-args", "algo", *algo, "the lookup benchmarks (go test) build every placement in process")
	case *switching:
		err = cli.NoExec("fleet -switching", "algo", *algo, "it builds both placements of each switch in process, on the fleet's layout (chbench switch)")
	}
	if err != nil {
		return cli.Usage(err)
	}
	if *lookupArgs {
		names, err := lookupPlacements(p, *algo)
		if err != nil {
			return cli.Usage(err)
		}
		_, err = fmt.Fprintf(stdout, "-fleet-nodes=%s -fleet-algos=%s\n", strings.Join(lookupSizes(p), ","), strings.Join(names, ","))
		return err
	}
	tmp, err := os.MkdirTemp("", "chbench-fleet-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	keyArgs := []string{"-sets", strconv.Itoa(*sets), "-seed", strconv.FormatUint(*seed, 10)}
	if *commit != "" {
		keyArgs = append(keyArgs, "-commit", *commit)
	}
	// traceKeys are the flags of a trace's distinct keys for the commands
	// whose -trace-keys defaults otherwise (storm's to every request).
	var traceKeys []string
	switch {
	case p.Traffic.Trace != "":
		keyArgs = append(keyArgs, "-trace", p.Traffic.Trace)
		if p.Traffic.TraceFormat != "" {
			keyArgs = append(keyArgs, "-trace-format", p.Traffic.TraceFormat)
		}
		traceKeys = []string{"-trace-keys", "distinct"}
		if p.Traffic.WorkingSet == 0 && (*switching || !*shares && !*load && !*replication) {
			n, err := traceDistinct(p.Traffic, *sets, stderr)
			if err != nil {
				return err
			}
			p.Traffic.WorkingSet = n
			fmt.Fprintf(stderr, "chbench: working set %d keys: the trace's distinct keys\n", n)
		}
	case p.Traffic.KeyFile != "":
		keyArgs = append(keyArgs, "-keyfile", p.Traffic.KeyFile)
	default:
		n := p.Traffic.Keys
		if *keys > 0 {
			n = *keys
		}
		keyArgs = append(keyArgs, "-keys", strconv.Itoa(n))
	}
	if *switching {
		members := filepath.Join(tmp, "members.txt")
		if err := writeMembership(members, p.Nodes); err != nil {
			return err
		}
		var to []string
		for _, a := range strings.Split(*algo, ",") {
			if a != p.Client {
				to = append(to, a)
			}
		}
		a := append([]string{"-from", p.Client, "-to", strings.Join(to, ","), "-members", members, "-format", "csv",
			"-reads", num(p.Traffic.Reads), "-hit", num(p.Traffic.HitRatio), "-working-set", strconv.Itoa(p.Traffic.KeyCount()), "-zipf", num(p.Traffic.Zipf)}, keyArgs...)
		var errs bytes.Buffer
		err = runSwitch(a, stdout, &errs)
		io.Copy(stderr, &errs)
		return err
	}
	if *shares || *load {
		members := filepath.Join(tmp, "members.txt")
		if err := writeMembership(members, p.Nodes); err != nil {
			return err
		}
		a := append([]string{"-algo", *algo, "-members", members, "-format", "csv"}, keyArgs...)
		var errs bytes.Buffer
		if *shares {
			err = runSpread(ctx, append(append(append(a, traceKeys...), "-shares", "-draws", "0"), placementArgs(*algo, p.Placement)...), stdout, &errs)
		} else if p.Traffic.Trace != "" { // the trace's own requests, replayed
			err = runLoad(ctx, a, stdout, &errs)
		} else {
			err = runLoad(ctx, append(a, "-zipf", num(p.Traffic.Zipf), "-requests", strconv.Itoa(p.Traffic.Requests)), stdout, &errs)
		}
		io.Copy(stderr, &errs)
		return err
	}
	if *replication {
		return fleetReplication(ctx, p, *algo, append(keyArgs, traceKeys...), tmp, stdout, stderr)
	}
	var all []schema.Storm
	for i, c := range p.Changes {
		members := filepath.Join(tmp, fmt.Sprintf("members-%d.txt", i))
		if err := writeMembership(members, p.Before(c)); err != nil {
			return err
		}
		a := append([]string{"-algo", *algo, "-members", members, "-format", "csv",
			"-reads", num(p.Traffic.Reads), "-hit", num(p.Traffic.HitRatio),
			"-working-set", strconv.Itoa(p.Traffic.KeyCount()), "-zipf", num(p.Traffic.Zipf)}, placementArgs(*algo, p.Placement)...)
		a = append(append(append(a, keyArgs...), traceKeys...), changeFlags(c)...)
		var out, errs bytes.Buffer
		if err := runStorm(ctx, a, &out, &errs); err != nil {
			return fmt.Errorf("change %q: %w\n%s", c.Name, err, strings.TrimSpace(errs.String()))
		}
		for l := range strings.Lines(errs.String()) {
			fmt.Fprintf(stderr, "change %s: %s", c.Name, l)
		}
		rows, err := schema.ReadCSV[schema.Storm](&out, "storm of change "+c.Name)
		if err != nil {
			return err
		}
		for j := range rows {
			if strings.HasSuffix(rows[j].Op, "-step") {
				rows[j].Op = c.Name + "-step"
			} else {
				rows[j].Op = c.Name
			}
		}
		all = append(all, rows...)
	}
	return schema.WriteCSV(stdout, all)
}

// fleetReplication writes the replication rows (schema.Replication) of
// every planned change of p at its replication factor: each change from
// the membership it starts from, the whole change at once (a staged
// change compares its first and last placement), op set to the change's
// name. keyArgs are the key flags; tmp holds the membership files.
func fleetReplication(ctx context.Context, p *fleet.Profile, algo string, keyArgs []string, tmp string, stdout, stderr io.Writer) error {
	var all []schema.Replication
	for i, c := range p.Changes {
		members := filepath.Join(tmp, fmt.Sprintf("replication-%d.txt", i))
		if err := writeMembership(members, p.Before(c)); err != nil {
			return err
		}
		whole := c
		whole.Step = 0
		a := append([]string{"-algo", algo, "-members", members, "-format", "csv", "-replicas", strconv.Itoa(p.Replicas)}, placementArgs(algo, p.Placement)...)
		a = append(append(a, keyArgs...), changeFlags(whole)...)
		var out, errs bytes.Buffer
		if err := runReplication(ctx, a, &out, &errs); err != nil {
			return fmt.Errorf("change %q: %w\n%s", c.Name, err, strings.TrimSpace(errs.String()))
		}
		for l := range strings.Lines(errs.String()) {
			fmt.Fprintf(stderr, "change %s: %s", c.Name, l)
		}
		rows, err := schema.ReadCSV[schema.Replication](&out, "replication of change "+c.Name)
		if err != nil {
			return err
		}
		for j := range rows {
			rows[j].Op = c.Name
		}
		all = append(all, rows...)
	}
	return schema.WriteCSV(stdout, all)
}

// traceDistinct returns the distinct keys of the trace of t, dealt into
// sets key sets (trace.KeySource, read once; what it read is said on
// stderr).
func traceDistinct(t fleet.Traffic, sets int, stderr io.Writer) (int, error) {
	tr := cli.Trace{Path: t.Trace, Format: t.TraceFormat}
	in, err := tr.Input(stderr, false)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	ks, _, err := in.KeySource(sets, true)
	if err != nil {
		return 0, err
	}
	return ks.Keys(), nil
}

// lookupSizes returns the node counts a fleet's lookups are timed at:
// today's members and, when larger, the largest membership any planned
// change leads to.
func lookupSizes(p *fleet.Profile) []string {
	n, m := len(p.Nodes), len(p.Nodes)
	for _, c := range p.Changes {
		m = max(m, len(p.After(c)))
	}
	if m == n {
		return []string{strconv.Itoa(n)}
	}
	return []string{strconv.Itoa(n), strconv.Itoa(m)}
}

// lookupPlacements returns the placements of a fleet's lookups: algo's
// list, or for all every catalog algorithm that can place the fleet (a
// weighted one: those that take weights) and the profile's client. A
// placement the bench package cannot build (a program, exec:) is an
// error naming it.
func lookupPlacements(p *fleet.Profile, algo string) ([]string, error) {
	var names []string
	if algo == "all" {
		for _, name := range catalog.Names() {
			if in, err := catalog.Describe(name); err == nil && (in.Weighted || !p.Weighted()) {
				names = append(names, name)
			}
		}
	} else {
		names = strings.Split(algo, ",")
	}
	if p.Client != "" && !slices.Contains(names, p.Client) && algo == "all" {
		names = append(names, p.Client)
	}
	for _, n := range names {
		if _, err := catalog.Describe(n); err != nil {
			return nil, fmt.Errorf("-lookup-args: %q: the lookup benchmarks build catalog placements only: %w", n, err)
		}
	}
	return names, nil
}

// placementArgs returns the -placement flag of the profile's placement
// mode for a run of the algorithms of algo, or none when none of them has
// a random layout (the commands refuse a -placement nothing reads; the
// mode changes nothing for those algorithms).
func placementArgs(algo, placement string) []string {
	if algos, err := cli.ParseAlgos(algo); err == nil && !cli.ReadsConfig("placement", algos) {
		return nil
	}
	return []string{"-placement", placement}
}

// changeFlags returns the storm flags of change c: its joins, leaves or
// failures (the same movement), reweights and step.
func changeFlags(c fleet.Change) []string {
	var a []string
	for _, n := range c.Join {
		a = append(a, "-join", n.ID+","+num(n.Weight))
	}
	for _, id := range c.Leave {
		a = append(a, "-leave", id)
	}
	for _, n := range c.Reweight {
		a = append(a, "-reweight", n.ID+"="+num(n.Weight))
	}
	if c.Step > 0 {
		a = append(a, "-step", strconv.Itoa(c.Step))
	}
	return a
}

// writeMembership writes nodes as a membership file (fleet.ReadMembership):
// id,weight a line.
func writeMembership(path string, nodes []algorithms.Node) error {
	var b strings.Builder
	for _, n := range nodes {
		fmt.Fprintf(&b, "%s,%s\n", n.ID, num(n.Weight))
	}
	return os.WriteFile(path, []byte(b.String()), 0o600)
}

func boolCount(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// num formats x in the shortest form that parses back to x.
func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
