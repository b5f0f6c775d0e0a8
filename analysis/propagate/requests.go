package propagate

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/keyset"
)

// Op is what a request does with its key.
type Op uint8

const (
	// Read reads the key: in the cache-aside workload a get on the cache
	// server its client's view names, a database read and a fill on a miss.
	Read Op = iota
	// Write updates the key: the database first, then an invalidation
	// (delete) on the cache server the writer's view names.
	Write
)

// String returns "read" or "write".
func (o Op) String() string {
	if o == Write {
		return "write"
	}
	return "read"
}

// Request is one request of a replay: at Time seconds (from the replay's
// clock origin; requests come in non-decreasing Time), client Client
// (0..C-1) does Op on Key.
type Request struct {
	Time   float64
	Client int
	Key    string
	Op     Op
}

// Stream is a sequence of requests in time order, read like a
// bufio.Scanner or benchfmt.Reader: Scan advances to the next request and
// reports false at the end or on an error, Request returns the current
// one, Err the error that ended the stream (nil at a clean end). The
// replay keeps keys beyond the next Scan (a chunk of them is located at
// once, and the cache-aside workload keeps every distinct key), so a
// request's Key must be an ordinary string that no later Scan changes (a
// reader that parses into a reused buffer converts with string(b), not
// with unsafe). A trace reader implements Stream for its format.
type Stream interface {
	Scan() bool
	Request() Request
	Err() error
}

// Source opens the request stream of each replay. Replays are independent
// repetitions of the scenario: a generator draws replay r's requests from
// its seed and r; a trace returns the same requests every time (only the
// propagation draws then differ between replays).
type Source interface {
	Open(replay int) (Stream, error)
}

// Generated is a seeded [Source] of requests: Rate requests per second at
// the evenly spaced times Start + i/Rate in [Start, End), each by a client
// drawn uniformly from Clients, on a key of a universe of Keys keys
// (keyset.Keys(Keys, Seed): "user:" and 16 hex digits) drawn uniformly or,
// when Zipf > 0, with Zipf popularity of exponent Zipf (key i of the
// universe has rank i; analysis.Zipf), and a write with probability
// Writes (else a read). Replay r draws from math/rand/v2's PCG seeded
// with (Mix64(Seed ^ salt), Mix64(r)), so a replay is the same on every
// machine.
type Generated struct {
	keys    []string
	zipf    *analysis.Zipf
	cfg     GeneratedConfig
	perSpan int // requests per replay
}

// MaxGeneratedKeys bounds the key universe of a [Generated] source, which
// is held in memory: about 40 bytes a key (the string and its header),
// 12 more with a Zipf table, so at most about 870 MB.
const MaxGeneratedKeys = 1 << 24

// GeneratedConfig are the parameters of a [Generated] source.
type GeneratedConfig struct {
	Keys       int     // key universe size, 1..MaxGeneratedKeys
	Zipf       float64 // Zipf exponent s >= 0 (0 = uniform)
	Rate       float64 // requests per second, all clients together, finite and > 0
	Start, End float64 // seconds, Start < End
	Clients    int     // 1..MaxClients
	Writes     float64 // fraction of requests that are writes, 0..1
	Seed       uint64
}

// MaxRequests bounds the requests of one generated replay (2^31).
const MaxRequests = 1 << 31

