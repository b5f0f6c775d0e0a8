package live

import (
	"net"
	"os/exec"
	"testing"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/keyset"
)

// dialectKeys returns the keys of the dialect checks: every fifth word of
// the word list (about 20,900, 256 of them non-ASCII, where signed-char
// hashes differ from the textbook) and 2,000 generated keys.
func dialectKeys(t *testing.T) []string {
	t.Helper()
	all := words(t)
	var keys []string
	for i := 0; i < len(all); i += 5 {
		keys = append(keys, all[i])
	}
	gen, err := keyset.Keys(2000, 1)
	if err != nil {
		t.Fatal(err)
	}
	return append(keys, gen...)
}

// every returns every k-th of keys: the sample with which the less common
// settings of a system are checked (at one fleet size), to keep the live
// checks within their time.
func every(keys []string, k int) []string {
	var out []string
	for i := 0; i < len(keys); i += k {
		out = append(out, keys[i])
	}
	return out
}

// fleetSizes are the server counts every dialect is checked at: 10, 25
// (where float rounding gives ketama 156 points a server instead of 160)
// and 300.
var fleetSizes = []int{10, 25, 300}

// leaving is the index of the server that leaves in the removal checks.
const leaving = 3

// nodesOf returns host:port nodes of weight 1, or of the given weights.
func nodesOf(ids []string, weights []float64) []algorithms.Node {
	nodes := make([]algorithms.Node, len(ids))
	for i, id := range ids {
		nodes[i] = algorithms.Node{ID: id, Weight: 1}
		if weights != nil {
			nodes[i].Weight = weights[i]
		}
	}
	return nodes
}

// without returns nodes without the one at index i.
func without[T any](s []T, i int) []T {
	return append(append([]T(nil), s[:i]...), s[i+1:]...)
}

// compareRoutes fails on keys whose real server (real[i], a node ID)
// differs from the dialect's, naming the first five, and returns the
// number that agree.
func compareRoutes(t *testing.T, what string, p algorithms.Placer, keys, real []string) int {
	t.Helper()
	if len(real) != len(keys) {
		t.Fatalf("%s: %d answers for %d keys", what, len(real), len(keys))
	}
	agree, shown := 0, 0
	for i, k := range keys {
		if want := p.Locate(k); want == real[i] {
			agree++
		} else if shown++; shown <= 5 {
			t.Errorf("%s: key %q: the real system routes it to %s, %s to %s", what, k, real[i], p.Algorithm(), want)
		}
	}
	if agree != len(keys) {
		t.Errorf("%s: %d of %d keys on the server %s names", what, agree, len(keys), p.Algorithm())
	}
	return agree
}

// compareMoves checks that the keys the real system moved between two
// configurations are exactly those the dialect moves, and returns how
// many moved.
func compareMoves(t *testing.T, what string, before, after algorithms.Placer, keys, realBefore, realAfter []string) int {
	t.Helper()
	moved, same := 0, 0
	for i, k := range keys {
		r := realBefore[i] != realAfter[i]
		c := before.Locate(k) != after.Locate(k)
		if r {
			moved++
		}
		if r == c {
			same++
		}
	}
	if same != len(keys) {
		t.Errorf("%s: the real system and %s disagree on whether %d of %d keys move", what, before.Algorithm(), len(keys)-same, len(keys))
	}
	return moved
}

// dialectCase is one configuration of a real system checked against a
// dialect: a fleet, and how to build the dialect's placement of it.
type dialectCase struct {
	nodes []algorithms.Node
	build func([]algorithms.Node) (algorithms.Placer, error)
}

// checkFleet runs route (the real system's answer for every key under a
// membership: node IDs) on the fleet and on the fleet without server
// `leaving`, and compares both with the dialect, and the moves between
// them. It logs one line of counts.
func checkFleet(t *testing.T, what string, c dialectCase, keys []string, route func(nodes []algorithms.Node) []string) {
	t.Helper()
	start := time.Now()
	before, err := c.build(c.nodes)
	if err != nil {
		t.Fatal(err)
	}
	after, err := before.Rebalance(without(c.nodes, leaving))
	if err != nil {
		t.Fatal(err)
	}
	rb := route(c.nodes)
	agree := compareRoutes(t, what, before, keys, rb)
	ra := route(after.Nodes())
	agreeAfter := compareRoutes(t, what+" without "+c.nodes[leaving].ID, after, keys, ra)
	moved := compareMoves(t, what, before, after, keys, rb, ra)
	t.Logf("%s, %d servers: %d/%d keys agree; %s leaves: %d/%d agree, %d keys moved (%.2f%%), the same keys in %s; %v",
		what, len(c.nodes), agree, len(keys), c.nodes[leaving].ID, agreeAfter, len(keys), moved, 100*float64(moved)/float64(len(keys)),
		before.Algorithm(), time.Since(start).Round(time.Millisecond))
}

// systemPython is Debian's interpreter, which has the client libraries
// (python3 on PATH may be another one without them).
const systemPython = "/usr/bin/python3"

// startPython starts a testdata script under Debian's Python after
// checking that it can import the modules (their Debian packages named
// in pkgs for the skip message).
func startPython(t *testing.T, script string, modules, pkgs string) *Script {
	t.Helper()
	if _, err := exec.LookPath(systemPython); err != nil {
		unavailable(t, systemPython+" missing (Debian package python3)")
	}
	if out, err := exec.Command(systemPython, "-c", "import "+modules).CombinedOutput(); err != nil {
		unavailable(t, "Python modules "+modules+" missing (Debian packages "+pkgs+"): "+string(out))
	}
	s, err := StartScript(systemPython, []string{"testdata/dialects/" + script}, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// recorder starts a Recorder of n listeners, closed when the test ends,
// and returns it with its "127.0.0.1:port" IDs.
func recorder(t *testing.T, n int) (*Recorder, []string) {
	t.Helper()
	r, err := StartRecorder(n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	ids := make([]string, n)
	for i, p := range r.Ports() {
		ids[i] = Addr(p)
	}
	return r, ids
}

// recorded returns, per key, the ID of the listener it reached, failing
// when a key reached none or several.
func recorded(t *testing.T, r *Recorder, ids []string, keys []string) []string {
	t.Helper()
	out := make([]string, len(keys))
	for i, k := range keys {
		w, err := r.Where(k)
		if err != nil {
			t.Fatal(err)
		}
		if w < 0 {
			t.Fatalf("key %q reached no server", k)
		}
		out[i] = ids[w]
	}
	return out
}

// distinctPorts returns n distinct ports of 127.0.0.1 that were free a
// moment ago: all n listeners are held open until every port is chosen,
// so the kernel cannot hand one port out twice (as n calls of FreePort
// can). A proxy configured with several listeners needs them distinct.
func distinctPorts(t *testing.T, n int) []int {
	t.Helper()
	ports := make([]int, n)
	var lns []net.Listener
	defer func() {
		for _, l := range lns {
			l.Close()
		}
	}()
	for i := range ports {
		l, err := net.Listen("tcp", Loopback+":0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, l)
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	return ports
}

// scriptTimeout bounds one request to a helper script.
const scriptTimeout = 60 * time.Second
