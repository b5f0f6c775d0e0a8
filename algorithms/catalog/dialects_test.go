package catalog

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

// hostPorts returns n nodes 10.0.0.1:11211, 10.0.0.2:11212, ... (the first
// on the default port, whose label several systems shorten to the host).
func hostPorts(n int) []algorithms.Node {
	nodes := make([]algorithms.Node, n)
	for i := range nodes {
		nodes[i] = algorithms.Node{ID: fmt.Sprintf("10.0.0.%d:%d", i+1, 11211+i), Weight: 1}
	}
	return nodes
}

// Every dialect builds from host:port nodes, reports its name, has its
// facts, allocates nothing per lookup, answers concurrent lookups alike,
// and stays out of Names().
func TestDialectsBuild(t *testing.T) {
	names := Dialects()
	if len(names) < 30 {
		t.Fatalf("%d dialects registered", len(names))
	}
	valid := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	keys := placertest.Keys(2000, 1)
	for _, name := range names {
		if !valid.MatchString(name) {
			t.Errorf("dialect name %q: want lowercase words joined by '-'", name)
		}
		if slices.Contains(Names(), name) {
			t.Errorf("dialect %q is among Names()", name)
		}
		in, err := Describe(name)
		if err != nil {
			t.Fatal(err)
		}
		f := in.Dialect
		if f == nil || f.System == "" || f.Version == "" || f.Source == "" || f.Hashed == "" || f.NodeIDs == "" || f.Checked == "" {
			t.Errorf("%s: facts incomplete: %+v", name, f)
		}
		if !IsDialect(name) || in.Family != "dialect" {
			t.Errorf("%s: IsDialect %v, family %q", name, IsDialect(name), in.Family)
		}
		p, err := New(name, hostPorts(25), DefaultConfig())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p.Algorithm() != name {
			t.Errorf("New(%q).Algorithm() = %q", name, p.Algorithm())
		}
		placertest.CheckNoAllocs(t, p)
		placertest.CheckConcurrent(t, p, keys[:500])
		counts := placertest.Counts(p, keys)
		used := 0
		for _, c := range counts {
			if c > 0 {
				used++
			}
		}
		// 2,000 keys on 25 servers: every placement that spreads keys at
		// all reaches most servers (expected 80 keys each). twemproxy's
		// ketama with the 15-bit crc32 key hash is the exception: every
		// hash lies below 2^15, in the arc of the continuum's first point.
		if strings.HasSuffix(name, "ketama-crc32") {
			if used != 1 {
				t.Errorf("%s: keys on %d servers, want all on one", name, used)
			}
		} else if used < 20 {
			t.Errorf("%s: 2,000 keys reach only %d of 25 servers", name, used)
		}
		// A dialect not marked Ordered places the same member set alike in
		// any order (its only order dependence, breaking ties of equal
		// points, meets none of these 2,000 keys).
		if !in.Ordered {
			q, err := New(name, placertest.Reversed(hostPorts(25)), DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			placertest.CheckOrderIndependent(t, p, q, keys)
		}
		if _, err := Estimate(name, hostPorts(25), DefaultConfig()); err != nil {
			t.Errorf("%s: Estimate: %v", name, err)
		}
	}
	if in, _ := Describe("ring"); in.Dialect != nil || IsDialect("ring") {
		t.Error("ring is described as a dialect")
	}
}

// The group "dialects" expands in place; "all" stays the algorithms.
func TestParseNamesDialects(t *testing.T) {
	got, err := ParseNames("ring,dialects,jump")
	if err != nil {
		t.Fatal(err)
	}
	want := append(append([]string{"ring"}, Dialects()...), "jump")
	if !slices.Equal(got, want) {
		t.Errorf("ParseNames(ring,dialects,jump) = %v", got)
	}
	if all, _ := ParseNames("all"); !slices.Equal(all, Names()) {
		t.Errorf("ParseNames(all) = %v, want Names()", all)
	}
	if _, err := ParseNames("python-memcached"); err != nil {
		t.Error(err)
	}
	_, err = ParseNames("nutcracker")
	if err == nil || !strings.Contains(err.Error(), `"nutcracker"`) || !strings.Contains(err.Error(), "twemproxy-ketama-md5") {
		t.Errorf("unknown name error = %v, want it to name the value and list the dialects", err)
	}
}

// A dialect that hashes addresses refuses an ID that is not host:port,
// naming the ID and the format.
func TestDialectsRefuseBadIDs(t *testing.T) {
	nodes := []algorithms.Node{{ID: "10.0.0.1:11211", Weight: 1}, {ID: "node-1", Weight: 1}}
	for _, name := range Dialects() {
		in, _ := Describe(name)
		if !strings.HasPrefix(in.Dialect.NodeIDs, "host:port") {
			continue
		}
		_, err := New(name, nodes, DefaultConfig())
		if err == nil || !strings.Contains(err.Error(), `"node-1"`) || !strings.Contains(err.Error(), "host:port") {
			t.Errorf("%s on ID node-1: error %v, want one naming the ID and host:port", name, err)
		}
	}
}

// The common dialects are registered dialects, each once, and exactly
// they carry the reason they are common; the group expands to them.
func TestCommonDialects(t *testing.T) {
	common := CommonDialects()
	if len(common) < 10 {
		t.Fatalf("%d common dialects: want every system's default (10 systems)", len(common))
	}
	systems := map[string]bool{}
	for _, name := range Dialects() {
		in, _ := Describe(name)
		isCommon := slices.Contains(common, name)
		if isCommon != (in.Dialect.Common != "") {
			t.Errorf("%s: in CommonDialects %v, Common %q", name, isCommon, in.Dialect.Common)
		}
		if isCommon {
			systems[strings.SplitN(in.Dialect.Version, " ", 2)[0]] = true
		}
	}
	// One system per package of algorithms/dialect: each has a common
	// setting, and exactly one default among them.
	if len(systems) != 10 {
		t.Errorf("common dialects cover %d systems (%v), want all 10", len(systems), systems)
	}
	defaults := map[string][]string{}
	for _, name := range Dialects() {
		in, _ := Describe(name)
		if in.Dialect.Product == "" {
			t.Errorf("%s: no product", name)
		}
		if in.Dialect.Default {
			defaults[in.Dialect.Product] = append(defaults[in.Dialect.Product], name)
			if !slices.Contains(common, name) {
				t.Errorf("%s: a default that is not common", name)
			}
		}
	}
	if len(defaults) != 10 {
		t.Errorf("defaults %v: want one for each of the 10 systems", defaults)
	}
	for p, ds := range defaults {
		if len(ds) != 1 {
			t.Errorf("%s has %d defaults: %v", p, len(ds), ds)
		}
	}
	if c := slices.Compact(slices.Sorted(slices.Values(common))); len(c) != len(common) {
		t.Errorf("common dialects repeat a name: %v", common)
	}
	got, err := ParseNames("ring," + CommonDialectGroup)
	if err != nil || !slices.Equal(got, append([]string{"ring"}, common...)) {
		t.Errorf("ParseNames(ring,%s) = %v, %v", CommonDialectGroup, got, err)
	}
}

// MaxNodes is the size at which a dialect starts refusing a fleet: every
// dialect builds MaxNodes servers (or 101 when it states no limit) and a
// dialect with a limit refuses one more, naming the count.
func TestDialectMaxNodes(t *testing.T) {
	for _, name := range Dialects() {
		in, _ := Describe(name)
		n := in.Dialect.MaxNodes
		if n == 0 {
			n = 101
		}
		if _, err := New(name, hostPorts(n), DefaultConfig()); err != nil {
			t.Errorf("%s on %d servers: %v", name, n, err)
		}
		if in.Dialect.MaxNodes == 0 {
			continue
		}
		_, err := New(name, hostPorts(n+1), DefaultConfig())
		if err == nil || !strings.Contains(err.Error(), strconv.Itoa(n+1)) {
			t.Errorf("%s on %d servers: error %v, want one naming the count", name, n+1, err)
		}
	}
}
