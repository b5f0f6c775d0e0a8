// Package crush places keys with CRUSH (Weil, Brandt, Miller, Maltzahn,
// "CRUSH: Controlled, Scalable, Decentralized Placement of Replicated
// Data", SC 2006) as Ceph's mapper runs it with straw2 buckets (Ceph
// src/crush/mapper.c, hash.c and crush_ln_table.h, v16.2 "Pacific"): a
// hierarchy of buckets over devices, walked by a rule (take the root,
// chooseleaf firstn R over a failure-domain type, emit), each bucket
// choosing among its items by straw2, a weighted rendezvous whose draws
// are Ceph's fixed-point logarithms of a Jenkins hash of (input, item,
// replica rank) divided by 16.16 weights.
//
//   - Input: a key's hash (the configured key hash) truncated to 32
//     bits is CRUSH's input x. Ceph itself hashes an object name to a
//     placement group and the group to x; chbench maps keys directly,
//     as `crushtool --test` maps x.
//   - Lookup: O(sum of the bucket sizes on the path): one straw2 draw per
//     item of each bucket the rule descends through (a flat map: n draws,
//     like rendezvous); retries on collisions add whole descents.
//   - Memory: 8 bytes per item plus a bucket header per domain.
//   - Replicas: the rule's R devices, at most one per failure domain,
//     retried on collisions as the mapper does (choose_total_tries 50,
//     chooseleaf_descend_once, chooseleaf_vary_r 1, chooseleaf_stable 1:
//     the tunables `crushtool --build` writes).
//   - Removal: any node may leave; straw2 moves data only to or from
//     the items whose weight changed, so a leaving node's keys move, and
//     at each level above it the bucket that lost weight sheds a matching
//     share. Device and bucket IDs of what stays are kept (Ceph keeps
//     them), so nothing else is renumbered.
//   - Weights: 16.16 fixed point as Ceph converts them (float32(w) *
//     0x10000, truncated: [FixedWeight]); a weight below 1/65536 or a
//     bucket over 65536 is an error.
//   - Without a topology (New): one host per node under one root, the map
//     of `crushtool --build --num_osds N host straw2 1 root straw2 0`.
//
// The live test (live/crushtool_test.go) builds maps with the real
// crushtool and requires the same devices in the same order for every
// input.
package crush

import (
	"fmt"
	"slices"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/topology"
)

// Name is the registry name of the algorithm.
const Name = "crush"

// FlatDomain is the failure domain of a placement built without a
// topology: one host per node.
const FlatDomain = "host"

// Placer is an immutable CRUSH placement: a [Map], its rule 0, and the
// nodes as its devices. It implements [algorithms.Placer] and
// [algorithms.Replicator], is safe for concurrent use, and its lookups do
// not allocate.
type Placer struct {
	m        *Map
	lay      *layout
	topo     *topology.Topology
	flat     bool
	domain   string
	nodes    []algorithms.Node
	nodeOf   []int32  // device id -> index in nodes, -1 for none
	reweight []uint32 // nil: every device in
	hash     algorithms.Hash
}

var (
	_ algorithms.Placer     = (*Placer)(nil)
	_ algorithms.Replicator = (*Placer)(nil)
)

// New returns the CRUSH placement of nodes without failure domains: one
// host bucket per node (the host named by the node ID) under one root,
// devices numbered in node order, rule `take root; chooseleaf firstn 0
// type host; emit`. Keys are hashed with h. It returns the errors of
// [algorithms.ValidateNodes] and of [FixedWeight].
func New(nodes []algorithms.Node, h algorithms.Hash) (*Placer, error) {
	t, err := flatTopology(nodes)
	if err != nil {
		return nil, err
	}
	return build(t, FlatDomain, true, nil, h)
}

func flatTopology(nodes []algorithms.Node) (*topology.Topology, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("crush: %w", err)
	}
	members := make([]topology.Member, len(nodes))
	for i, n := range nodes {
		members[i] = topology.Member{Node: n, Domains: []string{n.ID}}
	}
	return topology.New([]string{FlatDomain}, members)
}

// FromTopology returns the CRUSH placement of t's nodes with the map of
// [Build]: at most one replica per domain at level failureDomain (one of
// t.Levels(), or DeviceType for distinct devices only). Keys are hashed
// with h. It returns the errors of Build.
func FromTopology(t *topology.Topology, failureDomain string, h algorithms.Hash) (*Placer, error) {
	return build(t, failureDomain, false, nil, h)
}

func build(t *topology.Topology, domain string, flat bool, prev *layout, h algorithms.Hash) (*Placer, error) {
	m, lay, err := buildMap(t, domain, prev)
	if err != nil {
		return nil, err
	}
	p := &Placer{m: m, lay: lay, topo: t, flat: flat, domain: domain, nodes: t.Nodes(), hash: h}
	p.nodeOf = make([]int32, m.Devices)
	for i := range p.nodeOf {
		p.nodeOf[i] = -1
	}
	for i, n := range p.nodes {
		p.nodeOf[lay.device[n.ID]] = int32(i)
	}
	return p, nil
}

// Algorithm returns "crush".
func (p *Placer) Algorithm() string { return Name }

// Nodes returns the membership in the topology's order.
func (p *Placer) Nodes() []algorithms.Node { return p.nodes }

