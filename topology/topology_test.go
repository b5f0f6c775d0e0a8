package topology

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
)

func nodes(t *testing.T, n int) []algorithms.Node {
	t.Helper()
	ns, err := algorithms.DefaultNodes(n)
	if err != nil {
		t.Fatal(err)
	}
	return ns
}

// domainNames returns each node's domain name at level l.
func domainNames(tp *Topology, l int) []string {
	out := make([]string, len(tp.Nodes()))
	for i, d := range tp.DomainOf(l) {
		out[i] = tp.Domains(l)[d]
	}
	return out
}

// ParseSizes: a count splits as evenly as possible with the first domains
// one larger; a list is taken as it is.
func TestParseSizes(t *testing.T) {
	for _, c := range []struct {
		spec  string
		units int
		want  []int
	}{
		{"4", 10, []int{3, 3, 2, 2}},
		{"3", 9, []int{3, 3, 3}},
		{"1", 5, []int{5}},
		{"2,2,2,3", 9, []int{2, 2, 2, 3}},
		{" 4, 2 ", 6, []int{4, 2}},
	} {
		got, err := ParseSizes(c.spec, c.units)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseSizes(%q, %d) = %v, %v; want %v", c.spec, c.units, got, err, c.want)
		}
	}
}

// Bad specs are errors that quote the spec and say what is wrong.
func TestParseSizesErrors(t *testing.T) {
	for _, c := range []struct {
		spec  string
		units int
		want  string
	}{
		{"0", 4, `entry "0" is not a whole number >= 1`},
		{"x", 4, `entry "x"`},
		{"2,,2", 4, `entry ""`},
		{"5", 4, "would leave 1 empty"},
		{"2,3", 4, "add up to 5, but there are 4"},
		{"-1", 4, `entry "-1"`},
	} {
		_, err := ParseSizes(c.spec, c.units)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.spec) {
			t.Errorf("ParseSizes(%q, %d) error %v; want one containing %q and the spec", c.spec, c.units, err, c.want)
		}
	}
}

