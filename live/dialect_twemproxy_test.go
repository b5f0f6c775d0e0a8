package live

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect"
	"github.com/chbench/chbench/algorithms/dialect/twemproxy"
)

// twemPool is one pool of a multi-pool nutcracker configuration.
type twemPool struct {
	name, hash, distribution string
	listen                   int
}

// twemConfig returns a nutcracker configuration of the pools, each over
// the same servers (host:port IDs with whole weights), with no host
// ejection.
func twemConfig(pools []twemPool, nodes []algorithms.Node) string {
	var b strings.Builder
	for _, p := range pools {
		fmt.Fprintf(&b, "%s:\n  listen: %s\n  hash: %s\n  distribution: %s\n  timeout: 30000\n  auto_eject_hosts: false\n  servers:\n",
			p.name, Addr(p.listen), p.hash, p.distribution)
		for _, n := range nodes {
			fmt.Fprintf(&b, "   - %s:%d\n", n.ID, int(n.Weight))
		}
	}
	return b.String()
}

// nutcracker (twemproxy 0.5.0) routes every key to the server the
// twemproxy dialects name: ketama and modula with md5 and fnv1a_64 (the
// usual configurations) at 10 servers of weights 1..5, 25 and 300 equal
// servers, and with each of the other ten hashes at 25 servers (every
// third key); each also after one server leaves. One nutcracker runs every combination as a pool of its
// own in front of one Recorder; each pool's keys are sent in multi-key
// gets, and the listener that receives a key is the server twemproxy
// picked.
func TestDialectTwemproxy(t *testing.T) {
	t.Parallel()
	need(t, "nutcracker")
	keys := dialectKeys(t)
	rec, ids := recorder(t, fleetSizes[len(fleetSizes)-1])
	var pools, others []twemPool
	builds := map[string]dialect.Build{}
	for _, dist := range []string{"ketama", "modula"} {
		for _, h := range twemproxy.Hashes {
			b, err := twemproxy.Modula(h.Name)
			if dist == "ketama" {
				b, err = twemproxy.Ketama(h.Name)
			}
			if err != nil {
				t.Fatal(err)
			}
			name := twemproxy.Name(dist, h.Name)
			builds[name] = b
			p := twemPool{name: strings.ReplaceAll(name, "-", "_"), hash: h.Name, distribution: dist}
			if h.Name == "md5" || h.Name == "fnv1a_64" {
				pools = append(pools, p)
			} else {
				others = append(others, p)
			}
		}
	}
	dir := t.TempDir()
	// route starts one nutcracker of every pool over nodes and returns,
	// per pool, the server each key reached.
	route := func(pools []twemPool, nodes []algorithms.Node, keys []string) map[string][]string {
		ports := distinctPorts(t, len(pools)+1)
		for i := range pools {
			pools[i].listen = ports[i]
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
				t.Fatalf("pool %s: %v", pl.name, err)
			}
			out[twemproxy.Name(pl.distribution, pl.hash)] = recorded(t, rec, ids, keys)
		}
		return out
	}
	check := func(pools []twemPool, nodes []algorithms.Node, keys []string) {
		before, after := route(pools, nodes, keys), route(pools, without(nodes, leaving), keys)
		for _, pl := range pools {
			name := twemproxy.Name(pl.distribution, pl.hash)
			i := 0
			checkFleet(t, fmt.Sprintf("nutcracker %s/%s", pl.distribution, pl.hash), dialectCase{nodes, builds[name]}, keys,
				func([]algorithms.Node) []string {
					i++
					if i == 1 {
						return before[name]
					}
					return after[name]
				})
		}
	}
	weights10 := []float64{1, 2, 1, 3, 1, 1, 2, 1, 1, 5}
	for _, n := range fleetSizes {
		var w []float64
		if n == 10 {
			w = weights10
		}
		check(pools, nodesOf(ids[:n], w), keys)
	}
	check(others, nodesOf(ids[:25], nil), every(keys, 3))
}
