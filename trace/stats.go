package trace

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/axiomhq/hyperloglog"
	"github.com/cespare/xxhash/v2"
)

// Stats describes what a [Reader] has read. Counts of requests are
// weighted by Request.Count; Records counts the records themselves.
type Stats struct {
	Format     string
	Compressed bool  // the input was zstd-compressed
	InputBytes int64 // bytes read from the input (compressed bytes for zstd)
	DataBytes  int64 // bytes of the decompressed trace consumed

	Records    int64 // records that were requests
	Requests   int64 // requests they stand for (sum of Count)
	BadRecords int64 // records returned as SyntaxErrors
	// Skipped counts lines that are neither requests nor errors: blank
	// lines of a key list, a CSV header, a metadump's OK and END, MONITOR
	// lines of commands without a key (PING, SELECT, INFO, ...).
	Skipped int64
	// Bytes is the sum over requests of KeySize + ValueSize.
	Bytes int64
	// Ops counts requests by operation (indexed by Op).
	Ops [NumOps]int64

	// DistinctKeys is the number of distinct keys: exact (up to 64-bit
	// hash collisions, about D^2/2^65) while at most ExactDistinct keys
	// have been seen, DistinctExact true; beyond that an estimate, so
	// memory stays flat, DistinctExact false: a HyperLogLog sketch
	// (axiomhq/hyperloglog, precision 14, LogLog-Beta) of one key hash in
	// HLLSample, times HLLSample, whose relative standard error is
	// DistinctRSE(D) = sqrt((1.04/2^7)^2 + (HLLSample-1)/D): 0.81% from
	// the sketch and the binomial error of the sample (1.0% at
	// D = 10^5, 0.82% at 10^6).
	DistinctKeys  int64
	DistinctExact bool
	// DistinctClients counts distinct clients the same way (formats
	// with a client).
	DistinctClients int64
	ClientsExact    bool

	// HasTime and HasClient report whether the records carry a clock and
	// a client (the format's facts, narrowed by a Meta KV header).
	HasTime, HasClient bool
	// First and Last are the earliest and latest request times; Backwards
	// counts requests earlier than the one before them (when HasTime).
	First, Last time.Duration
	Backwards   int64
	// ZeroSizeReads counts reads (get, gets) with value size 0 in formats
	// that carry sizes: a miss in Twitter's traces records no size.
	ZeroSizeReads int64
	// NonNumericIDs counts keys that are not decimal or hexadecimal
	// object IDs in a format whose keys are numeric IDs (Meta KV).
	NonNumericIDs int64
	// MaxID is the largest numeric object ID seen (formats with numeric
	// IDs), and MinKeyLen, MaxKeyLen the shortest and longest key.
	MaxID                uint64
	MinKeyLen, MaxKeyLen int
	// Unterminated reports a metadump without its closing END line (the
	// capture was cut short).
	Unterminated bool

	format     Format
	keys       distinct
	clients    distinct
	firstKey   string
	hexKeys    bool // every key so far is hexadecimal digits
	decKeys    bool // every key so far is decimal digits
	firstBad   string
	firstNonID string
	lastTime   time.Duration
}

// ExactDistinct is the number of distinct keys (and clients) counted
// exactly before the count turns into an estimate: 65,536 64-bit hashes,
// about 3 MiB at most.
const ExactDistinct = 1 << 16

// HLLSample is the sampling of the distinct-key estimate: one key hash in
// 4 enters the sketch (chosen by the top two bits of the hash times a
// Fibonacci constant, unrelated to the bits the sketch uses), which
// quarters the sketch's cost per request.
const HLLSample = 4

// DistinctRSE returns the relative standard error of a distinct-key
// estimate of d keys (see Stats.DistinctKeys); 0 for d <= ExactDistinct,
// which are counted exactly.
func DistinctRSE(d int64) float64 {
	if d <= ExactDistinct {
		return 0
	}
	return math.Sqrt(math.Pow(1.04/128, 2) + float64(HLLSample-1)/float64(d))
}

// sampled reports whether hash h enters the sketch.
func sampled(h uint64) bool { return (h*0x9E3779B97F4A7C15)>>62 == 0 }

// NewStats returns the statistics of a reader of format f that is not one
// of this package's (a generated workload), to be fed with Add and
// completed with Finish.
func NewStats(f Format) *Stats {
	s := &Stats{Format: f.Name}
	s.init(f)
	return s
}

// Add counts one request.
func (s *Stats) Add(r *Request) { s.add(r, xxhash.Sum64(r.Key), false) }

// Finish completes the distinct counts after the last Add.
func (s *Stats) Finish() { s.finish() }

func (s *Stats) init(f Format) {
	s.format = f
	s.HasTime, s.HasClient = f.HasTime, f.HasClient
	s.hexKeys, s.decKeys = true, true
}

