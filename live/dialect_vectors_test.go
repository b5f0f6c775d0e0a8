package live

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/dialect/dialecttest"
	"github.com/chbench/chbench/algorithms/dialect/libmemcached"
	"github.com/chbench/chbench/algorithms/dialect/twemproxy"
)

var updateVectors = flag.Bool("update-vectors", false, "rewrite the dialects' testdata/vectors.tsv from the real systems")

// vectorFleets returns the fleets a dialect's vectors use: the weighted
// one only where the dialect takes weights.
func vectorFleets(name string) []string {
	in, err := catalog.Describe(name)
	if err != nil || !in.Weighted {
		return []string{dialecttest.Equal, dialecttest.Left}
	}
	return dialecttest.Fleets
}

// vectorSystem is one real system with the dialects it has vectors for:
// route returns, for a dialect and fleet, each vector key's server.
type vectorSystem struct {
	pkg      string // package directory under algorithms/dialect
	source   string // what the vectors are recorded from
	dialects []string
	setup    func(t *testing.T) func(dialect string, nodes []algorithms.Node) []string
}

// vectorSystems are the systems with vectors recorded here (go-redis and
// gomemcache record theirs in the peers module).
func vectorSystems() []vectorSystem {
	keys := dialecttest.Keys
	var lm, tw []string
	lm = append(lm, libmemcached.KetamaWeightedName, libmemcached.KetamaName)
	for _, h := range libmemcached.Hashes {
		lm = append(lm, libmemcached.ModulaName(h.Name))
	}
	for _, d := range []string{"ketama", "modula"} {
		for _, h := range twemproxy.Hashes {
			tw = append(tw, twemproxy.Name(d, h.Name))
		}
	}
	ids := dialecttest.Addrs
	return []vectorSystem{
		{"libmemcached", "pylibmc 1.6.3 on Debian libmemcached 1.1.4", lm, func(t *testing.T) func(string, []algorithms.Node) []string {
			py := startPython(t, "pylibmc_route.py", "pylibmc", "python3-pylibmc")
			rec, err := StartRecorderAt(ids, false)
			if err != nil {
				unavailable(t, "fixed vector addresses: "+err.Error())
			}
			t.Cleanup(rec.Close)
			return func(d string, nodes []algorithms.Node) []string {
				beh := map[string]any{"ketama_weighted": true}
				switch {
				case d == libmemcached.KetamaName:
					beh = map[string]any{"ketama": true}
				case strings.HasPrefix(d, "libmemcached-modula"):
					for _, h := range libmemcached.Hashes {
						if libmemcached.ModulaName(h.Name) == d {
							beh = map[string]any{"hash": h.Name, "distribution": "modula"}
						}
					}
				}
				servers := make([]string, len(nodes))
				for i, n := range nodes {
					servers[i] = fmt.Sprintf("%s:%d", n.ID, int(n.Weight))
				}
				rec.Reset()
				var reply struct{ Behaviors map[string]any }
				if err := py.Call(map[string]any{"servers": servers, "behaviors": beh, "keys": keys}, &reply, scriptTimeout); err != nil {
					t.Fatal(err)
				}
				return recorded(t, rec, ids, keys)
			}
		}},
		{"twemproxy", "nutcracker 0.5.0", tw, func(t *testing.T) func(string, []algorithms.Node) []string {
			need(t, "nutcracker")
			rec, err := StartRecorderAt(ids, false)
			if err != nil {
				unavailable(t, "fixed vector addresses: "+err.Error())
			}
			t.Cleanup(rec.Close)
			dir := t.TempDir()
			// One nutcracker per fleet runs every dialect as a pool.
			return perFleet(func(nodes []algorithms.Node) map[string][]string {
				ports := distinctPorts(t, 2*len(twemproxy.Hashes)+1)
				var pools []twemPool
				for _, d := range []string{"ketama", "modula"} {
					for _, h := range twemproxy.Hashes {
						pools = append(pools, twemPool{name: strings.ReplaceAll(twemproxy.Name(d, h.Name), "-", "_"), hash: h.Name, distribution: d, listen: ports[len(pools)]})
					}
				}
				conf := twemConfig(pools, nodes)
				p := started(t, func() (*Process, error) { return StartNutcracker(dir, conf, pools[0].listen, ports[len(pools)]) })
				defer p.Stop()
				out := map[string][]string{}
				for _, pl := range pools {
					rec.Reset()
					c, err := DialMemcache(Addr(pl.listen), deadline)
					if err != nil {
						t.Fatal(err)
					}
					_, err = c.Has(keys)
					c.Close()
					if err != nil {
						t.Fatal(err)
					}
					out[twemproxy.Name(pl.distribution, pl.hash)] = recorded(t, rec, ids, keys)
				}
				return out
			})
		}},
		{"pymemcache", "python-memcached 1.59 (memcache.Client._get_server)", []string{"python-memcached"}, func(t *testing.T) func(string, []algorithms.Node) []string {
			py := startPython(t, "memcache_route.py", "memcache", "python3-memcache")
			return func(_ string, nodes []algorithms.Node) []string {
				var reply struct{ Servers [][]string }
				if err := py.Call(map[string]any{"servers": serverWeights(nodes), "keys": keys, "chain": 1}, &reply, scriptTimeout); err != nil {
					t.Fatal(err)
				}
				out := make([]string, len(keys))
				for i, s := range reply.Servers {
					out[i] = s[0]
				}
				return out
			}
		}},
		{"uhashring", "uhashring 2.1 (HashRing.get_node)", []string{"uhashring", "uhashring-ketama"}, func(t *testing.T) func(string, []algorithms.Node) []string {
			py := startPython(t, "uhashring_route.py", "uhashring", "python3-uhashring")
			return func(d string, nodes []algorithms.Node) []string {
				var rep ringReply
				if err := py.Call(map[string]any{"nodes": orderedWeights(nodes), "ketama": d == "uhashring-ketama", "keys": keys, "r": 1}, &rep, scriptTimeout); err != nil {
					t.Fatal(err)
				}
				return rep.Nodes
			}
		}},
		{"hashringjs", "npm hashring 3.2.0 under Node.js (HashRing#get)", []string{"hashring-js"}, func(t *testing.T) func(string, []algorithms.Node) []string {
			s := startHashringJS(t)
			return func(_ string, nodes []algorithms.Node) []string {
				var rep ringReply
				if err := s.Call(map[string]any{"servers": orderedWeights(nodes), "keys": keys, "r": 1}, &rep, scriptTimeout); err != nil {
					t.Fatal(err)
				}
				return rep.Nodes
			}
		}},
		{"spymemcached", "spymemcached 2.12.3 (KetamaNodeLocator, ArrayModNodeLocator)", []string{"spymemcached-ketama", "spymemcached-arraymod"}, func(t *testing.T) func(string, []algorithms.Node) []string {
			s := startSpyRoute(t)
			return func(d string, nodes []algorithms.Node) []string {
				mode := "ketama-spy"
				if d == "spymemcached-arraymod" {
					mode = "arraymod"
				}
				servers := make([]string, len(nodes))
				for i, n := range nodes {
					servers[i] = n.ID
				}
				return spyAsk(t, s, mode, servers, keys)
			}
		}},
		{"nginx", "nginx 1.22.1 (hash $http_x_key [consistent])", []string{"nginx-hash-consistent", "nginx-hash"}, func(t *testing.T) func(string, []algorithms.Node) []string {
			needBinary(t, "nginx", "nginx")
			b, err := StartBackendsAt(ids)
			if err != nil {
				unavailable(t, "fixed vector addresses: "+err.Error())
			}
			t.Cleanup(b.Close)
			dir := t.TempDir()
			return func(d string, nodes []algorithms.Node) []string {
				directive := "hash $http_x_key"
				if d == "nginx-hash-consistent" {
					directive += " consistent"
				}
				listen := freePort(t)
				conf := filepath.Join(dir, "nginx.conf")
				if err := os.WriteFile(conf, []byte(nginxConfig(dir, map[int]string{listen: directive}, nodes)), 0o644); err != nil {
					t.Fatal(err)
				}
				p := started(t, func() (*Process, error) {
					return Start("nginx", []string{"-e", filepath.Join(dir, "error.log"), "-p", dir, "-c", conf}, Addr(listen), StartTimeout)
				})
				defer p.Stop()
				return portIDs(ids, viaProxy(t, Addr(listen), keys))
			}
		}},
		{"haproxy", "HAProxy 2.6.12 (balance hdr(X-Key))", haproxyDialects(), func(t *testing.T) func(string, []algorithms.Node) []string {
			needBinary(t, "haproxy", "haproxy")
			b, err := StartBackendsAt(ids)
			if err != nil {
				unavailable(t, "fixed vector addresses: "+err.Error())
			}
			t.Cleanup(b.Close)
			dir := t.TempDir()
			// One HAProxy per fleet runs every dialect as a backend.
			return perFleet(func(nodes []algorithms.Node) map[string][]string {
				names := haproxyDialects()
				backs := make([]haproxyBackend, len(names))
				ports := distinctPorts(t, len(names))
				for i, d := range names {
					backs[i] = haproxyBackendOf(d)
					backs[i].listen = ports[i]
				}
				conf := filepath.Join(dir, "haproxy.cfg")
				if err := os.WriteFile(conf, []byte(haproxyConfig(backs, nodes)), 0o644); err != nil {
					t.Fatal(err)
				}
				p := started(t, func() (*Process, error) {
					return Start("haproxy", []string{"-db", "-f", conf}, Addr(backs[len(backs)-1].listen), StartTimeout)
				})
				defer p.Stop()
				out := map[string][]string{}
				for i, d := range names {
					out[d] = portIDs(ids, viaProxy(t, Addr(backs[i].listen), keys))
				}
				return out
			})
		}},
	}
}

