package live

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect/spymemcached"
)

// spymemcachedJar is Debian's libspymemcached-java.
const spymemcachedJar = "/usr/share/java/spymemcached.jar"

// startSpyRoute compiles testdata/dialects/SpyRoute.java with javac
// against the spymemcached jar into a temporary directory and starts it.
func startSpyRoute(t *testing.T) *Script {
	t.Helper()
	javac, err := exec.LookPath("javac")
	if err != nil {
		unavailable(t, "javac missing (Debian package default-jdk-headless)")
	}
	java, err := exec.LookPath("java")
	if err != nil {
		unavailable(t, "java missing (Debian package default-jdk-headless)")
	}
	if _, err := os.Stat(spymemcachedJar); err != nil {
		unavailable(t, spymemcachedJar+" missing (Debian package libspymemcached-java)")
	}
	dir := t.TempDir()
	if out, err := exec.Command(javac, "-cp", spymemcachedJar, "-d", dir, "testdata/dialects/SpyRoute.java").CombinedOutput(); err != nil {
		t.Fatalf("javac SpyRoute.java: %v: %s", err, out)
	}
	s, err := StartScript(java, []string{"-cp", dir + ":" + spymemcachedJar, "SpyRoute"}, "")
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

// spyAsk sends one request to SpyRoute: the servers as AddrUtil parses
// them, and the keys; it returns each key's server, as servers[i].
func spyAsk(t *testing.T, s *Script, mode string, servers []string, keys []string) []string {
	t.Helper()
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %d %d\n%s\n", mode, len(servers), len(keys), strings.Join(servers, " "))
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte('\n')
	}
	var reply struct{ Nodes []int }
	if err := s.Send(b.Bytes(), &reply, scriptTimeout); err != nil {
		t.Fatal(err)
	}
	if len(reply.Nodes) != len(keys) {
		t.Fatalf("%s: %d answers for %d keys", mode, len(reply.Nodes), len(keys))
	}
	out := make([]string, len(keys))
	for i, n := range reply.Nodes {
		out[i] = servers[n]
	}
	return out
}

// spymemcached 2.12.3's KetamaNodeLocator (both key formats) and
// ArrayModNodeLocator with NATIVE_HASH, asked by a small Java program for
// every key, pick the server the spymemcached dialects name, at 10, 25 and
// 300 servers and after one leaves. The SPYMEMCACHED format is checked on
// servers given as 127.0.0.1:port and as localhost:port (which it hashes
// as "localhost/127.0.0.1:port"); the LIBMEMCACHED format on localhost:port,
// and on 127.0.0.1:port, which Java hashes under its reverse-DNS name.
func TestDialectSpymemcached(t *testing.T) {
	t.Parallel()
	s := startSpyRoute(t)
	keys := dialectKeys(t)
	n := fleetSizes[len(fleetSizes)-1]
	ip, local, spyLocal := make([]string, n), make([]string, n), make([]string, n)
	for i := range n {
		ip[i] = fmt.Sprintf("127.0.0.1:%d", 23000+i)
		local[i] = fmt.Sprintf("localhost:%d", 23000+i)
		spyLocal[i] = fmt.Sprintf("localhost/127.0.0.1:%d", 23000+i)
	}
	type mode struct {
		mode     string
		given    []string // servers as the Java client is configured
		ids      []string // the same servers as the dialect's node IDs
		build    func([]algorithms.Node) (algorithms.Placer, error)
		describe string
	}
	modes := []mode{
		{"ketama-spy", ip, ip, spymemcached.KetamaSpy, "ketama, SPYMEMCACHED format, 127.0.0.1:port"},
		{"ketama-spy", local, spyLocal, spymemcached.KetamaSpy, "ketama, SPYMEMCACHED format, localhost:port"},
		{"ketama-lib", local, local, spymemcached.KetamaLibmemcached, "ketama, LIBMEMCACHED format, localhost:port"},
		{"arraymod", ip, ip, spymemcached.ArrayMod, "arraymod, NATIVE_HASH"},
	}
	for _, m := range modes {
		for _, size := range fleetSizes {
			given := map[string]string{}
			for i, id := range m.ids[:size] {
				given[id] = m.given[i]
			}
			checkFleet(t, "spymemcached "+m.describe, dialectCase{nodesOf(m.ids[:size], nil), m.build}, keys, func(nodes []algorithms.Node) []string {
				servers := make([]string, len(nodes))
				back := map[string]string{}
				for i, nd := range nodes {
					servers[i] = given[nd.ID]
					back[servers[i]] = nd.ID
				}
				got := spyAsk(t, s, m.mode, servers, keys)
				for i, g := range got {
					got[i] = back[g]
				}
				return got
			})
		}
	}
	// The LIBMEMCACHED format on IP literals: Java hashes getHostName(),
	// the reverse-DNS name, so the dialect must be given that name.
	servers := ip[:10]
	got := spyAsk(t, s, "ketama-lib", servers, keys)
	p, err := spymemcached.KetamaLibmemcached(nodesOf(local[:10], nil))
	if err != nil {
		t.Fatal(err)
	}
	asIP, err := spymemcached.KetamaLibmemcached(nodesOf(servers, nil))
	if err != nil {
		t.Fatal(err)
	}
	byName, byIP := 0, 0
	for i, k := range keys {
		if strings.Replace(p.Locate(k), "localhost:", "127.0.0.1:", 1) == got[i] {
			byName++
		}
		if asIP.Locate(k) == got[i] {
			byIP++
		}
	}
	t.Logf("LIBMEMCACHED format on 127.0.0.1:port servers: %d/%d keys where the dialect of localhost:port names, %d/%d where that of 127.0.0.1:port does (Java hashes the reverse-DNS name)",
		byName, len(keys), byIP, len(keys))
	if byName != len(keys) && byIP != len(keys) {
		t.Errorf("LIBMEMCACHED format on IP literals: neither the name (%d/%d) nor the address (%d/%d) labels agree", byName, len(keys), byIP, len(keys))
	}
}