// Split groups contiguous nodes into racks and racks into zones, names
// domains <level>-<j>, and lists levels outermost first.
func TestSplitRacksAndZones(t *testing.T) {
	tp, err := Split(nodes(t, 10), []Grouping{{"rack", "4"}, {"zone", "2"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := tp.Levels(); !reflect.DeepEqual(got, []string{"zone", "rack"}) {
		t.Fatalf("levels %q", got)
	}
	racks := domainNames(tp, 1)
	wantRacks := []string{"rack-0", "rack-0", "rack-0", "rack-1", "rack-1", "rack-1", "rack-2", "rack-2", "rack-3", "rack-3"}
	if !reflect.DeepEqual(racks, wantRacks) {
		t.Errorf("racks %q, want %q", racks, wantRacks)
	}
	zones := domainNames(tp, 0)
	wantZones := []string{"zone-0", "zone-0", "zone-0", "zone-0", "zone-0", "zone-0", "zone-1", "zone-1", "zone-1", "zone-1"}
	if !reflect.DeepEqual(zones, wantZones) {
		t.Errorf("zones %q, want %q", zones, wantZones)
	}
	for d := range tp.Domains(1) {
		if want := d / 2; tp.Parent(1, d) != want {
			t.Errorf("rack %d parent %d, want %d", d, tp.Parent(1, d), want)
		}
	}
	if got := tp.DomainWeights(0); !reflect.DeepEqual(got, []float64{6, 4}) {
		t.Errorf("zone weights %v, want [6 4]", got)
	}
}

// An uneven zone split of 9 nodes, 2/2/2/3, straight from the nodes.
func TestSplitUnevenZones(t *testing.T) {
	tp, err := Split(nodes(t, 9), []Grouping{{"zone", "2,2,2,3"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := tp.DomainWeights(0); !reflect.DeepEqual(got, []float64{2, 2, 2, 3}) {
		t.Errorf("zone weights %v, want [2 2 2 3]", got)
	}
	if _, err := Split(nodes(t, 9), []Grouping{{"zone", "2,2,2,2"}}); err == nil || !strings.Contains(err.Error(), "zone") {
		t.Errorf("sizes adding to 8 for 9 nodes: error %v, want one naming the zone grouping", err)
	}
}

// New refuses inconsistent hierarchies and bad names, naming the value.
func TestNewErrors(t *testing.T) {
	n := nodes(t, 3)
	for _, c := range []struct {
		name    string
		levels  []string
		members []Member
		want    string
	}{
		{"two parents", []string{"zone", "rack"}, []Member{
			{n[0], []string{"a", "r1"}}, {n[1], []string{"b", "r1"}}},
			`rack "r1" is in zone "a" (node "node-0") and in zone "b" (node "node-1")`},
		{"missing domain", []string{"zone", "rack"}, []Member{{n[0], []string{"a"}}}, `node "node-0" names 1 domains`},
		{"empty domain", []string{"rack"}, []Member{{n[0], []string{""}}}, "empty domain name"},
		{"control char", []string{"rack"}, []Member{{n[0], []string{"r\n1"}}}, "control character"},
		{"duplicate level", []string{"rack", "rack"}, []Member{{n[0], []string{"a", "b"}}}, `level "rack" appears twice`},
		{"empty level", []string{""}, []Member{{n[0], []string{"a"}}}, "level 0 has an empty name"},
		{"space in level", []string{"my rack"}, []Member{{n[0], []string{"a"}}}, `"my rack"`},
		{"duplicate node", []string{"rack"}, []Member{{n[0], []string{"a"}}, {n[0], []string{"b"}}}, `duplicate node ID "node-0"`},
		{"bad weight", []string{"rack"}, []Member{{algorithms.Node{ID: "x", Weight: -1}, []string{"a"}}}, "weight -1"},
	} {
		_, err := New(c.levels, c.members)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	if _, err := New(nil, nil); !errors.Is(err, algorithms.ErrNoNodes) {
		t.Errorf("no members: error %v, want ErrNoNodes", err)
	}
}

// DomainsOf maps a placement's own node order by ID and names a stranger.
func TestDomainsOfByID(t *testing.T) {
	tp, err := Split(nodes(t, 4), []Grouping{{"rack", "2"}})
	if err != nil {
		t.Fatal(err)
	}
	n := tp.Nodes()
	got, err := tp.DomainsOf(0, []algorithms.Node{n[3], n[0], n[2]})
	if err != nil || !reflect.DeepEqual(got, []int32{1, 0, 1}) {
		t.Errorf("DomainsOf = %v, %v; want [1 0 1]", got, err)
	}
	if _, err := tp.DomainsOf(0, []algorithms.Node{{ID: "elsewhere", Weight: 1}}); err == nil || !strings.Contains(err.Error(), `"elsewhere"`) {
		t.Errorf("stranger: error %v, want one naming it", err)
	}
	if _, err := tp.Level("zone"); err == nil || !strings.Contains(err.Error(), "levels: rack") {
		t.Errorf("Level(zone): %v, want an error listing the levels", err)
	}
}

// WithoutDomain removes exactly the nodes of one rack and keeps the rest
// in order with their domains; With appends members.
func TestWithoutDomainAndWith(t *testing.T) {
	tp, err := Split(nodes(t, 6), []Grouping{{"rack", "3"}})
	if err != nil {
		t.Fatal(err)
	}
	next, gone, err := tp.WithoutDomain("rack", "rack-1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gone, []string{"node-2", "node-3"}) {
		t.Errorf("gone %q", gone)
	}
	var ids []string
	for _, n := range next.Nodes() {
		ids = append(ids, n.ID)
	}
	if !reflect.DeepEqual(ids, []string{"node-0", "node-1", "node-4", "node-5"}) || !reflect.DeepEqual(domainNames(next, 0), []string{"rack-0", "rack-0", "rack-2", "rack-2"}) {
		t.Errorf("after losing rack-1: %q in %q", ids, domainNames(next, 0))
	}
	if _, _, err := tp.WithoutDomain("rack", "rack-9"); err == nil || !strings.Contains(err.Error(), `"rack-9"`) {
		t.Errorf("unknown rack: %v", err)
	}
	one, _ := Split(nodes(t, 2), []Grouping{{"rack", "1"}})
	if _, _, err := one.WithoutDomain("rack", "rack-0"); err == nil || !strings.Contains(err.Error(), "nothing would remain") {
		t.Errorf("losing the only rack: %v", err)
	}
	grown, err := tp.With(Member{Node: algorithms.Node{ID: "node-6", Weight: 2}, Domains: []string{"rack-3"}})
	if err != nil || len(grown.Domains(0)) != 4 || grown.DomainWeights(0)[3] != 2 {
		t.Errorf("With: %v, %v", grown, err)
	}
}

const sample = `# two zones, racks, hosts
levels = ["zone", "rack", "host"]

[[node]]
id = "osd-0"
domains = { zone = "a", rack = "a1", host = "h0" }

[[node]]
id = "osd-1"
weight = 2
domains = { zone = "a", rack = "a1", host = "h1" }

[[node]]
id = "osd-2"
weight = 0.5
domains = { zone = "b", rack = "b1", host = "h2" }
`

// Read decodes the documented format: weights default to 1, integer
// weights are accepted, and domains follow the levels.
func TestRead(t *testing.T) {
	tp, err := Read(strings.NewReader(sample), "sample.toml")
	if err != nil {
		t.Fatal(err)
	}
	want := []algorithms.Node{{ID: "osd-0", Weight: 1}, {ID: "osd-1", Weight: 2}, {ID: "osd-2", Weight: 0.5}}
	if !reflect.DeepEqual(tp.Nodes(), want) {
		t.Errorf("nodes %v, want %v", tp.Nodes(), want)
	}
	if got := domainNames(tp, 1); !reflect.DeepEqual(got, []string{"a1", "a1", "b1"}) {
		t.Errorf("racks %q", got)
	}
	// Encode and Read again: the same topology.
	var buf bytes.Buffer
	if err := tp.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	again, err := Read(&buf, "encoded")
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if !reflect.DeepEqual(again.Members(), tp.Members()) || !reflect.DeepEqual(again.Levels(), tp.Levels()) {
		t.Errorf("round trip differs:\n%s", buf.String())
	}
}

// Read's errors name the file, the line or the node, and the bad value.
func TestReadErrors(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"syntax", "levels = [\"rack\"\n[[node]]\n", "bad.toml: line"},
		{"unknown key", "levels = []\nzones = 3\n[[node]]\nid = \"a\"\n", "unknown key zones"},
		{"unknown node key", "levels = []\n[[node]]\nid = \"a\"\nrack = \"r1\"\n", "unknown key node.rack"},
		{"wrong type", "levels = []\n[[node]]\nid = \"a\"\nweight = \"heavy\"\n", "weight"},
		{"no nodes", "levels = [\"rack\"]\n", "no [[node]] tables"},
		{"missing level", "levels = [\"zone\", \"rack\"]\n[[node]]\nid = \"a\"\ndomains = { zone = \"z\" }\n", `node 0 ("a"): no rack`},
		{"extra level", "levels = [\"rack\"]\n[[node]]\nid = \"a\"\ndomains = { rack = \"r\", row = \"x\" }\n", `domain level "row" is not among the levels`},
		{"zero weight", "levels = []\n[[node]]\nid = \"a\"\nweight = 0\n", "weight 0 must be"},
		{"nan weight", "levels = []\n[[node]]\nid = \"a\"\nweight = nan\n", "weight NaN"},
	} {
		_, err := Read(strings.NewReader(c.text), "bad.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// A flat topology has no levels, and Level says so.
func TestFlat(t *testing.T) {
	tp, err := Flat(nodes(t, 3))
	if err != nil {
		t.Fatal(err)
	}
	if len(tp.Levels()) != 0 || len(tp.Nodes()) != 3 {
		t.Errorf("flat: %v %v", tp.Levels(), tp.Nodes())
	}
	if _, err := tp.Level("rack"); err == nil || !strings.Contains(err.Error(), "flat") {
		t.Errorf("Level on flat: %v", err)
	}
}

// Place keeps the order and weights of the nodes it is given and the
// domains of the topology; a node the topology lacks is an error naming
// it.
func TestPlace(t *testing.T) {
	tp, err := Split(nodes(t, 6), []Grouping{{"rack", "3"}, {"zone", "2"}})
	if err != nil {
		t.Fatal(err)
	}
	sub := []algorithms.Node{{ID: "node-5", Weight: 2}, {ID: "node-0", Weight: 1}}
	got, err := tp.Place(sub)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Nodes(), sub) {
		t.Errorf("nodes %v, want %v", got.Nodes(), sub)
	}
	r, _ := got.Level("rack")
	z, _ := got.Level("zone")
	if d := domainNames(got, r); !reflect.DeepEqual(d, []string{"rack-2", "rack-0"}) {
		t.Errorf("racks %v, want rack-2 rack-0", d)
	}
	if d := domainNames(got, z); !reflect.DeepEqual(d, []string{"zone-1", "zone-0"}) {
		t.Errorf("zones %v, want zone-1 zone-0", d)
	}
	if _, err := tp.Place([]algorithms.Node{{ID: "node-9", Weight: 1}}); err == nil || !strings.Contains(err.Error(), `"node-9"`) {
		t.Errorf("unknown node: %v, want an error naming node-9", err)
	}
}

// A spec names its topology, defaults the failure domain to the
// innermost level and places any membership: counts group it in order,
// a file places its nodes by ID.
func TestSpec(t *testing.T) {
	s, err := NewSpec(nil, "", []Grouping{{"rack", "6"}, {"zone", "3"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if s.Label != "rack=6 zone=3" || s.Level != "rack" || !reflect.DeepEqual(s.Levels(), []string{"zone", "rack"}) {
		t.Errorf("spec %+v, levels %v", s, s.Levels())
	}
	tp, err := s.For(nodes(t, 12))
	if err != nil {
		t.Fatal(err)
	}
	if len(tp.Domains(1)) != 6 || len(tp.Domains(0)) != 3 {
		t.Errorf("racks %v, zones %v", tp.Domains(1), tp.Domains(0))
	}
	fs, err := NewSpec(tp, "f.toml", nil, "zone")
	if err != nil {
		t.Fatal(err)
	}
	placed, err := fs.For([]algorithms.Node{{ID: "node-11", Weight: 3}})
	if err != nil || domainNames(placed, 0)[0] != "zone-2" || placed.Nodes()[0].Weight != 3 {
		t.Errorf("file spec placed node-11 as %v, %v", placed, err)
	}
	if _, err := fs.For([]algorithms.Node{{ID: "x", Weight: 1}}); err == nil || !strings.Contains(err.Error(), `"x"`) || !strings.Contains(err.Error(), "file=f.toml") {
		t.Errorf("node outside the file: %v", err)
	}
	for _, c := range []struct {
		file   *Topology
		groups []Grouping
		level  string
		want   string
	}{
		{tp, []Grouping{{"rack", "2"}}, "", "not both"},
		{nil, nil, "", "no file and no counts"},
		{nil, []Grouping{{"rack", "2"}}, "zone", `no level "zone" (levels: rack)`},
		{nil, []Grouping{{"rack", "2"}, {"rack", "1"}}, "", `level "rack" appears twice`},
		{nil, []Grouping{{"rack", "2,x"}}, "", `rack "2,x": entry "x" is not a whole number >= 1`},
	} {
		if _, err := NewSpec(c.file, "f", c.groups, c.level); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewSpec(%v, %v, %q) = %v, want %q", c.file != nil, c.groups, c.level, err, c.want)
		}
	}
	flat, _ := Flat(nodes(t, 3))
	if _, err := NewSpec(flat, "flat.toml", nil, ""); err == nil || !strings.Contains(err.Error(), "flat") {
		t.Errorf("flat file: %v", err)
	}
}

// Joining nodes enter the rack with the fewest nodes, the first of equals;
// a file places them by ID or names the one it lacks.
func TestSpecUnion(t *testing.T) {
	s, err := NewSpec(nil, "", []Grouping{{"rack", "3,2,2"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	all := nodes(t, 10)
	u, err := s.Union(all[:7], append(all[7:], all[0]))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"rack-0", "rack-0", "rack-0", "rack-1", "rack-1", "rack-2", "rack-2", "rack-1", "rack-2", "rack-0"}
	if got := domainNames(u, 0); !reflect.DeepEqual(got, want) {
		t.Errorf("racks %v, want %v", got, want)
	}
	fs, _ := NewSpec(u, "u.toml", nil, "rack")
	if v, err := fs.Union(all[:2], all[8:9]); err != nil || !reflect.DeepEqual(domainNames(v, 0), []string{"rack-0", "rack-0", "rack-2"}) {
		t.Errorf("file union: %v, %v", v, err)
	}
	if _, err := fs.Union(all[:2], []algorithms.Node{{ID: "new", Weight: 1}}); err == nil || !strings.Contains(err.Error(), `"new"`) {
		t.Errorf("joining node outside the file: %v", err)
	}
}