// perFleet turns run, which routes the vector keys of every dialect of a
// system on one fleet at once, into a per-dialect router that runs it
// once per fleet.
func perFleet(run func(nodes []algorithms.Node) map[string][]string) func(string, []algorithms.Node) []string {
	done := map[string]map[string][]string{}
	return func(d string, nodes []algorithms.Node) []string {
		key := fmt.Sprint(nodes)
		if done[key] == nil {
			done[key] = run(nodes)
		}
		return done[key][d]
	}
}

// haproxyDialects lists the haproxy dialects of the catalog.
func haproxyDialects() []string {
	var out []string
	for _, d := range catalog.Dialects() {
		if strings.HasPrefix(d, "haproxy-") {
			out = append(out, d)
		}
	}
	return out
}

// haproxyBackendOf returns the hash-type of a haproxy dialect name.
func haproxyBackendOf(d string) haproxyBackend {
	b := haproxyBackend{method: "consistent", function: "sdbm"}
	rest := strings.TrimPrefix(d, "haproxy-")
	if r, ok := strings.CutPrefix(rest, "map-based"); ok {
		b.method, rest = "map-based", r
	} else {
		rest = strings.TrimPrefix(rest, "consistent")
	}
	rest = strings.TrimPrefix(rest, "-")
	if r, ok := strings.CutSuffix(rest, "avalanche"); ok {
		b.avalanche, rest = true, strings.TrimSuffix(r, "-")
	}
	if rest != "" {
		b.function = rest
	}
	return b
}

