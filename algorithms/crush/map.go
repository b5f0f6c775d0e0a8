package crush

import (
	"fmt"
	"math"
)

// Weight is a CRUSH weight in Ceph's 16.16 fixed point: 0x10000 is 1.0
// (by convention one TiB of capacity). A bucket's weight is the sum of
// its items' weights.
type Weight uint32

// WeightOne is the 16.16 weight 1.0.
const WeightOne Weight = 0x10000

// FixedWeight returns w in 16.16 fixed point as Ceph converts a weight
// given as a number (CrushWrapper, `crushtool --reweight-item`, `ceph osd
// crush reweight`): w as a 32-bit float times 0x10000, truncated (0.1
// gives 6553, not 6554). It returns an error naming w when it is not
// finite, when the result is 0 (below 1/65536: straw2 would never choose
// it) or when it does not fit in 32 bits (w >= 65536).
func FixedWeight(w float64) (Weight, error) {
	if math.IsNaN(w) || math.IsInf(w, 0) || w <= 0 {
		return 0, fmt.Errorf("crush: weight %v must be a finite number > 0", w)
	}
	f := math.Trunc(float64(float32(w) * 0x10000))
	if f < 1 {
		return 0, fmt.Errorf("crush: weight %v is below 1/65536, the smallest 16.16 fixed-point weight", w)
	}
	if f > math.MaxUint32 {
		return 0, fmt.Errorf("crush: weight %v does not fit in 16.16 fixed point (at most 65535.99998)", w)
	}
	return Weight(f), nil
}

// Float returns w as a number (1.0 for WeightOne).
func (w Weight) Float() float64 { return float64(w) / 0x10000 }

// Item is one entry of a bucket: a device (ID >= 0) or another bucket
// (ID < 0), with its weight in the bucket.
type Item struct {
	ID     int32
	Weight Weight
}

// Bucket is a straw2 bucket with the rjenkins1 hash: ID is negative
// (-1, -2, ...), Type indexes Map.Types, Items are in bucket order (the
// order matters only for ties, which go to the earlier item).
type Bucket struct {
	ID    int32
	Name  string
	Type  int
	Items []Item
}

// Weight returns the sum of the bucket's item weights.
func (b *Bucket) Weight() uint64 {
	var w uint64
	for _, it := range b.Items {
		w += uint64(it.Weight)
	}
	return w
}

// Op is a rule step's operation.
type Op uint8

// The rule steps chbench runs (the replicated rules Ceph builds). A map
// with other steps (indep, the set_* overrides other than those listed)
// is refused by [Map.Validate].
const (
	OpTake               Op = iota + 1 // step take <bucket>: start from Arg1
	OpChooseFirstN                     // step choose firstn <Arg1> type <Arg2>
	OpChooseLeafFirstN                 // step chooseleaf firstn <Arg1> type <Arg2>
	OpEmit                             // step emit
	OpSetChooseTries                   // step set_choose_tries <Arg1>
	OpSetChooseLeafTries               // step set_chooseleaf_tries <Arg1>
)

// Step is one rule step. For choose steps Arg1 is the number of items,
// where <= 0 means the replication factor plus Arg1 (Ceph's "firstn 0"
// is all R), and Arg2 the type to choose.
type Step struct {
	Op   Op
	Arg1 int
	Arg2 int
}

// Rule is a replicated rule: its steps in order.
type Rule struct {
	Name  string
	Steps []Step
}

// Tunables are the map-wide retry settings of the mapper (Ceph's
// crush_map fields of the same names). [OptimalTunables] are the ones
// `crushtool --build` writes in Ceph 16.2 (profile jewel).
type Tunables struct {
	ChooseLocalTries         int // local retries after a collision before a new descent
	ChooseLocalFallbackTries int // must be 0: the legacy permutation fallback is not implemented
	ChooseTotalTries         int // descents per replica (the mapper tries one more, as Ceph does)
	ChooseLeafDescendOnce    bool
	ChooseLeafVaryR          int // 0, or the shift+1 that passes r to the leaf choice
	ChooseLeafStable         bool
}

// OptimalTunables returns the tunables `crushtool --build` sets in Ceph
// 16.2 (read with `crushtool -d`): choose_local_tries 0,
// choose_local_fallback_tries 0, choose_total_tries 50,
// chooseleaf_descend_once 1, chooseleaf_vary_r 1, chooseleaf_stable 1.
func OptimalTunables() Tunables {
	return Tunables{ChooseTotalTries: 50, ChooseLeafDescendOnce: true, ChooseLeafVaryR: 1, ChooseLeafStable: true}
}

// Map is a CRUSH map: Devices device IDs 0..Devices-1, the type names
// (Types[0] is the device type, "osd"), the buckets (Buckets[-1-id] is
// bucket id, nil for an unused id), the rules and the tunables. Build one
// with [Build] or [DecodeDump], or fill the fields and call Validate.
// A validated Map is read-only: mappings never change it, so one Map
// serves any number of goroutines.
type Map struct {
	Devices  int
	Types    []string
	Buckets  []*Bucket
	Rules    []Rule
	Tunables Tunables
}

