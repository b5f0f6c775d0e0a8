package cli

import (
	"flag"
	"fmt"
	"math"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/bounded"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/keyset"
)

// Traffic is the flag group of load and bounded: the placement
// vocabulary, the membership, the key set each request stream spans and
// the requests.
type Traffic struct {
	Placement Placement
	keys      int
	requests  int
	Sets      int
	seed      uint64
	zipf      string
	keysKind  string
	KeyFile   string // -keyfile: the streams are its sets (opened by the command)
	inFlight  int
	Format    string
	Formats   []string // parsed -format
	Out       string   // -o prefix
	commit    string
}

func (t *Traffic) Register(fs *flag.FlagSet, zipfDefault string) {
	def := catalog.DefaultConfig()
	fs.IntVar(&t.Placement.VNodes, "vnodes", def.VNodes, "virtual nodes per node of weight 1 (ring and every bounded form)")
	fs.StringVar(&t.Placement.Hash, "hash", def.Hash, "key hash: "+strings.Join(algorithms.HashNames(), ", ")+" (slots always use CRC-16)")
	fs.IntVar(&t.Placement.Partitions, "partitions", def.Partitions, "bounded-partition: number of fixed partitions")
	registerTable(fs, &t.Placement.TableSize, &t.Placement.Probes, &t.Placement.Capacity)
	t.Placement.RegisterMembership(fs)
	fs.IntVar(&t.keys, "keys", 100000, "N, the keys of each stream's key set that the Zipf law spans (rank i = key i)")
	fs.IntVar(&t.requests, "requests", 1000000, "R, requests per stream drawn from the Zipf law")
	fs.IntVar(&t.Sets, "sets", 5, "independent request streams (each its own key set and draws); intervals are over streams")
	fs.Uint64Var(&t.seed, "seed", 1, "seed of the keys, the request draws and the leaving node")
	fs.StringVar(&t.zipf, "zipf", zipfDefault, "Zipf exponent(s) s >= 0 of key popularity, comma-separated (0 = uniform)")
	fs.StringVar(&t.keysKind, "keys-kind", string(keyset.KindRandom), "shape of generated keys: "+kindNames())
	fs.StringVar(&t.KeyFile, "keyfile", "", "read keys from this file, one per line, split into -sets disjoint sets (line i -> set i mod sets): stream s's Zipf law spans set s's keys in file order (replaces -keys and -keys-kind); - is standard input")
	fs.IntVar(&t.inFlight, "inflight", 0, fmt.Sprintf("bounded-request: requests in flight K (FIFO service); 0 = %d per node", bounded.DefaultInFlightPerNode))
	registerOutput(fs, &t.Format, &t.Out)
	fs.StringVar(&t.commit, "commit", "", "source revision recorded in results (default: the binary's VCS revision, if known)")
	registerMem(fs, &t.Placement.Mem)
}

func kindNames() string {
	var out []string
	for _, k := range keyset.KeyKinds() {
		out = append(out, string(k))
	}
	return strings.Join(out, ", ")
}

// Options validates the flags and returns the load options and the
// membership (-nodes, default 100, or -node-ids, with -weights).
func (t *Traffic) Options(set map[string]bool) (analysis.LoadOptions, []algorithms.Node, error) {
	var o analysis.LoadOptions
	if t.Sets < 1 || t.Sets > keyset.MaxSets {
		return o, nil, fmt.Errorf("sets %d: need 1 to %d request streams", t.Sets, keyset.MaxSets)
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
	if t.Formats, err = parseFormats(t.Format, t.Out); err != nil {
		return o, nil, err
	}
	if err := checkOut(t.Out, t.Formats); err != nil {
		return o, nil, err
	}
	kind, err := keyset.ParseKeyKind(t.keysKind)
	if err != nil {
		return o, nil, err
	}
	zipfs, err := Floats("zipf", t.zipf, 0, false)
	if err != nil {
		return o, nil, err
	}
	if !set["nodes"] && !set["node-ids"] && !set["members"] {
		t.Placement.Nodes = 100
		set["nodes"] = true
	}
	nodes, err := t.Placement.Membership(set)
	if err != nil {
		return o, nil, err
	}
	cfg := t.Placement.Config()
	if err := cfg.Validate(); err != nil {
		return o, nil, err
	}
	commit := t.commit
	if err := checkCommit(commit); err != nil {
		return analysis.LoadOptions{}, nil, err
	}
	if commit == "" {
		commit = Revision()
	}
	o = analysis.LoadOptions{
		Options:  analysis.Options{Config: cfg, Seed: t.seed, Commit: commit, Memory: t.Placement.Budget()},
		Requests: t.requests, Zipfs: zipfs, InFlight: t.inFlight,
	}
	if t.KeyFile != "" { // opened by the command, once the flags are all checked
		for _, f := range []string{"keys", "keys-kind"} {
			if set[f] {
				return o, nil, fmt.Errorf("-keyfile %q and -%s: the file's keys are the keys", t.KeyFile, f)
			}
		}
		return o, nodes, nil
	}
	if t.keys > analysis.MaxZipfKeys {
		return o, nil, fmt.Errorf("keys %d: the Zipf law needs 1 to %d keys", t.keys, analysis.MaxZipfKeys)
	}
	g, err := keyset.NewGenerator(t.keys, t.Sets, t.seed)
	if err != nil {
		return o, nil, err
	}
	if o.Keys, err = g.WithKind(kind); err != nil {
		return o, nil, err
	}
	return o, nodes, nil
}
