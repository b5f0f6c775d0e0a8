package cli

import (
	"flag"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/trace"
	"github.com/chbench/chbench/workload"
)

// Workload is the flag group of a generated workload (package workload):
// keys, popularity, requests and rate, value sizes, the operation mix,
// TTLs, clients, key names and the seed. simulate replays it when no
// -trace is given; workload writes it as a trace.
type Workload struct {
	keys     int
	zipf     float64
	requests int64
	Rate     float64 // -rate: requests per second (also the clock of a trace without one)
	values   string
	ops      string
	ttls     string
	clients  int
	numeric  bool
	seed     uint64
}

// workloadFlags are the flags of Workload that describe the generated
// requests (not -rate, which also sets a trace's clock).
var workloadFlags = []string{"keys", "zipf", "requests", "value-size", "ops", "ttl", "clients", "numeric", "seed"}

// Register adds the workload's flags to fs.
func (w *Workload) Register(fs *flag.FlagSet) {
	fs.IntVar(&w.keys, "keys", 100000, fmt.Sprintf("generated workload: N distinct keys, 1..%d; rank 0 is the hottest", analysis.MaxZipfKeys))
	fs.Float64Var(&w.zipf, "zipf", 0.99, "generated workload: Zipf exponent s >= 0 of key popularity (0 = uniform)")
	fs.Int64Var(&w.requests, "requests", 1000000, "generated workload: requests to generate, >= 1")
	fs.Float64Var(&w.Rate, "rate", 10000, "requests per second of the generated workload (request i at i/rate), and the clock of a trace without one; with a trace that has a clock, leave it out to replay the trace's own times")
	fs.StringVar(&w.values, "value-size", "lognormal:230,1,1,65536", "generated workload: each key's value size in bytes, drawn once: fixed:N, uniform:MIN-MAX or lognormal:MEDIAN,SIGMA[,MIN,MAX] (SIGMA: the standard deviation of ln size, in (0, 30]; cache values are heavy-tailed)")
	fs.StringVar(&w.ops, "ops", "get=0.9,set=0.08,delete=0.02", "generated workload: operation mix, op=share,... summing to 1 (ops: "+opNames()+")")
	fs.StringVar(&w.ttls, "ttl", "0=1", "generated workload: TTLs of writes, duration=share,... summing to 1 (0 = none), e.g. 0=0.7,30s=0.3")
	fs.IntVar(&w.clients, "clients", 1, "generated workload: clients, each request from one drawn uniformly, 1..1048576")
	fs.BoolVar(&w.numeric, "numeric", false, "generated workload: keys are decimal IDs (as libCacheSim's and Meta's traces) instead of user:<16 hex>")
	fs.Uint64Var(&w.seed, "seed", 1, "seed of the generated workload (and of the run's random choices)")
}

func opNames() string {
	return "get, gets, set, add, replace, cas, append, prepend, delete, incr, decr"
}

// Given returns the workload flags given explicitly, as "-name".
func (w *Workload) Given(set map[string]bool) []string {
	var out []string
	for _, n := range workloadFlags {
		if set[n] {
			out = append(out, "-"+n)
		}
	}
	return out
}

// Seed returns -seed.
func (w *Workload) Seed() uint64 { return w.seed }

// Config returns the workload of the flags, or an error naming the bad
// flag and value.
func (w *Workload) Config() (workload.Config, error) {
	if w.clients < 1 { // the library's 0 means one client; the flag asks for 1..1048576
		return workload.Config{}, fmt.Errorf("-clients %d: need 1 to %d", w.clients, 1<<20)
	}
	c := workload.Config{Keys: w.keys, Zipf: w.zipf, Requests: w.requests, Rate: w.Rate, Clients: w.clients, Numeric: w.numeric, Seed: w.seed}
	var err error
	if c.Values, err = ParseSizes(w.values); err != nil {
		return c, fmt.Errorf("-value-size %w", err)
	}
	for _, f := range splitList(w.ops) {
		name, share, err := shareOf(f)
		if err != nil {
			return c, fmt.Errorf("-ops %q: %w", w.ops, err)
		}
		op, ok := trace.ParseOp(name)
		if !ok {
			return c, fmt.Errorf("-ops %q: unknown operation %q (known: %s)", w.ops, name, opNames())
		}
		c.Ops = append(c.Ops, workload.OpShare{Op: op, Share: share})
	}
	for _, f := range splitList(w.ttls) {
		name, share, err := shareOf(f)
		if err != nil {
			return c, fmt.Errorf("-ttl %q: %w", w.ttls, err)
		}
		d, err := time.ParseDuration(name)
		if name == "0" {
			d, err = 0, nil
		}
		if err != nil || d < 0 {
			return c, fmt.Errorf("-ttl %q: %q is not a duration >= 0 (30s, 5m, 0 for none)", w.ttls, name)
		}
		c.TTLs = append(c.TTLs, workload.TTLShare{TTL: d, Share: share})
	}
	return c, c.Validate()
}

