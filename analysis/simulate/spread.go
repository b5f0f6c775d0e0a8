package simulate

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/memory"
	"github.com/chbench/chbench/trace"
)

// SpreadOptions configure [SpreadBytes].
type SpreadOptions struct {
	// MaxObjects bounds the distinct objects tracked one by one (0 means
	// DefaultMaxObjects, about 60 MiB); beyond it the objects are a hash
	// sample (see BytesSpread.SampleRate).
	MaxObjects int
	// ItemOverhead is added to every object's bytes, as in Config.
	ItemOverhead int64
	// Label names the placement in the result ("" = its Algorithm()).
	Label string
}

// DefaultMaxObjects is SpreadOptions.MaxObjects' default: 2^20.
const DefaultMaxObjects = 1 << 20

// NodeBytes is one node's share of a trace's objects and requests.
type NodeBytes struct {
	ID     string
	Weight float64
	// Objects is the distinct keys the node owns and Bytes what they
	// take (key size + value size + overhead, each key at the last
	// non-zero size a request gave it): estimates scaled by 1/SampleRate
	// when sampled.
	Objects, Bytes float64
	// Requests routed to the node, and their bytes (exact).
	Requests, RequestBytes int64
}

// BytesSpread is how much memory each node needs for a trace's working
// set under one placement: the spread by bytes beside the spread by keys
// and requests.
type BytesSpread struct {
	Placement string
	Nodes     []NodeBytes // in the placement's node order
	// SampleRate is 1 when every object was tracked, else 2^-k: objects
	// were kept when the low k bits of a salted hash of their key are
	// zero (a hash independent of the placement's), and Objects and
	// Bytes are the sample's sums times 2^k (Horvitz-Thompson estimates;
	// a node's relative error is about sqrt(2^k/objects)).
	SampleRate float64
	TotalBytes float64
	// Busiest is the node with the most bytes for its weight, PeakBytes
	// its bytes, PeakToMean its bytes over its weight share of TotalBytes
	// (1 = exactly its share), and CV the coefficient of variation of
	// bytes over weight share across nodes.
	Busiest    string
	PeakBytes  float64
	PeakToMean float64
	CV         float64
}

type object struct {
	owner int32
	size  int64
}

// SpreadBytes reads r to its end and places every key with loc: each
// node's distinct objects and their bytes, and its requests. Memory is
// bounded by MaxObjects objects (about 60 bytes each) whatever the
// trace's length. It returns an error for a Locator failure, an owner
// outside the membership, or the reader's error; syntax errors are
// skipped (the reader's Stats count them).
func SpreadBytes(r trace.Reader, loc algorithms.Locator, opt SpreadOptions) (*BytesSpread, error) {
	if opt.MaxObjects <= 0 {
		opt.MaxObjects = DefaultMaxObjects
	}
	if err := CheckItemOverhead(opt.ItemOverhead); err != nil {
		return nil, fmt.Errorf("spread bytes: %w", err)
	}
	nodes := loc.Nodes()
	label := opt.Label
	if label == "" {
		label = loc.Algorithm()
	}
	out := &BytesSpread{Placement: label, Nodes: make([]NodeBytes, len(nodes))}
	for i, n := range nodes {
		out.Nodes[i].ID, out.Nodes[i].Weight = n.ID, n.Weight
	}
	objs := map[uint64]object{}
	objCount := make([]int64, len(nodes)) // the sample's objects and bytes per node
	objBytes := make([]int64, len(nodes))
	level := uint(0)
	var arena []byte
	var ends []int
	var reqs []creq
	hashes := make([]uint64, 0, chunkRequests)
	keys := make([]string, 0, chunkRequests)
	owners := make([]int, chunkRequests)
	flush := func() error {
		keys = keys[:0]
		start := 0
		for _, e := range ends {
			keys = append(keys, unsafe.String(unsafe.SliceData(arena[start:]), e-start))
			start = e
		}
		if err := loc.LocateKeys(keys, owners[:len(keys)]); err != nil {
			return fmt.Errorf("spread bytes: %s: %w", label, err)
		}
		for i, q := range reqs {
			o := owners[i]
			if o < 0 || o >= len(nodes) {
				return fmt.Errorf("spread bytes: %s: owner %d of %d nodes", label, o, len(nodes))
			}
			size := q.keySize + q.valueSize + opt.ItemOverhead // < 2^42 (MaxItemOverhead)
			nb := &out.Nodes[o]
			rb := memory.Mul(q.count, size)
			if rb < 0 || rb > math.MaxInt64-nb.RequestBytes {
				return fmt.Errorf("spread bytes: %s: node %s: its requests' bytes pass 2^63-1 at a record of %d requests of %d bytes", label, nb.ID, q.count, size)
			}
			nb.Requests += q.count
			nb.RequestBytes += rb
			h := hashes[i]
			if sampleHash(h)&(1<<level-1) != 0 {
				continue
			}
			ob, seen := objs[h]
			switch {
			case !seen:
				objs[h] = object{owner: int32(o), size: size}
				objCount[o]++
				objBytes[o] += size
			case q.valueSize > 0 && size != ob.size:
				objBytes[ob.owner] += size - ob.size
				objs[h] = object{owner: ob.owner, size: size}
			}
			for len(objs) > opt.MaxObjects {
				level++
				for k, v := range objs { // which objects leave depends on their hashes only
					if sampleHash(k)&(1<<level-1) != 0 {
						delete(objs, k)
						objCount[v.owner]--
						objBytes[v.owner] -= v.size
					}
				}
			}
		}
		arena, ends, reqs, hashes = arena[:0], ends[:0], reqs[:0], hashes[:0]
		return nil
	}
	for r.Scan() {
		q, ok := r.Record().(*trace.Request)
		if !ok {
			continue
		}
		arena = append(arena, q.Key...)
		ends = append(ends, len(arena))
		reqs = append(reqs, creq{keySize: int64(q.KeySize), valueSize: int64(q.ValueSize), count: max(q.Count, 1)})
		hashes = append(hashes, xxhash.Sum64(q.Key))
		if len(reqs) == chunkRequests {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	if err := flush(); err != nil {
		return nil, err
	}
	scale := math.Ldexp(1, int(level))
	out.SampleRate = 1 / scale
	w := algorithms.TotalWeight(nodes)
	for i := range out.Nodes {
		out.Nodes[i].Objects = float64(objCount[i]) * scale
		out.Nodes[i].Bytes = float64(objBytes[i]) * scale
		out.TotalBytes += out.Nodes[i].Bytes
	}
	if out.TotalBytes > 0 {
		var sum, sq float64
		for _, nb := range out.Nodes {
			load := nb.Bytes / (out.TotalBytes * nb.Weight / w)
			sum += load
			sq += load * load
			if load > out.PeakToMean {
				out.PeakToMean, out.Busiest, out.PeakBytes = load, nb.ID, nb.Bytes
			}
		}
		mean := sum / float64(len(out.Nodes))
		out.CV = math.Sqrt(max(sq/float64(len(out.Nodes))-mean*mean, 0)) / mean
	}
	return out, nil
}

// sampleHash salts a key's hash so that the sample is independent of
// placements that use the same hash (a sample by the low bits of the
// placement's own hash would keep only some nodes' keys under modulo).
func sampleHash(h uint64) uint64 { return algorithms.Mix64(h ^ 0x73616d706c65) } // "sample"
