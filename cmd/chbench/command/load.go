package command

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/analysis/simulate"
	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/schema"
	"github.com/chbench/chbench/trace"
)

// runLoad measures per-node request load under Zipf popularity (or a
// request log) for every placement.
func runLoad(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	var t cli.Traffic
	fs := cli.NewFlagSet("load", "[-algo A[,B...]] [-nodes N (default 100) | -members FILE] [-zipf s[,s...]] [-keyfile FILE | -requestlog FILE] [flags]", stderr)
	t.Register(fs, "0,0.8,0.99,1.2")
	fs.StringVar(&t.Placement.Algo, "algo", "all", "comma-separated placements, or all ("+strings.Replace(strings.Join(schema.LoadPlacements(), ", "), "bounded,", "bounded-partition (the catalog's bounded),", 1)+")"+cli.AlgoHelp)
	t.Placement.RegisterExec(fs)
	fs.Float64Var(&t.Placement.Eps, "eps", catalog.DefaultConfig().Eps, "every bounded form: load factor c = 1 + eps, eps > 0")
	logPath := fs.String("requestlog", "", "request log: one request per line (the line is the key), line i to stream i mod sets; replaces -keys, -requests, -zipf")
	var tr cli.Trace
	tr.Register(fs, "")
	overhead := fs.Int64("overhead", 0, "with -trace: bytes every object costs beyond its key and value in the load by bytes (a cache's item header), >= 0")
	o, nodes, names, err := func() (analysis.LoadOptions, []algorithms.Node, []string, error) {
		set, err := cli.Parse(fs, args)
		if err != nil {
			return analysis.LoadOptions{}, nil, nil, err
		}
		if fs.NArg() != 0 {
			return analysis.LoadOptions{}, nil, nil, cli.Args(fs, 0, "")
		}
		if err := tr.Check(set, "requestlog", "keys", "requests", "zipf", "keys-kind"); err != nil {
			return analysis.LoadOptions{}, nil, nil, err
		}
		if simulate.CheckItemOverhead(*overhead) != nil || set["overhead"] && !tr.Given() {
			return analysis.LoadOptions{}, nil, nil, fmt.Errorf("overhead %d: give bytes 0 to %d, with -trace", *overhead, int64(simulate.MaxItemOverhead))
		}
		o, nodes, err := t.Options(set)
		if err != nil {
			return o, nil, nil, err
		}
		if err := t.Placement.CheckExec(); err != nil {
			return o, nil, nil, err
		}
		names, err := placementList(t.Placement.Algo)
		if err != nil {
			return o, nodes, names, err
		}
		// What the run consumes: a request log replaces the Zipf draws,
		// -inflight serves the request form, and the configuration flags
		// (-eps, -vnodes, ...) the placements that read them.
		if err := cli.RefuseUnused(set,
			cli.Consumes{Flags: []string{"zipf", "requests", "keys", "keys-kind"}, On: *logPath == "", Unless: "with -requestlog (the log gives the requests and their keys)"},
			cli.Consumes{Flags: []string{"inflight"}, On: slices.Contains(names, schema.VariantRequest), Unless: "without the " + schema.VariantRequest + " placement in -algo"},
		); err != nil {
			return o, nodes, names, err
		}
		if err := cli.RefuseUnusedConfig(set, "", names); err != nil {
			return o, nodes, names, err
		}
		if t.Placement.Algo == "all" { // a weighted membership: the placements that can place it
			names = cli.SkipUnweighted(names, nodes, stderr)
		}
		if set["node-ids"] {
			return o, nodes, names, nil
		}
		nodes, err = cli.AddressMembers(names, nodes, stderr)
		return o, nodes, names, err
	}()
	if err != nil {
		return cli.Usage(err)
	}
	if *logPath != "" && t.KeyFile != "" {
		return cli.Usage(fmt.Errorf("-requestlog %q and -keyfile %q: a request log holds its own keys", *logPath, t.KeyFile))
	}
	names, progs, err := cli.OpenPrograms(ctx, names, t.Placement.Exec) // a program that fails to start: an error of the run
	if err != nil {
		return err
	}
	defer progs.CloseInto(&err)
	o.Opened = progs.Opened
	if *logPath != "" { // read by the run: its errors are not the command line's
		f, err := keyset.OpenHeld(*logPath, t.Sets, o.Memory) // held in memory: a stream is bounded by the budget
		if err != nil {
			return err
		}
		defer f.Close()
		o.RequestLog = f
	}
	if t.KeyFile != "" {
		f, err := keyset.NewFile(t.KeyFile, t.Sets)
		if err != nil {
			return err
		}
		defer f.Close()
		o.Keys = f
	}
	report := func() {}
	if tr.Given() { // read once, as it comes: the streams are held in memory
		in, err := tr.Input(stderr, false)
		if err != nil {
			return err
		}
		defer in.Close()
		o.RequestTrace = &analysis.RequestTrace{Path: in.Path(), Sets: t.Sets, ItemOverhead: *overhead, Open: func() (trace.Reader, error) {
			r, done, err := in.Pass()
			report = done
			return r, err
		}}
	}
	// Every placement and the memory of the run, before the first request.
	if err := analysis.CheckLoad(o, names, nodes); err != nil {
		return cli.Usage(err)
	}
	rs, err := analysis.Load(o, names, nodes)
	report()
	if err != nil {
		return err
	}
	return cli.WriteRows(stdout, t.Out, t.Formats, rs, analysis.WriteLoadTable)
}