// add counts one request whose key hashes to h; numeric reports a key
// the parser knows to be a decimal ID (whose MaxID it has counted), which
// needs no classifying.
func (s *Stats) add(r *Request, h uint64, numeric bool) {
	if s.Records == 0 {
		s.firstKey = string(r.Key)
		s.First, s.Last, s.lastTime = r.Time, r.Time, r.Time
		s.MinKeyLen = len(r.Key)
	}
	s.Records++
	s.Requests += r.Count
	s.Bytes += r.Count * r.Bytes()
	if r.Op < NumOps {
		s.Ops[r.Op] += r.Count
	}
	s.keys.add(h)
	if r.Client != nil {
		s.clients.add(xxhash.Sum64(r.Client))
	}
	if s.HasTime {
		if r.Time < s.lastTime {
			s.Backwards++
		}
		s.lastTime = r.Time
		s.First, s.Last = min(s.First, r.Time), max(s.Last, r.Time)
	}
	if s.format.HasSize && r.ValueSize == 0 && r.Op.IsRead() {
		s.ZeroSizeReads += r.Count
	}
	s.MinKeyLen, s.MaxKeyLen = min(s.MinKeyLen, len(r.Key)), max(s.MaxKeyLen, len(r.Key))
	if numeric {
		return
	}
	if s.hexKeys || s.decKeys || s.format.NumericIDs {
		s.classify(r.Key)
	}
	if s.format.NumericIDs && s.decKeys {
		if id, err := strconv.ParseUint(string(r.Key), 10, 64); err == nil {
			s.MaxID = max(s.MaxID, id)
		}
	}
}