// Map returns the placement's CRUSH map. Callers must not modify it.
func (p *Placer) Map() *Map { return p.m }

// Topology returns the topology the map was built from (for New, one
// host per node).
func (p *Placer) Topology() *topology.Topology { return p.topo }

// FailureDomain returns the type the rule chooses leaves under.
func (p *Placer) FailureDomain() string { return p.domain }

// Device returns the CRUSH device id of node i of Nodes().
func (p *Placer) Device(i int) int { return int(p.lay.device[p.nodes[i].ID]) }

// HashKey returns the configured hash of key; its low 32 bits are the
// CRUSH input x.
func (p *Placer) HashKey(key string) uint64 { return p.hash.Sum(key) }

// LocateHash returns the index of the primary: the first device rule 0
// maps x = uint32(h) to. When no device can be found (every device
// marked out), it returns the first node in Nodes() order that is in.
func (p *Placer) LocateHash(h uint64) int {
	var res [1]int32
	if p.m.Do(0, uint32(h), res[:], p.reweight) == 1 {
		return int(p.nodeOf[res[0]])
	}
	return p.fallback(nil)
}

// Locate returns the ID of the primary of key.
func (p *Placer) Locate(key string) string { return p.nodes[p.LocateHash(p.hash.Sum(key))].ID }

// Replicas implements [algorithms.Replicator]: the devices rule 0 maps x
// = uint32(h) to for R = min(len(dst), n, MaxReplicas), in rule order
// (the first is LocateHash's owner: a firstn rule's first R results do not
// depend on R). When the rule finds fewer than R (fewer failure domains
// than R: Ceph would leave the placement group undersized), the rest are
// the next nodes after the primary in Nodes() order, wrapping, that are
// not chosen yet and not out, so the result always holds R distinct nodes;
// those extra replicas share a domain with another replica.
func (p *Placer) Replicas(h uint64, dst []int) []int {
	want := min(len(dst), len(p.nodes), algorithms.MaxReplicas)
	out := dst[:0]
	if want == 0 {
		return out
	}
	var res [algorithms.MaxReplicas]int32
	k := p.m.Do(0, uint32(h), res[:want], p.reweight)
	for _, d := range res[:k] {
		out = append(out, int(p.nodeOf[d]))
	}
	for len(out) < want {
		out = append(out, p.fallback(out))
	}
	return out
}

// fallback returns the first node after out[0] (or from 0 when out is
// empty) in Nodes() order, wrapping, that is neither in out nor out of
// the map; any node not in out when every one is out.
func (p *Placer) fallback(out []int) int {
	start := 0
	if len(out) > 0 {
		start = out[0] + 1
	}
	n := len(p.nodes)
	firstFree := -1
	for j := range n {
		i := (start + j) % n
		if slices.Contains(out, i) {
			continue
		}
		if firstFree < 0 {
			firstFree = i
		}
		if p.reweight == nil || p.reweight[p.Device(i)] != 0 {
			return i
		}
	}
	return firstFree
}

// Rebalance returns the placement for nodes, matched by ID: nodes that
// stay keep their device ids and domains, buckets that stay keep their
// ids, and new nodes get the lowest free device ids. A placement built by
// New puts a new node in its own new host; one built from a topology
// refuses a node the topology does not place (use [Placer.WithTopology]).
func (p *Placer) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	if p.flat {
		t, err := flatTopology(nodes)
		if err != nil {
			return nil, err
		}
		return build(t, p.domain, true, p.lay, p.hash)
	}
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("crush: %w", err)
	}
	t, err := p.topo.Place(nodes) // each node in its domains, with its new weight
	if err != nil {
		return nil, fmt.Errorf("crush: %w: rebuild with WithTopology", err)
	}
	return build(t, p.domain, false, p.lay, p.hash)
}

// WithTopology returns the placement for topology t (nodes joining or
// leaving, domains added or lost), keeping the device ids of nodes and
// the bucket ids of domains that stay, as Ceph does when OSDs and buckets
// are added to or removed from a map. It returns the errors of Build.
func (p *Placer) WithTopology(t *topology.Topology) (*Placer, error) {
	return build(t, p.domain, false, p.lay, p.hash)
}

// MarkOut returns the placement after the nodes with the given IDs are
// marked out, as Ceph marks a failed OSD out: the map is unchanged (the
// failed devices keep their weights in their buckets) and the mapper
// rejects them, retrying with the next replica rank. Nodes() is
// unchanged; marked nodes own nothing. It returns an error naming an ID
// that is not a member, or when every node would be out.
func (p *Placer) MarkOut(ids ...string) (*Placer, error) {
	rw := make([]uint32, p.m.Devices)
	for d := range rw {
		rw[d] = 0x10000
		if p.reweight != nil {
			rw[d] = p.reweight[d]
		}
	}
	for _, id := range ids {
		i := algorithms.IndexOf(p.nodes, id)
		if i < 0 {
			return nil, fmt.Errorf("crush: node %q is not a member", id)
		}
		rw[p.Device(i)] = 0
	}
	in := 0
	for _, n := range p.nodes {
		if rw[p.lay.device[n.ID]] != 0 {
			in++
		}
	}
	if in == 0 {
		return nil, fmt.Errorf("crush: marking %q out leaves no node in", ids)
	}
	q := *p
	q.reweight = rw
	return &q, nil
}
