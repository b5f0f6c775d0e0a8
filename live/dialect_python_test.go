package live

import (
	"fmt"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect/pymemcache"
)

// serverWeights returns [["host:port", weight], ...] for a Python client.
func serverWeights(nodes []algorithms.Node) [][]any {
	out := make([][]any, len(nodes))
	for i, n := range nodes {
		out[i] = []any{n.ID, int(n.Weight)}
	}
	return out
}

// python-memcached (python3-memcache 1.59) picks for every key the server
// the python-memcached dialect names, at 10 servers of weights 1..5, 25
// and 300, and after one leaves; and when servers are down, it falls back
// to the servers of the dialect's Replicas, in order (first three of each
// key's chain, for every tenth key). The script asks Client._get_server
// with each server's connect replaced by an up/down check, so nothing is
// sent.
func TestDialectPythonMemcached(t *testing.T) {
	t.Parallel()
	py := startPython(t, "memcache_route.py", "memcache", "python3-memcache")
	keys := dialectKeys(t)
	var sample []string
	for i := 0; i < len(keys); i += 10 {
		sample = append(sample, keys[i])
	}
	ids := make([]string, fleetSizes[len(fleetSizes)-1])
	for i := range ids {
		ids[i] = fmt.Sprintf("127.0.0.1:%d", 20000+i)
	}
	ask := func(nodes []algorithms.Node, keys []string, chain int) [][]string {
		var reply struct{ Servers [][]string }
		if err := py.Call(map[string]any{"servers": serverWeights(nodes), "keys": keys, "chain": chain}, &reply, scriptTimeout); err != nil {
			t.Fatal(err)
		}
		if len(reply.Servers) != len(keys) {
			t.Fatalf("%d answers for %d keys", len(reply.Servers), len(keys))
		}
		return reply.Servers
	}
	weights10 := []float64{1, 2, 1, 3, 1, 1, 2, 1, 1, 5}
	for _, n := range fleetSizes {
		var w []float64
		if n == 10 {
			w = weights10
		}
		c := dialectCase{nodesOf(ids[:n], w), pymemcache.New}
		checkFleet(t, "python-memcached", c, keys, func(nodes []algorithms.Node) []string {
			got := ask(nodes, keys, 1)
			out := make([]string, len(got))
			for i, g := range got {
				out[i] = g[0]
			}
			return out
		})
		p, err := pymemcache.New(c.nodes)
		if err != nil {
			t.Fatal(err)
		}
		const r = 3
		chains := ask(c.nodes, sample, r)
		checked, short := 0, 0
		for i, k := range sample {
			dst := make([]int, r)
			want := p.(algorithms.Replicator).Replicas(p.HashKey(k), dst)
			if len(chains[i]) < r {
				short++ // python-memcached gave up after 10 tries
			}
			for j, s := range chains[i] {
				if got := p.Nodes()[want[j]].ID; got != s {
					t.Errorf("%d servers: key %q: fallback %d is %s in python-memcached, %s in the dialect", n, k, j, s, got)
				}
				checked++
			}
		}
		t.Logf("%d servers: %d fallback servers of %d keys as python-memcached tries them (%d keys where it gave up before %d)", n, checked, len(sample), short, r)
	}
}
