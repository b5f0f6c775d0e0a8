package bounded

import (
	"fmt"
	"math"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/ring"
)

// The partition form above (Bounded, a Placer) is one of the three forms
// of consistent hashing with bounded loads chbench measures; this file
// holds the other two, which bound what the paper and the proxies bound:
//
//   - the key form ([PlaceKeys]): the m keys present, in a stated order,
//     each take the first node clockwise on the ring whose key count is
//     under ceil(c*m*w_i/W) (Mirrokni, Thorup, Zadimoghaddam 2018, section
//     2). It is a placement of one key set, not a Placer: a key's owner
//     depends on every key placed before it.
//   - the request form ([RequestBalancer]): each request goes to the first
//     node clockwise whose requests in flight are under ceil(c*(T+1)*w_i/W),
//     T the requests in flight before it, as HAProxy's hash-balance-factor
//     (src/lb_chash.c, chash_server_is_eligible) and Vimeo's and Envoy's
//     balancers do. It is a simulation with state.

// ValidateEps returns an error naming eps unless it is finite, > 0 and large
// enough that 1 + eps > 1.
func ValidateEps(eps float64) error {
	if math.IsNaN(eps) || math.IsInf(eps, 0) || eps <= 0 || 1+eps == 1 {
		return fmt.Errorf("eps %v: the load factor c = 1 + eps needs a finite eps > 0", eps)
	}
	return nil
}

// keyCapacities returns the capacity of each node (indexed like nodes)
// when m units (keys, partitions or requests) are placed with load factor
// c = 1 + eps: ceil(c * m * w_i / W), and never more than m ([Capacity]).
// Every capacity is >= 1 for m >= 1, and they sum to at least c*m > m, so
// every unit finds room. nodes are a ring's, so a valid membership
// ([algorithms.ValidateNodes]); it returns an error for m < 1 or a bad eps.
func keyCapacities(nodes []algorithms.Node, m int, eps float64) ([]int, error) {
	if m < 1 {
		return nil, fmt.Errorf("units %d: need at least 1 key or request to bound", m)
	}
	if err := ValidateEps(eps); err != nil {
		return nil, err
	}
	total := algorithms.TotalWeight(nodes)
	caps := make([]int, len(nodes))
	sum := 0
	for i, n := range nodes {
		caps[i] = Capacity(eps, m, n.Weight, total)
		sum += caps[i]
	}
	if sum < m {
		return nil, fmt.Errorf("eps %v: capacities sum to %d, fewer than the %d units", eps, sum, m)
	}
	return caps, nil
}

// KeyPlacement is the key form's assignment of m keys on a ring: Owner[k]
// and First[k] are indexes into the ring's nodes (the node that holds key
// k, and the node that would hold it without a bound: the owner of the
// first virtual node clockwise from the key's hash); Loads and Caps are
// per node, in keys.
type KeyPlacement struct {
	Owner, First []int32
	Loads, Caps  []int
}

// PlaceKeys assigns the keys whose hashes are given (in that order, which
// is the insertion order the assignment depends on) to the nodes of r with
// load factor c = 1 + eps: key k goes to the owner of the first virtual
// node clockwise from hashes[k] whose node holds fewer than its capacity
// ceil(c*m*w_i/W) keys (m = len(hashes)). The walk ends
// within one turn of the ring because the capacities sum to more than m.
// Cost: O(m) ring searches plus the walks (expected O(1/eps^2) virtual
// nodes per key by the paper); memory 8 bytes per key. The assignment is
// a pure function of (ring, hashes, eps): after a membership change it is
// recomputed, so it is history-independent, and movement is the
// difference of two such assignments. It returns an error for no keys or
// a bad eps.
func PlaceKeys(r *ring.Ring, hashes []uint64, eps float64) (*KeyPlacement, error) {
	caps, err := keyCapacities(r.Nodes(), len(hashes), eps)
	if err != nil {
		return nil, err
	}
	kp := &KeyPlacement{Owner: make([]int32, len(hashes)), First: make([]int32, len(hashes)), Loads: make([]int, len(caps)), Caps: caps}
	n := r.Len()
	for k, h := range hashes {
		i := r.Search(h)
		kp.First[k] = int32(r.At(i).Owner)
		for {
			o := r.At(i).Owner
			if kp.Loads[o] < caps[o] {
				kp.Owner[k] = int32(o)
				kp.Loads[o]++
				break
			}
			if i++; i == n {
				i = 0
			}
		}
	}
	return kp, nil
}

// MaxLoadOverCap returns max_i Loads[i]/Caps[i]; it is <= 1 by
// construction.
func (kp *KeyPlacement) MaxLoadOverCap() float64 {
	m := 0.0
	for i, l := range kp.Loads {
		m = max(m, float64(l)/float64(kp.Caps[i]))
	}
	return m
}

