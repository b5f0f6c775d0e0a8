package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/bounded"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/schema"
)

// trafficFlags are the flags of load and bounded: the placement
// vocabulary, the membership, the key set each request stream spans and
// the requests.
type trafficFlags struct {
	pf       placementFlags
	keys     int
	requests int
	sets     int
	seed     uint64
	zipf     string
	keysKind string
	inFlight int
	format   string
	formats  []string // parsed -format
	out      string   // -o prefix
	commit   string
}

func (t *trafficFlags) register(fs *flag.FlagSet, zipfDefault string) {
	def := catalog.DefaultConfig()
	fs.IntVar(&t.pf.vnodes, "vnodes", def.VNodes, "virtual nodes per node of weight 1 (ring and every bounded form)")
	fs.StringVar(&t.pf.hash, "hash", def.Hash, "key hash: "+strings.Join(algorithms.HashNames(), ", ")+" (slots always use CRC-16)")
	fs.IntVar(&t.pf.partitions, "partitions", def.Partitions, "bounded-partition: number of fixed partitions")
	registerTableFlags(fs, &t.pf.tableSize, &t.pf.probes, &t.pf.capacity)
	t.pf.registerMembership(fs)
	fs.IntVar(&t.keys, "keys", 100000, "N, the keys of each stream's key set that the Zipf law spans (rank i = key i)")
	fs.IntVar(&t.requests, "requests", 1000000, "R, requests per stream drawn from the Zipf law")
	fs.IntVar(&t.sets, "sets", 5, "independent request streams (each its own key set and draws); intervals are over streams")
	fs.Uint64Var(&t.seed, "seed", 1, "seed of the keys, the request draws and the leaving node")
	fs.StringVar(&t.zipf, "zipf", zipfDefault, "Zipf exponent(s) s >= 0 of key popularity, comma-separated (0 = uniform)")
	fs.StringVar(&t.keysKind, "keys-kind", string(keyset.KindRandom), "shape of generated keys: "+kindNames())
	fs.IntVar(&t.inFlight, "inflight", 0, fmt.Sprintf("bounded-request: requests in flight K (FIFO service); 0 = %d per node", bounded.DefaultInFlightPerNode))
	registerOutput(fs, &t.format, &t.out)
	fs.StringVar(&t.commit, "commit", "", "source revision recorded in results (default: the binary's VCS revision, if known)")
}

func kindNames() string {
	var out []string
	for _, k := range keyset.KeyKinds() {
		out = append(out, string(k))
	}
	return strings.Join(out, ", ")
}

// parseFloats parses a comma-separated list of distinct numbers >= lo (>
// lo when strict), each in parseDecimal's syntax; the error names the
// flag and the bad entry.
func parseFloats(flagName, s string, lo float64, strict bool) ([]float64, error) {
	var out []float64
	for _, p := range strings.Split(s, ",") {
		v, err := parseDecimal(p)
		if err != nil {
			return nil, fmt.Errorf("%s %w", flagName, err)
		}
		if v < lo || (strict && v == lo) {
			rel := ">="
			if strict {
				rel = ">"
			}
			return nil, fmt.Errorf("%s %v: must be %s %v", flagName, v, rel, lo)
		}
		if slices.Contains(out, v) {
			return nil, fmt.Errorf("%s %v: listed twice (each configuration would run and be written twice)", flagName, v)
		}
		out = append(out, v)
	}
	return out, nil
}

// options validates the flags and returns the load options and the
// membership (-nodes, default 100, or -node-ids, with -weights).
func (t *trafficFlags) options(set map[string]bool) (analysis.LoadOptions, []algorithms.Node, error) {
	var o analysis.LoadOptions
	if t.sets < 1 || t.sets > keyset.MaxSets {
		return o, nil, fmt.Errorf("sets %d: need 1 to %d request streams", t.sets, keyset.MaxSets)
	}
	if t.requests < 1 || t.requests > math.MaxInt32 {
		return o, nil, fmt.Errorf("requests %d: need 1 to %d requests per stream", t.requests, math.MaxInt32)
	}
	if t.keys < 1 {
		return o, nil, fmt.Errorf("keys %d: need at least 1 key per stream", t.keys)
	}
	if t.inFlight < 0 {
		return o, nil, fmt.Errorf("inflight %d: give K >= 1, or 0 for %d per node", t.inFlight, bounded.DefaultInFlightPerNode)
	}
	var err error
	if t.formats, err = parseFormats(t.format, t.out); err != nil {
		return o, nil, err
	}
	if err := checkOutPrefix(t.out, t.formats); err != nil {
		return o, nil, err
	}
	kind, err := keyset.ParseKeyKind(t.keysKind)
	if err != nil {
		return o, nil, err
	}
	zipfs, err := parseFloats("zipf", t.zipf, 0, false)
	if err != nil {
		return o, nil, err
	}
	if !set["nodes"] && !set["node-ids"] {
		t.pf.nodes = 100
		set["nodes"] = true
	}
	nodes, err := t.pf.membership(set)
	if err != nil {
		return o, nil, err
	}
	cfg := t.pf.config()
	if err := cfg.Validate(); err != nil {
		return o, nil, err
	}
	commit := t.commit
	if err := checkCommit(commit); err != nil {
		return analysis.LoadOptions{}, nil, err
	}
	if commit == "" {
		commit = vcsRevision()
	}
	if t.keys > analysis.MaxZipfKeys {
		return o, nil, fmt.Errorf("keys %d: the Zipf law needs 1 to %d keys", t.keys, analysis.MaxZipfKeys)
	}
	g, err := keyset.NewGenerator(t.keys, t.sets, t.seed)
	if err != nil {
		return o, nil, err
	}
	if g, err = g.WithKind(kind); err != nil {
		return o, nil, err
	}
	o = analysis.LoadOptions{
		Options:  analysis.Options{Config: cfg, Keys: g, Seed: t.seed, Commit: commit},
		Requests: t.requests, Zipfs: zipfs, InFlight: t.inFlight,
	}
	return o, nodes, nil
}

