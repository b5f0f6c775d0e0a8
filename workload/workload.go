// Package workload generates synthetic cache traffic from a seed: Zipf
// popularity over N keys, a value size per key from a distribution, a mix
// of operations, TTLs on writes, clients and a clock. A [Workload] is a
// trace.Reader, so a simulation replays it as it replays a trace, and
// trace.Copy writes it in any trace format (the committed samples in
// trace/testdata come from here; users can make input for other tools).
//
// The same Config gives the same requests, byte for byte, on every
// machine: one math/rand/v2 PCG stream seeded from Config.Seed draws the
// rank, operation and client of each request, and every key's name and
// value size are pure functions of the seed and the key's rank.
package workload

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/trace"
)

// SizeKind names a value size distribution.
type SizeKind uint8

// The value size distributions.
const (
	Fixed     SizeKind = iota // every value Size bytes
	Uniform                   // uniform on Min..Max bytes
	LogNormal                 // exp(N(ln Median, Sigma^2)) rounded, clamped to Min..Max (cache values are heavy-tailed)
)

// Sizes is the distribution each key's value size is drawn from once (a
// key keeps its size for the whole workload).
type Sizes struct {
	Kind     SizeKind
	Size     int     // Fixed: bytes, >= 0
	Min, Max int     // Uniform, LogNormal: bounds in bytes, 0 <= Min <= Max
	Median   float64 // LogNormal: median in bytes, > 0
	Sigma    float64 // LogNormal: standard deviation of ln(size), > 0
}

// OpShare is the fraction (0..1) of requests with one operation.
type OpShare struct {
	Op    trace.Op
	Share float64
}

// TTLShare is the fraction (0..1) of writes that get one TTL (0 = none).
type TTLShare struct {
	TTL   time.Duration
	Share float64
}

// Config is a workload.
type Config struct {
	Keys     int     // N distinct keys, 1..analysis.MaxZipfKeys; rank 0 is the hottest
	Zipf     float64 // s >= 0: key of rank i is requested with probability (i+1)^-s / H(N, s); 0 = uniform
	Requests int64   // requests to generate, >= 1
	// Rate is requests per second, > 0: request i (0-based) arrives at
	// Start + i/Rate.
	Rate  float64
	Start time.Duration
	// Values is the value size distribution; the zero value is Fixed 0 bytes.
	Values Sizes
	// Numeric names keys by decimal IDs (as Meta's and libCacheSim's
	// traces do) instead of "user:" and 16 hexadecimal digits.
	Numeric bool
	// Ops is the operation mix, shares summing to 1; empty means every
	// request is a get.
	Ops []OpShare
	// TTLs are the TTLs of writes, shares summing to 1; empty means none.
	TTLs []TTLShare
	// Clients is the number of clients, 1..2^20, each request from one
	// drawn uniformly (named by decimal numbers from 0); 0 means 1.
	Clients int
	Seed    uint64
}