// DefaultInFlightPerNode is the number of requests in flight per node of
// the request form's service model when none is given: 32 per node makes
// the cap ceil(c*32) = 40 at c = 1.25, so rounding adds little to c.
const DefaultInFlightPerNode = 32

// RequestBalancer is the request form of bounded loads with a simple
// service model: exactly K requests are in flight once K have arrived, and
// they complete in arrival order (FIFO), so the arrival of request t
// (t >= K) first completes request t-K. Each arriving request is placed on
// the first node clockwise from its key's hash (walking the ring's virtual
// nodes) whose in-flight count is under its cap ceil(c*(T+1)*w_i/W), where
// T is the number of requests in flight before it (after the completion),
// so the cap counts the request being placed, as HAProxy's
// hash-balance-factor and brpc's bounded-load balancer do. The caps sum
// to at least c*(T+1) > T, so a node with room always exists and the walk
// ends within one turn. In the steady state T + 1 = K and the caps are
// ceil(c*K*w_i/W); while the first K requests arrive they only grow, so
// no node is ever above its current cap.
//
// It is a simulation, not a Placer: it has state and is not safe for
// concurrent use. Memory: 4 bytes per request in flight (the queue grows
// as requests arrive, so it never holds more than min(K, requests served)
// entries, whatever K) and 24 per node.
type RequestBalancer struct {
	r        *ring.Ring
	eps      float64
	w        []float64 // node weights
	total    float64   // total weight
	k        int       // K, requests in flight in the steady state
	inflight []int     // per node
	queue    []int32   // FIFO of the nodes of the requests in flight; grows to K entries while the first K arrive
	head, t  int       // queue head; requests in flight
	maxRatio float64   // max over placements of the chosen node's load / cap
	caps     []int     // caps[i] for capsFor requests in flight (T+1)
	capsFor  int
}

// NewRequestBalancer returns a balancer over the nodes of r with load
// factor c = 1 + eps and K = inFlight requests in flight. It returns an
// error naming a bad eps or inFlight < 1.
func NewRequestBalancer(r *ring.Ring, eps float64, inFlight int) (*RequestBalancer, error) {
	if err := ValidateEps(eps); err != nil {
		return nil, err
	}
	if inFlight < 1 {
		return nil, fmt.Errorf("in-flight requests %d: need at least 1", inFlight)
	}
	nodes := r.Nodes()
	b := &RequestBalancer{r: r, eps: eps, w: make([]float64, len(nodes)), total: algorithms.TotalWeight(nodes),
		k: inFlight, inflight: make([]int, len(nodes)), caps: make([]int, len(nodes))}
	for i, n := range nodes {
		b.w[i] = n.Weight
	}
	return b, nil
}

// Cap returns node i's cap for the next request: ceil(c*(T+1)*w_i/W),
// with T the requests in flight now.
func (b *RequestBalancer) Cap(i int) int { return Capacity(b.eps, b.t+1, b.w[i], b.total) }

// InFlight returns the number of requests in flight on node i.
func (b *RequestBalancer) InFlight(i int) int { return b.inflight[i] }

// Serve admits one request whose key hashes to h: if K requests are in
// flight the oldest completes first, then the request is placed. It
// returns the serving node (an index into the ring's nodes) and its first
// choice, the owner of the first virtual node clockwise from h.
func (b *RequestBalancer) Serve(h uint64) (node, first int) {
	return b.ServeFrom(b.r.Search(h))
}

// ServeFrom is Serve for a request whose key's first virtual node
// clockwise is point i of the ring (ring.Search of its hash), for callers
// that search once per key rather than once per request.
func (b *RequestBalancer) ServeFrom(i int) (node, first int) {
	if b.t == b.k {
		b.inflight[b.queue[b.head]]--
		b.head++
		if b.head == b.k {
			b.head = 0
		}
		b.t--
	}
	if b.capsFor != b.t+1 { // only while the first K requests arrive
		b.capsFor = b.t + 1
		for o := range b.caps {
			b.caps[o] = b.Cap(o)
		}
	}
	n := b.r.Len()
	first = b.r.At(i).Owner
	for {
		o := b.r.At(i).Owner
		if c := b.caps[o]; b.inflight[o] < c {
			b.inflight[o]++
			b.maxRatio = max(b.maxRatio, float64(b.inflight[o])/float64(c))
			tail := b.head + b.t
			if tail >= b.k {
				tail -= b.k
			}
			if tail == len(b.queue) { // the first K arrivals: head is still 0
				b.queue = append(b.queue, int32(o))
			} else {
				b.queue[tail] = int32(o)
			}
			b.t++
			return o, first
		}
		if i++; i == n {
			i = 0
		}
	}
}

// MaxLoadOverCap returns the largest in-flight count / cap of a node at
// the moment a request was placed on it, over every request so far; it is
// <= 1 by construction, and the other nodes' loads do not grow at that
// moment while caps never shrink, so no node ever exceeds its cap.
func (b *RequestBalancer) MaxLoadOverCap() float64 { return b.maxRatio }
