package crush

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chbench/chbench/topology"
)

// vectorPlacers builds the maps of testdata/ceph.txt as chbench lays them
// out: flat10 is crushtool --build --num_osds 10 host straw2 1 root
// straw2 0 (New: one host per node), racks12 is host straw2 2 rack
// straw2 3 root straw2 0 (hosts of 2 nodes, racks of 3 hosts).
func vectorPlacers(t *testing.T) map[string]*Placer {
	t.Helper()
	flat, err := New(equal(10), xxh)
	if err != nil {
		t.Fatal(err)
	}
	tp, err := topology.Split(equal(12), []topology.Grouping{{Level: "host", Spec: "6"}, {Level: "rack", Spec: "2"}})
	if err != nil {
		t.Fatal(err)
	}
	racks, err := FromTopology(tp, "host", xxh)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*Placer{"flat10": flat, "racks12": racks}
}

// TestCephVectors checks every line of testdata/ceph.txt, exact values
// from Ceph 16.2 that live.TestCrushVectorsFromCeph re-derives from the
// installed libceph-common and crushtool: the five rjenkins1 hashes, and
// the devices (in order) rule 0 maps x = 0..199 to with R = 3, through the
// placer's Replicas so that device numbering and the map layout are
// checked too.
func TestCephVectors(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "ceph.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	placers := vectorPlacers(t)
	hashes, maps := 0, 0
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		num := func(s string) uint32 {
			v, err := strconv.ParseUint(s, 10, 32)
			if err != nil {
				t.Fatalf("line %d: %v", line, err)
			}
			return uint32(v)
		}
		switch {
		case strings.HasPrefix(fs[0], "hash"):
			k, _ := strconv.Atoi(strings.TrimPrefix(fs[0], "hash"))
			if len(fs) != k+2 {
				t.Fatalf("line %d: %q", line, sc.Text())
			}
			a := make([]uint32, 5)
			for i := range k {
				a[i] = num(fs[1+i])
			}
			var got uint32
			switch k {
			case 1:
				got = Hash1(a[0])
			case 2:
				got = Hash2(a[0], a[1])
			case 3:
				got = Hash3(a[0], a[1], a[2])
			case 4:
				got = Hash4(a[0], a[1], a[2], a[3])
			case 5:
				got = Hash5(a[0], a[1], a[2], a[3], a[4])
			}
			if want := num(fs[k+1]); got != want {
				t.Errorf("line %d: hash%d%v = %d, Ceph %d", line, k, a[:k], got, want)
			}
			hashes++
		case fs[0] == "map" && len(fs) == 5:
			p := placers[fs[1]]
			if p == nil {
				t.Fatalf("line %d: unknown map %q", line, fs[1])
			}
			r, x := int(num(fs[2])), num(fs[3])
			var want []int
			for _, d := range strings.Split(fs[4], ",") {
				want = append(want, int(num(d)))
			}
			reps := p.Replicas(uint64(x), make([]int, r))
			got := make([]int, len(reps))
			for i, n := range reps {
				got[i] = p.Device(n)
			}
			if !slices.Equal(got, want) {
				t.Errorf("line %d: %s x=%d: devices %v, crushtool %v", line, fs[1], x, got, want)
			}
			maps++
		default:
			t.Fatalf("line %d: cannot read %q", line, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if hashes < 50 || maps != 400 {
		t.Errorf("checked %d hashes and %d mappings, want >= 50 and 400", hashes, maps)
	}
}