// Validate returns an error naming the first bad field.
func (c Config) Validate() error {
	if c.Keys < 1 || c.Keys > analysis.MaxZipfKeys {
		return fmt.Errorf("workload keys %d: need 1 to %d", c.Keys, analysis.MaxZipfKeys)
	}
	if math.IsNaN(c.Zipf) || math.IsInf(c.Zipf, 0) || c.Zipf < 0 {
		return fmt.Errorf("workload zipf exponent %v: need a finite number >= 0", c.Zipf)
	}
	if c.Requests < 1 {
		return fmt.Errorf("workload requests %d: need at least 1", c.Requests)
	}
	if math.IsNaN(c.Rate) || math.IsInf(c.Rate, 0) || c.Rate <= 0 {
		return fmt.Errorf("workload rate %v: need a finite number of requests per second > 0", c.Rate)
	}
	if end := float64(c.Start) + float64(c.Requests)/c.Rate*float64(time.Second); c.Start < 0 || end >= math.MaxInt64 {
		return fmt.Errorf("workload start %v and %d requests at %v/s: the clock must stay within 0..%v", c.Start, c.Requests, c.Rate, time.Duration(math.MaxInt64))
	}
	v := c.Values
	switch v.Kind {
	case Fixed:
		if v.Size < 0 || v.Size > 1<<30 {
			return fmt.Errorf("workload value size %d: need 0 to %d bytes", v.Size, 1<<30)
		}
	case Uniform, LogNormal:
		if v.Min < 0 || v.Max < v.Min || v.Max > 1<<30 {
			return fmt.Errorf("workload value sizes %d..%d: need 0 <= min <= max <= %d bytes", v.Min, v.Max, 1<<30)
		}
		if v.Kind == LogNormal && (!(v.Median > 0) || math.IsInf(v.Median, 0) || !(v.Sigma > 0) || math.IsInf(v.Sigma, 0)) {
			return fmt.Errorf("workload log-normal sizes: median %v and sigma %v must be finite and > 0", v.Median, v.Sigma)
		}
	default:
		return fmt.Errorf("workload size distribution %d: unknown", v.Kind)
	}
	if err := shares(len(c.Ops), func(i int) float64 { return c.Ops[i].Share }, "operation"); err != nil {
		return err
	}
	for _, o := range c.Ops {
		if o.Op >= trace.NumOps {
			return fmt.Errorf("workload operation %v: unknown", o.Op)
		}
	}
	if err := shares(len(c.TTLs), func(i int) float64 { return c.TTLs[i].Share }, "TTL"); err != nil {
		return err
	}
	for _, t := range c.TTLs {
		if t.TTL < 0 {
			return fmt.Errorf("workload TTL %v: need >= 0", t.TTL)
		}
	}
	if c.Clients < 0 || c.Clients > 1<<20 {
		return fmt.Errorf("workload clients %d: need 0 to %d", c.Clients, 1<<20)
	}
	return nil
}

// shares checks that n shares are each in 0..1 and sum to 1 within 1e-9.
func shares(n int, at func(int) float64, what string) error {
	if n == 0 {
		return nil
	}
	sum := 0.0
	for i := range n {
		s := at(i)
		if math.IsNaN(s) || s < 0 || s > 1 {
			return fmt.Errorf("workload %s share %v: need a fraction in 0..1", what, s)
		}
		sum += s
	}
	if math.Abs(sum-1) > 1e-9 {
		return fmt.Errorf("workload %s shares sum to %v: need 1", what, sum)
	}
	return nil
}

// Format is the trace.Format a Workload reports.
var Format = trace.Format{Name: "generated", Doc: "a seeded synthetic workload (package workload)",
	HasTime: true, HasSize: true, HasTTL: true, HasClient: true}

// Workload is a trace.Reader of the requests of one Config. It holds the
// Zipf table (12 bytes per key) and one value size per key (4 bytes).
type Workload struct {
	c       Config
	zipf    *analysis.Zipf
	sizes   []int32
	opCDF   []float64
	ttlCDF  []float64
	rng     *rand.Rand
	i       int64
	req     trace.Request
	key     []byte
	client  []byte
	stats   *trace.Stats
	keySalt uint64
}

// New returns the workload of c, or c's validation error.
func New(c Config) (*Workload, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	z, err := analysis.NewZipf(c.Keys, c.Zipf)
	if err != nil {
		return nil, err
	}
	w := &Workload{c: c, zipf: z, stats: trace.NewStats(Format),
		rng:     rand.New(rand.NewPCG(algorithms.Mix64(c.Seed), algorithms.Mix64(c.Seed^0x776f726b6c6f6164))), // "workload"
		keySalt: algorithms.Mix64(c.Seed ^ 0x6b657973)}                                                        // "keys"
	w.sizes = make([]int32, c.Keys)
	var ln distuv.LogNormal
	if c.Values.Kind == LogNormal {
		ln = distuv.LogNormal{Mu: math.Log(c.Values.Median), Sigma: c.Values.Sigma}
	}
	for i := range w.sizes {
		// u in (0, 1) from the key's rank alone.
		u := (float64(algorithms.Mix64(w.keySalt+uint64(i)+1)>>11) + 0.5) / (1 << 53)
		switch c.Values.Kind {
		case Fixed:
			w.sizes[i] = int32(c.Values.Size)
		case Uniform:
			w.sizes[i] = int32(c.Values.Min + int(u*float64(c.Values.Max-c.Values.Min+1)))
		case LogNormal:
			w.sizes[i] = int32(min(max(math.Round(ln.Quantile(u)), float64(c.Values.Min)), float64(c.Values.Max)))
		}
	}
	w.opCDF = cdf(len(c.Ops), func(i int) float64 { return c.Ops[i].Share })
	w.ttlCDF = cdf(len(c.TTLs), func(i int) float64 { return c.TTLs[i].Share })
	return w, nil
}