// placementList parses load's -algo: "all" (every placement but the
// dialects), or a comma-separated list of placements (bounded-partition
// names the catalog's bounded) and dialects or their groups, then
// programs as exec:COMMAND (cli.SplitExec); the error names the unknown
// or repeated entry.
func placementList(algo string) ([]string, error) {
	head, execs, err := cli.SplitExec(algo)
	if err != nil {
		return nil, err
	}
	if head == "" {
		return execs, cli.NoDuplicates("algo", execs)
	}
	if head == "all" {
		return append(schema.LoadPlacements(), execs...), cli.NoDuplicates("algo", execs)
	}
	if rest, ok := strings.CutPrefix(head, "all,"); ok {
		names, err := allPlacementsExcept(rest)
		if err != nil {
			return nil, err
		}
		names = append(names, execs...)
		return names, cli.NoDuplicates("algo", names)
	}
	var names []string
	for _, a := range strings.Split(head, ",") {
		a = strings.TrimSpace(a)
		if a == schema.VariantPartition {
			a = "bounded" // the catalog name of the partition form
		}
		if a == catalog.DialectGroup || a == catalog.CommonDialectGroup || catalog.IsDialect(a) {
			ds, err := catalog.ParseNames(a)
			if err != nil {
				return nil, err
			}
			names = append(names, ds...)
			continue
		}
		if !slices.Contains(schema.LoadPlacements(), a) {
			return nil, fmt.Errorf("unknown placement %q (known: %s; the dialects: %s; groups: all, %s, %s)", a, strings.Join(schema.LoadPlacements(), ", "),
				strings.Join(catalog.Dialects(), ", "), catalog.DialectGroup, catalog.CommonDialectGroup)
		}
		names = append(names, a)
	}
	names = append(names, execs...)
	return names, cli.NoDuplicates("algo", names)
}

// allPlacementsExcept returns load's placements (schema.LoadPlacements)
// but those excluded names as -NAME, comma-separated: "all,-crush". It
// returns an error naming an entry that is not -NAME, a NAME that is not a
// placement or is left out twice, and a list that leaves none.
func allPlacementsExcept(excluded string) ([]string, error) {
	var drop []string
	for _, e := range strings.Split(excluded, ",") {
		name, ok := strings.CutPrefix(strings.TrimSpace(e), "-")
		switch {
		case !ok:
			return nil, fmt.Errorf("placement list \"all,%s\": entry %q: after all, give only placements to leave out, as -NAME", excluded, e)
		case !slices.Contains(schema.LoadPlacements(), name):
			return nil, fmt.Errorf("placement list \"all,%s\": %q is not a placement (known: %s)", excluded, name, strings.Join(schema.LoadPlacements(), ", "))
		case slices.Contains(drop, name):
			return nil, fmt.Errorf("placement list \"all,%s\": %q is left out twice", excluded, name)
		}
		drop = append(drop, name)
	}
	var out []string
	for _, n := range schema.LoadPlacements() {
		if !slices.Contains(drop, n) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("placement list \"all,%s\" leaves no placement", excluded)
	}
	return out, nil
}