// The vectors in each dialect package's testdata/vectors.tsv are what the
// real systems pick today: every system is configured with each vector
// fleet (five servers on 127.0.0.2..6 with fixed ports, their weighted form
// and a leave) and routes every vector key to the recorded server. With
// -update-vectors the files are rewritten from the real systems instead.
func TestDialectVectors(t *testing.T) {
	for _, sys := range vectorSystems() {
		t.Run(sys.pkg, func(t *testing.T) {
			route := sys.setup(t)
			path := filepath.Join("..", "algorithms", "dialect", sys.pkg, "testdata", "vectors.tsv")
			var got []dialecttest.Vector
			for _, d := range sys.dialects {
				for _, f := range vectorFleets(d) {
					servers := route(d, dialecttest.Fleet(f))
					for i, k := range dialecttest.Keys {
						got = append(got, dialecttest.Vector{Dialect: d, Fleet: f, Key: k, Server: servers[i]})
					}
				}
			}
			if *updateVectors {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := dialecttest.Write(path, sys.source, got); err != nil {
					t.Fatal(err)
				}
				t.Logf("wrote %d vectors to %s", len(got), path)
				return
			}
			want, err := dialecttest.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Errorf("%s: recorded %+v, the real system now %+v", path, want[i], got[i])
					}
				}
				if len(got) != len(want) {
					t.Errorf("%s: %d vectors recorded, %d routed now", path, len(want), len(got))
				}
			}
			t.Logf("%s: %d vectors as the real system routes them", path, len(got))
		})
	}
}