func cdf(n int, at func(int) float64) []float64 {
	out := make([]float64, n)
	sum := 0.0
	for i := range n {
		sum += at(i)
		out[i] = sum
	}
	if n > 0 {
		out[n-1] = 1
	}
	return out
}

// pick returns the index of the interval of cdf holding u.
func pick(cdf []float64, u float64) int {
	for i, c := range cdf {
		if u < c {
			return i
		}
	}
	return len(cdf) - 1
}

// Key appends the name of the key of rank i to dst: "user:" and 16
// hexadecimal digits, or a decimal ID with Config.Numeric. Distinct ranks
// give distinct keys (the names come from a bijection of the rank).
func (w *Workload) Key(dst []byte, i int) []byte {
	x := algorithms.Mix64(w.keySalt ^ uint64(i))
	if w.c.Numeric {
		return strconv.AppendUint(dst, x, 10)
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], x)
	dst = append(dst, "user:"...)
	return hex.AppendEncode(dst, b[:])
}

// ValueSize returns the value size in bytes of the key of rank i.
func (w *Workload) ValueSize(i int) int { return int(w.sizes[i]) }

// Zipf returns the popularity law the workload draws ranks from.
func (w *Workload) Zipf() *analysis.Zipf { return w.zipf }

// Scan generates the next request; it returns false after Config.Requests.
func (w *Workload) Scan() bool {
	if w.i >= w.c.Requests {
		if w.i == w.c.Requests {
			w.stats.Finish()
			w.i++
		}
		return false
	}
	rank := w.zipf.Sample(w.rng)
	op := trace.OpGet
	if len(w.opCDF) > 0 {
		op = w.c.Ops[pick(w.opCDF, w.rng.Float64())].Op
	}
	var ttl time.Duration
	if op.IsWrite() && len(w.ttlCDF) > 0 {
		ttl = w.c.TTLs[pick(w.ttlCDF, w.rng.Float64())].TTL
	}
	client := 0
	if w.c.Clients > 1 {
		client = w.rng.IntN(w.c.Clients)
	}
	w.key = w.Key(w.key[:0], rank)
	w.client = strconv.AppendInt(w.client[:0], int64(client), 10)
	size := int(w.sizes[rank])
	if op == trace.OpDelete || op == trace.OpIncr || op == trace.OpDecr {
		size = 0
	}
	w.req = trace.Request{
		Time: w.c.Start + time.Duration(float64(w.i)/w.c.Rate*float64(time.Second)),
		Key:  w.key, KeySize: len(w.key), ValueSize: size, Op: op, TTL: ttl, Count: 1, Client: w.client,
		Line: w.i + 1,
	}
	w.i++
	w.stats.Add(&w.req)
	return true
}

// Record returns the current request (a *trace.Request).
func (w *Workload) Record() trace.Record { return &w.req }

// Err returns nil: generation cannot fail once New has succeeded.
func (w *Workload) Err() error { return nil }

// Stats returns what has been generated so far.
func (w *Workload) Stats() *trace.Stats { return w.stats }

// Format returns the workload's Format.
func (w *Workload) Format() trace.Format { return Format }

var _ trace.Reader = (*Workload)(nil)