// NewGenerated validates c and builds the key universe (and the Zipf
// table when Zipf > 0). It returns an error naming the first bad value.
func NewGenerated(c GeneratedConfig) (*Generated, error) {
	switch {
	case c.Keys < 1 || c.Keys > MaxGeneratedKeys:
		return nil, fmt.Errorf("requests: keys %d: need 1 to %d keys", c.Keys, MaxGeneratedKeys)
	case !(c.Zipf >= 0) || math.IsInf(c.Zipf, 0):
		return nil, fmt.Errorf("requests: zipf exponent %v: must be a finite number >= 0 (0 = uniform)", c.Zipf)
	case !(c.Rate > 0) || math.IsInf(c.Rate, 0):
		return nil, fmt.Errorf("requests: rate %v: need a finite number of requests per second > 0", c.Rate)
	case math.IsNaN(c.Start) || math.IsInf(c.Start, 0) || math.IsNaN(c.End) || math.IsInf(c.End, 0) || c.End <= c.Start:
		return nil, fmt.Errorf("requests: span %v..%v s: need finite start < end", c.Start, c.End)
	case c.Clients < 1 || c.Clients > MaxClients:
		return nil, fmt.Errorf("requests: clients %d: need 1 to %d", c.Clients, MaxClients)
	case !(c.Writes >= 0 && c.Writes <= 1):
		return nil, fmt.Errorf("requests: write fraction %v: need 0..1", c.Writes)
	}
	n := math.Ceil((c.End - c.Start) * c.Rate)
	if n > MaxRequests {
		return nil, fmt.Errorf("requests: %v s at %v requests/s is %.4g requests: at most %d per replay", c.End-c.Start, c.Rate, n, MaxRequests)
	}
	keys, err := keyset.Keys(c.Keys, c.Seed)
	if err != nil {
		return nil, fmt.Errorf("requests: %w", err)
	}
	g := &Generated{keys: keys, cfg: c, perSpan: int(n)}
	// The last time Start + (n-1)/Rate must lie below End.
	for g.perSpan > 0 && c.Start+float64(g.perSpan-1)/c.Rate >= c.End {
		g.perSpan--
	}
	if c.Zipf > 0 {
		if g.zipf, err = analysis.NewZipf(c.Keys, c.Zipf); err != nil {
			return nil, fmt.Errorf("requests: %w", err)
		}
	}
	return g, nil
}

// Config returns the source's parameters.
func (g *Generated) Config() GeneratedConfig { return g.cfg }

// Requests returns the number of requests of every replay.
func (g *Generated) Requests() int { return g.perSpan }

// requestSalt keeps request streams apart from the key universe's.
const requestSalt = 0x70726f70616761 // "propaga"

// Open returns the stream of replay r (r >= 0).
func (g *Generated) Open(r int) (Stream, error) {
	if r < 0 {
		return nil, fmt.Errorf("requests: replay %d: need >= 0", r)
	}
	rng := rand.New(rand.NewPCG(algorithms.Mix64(g.cfg.Seed^requestSalt), algorithms.Mix64(uint64(r))))
	return &generatedStream{g: g, r: rng, i: -1}, nil
}

type generatedStream struct {
	g   *Generated
	r   *rand.Rand
	i   int
	cur Request
}

func (s *generatedStream) Scan() bool {
	if s.i+1 >= s.g.perSpan {
		return false
	}
	s.i++
	c := &s.g.cfg
	s.cur.Time = c.Start + float64(s.i)/c.Rate
	s.cur.Client = s.r.IntN(c.Clients)
	if s.g.zipf != nil {
		s.cur.Key = s.g.keys[s.g.zipf.Sample(s.r)]
	} else {
		s.cur.Key = s.g.keys[s.r.IntN(len(s.g.keys))]
	}
	s.cur.Op = Read
	if c.Writes > 0 && s.r.Float64() < c.Writes {
		s.cur.Op = Write
	}
	return true
}

func (s *generatedStream) Request() Request { return s.cur }
func (s *generatedStream) Err() error       { return nil }

// Requests is a [Source] over requests held in memory (a scripted
// scenario, a trace already read); every replay sees all of them.
type Requests []Request

// Open returns a stream over the requests.
func (rs Requests) Open(int) (Stream, error) { return &sliceStream{rs: rs, i: -1}, nil }

type sliceStream struct {
	rs Requests
	i  int
}

func (s *sliceStream) Scan() bool {
	if s.i+1 >= len(s.rs) {
		return false
	}
	s.i++
	return true
}
func (s *sliceStream) Request() Request { return s.rs[s.i] }
func (s *sliceStream) Err() error       { return nil }
