package crush

import (
	"strconv"
	"testing"

	"github.com/chbench/chbench/topology"
)

// sink keeps the compiler from dropping the measured lookups.
var sink int

// BenchmarkLookup: the primary of a key hash on a flat map (one host per
// node: a straw2 draw per host, then one in the host) and on hosts of 4
// nodes in racks of 4 hosts, and the three replicas of the rack rule.
// Keys are precomputed hashes, indexed with a mask.
func BenchmarkLookup(b *testing.B) {
	hs := make([]uint64, 1024)
	for i := range hs {
		hs[i] = xxh.Sum("user:" + strconv.Itoa(i))
	}
	for _, n := range []int{10, 100, 1000} {
		p, err := New(equal(n), xxh)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("layout=flat/nodes="+strconv.Itoa(n)+"/r=1", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				sink = p.LocateHash(hs[i&1023])
				i++
			}
		})
		tp, err := topology.Split(equal(n), []topology.Grouping{{Level: "host", Spec: strconv.Itoa(max(1, n/4))}, {Level: "rack", Spec: strconv.Itoa(max(1, n/16))}})
		if err != nil {
			b.Fatal(err)
		}
		q, err := FromTopology(tp, "rack", xxh)
		if err != nil {
			b.Fatal(err)
		}
		dst := make([]int, 3)
		b.Run("layout=racks/nodes="+strconv.Itoa(n)+"/r=3", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				sink = q.Replicas(hs[i&1023], dst)[0]
				i++
			}
		})
	}
}
