package live

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/crush"
	"github.com/chbench/chbench/topology"
)

// The inputs every agreement check maps: crushtool's x = 0..9999.
const (
	crushMinX = 0
	crushMaxX = 9999
)

// crushCase is one map made by the real crushtool, the rule to test in
// it, and the same map as chbench builds it from a topology (nil when the
// case checks only the mapper on crushtool's own map).
type crushCase struct {
	name  string
	build [][]string // crushtool invocations, in order, in the case's directory; the last leaves "map"
	rule  int
	// chbench's own construction of the same map, compared entry by entry
	// with crushtool's, and its placer's replicas compared with crushtool's
	// mappings.
	placer func(t *testing.T) *crush.Placer
	// reweight, when set, is passed to crushtool --test as --weight d w
	// and to the mapper as the in/out vector.
	reweight map[int]float64
}

func split(t *testing.T, nodes []algorithms.Node, gs ...topology.Grouping) *topology.Topology {
	t.Helper()
	tp, err := topology.Split(nodes, gs)
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

// mustPlacer returns a function that fails t on a construction error.
func mustPlacer(t *testing.T) func(*crush.Placer, error) *crush.Placer {
	return func(p *crush.Placer, err error) *crush.Placer {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
}

func equalNodes(t *testing.T, ws ...float64) []algorithms.Node {
	nodes := make([]algorithms.Node, len(ws))
	for i, w := range ws {
		nodes[i] = algorithms.Node{ID: "osd." + strconv.Itoa(i), Weight: w}
	}
	return nodes
}

func ones(n int) []float64 {
	ws := make([]float64, n)
	for i := range ws {
		ws[i] = 1
	}
	return ws
}

// flatText is a compiled-from-source map with no buckets between the root
// and the devices and a rule that chooses devices: the map of
// crush.Build(topology.Flat(nodes), "osd"). Weights 3,3,3,1 are the case
// where multi-pick's replica ranks are known to be uneven.
const flatText = `tunable choose_local_tries 0
tunable choose_local_fallback_tries 0
tunable choose_total_tries 50
tunable chooseleaf_descend_once 1
tunable chooseleaf_vary_r 1
tunable chooseleaf_stable 1
tunable straw_calc_version 1
tunable allowed_bucket_algs 54
device 0 osd.0
device 1 osd.1
device 2 osd.2
device 3 osd.3
type 0 osd
type 1 root
root root {
	id -1
	alg straw2
	hash 0
	item osd.0 weight 3.000
	item osd.1 weight 3.000
	item osd.2 weight 3.000
	item osd.3 weight 1.000
}
rule replicated_rule {
	id 0
	type replicated
	min_size 1
	max_size 10
	step take root
	step chooseleaf firstn 0 type osd
	step emit
}
`

func crushCases() []crushCase {
	return []crushCase{
		{name: "flat-10 (one host per osd)",
			build: [][]string{{"-o", "map", "--build", "--num_osds", "10", "host", "straw2", "1", "root", "straw2", "0"}},
			placer: func(t *testing.T) *crush.Placer {
				return mustPlacer(t)(crush.New(equalNodes(t, ones(10)...), algorithms.MustHash("xxhash")))
			}},
		{name: "hosts of 2 in racks of 3",
			build: [][]string{{"-o", "map", "--build", "--num_osds", "12", "host", "straw2", "2", "rack", "straw2", "3", "root", "straw2", "0"}},
			placer: func(t *testing.T) *crush.Placer {
				tp := split(t, equalNodes(t, ones(12)...), topology.Grouping{Level: "host", Spec: "6"}, topology.Grouping{Level: "rack", Spec: "2"})
				return mustPlacer(t)(crush.FromTopology(tp, "host", algorithms.MustHash("xxhash")))
			}},
		{name: "uneven hosts 3,3,3,1 and racks, one replica per rack",
			build: [][]string{
				{"-o", "map0", "--build", "--num_osds", "10", "host", "straw2", "3", "rack", "straw2", "2", "root", "straw2", "0"},
				{"-i", "map0", "--create-replicated-rule", "byrack", "root", "rack", "-o", "map"}},
			rule: 1,
			placer: func(t *testing.T) *crush.Placer {
				tp := split(t, equalNodes(t, ones(10)...), topology.Grouping{Level: "host", Spec: "3,3,3,1"}, topology.Grouping{Level: "rack", Spec: "2"})
				return mustPlacer(t)(crush.FromTopology(tp, "rack", algorithms.MustHash("xxhash")))
			}},
		{name: "uneven weights by --reweight-item",
			build: [][]string{
				{"-o", "map0", "--build", "--num_osds", "12", "host", "straw2", "2", "rack", "straw2", "3", "root", "straw2", "0"},
				{"-i", "map0", "--reweight-item", "osd.3", "3.5", "-o", "map1"},
				{"-i", "map1", "--reweight-item", "osd.7", "0.25", "-o", "map2"},
				{"-i", "map2", "--reweight-item", "osd.0", "2", "-o", "map3"},
				{"-i", "map3", "--reweight-item", "osd.5", "0.1", "-o", "map4"},
				{"-i", "map4", "--reweight-item", "osd.9", "0.123456", "-o", "map"}},
			placer: func(t *testing.T) *crush.Placer {
				ws := ones(12)
				ws[3], ws[7], ws[0], ws[5], ws[9] = 3.5, 0.25, 2, 0.1, 0.123456
				tp := split(t, equalNodes(t, ws...), topology.Grouping{Level: "host", Spec: "6"}, topology.Grouping{Level: "rack", Spec: "2"})
				return mustPlacer(t)(crush.FromTopology(tp, "host", algorithms.MustHash("xxhash")))
			}},
		{name: "zones of racks of hosts, one replica per zone",
			build: [][]string{
				{"-o", "map0", "--build", "--num_osds", "18", "host", "straw2", "2", "rack", "straw2", "3", "zone", "straw2", "1", "root", "straw2", "0"},
				{"-i", "map0", "--create-replicated-rule", "byzone", "root", "zone", "-o", "map"}},
			rule: 1,
			placer: func(t *testing.T) *crush.Placer {
				tp := split(t, equalNodes(t, ones(18)...), topology.Grouping{Level: "host", Spec: "9"},
					topology.Grouping{Level: "rack", Spec: "3"}, topology.Grouping{Level: "zone", Spec: "3"})
				return mustPlacer(t)(crush.FromTopology(tp, "zone", algorithms.MustHash("xxhash")))
			}},
		{name: "flat osds weighted 3,3,3,1 (compiled text map)",
			build: [][]string{{"-c", "map.txt", "-o", "map"}},
			placer: func(t *testing.T) *crush.Placer {
				tp, err := topology.Flat(equalNodes(t, 3, 3, 3, 1))
				if err != nil {
					t.Fatal(err)
				}
				return mustPlacer(t)(crush.FromTopology(tp, crush.DeviceType, algorithms.MustHash("xxhash")))
			}},
		{name: "hosts with osd.3 out and osd.5 half in (--weight)",
			build:    [][]string{{"-o", "map", "--build", "--num_osds", "12", "host", "straw2", "2", "rack", "straw2", "3", "root", "straw2", "0"}},
			reweight: map[int]float64{3: 0, 5: 0.5}},
	}
}

// crushDir makes the case's maps with crushtool in a fresh directory and
// returns the map decoded from crushtool's JSON dump.
func crushDir(t *testing.T, c crushCase) (string, *crush.Map) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "map.txt"), []byte(flatText), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range c.build {
		if _, err := Crushtool(dir, CrushtoolTimeout, args...); err != nil {
			t.Fatal(err)
		}
	}
	js, err := Crushtool(dir, CrushtoolTimeout, "-i", "map", "--dump", "-f", "json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := crush.DecodeDump(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	return dir, m
}

// TestCrushtoolAgrees is the straw2 agreement check: for every map of
// crushCases, every input x = 0..9999 and R = 1, 2, 3, chbench's mapper
// returns exactly the devices, in the same order, that the real crushtool
// prints with --show-mappings, and the per-device counts equal
// --show-utilization's. Where chbench builds the same map itself (from a
// topology), its map equals crushtool's bucket for bucket (ids, types,
// items, 16.16 weights, rule, tunables) and its placer's replicas are the
// same devices.
func TestCrushtoolAgrees(t *testing.T) {
	if _, err := LookBinary("crushtool"); err != nil {
		unavailable(t, (&MissingBinary{Binary: "crushtool", Package: CrushtoolPackage}).Error())
	}
	start := time.Now()
	for _, c := range crushCases() {
		t.Run(c.name, func(t *testing.T) {
			dir, m := crushDir(t, c)
			var p *crush.Placer
			if c.placer != nil {
				p = c.placer(t)
				compareMaps(t, p.Map(), m, c.rule)
			}
			var reweight []uint32
			var weightArgs []string
			if c.reweight != nil {
				reweight = make([]uint32, m.Devices)
				for d := range reweight {
					reweight[d] = 0x10000
				}
				for d := 0; d < m.Devices; d++ {
					if w, ok := c.reweight[d]; ok {
						reweight[d] = uint32(w * 0x10000)
						weightArgs = append(weightArgs, "--weight", strconv.Itoa(d), strconv.FormatFloat(w, 'g', -1, 64))
					}
				}
			}
			for r := 1; r <= 3; r++ {
				args := append([]string{"-i", "map", "--test", "--show-mappings", "--show-utilization",
					"--rule", strconv.Itoa(c.rule), "--num-rep", strconv.Itoa(r),
					"--min-x", strconv.Itoa(crushMinX), "--max-x", strconv.Itoa(crushMaxX)}, weightArgs...)
				out, err := Crushtool(dir, CrushtoolTimeout, args...)
				if err != nil {
					t.Fatal(err)
				}
				want, err := ParseMappings(out, crushMinX, crushMaxX)
				if err != nil {
					t.Fatal(err)
				}
				stored, err := ParseUtilization(out)
				if err != nil {
					t.Fatal(err)
				}
				counts := map[int]int{}
				bad := 0
				res := make([]int32, r)
				for x := crushMinX; x <= crushMaxX; x++ {
					k := m.Do(c.rule, uint32(x), res, reweight)
					got := make([]int, k)
					for i, d := range res[:k] {
						got[i] = int(d)
						counts[int(d)]++
					}
					if !reflect.DeepEqual(got, want[x-crushMinX]) {
						if bad++; bad <= 5 {
							t.Errorf("R=%d x=%d: chbench %v, crushtool %v", r, x, got, want[x-crushMinX])
						}
					}
					if p != nil && len(got) == r {
						reps := p.Replicas(uint64(x), make([]int, r))
						for i, n := range reps {
							if p.Device(n) != got[i] {
								t.Fatalf("R=%d x=%d: placer replicas on devices %v, mapper %v", r, x, devices(p, reps), got)
							}
						}
					}
				}
				if bad > 0 {
					t.Errorf("R=%d: %d of %d inputs differ", r, bad, crushMaxX-crushMinX+1)
				}
				if !reflect.DeepEqual(counts, stored) {
					t.Errorf("R=%d: per-device counts %v, crushtool --show-utilization %v", r, counts, stored)
				}
			}
		})
	}
	t.Logf("%d maps x R = 1..3 x %d inputs agree with crushtool in %v", len(crushCases()), crushMaxX-crushMinX+1, time.Since(start).Round(time.Millisecond))
}

func devices(p *crush.Placer, nodes []int) []int {
	out := make([]int, len(nodes))
	for i, n := range nodes {
		out[i] = p.Device(n)
	}
	return out
}

// compareMaps fails unless chbench's map (rule 0) is crushtool's (rule
// rule) in every field the mapper reads.
func compareMaps(t *testing.T, got, want *crush.Map, rule int) {
	t.Helper()
	if got.Devices != want.Devices || got.Tunables != want.Tunables {
		t.Errorf("devices %d tunables %+v, crushtool %d %+v", got.Devices, got.Tunables, want.Devices, want.Tunables)
	}
	if !reflect.DeepEqual(got.Types, want.Types) {
		t.Errorf("types %q, crushtool %q", got.Types, want.Types)
	}
	if len(got.Buckets) != len(want.Buckets) {
		t.Fatalf("%d buckets, crushtool %d", len(got.Buckets), len(want.Buckets))
	}
	for i := range got.Buckets {
		g, w := got.Buckets[i], want.Buckets[i]
		if g.ID != w.ID || g.Type != w.Type || !reflect.DeepEqual(g.Items, w.Items) {
			t.Errorf("bucket %d: chbench %q type %d items %v; crushtool %q type %d items %v", g.ID, g.Name, g.Type, g.Items, w.Name, w.Type, w.Items)
		}
	}
	if !reflect.DeepEqual(got.Rules[0].Steps, want.Rules[rule].Steps) {
		t.Errorf("rule steps %+v, crushtool rule %d %+v", got.Rules[0].Steps, rule, want.Rules[rule].Steps)
	}
}
