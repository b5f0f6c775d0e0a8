// Package dialecttest holds the exact vectors of the dialects: for small
// fixed fleets, the server each real system picks for a fixed list of
// keys. The vectors are recorded from the real systems into each dialect
// package's testdata/vectors.tsv by live.TestDialectVectors (go test
// ./live -run TestDialectVectors -update-vectors; peers.TestDialectVectors
// for the Go modules), which re-check them against the real systems on
// every run; each dialect package's tests check the dialect against the
// same file. It is imported only by tests.
package dialecttest

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

// Keys are the vector keys: ASCII words, a Redis hash tag, and UTF-8 keys
// whose bytes >= 0x80 meet the signed-char reads of the C hashes.
var Keys = []string{
	"a", "foo", "bar", "hello", "user:1000", "123456789", "session:42", "zebra",
	"{user1000}.following", "{user1000}.followers", "x{}y", "apple's",
	"\u00c5ngstr\u00f6m", "\u00e9clair", "na\u00efve", "\u65e5\u672c\u8a9e",
}

// Fleet names.
const (
	Equal    = "v5"  // five servers of weight 1
	Weighted = "v5w" // the same five, weights 1, 2, 1, 3, 1
	Left     = "v4"  // v5 without its second server (a leave)
)

// Fleets lists the fleet names in order.
var Fleets = []string{Equal, Weighted, Left}

// Addrs are the five servers: distinct loopback addresses with fixed
// ports, the first on memcached's default port 11211 (which several
// systems label by host alone).
var Addrs = []string{"127.0.0.2:11211", "127.0.0.3:11212", "127.0.0.4:11213", "127.0.0.5:11214", "127.0.0.6:11215"}

// Fleet returns the nodes of the named fleet.
func Fleet(name string) []algorithms.Node {
	nodes := make([]algorithms.Node, len(Addrs))
	for i, a := range Addrs {
		nodes[i] = algorithms.Node{ID: a, Weight: 1}
	}
	switch name {
	case Weighted:
		for i, w := range []float64{1, 2, 1, 3, 1} {
			nodes[i].Weight = w
		}
	case Left:
		nodes = slices.Delete(nodes, 1, 2)
	}
	return nodes
}

// Vector is one recorded choice: under Dialect's real system, configured
// with Fleet, Key goes to Server (a node ID).
type Vector struct {
	Dialect, Fleet, Key, Server string
}

// Read returns the vectors of a vectors.tsv file: one per line, the four
// fields separated by tabs, '#' lines ignored.
func Read(path string) ([]Vector, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Vector
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		if t := sc.Text(); t != "" && !strings.HasPrefix(t, "#") {
			f := strings.Split(t, "\t")
			if len(f) != 4 {
				return nil, fmt.Errorf("%s:%d: %d fields, want dialect, fleet, key, server", path, line, len(f))
			}
			out = append(out, Vector{f[0], f[1], f[2], f[3]})
		}
	}
	return out, sc.Err()
}

// Write writes vectors to path in Read's format, after a header naming
// where they come from.
func Write(path, source string, vs []Vector) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Recorded from %s by the dialect vector check (live or peers TestDialectVectors, -update-vectors), which re-checks them on every run.\n", source)
	b.WriteString("# dialect\tfleet\tkey\tserver\n")
	for _, v := range vs {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\n", v.Dialect, v.Fleet, v.Key, v.Server)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// Check builds each vector's dialect on its fleet with build (by dialect
// name) and asserts the key goes to the recorded server. It fails when
// the file is missing or holds fewer than min vectors, or names a dialect
// build does not know.
func Check(t *testing.T, path string, min int, build map[string]func([]algorithms.Node) (algorithms.Placer, error)) {
	t.Helper()
	vs, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) < min {
		t.Fatalf("%s: %d vectors, want at least %d", path, len(vs), min)
	}
	placers := map[[2]string]algorithms.Placer{}
	for _, v := range vs {
		b, ok := build[v.Dialect]
		if !ok {
			t.Fatalf("%s: vector of unknown dialect %q", path, v.Dialect)
		}
		p := placers[[2]string{v.Dialect, v.Fleet}]
		if p == nil {
			if p, err = b(Fleet(v.Fleet)); err != nil {
				t.Fatalf("%s on %s: %v", v.Dialect, v.Fleet, err)
			}
			placers[[2]string{v.Dialect, v.Fleet}] = p
		}
		if got := p.Locate(v.Key); got != v.Server {
			t.Errorf("%s on %s: key %q goes to %s, the real system's %s", v.Dialect, v.Fleet, v.Key, got, v.Server)
		}
	}
}

// CheckPlacer asserts the lookup contract on p with keys: Locate is the
// two-step lookup, lookups allocate nothing, concurrent lookups agree, and
// when p is a Replicator its replicas are distinct, start with the owner
// and number min(r, nodes).
func CheckPlacer(t *testing.T, p algorithms.Placer, keys []string) {
	t.Helper()
	for _, k := range keys {
		if got, want := p.Locate(k), p.Nodes()[p.LocateHash(p.HashKey(k))].ID; got != want {
			t.Fatalf("%s: Locate(%q) = %q, two-step %q", p.Algorithm(), k, got, want)
		}
	}
	placertest.CheckNoAllocs(t, p)
	placertest.CheckConcurrent(t, p, keys)
	r, ok := p.(algorithms.Replicator)
	if !ok {
		return
	}
	dst := make([]int, 3)
	if a := testing.AllocsPerRun(100, func() { r.Replicas(p.HashKey("user:1000"), dst) }); a != 0 {
		t.Errorf("%s: Replicas allocates %v per call", p.Algorithm(), a)
	}
	for _, k := range keys {
		h := p.HashKey(k)
		got := r.Replicas(h, make([]int, 3))
		if len(got) != min(3, len(p.Nodes())) || got[0] != p.LocateHash(h) {
			t.Fatalf("%s: replicas of %q = %v, owner %d", p.Algorithm(), k, got, p.LocateHash(h))
		}
		for i := range got {
			if slices.Contains(got[:i], got[i]) {
				t.Fatalf("%s: replicas of %q = %v repeat a node", p.Algorithm(), k, got)
			}
		}
	}
}