// classify clears hexKeys or decKeys when key is not made of such digits,
// and counts a key that is neither in a format of numeric IDs.
func (s *Stats) classify(key []byte) {
	hex, dec := len(key) > 0, len(key) > 0
	for _, c := range key {
		isDec := c >= '0' && c <= '9'
		dec = dec && isDec
		hex = hex && (isDec || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
	}
	s.hexKeys, s.decKeys = s.hexKeys && hex, s.decKeys && dec
	if !hex && s.format.NumericIDs {
		s.NonNumericIDs++
		if s.firstNonID == "" {
			s.firstNonID = string(key)
		}
	}
}

func (s *Stats) finish() {
	s.DistinctKeys, s.DistinctExact = s.keys.count()
	s.DistinctClients, s.ClientsExact = s.clients.count()
}

// Span returns the time between the first and the last request (0 for
// formats without a clock).
func (s *Stats) Span() time.Duration { return s.Last - s.First }

// Warnings returns the traps this trace shows, one sentence each, in a
// fixed order: every request naming one key, numeric IDs or hexadecimal
// keys so short that distinct objects would share them (a truncated
// hash), a single client, reads of size 0, keys that are not IDs in a
// format of numeric IDs, a clock that runs backwards, a metadump without
// END, and records that could not be read.
func (s *Stats) Warnings() []string {
	var w []string
	if s.Records > 1 && s.DistinctKeys == 1 {
		w = append(w, fmt.Sprintf("every one of the %d requests names the same key %q: the IDs were lost (a numeric reader that turned text IDs into 0?)", s.Requests, clipString(s.firstKey)))
	}
	d := float64(s.DistinctKeys)
	if s.format.NumericIDs && s.decKeys && s.DistinctKeys > ExactDistinct && s.MaxID < 1<<32 {
		w = append(w, fmt.Sprintf("all %s distinct object IDs fit in 32 bits (largest %d): if they are 32-bit hashes of longer keys, about %.0f objects share an ID with another (D^2/2^33) and are merged",
			count(s.DistinctKeys, s.DistinctExact), s.MaxID, d*d/math.Exp2(33)))
	}
	if s.Records > 1 && s.MinKeyLen == s.MaxKeyLen && s.MaxKeyLen <= 16 && (s.hexKeys || s.decKeys) {
		base, name := 16.0, "hexadecimal"
		if s.decKeys {
			base, name = 10, "decimal"
		}
		if c := d * d / (2 * math.Pow(base, float64(s.MaxKeyLen))); c >= 1 {
			w = append(w, fmt.Sprintf("every key is %d %s digits: if the keys are hashes cut to that length, about %.0f of the %s distinct objects share a key with another and are merged",
				s.MaxKeyLen, name, c, count(s.DistinctKeys, s.DistinctExact)))
		}
	}
	if s.HasClient && s.Records > 1 && s.DistinctClients == 1 {
		w = append(w, "every request comes from one client: the trace was captured at one client, not at the fleet, so other clients' traffic and their keys are missing")
	}
	if s.ZeroSizeReads > 0 {
		w = append(w, fmt.Sprintf("%d of %d reads have value size 0 (misses record no size): a simulation must take their size from elsewhere", s.ZeroSizeReads, s.Ops[OpGet]+s.Ops[OpGets]))
	}
	if s.NonNumericIDs > 0 {
		w = append(w, fmt.Sprintf("%d keys are not numeric IDs (first %q) although %s keys are: they are read as text, not merged into ID 0 as a numeric reader would (libCacheSim PR#324)", s.NonNumericIDs, clipString(s.firstNonID), s.Format))
	}
	if s.Backwards > 0 {
		w = append(w, fmt.Sprintf("the clock runs backwards %d times: the trace is not in time order (merged from several captures?)", s.Backwards))
	}
	if s.Unterminated {
		w = append(w, "the metadump has no END line: the capture was cut short")
	}
	if s.BadRecords > 0 {
		w = append(w, fmt.Sprintf("%d records could not be read and were left out", s.BadRecords))
	}
	return w
}

func count(n int64, exact bool) string {
	if exact {
		return strconv.FormatInt(n, 10)
	}
	return "about " + strconv.FormatInt(n, 10)
}

func clipString(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// distinct counts distinct 64-bit hashes: exactly in a set up to
// ExactDistinct of them, then with a HyperLogLog sketch.
type distinct struct {
	set hashSet
	hll *hyperloglog.Sketch
}

func (d *distinct) add(h uint64) {
	if d.hll != nil {
		if sampled(h) {
			d.hll.InsertHash(h)
		}
		return
	}
	d.set.add(h)
	if d.set.n > ExactDistinct {
		// The dense sketch keeps the maximum per register, so the order
		// the set is walked in does not change the estimate.
		d.hll = hyperloglog.NewNoSparse()
		for _, h := range d.set.slots {
			if h != 0 && sampled(h) {
				d.hll.InsertHash(h)
			}
		}
		if d.set.zero && sampled(0) {
			d.hll.InsertHash(0)
		}
		d.set = hashSet{}
	}
}

func (d *distinct) count() (int64, bool) {
	if d.hll != nil {
		return int64(d.hll.Estimate()) * HLLSample, false
	}
	return int64(d.set.n), true
}

// hashSet is a set of 64-bit hashes: open addressing with linear probing,
// at most half full, slot value 0 meaning empty (the hash 0 is kept
// apart). It is the exact phase of the distinct count, several times
// cheaper per insert than a Go map.
type hashSet struct {
	slots []uint64
	n     int
	zero  bool
}

func (s *hashSet) add(h uint64) {
	if h == 0 {
		if !s.zero {
			s.zero = true
			s.n++
		}
		return
	}
	if 2*(s.n+1) > len(s.slots) {
		old := s.slots
		s.slots = make([]uint64, max(1024, 2*len(old)))
		for _, x := range old {
			if x != 0 {
				s.put(x)
			}
		}
	}
	if s.put(h) {
		s.n++
	}
}

// put inserts h != 0, reporting whether it was new.
func (s *hashSet) put(h uint64) bool {
	mask := len(s.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case h:
			return false
		case 0:
			s.slots[i] = h
			return true
		}
	}
}

// String summarises the statistics on one line, for a CLI's stderr:
// format, requests (and records when counts differ), distinct keys (exact,
// or "about" for the estimate), bytes, time span, and the operations in
// Op order with their shares, e.g.
//
//	twitter: 200 requests, 47 distinct keys, 67.9 kB, span 19s; get 79.0%, set 11.0%, add 4.5%, delete 5.5%
func (s *Stats) String() string {
	var b []byte
	b = fmt.Appendf(b, "%s: %d requests", s.Format, s.Requests)
	if s.Records != s.Requests {
		b = fmt.Appendf(b, " in %d records", s.Records)
	}
	b = fmt.Appendf(b, ", %s distinct keys, %s", count(s.DistinctKeys, s.DistinctExact), humanBytes(s.Bytes))
	if s.HasTime {
		b = fmt.Appendf(b, ", span %v", s.Span())
	}
	sep := "; "
	for op, n := range s.Ops {
		if n > 0 {
			b = fmt.Appendf(b, "%s%s %.1f%%", sep, Op(op), 100*float64(n)/float64(max(s.Requests, 1)))
			sep = ", "
		}
	}
	if s.BadRecords > 0 {
		b = fmt.Appendf(b, "; %d unreadable records", s.BadRecords)
	}
	return string(b)
}

// humanBytes formats n bytes in decimal units (B, kB, MB, GB, TB).
func humanBytes(n int64) string {
	f := float64(n)
	for _, u := range []string{"B", "kB", "MB", "GB", "TB"} {
		if f < 1000 || u == "TB" {
			if u == "B" {
				return strconv.FormatInt(n, 10) + " B"
			}
			return strconv.FormatFloat(f, 'f', 1, 64) + " " + u
		}
		f /= 1000
	}
	return ""
}