// splitList splits a comma-separated list, trimming spaces.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		out = append(out, strings.TrimSpace(f))
	}
	return out
}

// shareOf splits "name=share" into its name and share in 0..1.
func shareOf(f string) (string, float64, error) {
	name, v, ok := strings.Cut(f, "=")
	if !ok {
		return "", 0, fmt.Errorf("entry %q: want name=share", f)
	}
	x, err := algorithms.ParseDecimal(strings.TrimSpace(v))
	if err != nil || x < 0 || x > 1 {
		return "", 0, fmt.Errorf("entry %q: share %q is not a fraction in 0..1", f, v)
	}
	return strings.TrimSpace(name), x, nil
}

// MaxSigma bounds the sigma of a log-normal value size: ln(2^30), the
// widest spread of ln(size) over the sizes a value may have (0..2^30
// bytes), is about 20.8; a wider one only piles the sizes on MIN and MAX.
const MaxSigma = 30

// sigma parses part, the SIGMA of the value size distribution s: the
// standard deviation of ln(size), a plain number in (0, MaxSigma].
func sigma(s, part string) (float64, error) {
	x, err := algorithms.ParseDecimal(strings.TrimSpace(part))
	if err != nil || !(x > 0) || x > MaxSigma {
		return 0, fmt.Errorf("%q: sigma %q is not a standard deviation of ln(size) in (0, %d]", s, part, MaxSigma)
	}
	return x, nil
}

// ParseSizes parses a value size distribution: fixed:N, uniform:MIN-MAX
// or lognormal:MEDIAN,SIGMA[,MIN,MAX] (bytes; MIN and MAX default to 0
// and 1 MiB), with an error naming the bad part.
func ParseSizes(s string) (workload.Sizes, error) {
	kind, args, ok := strings.Cut(strings.TrimSpace(s), ":")
	var z workload.Sizes
	if !ok {
		return z, fmt.Errorf("%q: want fixed:N, uniform:MIN-MAX or lognormal:MEDIAN,SIGMA[,MIN,MAX]", s)
	}
	num := func(part string) (float64, error) {
		x, err := algorithms.ParseDecimal(strings.TrimSpace(part))
		if err != nil || x < 0 || x > 1<<30 {
			return 0, fmt.Errorf("%q: %q is not a number of bytes in 0..2^30", s, part)
		}
		return x, nil
	}
	whole := func(part string) (int, error) {
		x, err := num(part)
		if err == nil && x != math.Trunc(x) {
			err = fmt.Errorf("%q: %q is not a whole number of bytes", s, part)
		}
		return int(x), err
	}
	var err error
	switch kind {
	case "fixed":
		z.Kind = workload.Fixed
		z.Size, err = whole(args)
	case "uniform":
		lo, hi, ok := strings.Cut(args, "-")
		if !ok {
			return z, fmt.Errorf("%q: want uniform:MIN-MAX", s)
		}
		z.Kind = workload.Uniform
		if z.Min, err = whole(lo); err == nil {
			z.Max, err = whole(hi)
		}
	case "lognormal":
		parts := strings.Split(args, ",")
		if len(parts) != 2 && len(parts) != 4 {
			return z, fmt.Errorf("%q: want lognormal:MEDIAN,SIGMA or lognormal:MEDIAN,SIGMA,MIN,MAX", s)
		}
		z.Kind, z.Max = workload.LogNormal, 1<<20
		if z.Median, err = num(parts[0]); err == nil {
			z.Sigma, err = sigma(s, parts[1])
		}
		if err == nil && len(parts) == 4 {
			if z.Min, err = whole(parts[2]); err == nil {
				z.Max, err = whole(parts[3])
			}
		}
	default:
		return z, fmt.Errorf("%q: unknown distribution %q (fixed, uniform, lognormal)", s, kind)
	}
	return z, err
}
