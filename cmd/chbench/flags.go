package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
)

// placementFlags is the flag vocabulary shared by every command that builds
// placements.
type placementFlags struct {
	algo       string
	nodes      int
	vnodes     int
	hash       string
	eps        float64
	partitions int
	tableSize  int
	probes     int
	capacity   int
	weights    string
	nodeIDs    string
	mem        byteSize
}

func (p *placementFlags) register(fs *flag.FlagSet, algoHelp string) {
	def := catalog.DefaultConfig()
	fs.StringVar(&p.algo, "algo", "", algoHelp+" ("+strings.Join(catalog.Names(), ", ")+")")
	fs.IntVar(&p.vnodes, "vnodes", def.VNodes, "virtual nodes per node of weight 1 (ring, bounded)")
	fs.StringVar(&p.hash, "hash", def.Hash, "key hash: "+strings.Join(algorithms.HashNames(), ", ")+" (slots always use CRC-16)")
	fs.Float64Var(&p.eps, "eps", def.Eps, "bounded: load factor c = 1 + eps, eps > 0")
	fs.IntVar(&p.partitions, "partitions", def.Partitions, "bounded: number of fixed partitions")
	registerTableFlags(fs, &p.tableSize, &p.probes, &p.capacity)
	registerMem(fs, &p.mem)
}

// registerTableFlags registers -table-size, -probes and -capacity with the
// catalog defaults.
func registerTableFlags(fs *flag.FlagSet, tableSize, probes, capacity *int) {
	def := catalog.DefaultConfig()
	fs.IntVar(tableSize, "table-size", def.TableSize, "maglev: lookup table size M, a prime (grown to keep M >= 100 x nodes)")
	fs.IntVar(probes, "probes", def.Probes, "multiprobe: probes per key")
	fs.IntVar(capacity, "capacity", def.Capacity, "anchor, dx: fixed number of buckets, >= nodes (0 = twice the initial nodes, at least 16)")
}

func (p *placementFlags) registerMembership(fs *flag.FlagSet) {
	fs.IntVar(&p.nodes, "nodes", 0, "number of nodes, named node-0 ... node-{n-1} (or the count of -node-ids)")
	fs.StringVar(&p.weights, "weights", "", "comma-separated node weights > 0, one per node (default all 1)")
	fs.StringVar(&p.nodeIDs, "node-ids", "", "comma-separated unique node IDs (default node-0 ... node-{n-1})")
}

func (p *placementFlags) config() catalog.Config {
	applyMem(p.mem)
	return catalog.Config{Hash: p.hash, VNodes: p.vnodes, Eps: p.eps, Partitions: p.partitions,
		TableSize: p.tableSize, Probes: p.probes, Capacity: p.capacity, MemoryBudget: int64(p.mem)}
}

// membership builds the node list from -nodes, -node-ids and -weights.
func (p *placementFlags) membership(set map[string]bool) ([]algorithms.Node, error) {
	var nodes []algorithms.Node
	if p.nodeIDs != "" {
		ids := strings.Split(p.nodeIDs, ",")
		if set["nodes"] && p.nodes != len(ids) {
			return nil, fmt.Errorf("-nodes %d disagrees with the %d IDs of -node-ids", p.nodes, len(ids))
		}
		for _, id := range ids {
			nodes = append(nodes, algorithms.Node{ID: strings.TrimSpace(id), Weight: 1})
		}
	} else {
		if !set["nodes"] {
			return nil, fmt.Errorf("-nodes is required (or -node-ids)")
		}
		var err error
		if nodes, err = algorithms.DefaultNodes(p.nodes); err != nil {
			return nil, err
		}
	}
	if p.weights != "" {
		ws, err := algorithms.ParseWeights(p.weights)
		if err != nil {
			return nil, err
		}
		if len(ws) != len(nodes) {
			return nil, fmt.Errorf("-weights has %d entries for %d nodes", len(ws), len(nodes))
		}
		for i := range nodes {
			nodes[i].Weight = ws[i]
		}
	}
	return nodes, algorithms.ValidateNodes(nodes)
}

