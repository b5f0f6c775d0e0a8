package crush

import (
	"fmt"
	"slices"

	"github.com/chbench/chbench/topology"
)

// DeviceType is the name of type 0, the devices (Ceph's OSDs).
const DeviceType = "osd"

// RootName is the name (and type name) of the bucket above the
// outermost level.
const RootName = "root"

// layout fixes the IDs of a map's devices (by node ID) and buckets (by
// level and domain name), so that a rebuilt map keeps the IDs of
// everything that stays, as Ceph keeps OSD and bucket ids when devices
// come and go: the straw2 draws hash the IDs, so renumbering would move
// data that has no reason to move.
type layout struct {
	device map[string]int32
	bucket map[bucketKey]int32
}

type bucketKey struct{ level, name string }

// lowestFree returns the smallest n >= 0 not in used.
func lowestFree(used map[int32]bool) int32 {
	for n := int32(0); ; n++ {
		if !used[n] {
			return n
		}
	}
}

// Build returns the CRUSH map of a topology as `crushtool --build` lays
// one out (Ceph 16.2, src/tools/crushtool.cc): type 0 is DeviceType, then
// one type per level from the innermost out, then RootName; node i of
// t.Nodes() is device i with its weight in 16.16 fixed point
// ([FixedWeight], as crushtool converts a weight); each domain is a straw2 bucket holding its nodes (or
// the domains one level in) in order of first appearance, with the sum of
// their weights; bucket ids go -1, -2, ... from the innermost level's
// domains out, the root last; and rule 0 is `take root; chooseleaf firstn
// 0 type <failureDomain>; emit` with [OptimalTunables]. failureDomain is
// one of t.Levels(), or DeviceType to choose devices directly. So 12
// nodes split into hosts of 2 and racks of 3 hosts give the map of
// `crushtool --build --num_osds 12 host straw2 2 rack straw2 3 root
// straw2 0`.
//
// It returns an error naming an unknown failure domain or a weight that
// does not fit in 16.16 fixed point.
func Build(t *topology.Topology, failureDomain string) (*Map, error) {
	m, _, err := buildMap(t, failureDomain, nil)
	return m, err
}

// buildMap is Build keeping the IDs of prev (nil: number afresh) and
// returning the IDs it used.
func buildMap(t *topology.Topology, failureDomain string, prev *layout) (*Map, *layout, error) {
	levels := t.Levels()
	L := len(levels)
	m := &Map{Types: []string{DeviceType}, Tunables: OptimalTunables()}
	for l := L - 1; l >= 0; l-- {
		m.Types = append(m.Types, levels[l])
	}
	m.Types = append(m.Types, RootName)
	for _, l := range levels {
		if l == DeviceType || l == RootName {
			return nil, nil, fmt.Errorf("crush: level %q: the name is CRUSH's own (type 0 %q, the top bucket %q)", l, DeviceType, RootName)
		}
	}
	fdType := slices.Index(m.Types[:len(m.Types)-1], failureDomain)
	if fdType < 0 {
		return nil, nil, fmt.Errorf("crush: failure domain %q is not a level of the topology (levels %q, or %q for devices)", failureDomain, levels, DeviceType)
	}
	nodes := t.Nodes()
	lay := &layout{device: make(map[string]int32, len(nodes)), bucket: map[bucketKey]int32{}}
	// Devices: keep previous IDs, give new nodes the lowest free ones.
	used := map[int32]bool{}
	if prev != nil {
		for _, n := range nodes {
			if id, ok := prev.device[n.ID]; ok {
				lay.device[n.ID] = id
				used[id] = true
			}
		}
	}
	for _, n := range nodes {
		if _, ok := lay.device[n.ID]; !ok {
			id := lowestFree(used)
			lay.device[n.ID] = id
			used[id] = true
		}
	}
	weights := make([]Weight, len(nodes))
	for i, n := range nodes {
		w, err := FixedWeight(n.Weight)
		if err != nil {
			return nil, nil, fmt.Errorf("node %q: %w", n.ID, err)
		}
		weights[i] = w
		m.Devices = max(m.Devices, int(lay.device[n.ID])+1)
	}
	// Buckets in crushtool's creation order: the innermost level's domains,
	// then each level out, then the root.
	type key = bucketKey
	var order []key
	for l := L - 1; l >= 0; l-- {
		for _, d := range t.Domains(l) {
			order = append(order, key{levels[l], d})
		}
	}
	order = append(order, key{RootName, RootName})
	usedB := map[int32]bool{}
	if prev != nil {
		for _, k := range order {
			if id, ok := prev.bucket[k]; ok {
				lay.bucket[k] = id
				usedB[-1-id] = true
			}
		}
	}
	for _, k := range order {
		if _, ok := lay.bucket[k]; !ok {
			i := lowestFree(usedB)
			lay.bucket[k] = -1 - i
			usedB[i] = true
		}
	}
	bucketOf := func(k key, typ int) *Bucket {
		id := lay.bucket[k]
		i := -1 - int(id)
		for len(m.Buckets) <= i {
			m.Buckets = append(m.Buckets, nil)
		}
		if m.Buckets[i] == nil {
			m.Buckets[i] = &Bucket{ID: id, Name: k.name, Type: typ}
		}
		return m.Buckets[i]
	}
	// Fill: devices into the innermost domains (or the root when flat),
	// each domain into its parent, in order of first appearance. Level l
	// (0 outermost) has type L-l, the root L+1.
	for i, n := range nodes {
		k := key{RootName, RootName}
		if L > 0 {
			k = key{levels[L-1], t.Domains(L - 1)[t.DomainOf(L - 1)[i]]}
		}
		b := bucketOf(k, 1)
		b.Items = append(b.Items, Item{ID: lay.device[n.ID], Weight: weights[i]})
	}
	for l := L - 1; l >= 0; l-- {
		for d, name := range t.Domains(l) {
			child := bucketOf(key{levels[l], name}, L-l)
			pk, pt := key{RootName, RootName}, L+1
			if l > 0 {
				pk, pt = key{levels[l-1], t.Domains(l - 1)[t.Parent(l, d)]}, L-l+1
			}
			w := child.Weight()
			if w > 0xffffffff {
				return nil, nil, fmt.Errorf("crush: %s %q: weight %v overflows 16.16 fixed point (at most 65535.99998 a bucket)", levels[l], name, float64(w)/0x10000)
			}
			p := bucketOf(pk, pt)
			p.Items = append(p.Items, Item{ID: child.ID, Weight: Weight(w)})
		}
	}
	root := bucketOf(key{RootName, RootName}, L+1)
	m.Rules = []Rule{{Name: "replicated_rule", Steps: []Step{
		{Op: OpTake, Arg1: int(root.ID)},
		{Op: OpChooseLeafFirstN, Arg1: 0, Arg2: fdType},
		{Op: OpEmit},
	}}}
	if err := m.Validate(); err != nil {
		return nil, nil, err
	}
	return m, lay, nil
}