// Bucket returns bucket id (< 0), or nil when there is none.
func (m *Map) Bucket(id int32) *Bucket {
	i := -1 - int(id)
	if id >= 0 || i >= len(m.Buckets) {
		return nil
	}
	return m.Buckets[i]
}

// MaxDevices bounds the device IDs of a map (2^24, far beyond any Ceph
// cluster), and MaxItems the entries of one bucket.
const (
	MaxDevices = 1 << 24
	MaxItems   = 1 << 20
)

// Validate checks everything the mapper relies on, with an error naming
// the bucket, rule or step: device and bucket IDs in range, each bucket
// at its own index, items that exist, each item in at most one bucket, no
// cycles, bucket weights that fit in 32 bits, types that exist, rules of
// known steps that start with take, and the supported tunables.
func (m *Map) Validate() error {
	if m.Devices < 1 || m.Devices > MaxDevices {
		return fmt.Errorf("crush: %d devices: need 1 to %d", m.Devices, MaxDevices)
	}
	if len(m.Types) == 0 {
		return fmt.Errorf("crush: no types (type 0 is the device type)")
	}
	t := m.Tunables
	if t.ChooseLocalFallbackTries != 0 {
		return fmt.Errorf("crush: tunable choose_local_fallback_tries %d: only 0 (the optimal tunables since Ceph Bobtail) is implemented", t.ChooseLocalFallbackTries)
	}
	if t.ChooseLocalTries < 0 || t.ChooseTotalTries < 0 || t.ChooseLeafVaryR < 0 || t.ChooseLeafVaryR > 31 {
		return fmt.Errorf("crush: tunables %+v: negative or out of range", t)
	}
	parent := make(map[int32]int32)
	for i, b := range m.Buckets {
		if b == nil {
			continue
		}
		if want := int32(-1 - i); b.ID != want {
			return fmt.Errorf("crush: bucket %q at index %d has id %d, want %d", b.Name, i, b.ID, want)
		}
		if b.Type < 0 || b.Type >= len(m.Types) {
			return fmt.Errorf("crush: bucket %q (id %d): type %d not among the %d types", b.Name, b.ID, b.Type, len(m.Types))
		}
		if len(b.Items) > MaxItems {
			return fmt.Errorf("crush: bucket %q (id %d): %d items, at most %d", b.Name, b.ID, len(b.Items), MaxItems)
		}
		if b.Weight() > math.MaxUint32 {
			return fmt.Errorf("crush: bucket %q (id %d): weight %d overflows 32 bits", b.Name, b.ID, b.Weight())
		}
		for _, it := range b.Items {
			if it.ID >= 0 && int(it.ID) >= m.Devices {
				return fmt.Errorf("crush: bucket %q (id %d): device %d beyond the %d devices", b.Name, b.ID, it.ID, m.Devices)
			}
			if it.ID < 0 && m.Bucket(it.ID) == nil {
				return fmt.Errorf("crush: bucket %q (id %d): item %d is no bucket", b.Name, b.ID, it.ID)
			}
			if p, dup := parent[it.ID]; dup {
				return fmt.Errorf("crush: item %d is in buckets %d and %d", it.ID, p, b.ID)
			}
			parent[it.ID] = b.ID
		}
	}
	// A cycle would make a descent loop forever: follow parents from each
	// bucket; a path longer than the number of buckets has one.
	for _, b := range m.Buckets {
		if b == nil {
			continue
		}
		id := b.ID
		for steps := 0; ; steps++ {
			p, ok := parent[id]
			if !ok {
				break
			}
			if steps > len(m.Buckets) {
				return fmt.Errorf("crush: bucket %q (id %d) is inside itself", b.Name, b.ID)
			}
			id = p
		}
	}
	if len(m.Rules) == 0 {
		return fmt.Errorf("crush: no rules")
	}
	for ri, r := range m.Rules {
		for si, s := range r.Steps {
			where := fmt.Sprintf("crush: rule %d (%q) step %d", ri, r.Name, si)
			switch s.Op {
			case OpTake:
				if m.Bucket(int32(s.Arg1)) == nil {
					return fmt.Errorf("%s: take %d: no such bucket", where, s.Arg1)
				}
			case OpChooseFirstN, OpChooseLeafFirstN:
				if s.Arg2 < 0 || s.Arg2 >= len(m.Types) {
					return fmt.Errorf("%s: type %d not among the %d types", where, s.Arg2, len(m.Types))
				}
			case OpEmit, OpSetChooseTries, OpSetChooseLeafTries:
			default:
				return fmt.Errorf("%s: operation %d is not implemented (take, choose firstn, chooseleaf firstn, emit, set_choose_tries, set_chooseleaf_tries)", where, s.Op)
			}
		}
	}
	return nil
}