// newFlagSet returns a flag set that reports errors instead of exiting and
// prints usage (with units and defaults) to stderr.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: chbench %s %s\n\nflags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args and returns the set of flags given explicitly.
//
// An explicit empty (or blank) value is an error for every flag: -hash ""
// must not silently mean the default hash, -weights "" all 1, or -op ""
// add. Leaving a flag out is how to ask for its default.
//
// Integer and float flags take plain decimal, as the comma-separated
// lists do (parseInts, parseFloats): the flag package reads integers with
// strconv base 0, so that -nodes 0x10 meant 16, -nodes 010 meant 8 and
// -nodes 1_000 meant 1000, and floats with strconv.ParseFloat, which
// takes Go literals too (-hit 1_0 meant 10, -hit 0x1p-1 meant 0.5).
// decimalNumbers rewrites or refuses those values first.
func parse(fs *flag.FlagSet, args []string) (map[string]bool, error) {
	args, err := decimalNumbers(fs, args)
	if err != nil {
		return nil, err
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if name, v, ok := emptyValue(fs, args); ok {
		return nil, fmt.Errorf("-%s %q: an explicit empty value is not allowed; leave the flag out for its default", name, v)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set, nil
}

// decimalNumbers returns a copy of args in which the value of every
// integer flag of fs (int, int64, uint or uint64: fs.Int, fs.Uint64, ...)
// is rewritten as the decimal number it reads as with strconv.ParseInt or
// ParseUint base 10 after trimming spaces, the syntax of parseInts, so
// that fs.Parse (base 0) reads the same number, and the value of every
// float64 flag as the number parseDecimal reads. A value that is not such
// a number (0x10, 1_000, 1e3 or "" for an integer; 1_0, 0x1p-1, Inf or
// NaN for a float) is an error naming the flag and the value as typed.
// It reads the arguments as flag.Parse does and stops where flag.Parse
// would stop or fail (a non-flag, "--", an unknown flag or -h, a missing
// value), leaving the rest to it.
func decimalNumbers(fs *flag.FlagSet, args []string) ([]string, error) {
	out := slices.Clone(args)
	for i := 0; i < len(out); i++ {
		a := out[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			break
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		value, inline := "", false
		if k := strings.IndexByte(name, '='); k >= 0 {
			name, value, inline = name[:k], name[k+1:], true
		}
		f := fs.Lookup(name)
		if f == nil {
			break
		}
		if b, isBool := f.Value.(interface{ IsBoolFlag() bool }); isBool && b.IsBoolFlag() {
			continue
		}
		if !inline {
			if i+1 == len(out) {
				break
			}
			i++
			value = out[i]
		}
		g, ok := f.Value.(flag.Getter)
		if !ok {
			continue
		}
		var canon string
		t := strings.TrimSpace(value)
		switch g.Get().(type) {
		case int, int64:
			v, err := strconv.ParseInt(t, 10, 64)
			if err != nil {
				return nil, decimalError(name, value, err, "")
			}
			if _, isInt := g.Get().(int); isInt && strconv.IntSize == 32 && int64(int32(v)) != v {
				return nil, decimalError(name, value, strconv.ErrRange, "")
			}
			canon = strconv.FormatInt(v, 10)
		case uint, uint64:
			v, err := strconv.ParseUint(t, 10, 64)
			if err != nil {
				return nil, decimalError(name, value, err, " >= 0")
			}
			if _, isUint := g.Get().(uint); isUint && strconv.IntSize == 32 && uint64(uint32(v)) != v {
				return nil, decimalError(name, value, strconv.ErrRange, "")
			}
			canon = strconv.FormatUint(v, 10)
		case float64:
			v, err := parseDecimal(value)
			if err != nil {
				return nil, fmt.Errorf("-%s %w", name, err)
			}
			canon = strconv.FormatFloat(v, 'g', -1, 64)
		default:
			continue
		}
		if inline {
			out[i] = "-" + name + "=" + canon
		} else {
			out[i] = canon
		}
	}
	return out, nil
}

// decimalError is decimalNumbers' error for value of integer flag name.
func decimalError(name, value string, err error, atLeast string) error {
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("-%s %q: out of range", name, value)
	}
	return fmt.Errorf("-%s %q: not a decimal integer%s (decimal digits with an optional sign, as in the comma-separated lists: no 0x, 0o, 0b or _)", name, value, atLeast)
}

// parseDecimal is algorithms.ParseDecimal: the syntax of every float flag
// and list.
func parseDecimal(s string) (float64, error) { return algorithms.ParseDecimal(s) }

// emptyValue returns the first flag of args (already parsed by fs) given an
// empty or blank value, as -name "" or -name=. It reads the arguments
// themselves, as flag.Parse does (up to the first non-flag or "--"), since
// a flag's Value cannot tell an empty value from an unset one (fs.Func).
func emptyValue(fs *flag.FlagSet, args []string) (name, value string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			return "", "", false
		}
		n := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if k := strings.IndexByte(n, '='); k >= 0 {
			if strings.TrimSpace(n[k+1:]) == "" {
				return n[:k], n[k+1:], true
			}
			continue
		}
		f := fs.Lookup(n)
		if f == nil {
			continue
		}
		if b, isBool := f.Value.(interface{ IsBoolFlag() bool }); isBool && b.IsBoolFlag() {
			continue
		}
		if i+1 < len(args) {
			if strings.TrimSpace(args[i+1]) == "" {
				return n, args[i+1], true
			}
			i++
		}
	}
	return "", "", false
}

// byteSize is a flag.Value holding a byte count: a number with an optional
// binary unit (B, KiB, MiB, GiB, TiB; "2GiB", "1.5 GiB", "500000000").
type byteSize int64

func (b *byteSize) String() string { return catalog.HumanBytes(int64(*b)) }

// Set parses s; the error names s and what was wrong with it.
func (b *byteSize) Set(s string) error {
	t := strings.TrimSpace(s)
	mult := 1.0
	for _, u := range []struct {
		suffix string
		mult   float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	x, err := parseDecimal(t)
	if err != nil {
		return fmt.Errorf("%q is not a size: give bytes in decimal, optionally with a unit B, KiB, MiB, GiB or TiB (e.g. 4GiB)", s)
	}
	v := x * mult
	if v < 1<<20 || v > 1<<50 {
		return fmt.Errorf("%q: give 1 MiB to 1024 TiB", s)
	}
	*b = byteSize(v)
	return nil
}

// registerMem adds -mem, the memory budget, to fs.
func registerMem(fs *flag.FlagSet, b *byteSize) {
	*b = byteSize(catalog.DefaultMemoryBudget)
	fs.Var(b, "mem", "memory budget: placements, counters and buffers larger than this are refused before they are allocated (e.g. 8GiB)")
}

// limitHeap is set by main: only the chbench process, not a test running
// commands in-process, hands the budget to the Go runtime.
var limitHeap bool

// applyMem makes the Go runtime collect garbage harder as the heap nears
// the budget (debug.SetMemoryLimit, a soft limit, plus 64 MiB for the
// runtime itself), so that garbage not yet collected does not push the
// process past it.
func applyMem(b byteSize) {
	if limitHeap {
		debug.SetMemoryLimit(int64(b) + 64<<20)
	}
}