// runLoad measures per-node request load under Zipf popularity (or a
// request log) for every placement.
func runLoad(args []string, stdout, stderr io.Writer) error {
	var t trafficFlags
	fs := newFlagSet("load", "[-algo A[,B...]] [-nodes N (default 100)] [-zipf s[,s...]] [-requestlog FILE] [flags]", stderr)
	t.register(fs, "0,0.8,0.99,1.2")
	fs.StringVar(&t.pf.algo, "algo", "all", "comma-separated placements, or all ("+strings.Replace(strings.Join(schema.LoadPlacements(), ", "), "bounded,", "bounded-partition (the catalog's bounded),", 1)+")")
	fs.Float64Var(&t.pf.eps, "eps", catalog.DefaultConfig().Eps, "every bounded form: load factor c = 1 + eps, eps > 0")
	logPath := fs.String("requestlog", "", "request log: one request per line (the line is the key), line i to stream i mod sets; replaces -keys, -requests, -zipf")
	o, nodes, names, err := func() (analysis.LoadOptions, []algorithms.Node, []string, error) {
		set, err := parse(fs, args)
		if err != nil {
			return analysis.LoadOptions{}, nil, nil, err
		}
		if fs.NArg() != 0 {
			return analysis.LoadOptions{}, nil, nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
		}
		o, nodes, err := t.options(set)
		if err != nil {
			return o, nil, nil, err
		}
		names, err := placementList(t.pf.algo)
		return o, nodes, names, err
	}()
	if err != nil {
		return badUsage(err)
	}
	if *logPath != "" { // read by the run: its errors are not the command line's
		f, err := keyset.NewFile(*logPath, t.sets)
		if err != nil {
			return err
		}
		defer f.Close()
		o.RequestLog = f
	}
	rs, err := analysis.Load(o, names, nodes)
	if err != nil {
		return err
	}
	return writeOutputs(stdout, t.out, t.formats, func(format string, w io.Writer) error {
		switch format {
		case "csv":
			return schema.WriteCSV(w, rs)
		case "json":
			return schema.WriteJSON(w, rs)
		case "bench":
			return schema.WriteBench(w, rs)
		}
		return analysis.WriteLoadTable(w, rs)
	})
}

// placementList parses load's -algo: "all" (every placement), or a
// comma-separated list of placements (bounded-partition names the
// catalog's bounded); the error names the unknown or repeated entry.
func placementList(algo string) ([]string, error) {
	if algo == "all" {
		return schema.LoadPlacements(), nil
	}
	var names []string
	for _, a := range strings.Split(algo, ",") {
		a = strings.TrimSpace(a)
		if a == schema.VariantPartition {
			a = "bounded" // the catalog name of the partition form
		}
		if !slices.Contains(schema.LoadPlacements(), a) {
			return nil, fmt.Errorf("unknown placement %q (known: %s)", a, strings.Join(schema.LoadPlacements(), ", "))
		}
		names = append(names, a)
	}
	return names, noDuplicates("algo", names)
}

// runBounded measures the three forms of bounded loads (and the plain
// ring) against eps.
func runBounded(args []string, stdout, stderr io.Writer) error {
	var t trafficFlags
	fs := newFlagSet("bounded", "[-nodes N (default 100)] [-eps e[,e...]] [-zipf s[,s...]] [flags]", stderr)
	t.register(fs, "0")
	epsL := fs.String("eps", "0.05,0.1,0.25,0.5,1", "load factor(s) c = 1 + eps, eps > 0, comma-separated")
	o, nodes, eps, err := func() (analysis.LoadOptions, []algorithms.Node, []float64, error) {
		set, err := parse(fs, args)
		if err != nil {
			return analysis.LoadOptions{}, nil, nil, err
		}
		if fs.NArg() != 0 {
			return analysis.LoadOptions{}, nil, nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
		}
		eps, err := parseFloats("eps", *epsL, 0, true)
		if err != nil {
			return analysis.LoadOptions{}, nil, nil, err
		}
		for _, e := range eps {
			c := catalog.DefaultConfig()
			c.Eps = e
			if err := c.Validate(); err != nil {
				return analysis.LoadOptions{}, nil, nil, err
			}
		}
		t.pf.eps = eps[0]
		o, nodes, err := t.options(set)
		return o, nodes, eps, err
	}()
	if err != nil {
		return badUsage(err)
	}
	rs, err := analysis.SweepBoundedLoads(o, eps, nodes)
	if err != nil {
		return err
	}
	return writeOutputs(stdout, t.out, t.formats, func(format string, w io.Writer) error {
		switch format {
		case "csv":
			return schema.WriteCSV(w, rs)
		case "json":
			return schema.WriteJSON(w, rs)
		case "bench":
			return schema.WriteBench(w, rs)
		}
		return analysis.WriteBoundedTable(w, rs)
	})
}
