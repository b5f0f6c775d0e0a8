package peers

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bradfitz/gomemcache/memcache"
	"github.com/redis/go-redis/v9"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect/dialecttest"
	"github.com/chbench/chbench/algorithms/dialect/gomemcache"
	"github.com/chbench/chbench/algorithms/dialect/goredis"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/live"
)

// dialectKeys returns every fifth word of Debian's word list and 2,000
// generated keys with and without hash tags (the dialect checks' keys).
func dialectKeys(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("/usr/share/dict/words")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skipf("skipped: /usr/share/dict/words missing (Debian package wamerican)")
	}
	defer f.Close()
	var keys []string
	sc := bufio.NewScanner(f)
	for i := 0; sc.Scan(); i++ {
		if k := sc.Text(); i%5 == 0 && live.ValidKey(k) {
			keys = append(keys, k)
		}
	}
	gen, err := keyset.Keys(2000, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range gen {
		switch i % 4 {
		case 1:
			k = "{" + k[:8] + "}" + k
		case 2:
			k = k + "{}" + k[:3]
		}
		keys = append(keys, k)
	}
	return keys
}

// fleetSizes and leaving are the live package's: 10, 25 and 300 servers,
// and server 3 leaving.
var fleetSizes = []int{10, 25, 300}

const leaving = 3

func without(nodes []algorithms.Node, i int) []algorithms.Node {
	return append(append([]algorithms.Node(nil), nodes[:i]...), nodes[i+1:]...)
}

// compare fails on keys whose real server differs from the dialect's and
// returns how many agree; moved counts keys whose real server changed
// between two memberships, checking the dialect moves the same keys.
func compare(t *testing.T, what string, p algorithms.Placer, keys, real []string) int {
	t.Helper()
	agree := 0
	for i, k := range keys {
		if got := p.Locate(k); got == real[i] {
			agree++
		} else if len(keys)-agree <= 5 {
			t.Errorf("%s: key %q: the library picks %s, %s %s", what, k, real[i], p.Algorithm(), got)
		}
	}
	if agree != len(keys) {
		t.Errorf("%s: %d of %d keys agree", what, agree, len(keys))
	}
	return agree
}

func checkMoves(t *testing.T, what string, before, after algorithms.Placer, keys, rb, ra []string) int {
	t.Helper()
	moved, differ := 0, 0
	for i, k := range keys {
		r := rb[i] != ra[i]
		if r {
			moved++
		}
		if r != (before.Locate(k) != after.Locate(k)) {
			differ++
		}
	}
	if differ > 0 {
		t.Errorf("%s: the library and the dialect disagree on whether %d keys move", what, differ)
	}
	return moved
}

// gomemcache's ServerList.PickServer, the real library's public routing
// call, picks for every key the server the gomemcache dialect names, at
// 10, 25 and 300 servers and after one leaves.
func TestDialectGomemcache(t *testing.T) {
	keys := dialectKeys(t)
	ids := make([]string, fleetSizes[len(fleetSizes)-1])
	for i := range ids {
		ids[i] = fmt.Sprintf("127.0.0.1:%d", 24000+i)
	}
	pick := func(nodes []algorithms.Node) []string {
		var ss memcache.ServerList
		addrs := make([]string, len(nodes))
		for i, n := range nodes {
			addrs[i] = n.ID
		}
		if err := ss.SetServers(addrs...); err != nil {
			t.Fatal(err)
		}
		out := make([]string, len(keys))
		for i, k := range keys {
			a, err := ss.PickServer(k)
			if err != nil {
				t.Fatal(err)
			}
			out[i] = a.String()
		}
		return out
	}
	for _, n := range fleetSizes {
		nodes := make([]algorithms.Node, n)
		for i := range nodes {
			nodes[i] = algorithms.Node{ID: ids[i], Weight: 1}
		}
		before, err := gomemcache.New(nodes)
		if err != nil {
			t.Fatal(err)
		}
		after, err := before.Rebalance(without(nodes, leaving))
		if err != nil {
			t.Fatal(err)
		}
		rb, ra := pick(nodes), pick(after.Nodes())
		a := compare(t, "gomemcache", before, keys, rb)
		b := compare(t, "gomemcache after a leave", after, keys, ra)
		moved := checkMoves(t, "gomemcache", before, after, keys, rb, ra)
		t.Logf("gomemcache, %d servers: %d/%d keys agree; %s leaves: %d/%d agree, %d moved, the same keys", n, a, len(keys), ids[leaving], b, len(keys), moved)
	}
}

// A go-redis v9 Ring with the default rendezvous hash, its shards a RESP
// recorder's listeners, sends each key (GET in a pipeline) to the shard the
// go-redis-ring dialect names, hash tags included, at 10, 25 and 300 shards
// and after one leaves.
func TestDialectGoRedisRing(t *testing.T) {
	keys := dialectKeys(t)
	rec, err := live.StartRESPRecorder(fleetSizes[len(fleetSizes)-1])
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	ports := rec.Ports()
	route := func(nodes []algorithms.Node, addr map[string]string) []string {
		addrs := map[string]string{}
		byPort := map[string]string{}
		for _, n := range nodes {
			addrs[n.ID] = addr[n.ID]
			byPort[addr[n.ID]] = n.ID
		}
		ring := redis.NewRing(&redis.RingOptions{Addrs: addrs, DialTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
			WriteTimeout: 10 * time.Second, Protocol: 2, DisableIdentity: true})
		defer ring.Close()
		rec.Reset()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		for i := 0; i < len(keys); i += 1000 {
			_, err := ring.Pipelined(ctx, func(p redis.Pipeliner) error {
				for _, k := range keys[i:min(i+1000, len(keys))] {
					p.Get(ctx, k)
				}
				return nil
			})
			if err != nil && err != redis.Nil {
				t.Fatal(err)
			}
		}
		out := make([]string, len(keys))
		for i, k := range keys {
			w, err := rec.Where(k)
			if err != nil || w < 0 {
				t.Fatalf("key %q: listener %d, %v", k, w, err)
			}
			out[i] = byPort[net.JoinHostPort(live.Loopback, fmt.Sprint(ports[w]))]
		}
		return out
	}
	for _, n := range fleetSizes {
		nodes := make([]algorithms.Node, n)
		addr := map[string]string{}
		for i := range nodes {
			nodes[i] = algorithms.Node{ID: fmt.Sprintf("shard-%d", i), Weight: 1}
			addr[nodes[i].ID] = net.JoinHostPort(live.Loopback, fmt.Sprint(ports[i]))
		}
		before, err := goredis.New(nodes)
		if err != nil {
			t.Fatal(err)
		}
		after, err := before.Rebalance(without(nodes, leaving))
		if err != nil {
			t.Fatal(err)
		}
		rb, ra := route(nodes, addr), route(after.Nodes(), addr)
		a := compare(t, "go-redis Ring", before, keys, rb)
		b := compare(t, "go-redis Ring after a leave", after, keys, ra)
		moved := checkMoves(t, "go-redis Ring", before, after, keys, rb, ra)
		t.Logf("go-redis Ring, %d shards: %d/%d keys agree; %s leaves: %d/%d agree, %d moved, the same keys", n, a, len(keys), nodes[leaving].ID, b, len(keys), moved)
	}
}

var updateVectors = flag.Bool("update-vectors", false, "rewrite the go-redis and gomemcache dialects' testdata/vectors.tsv from the real modules")

// The vectors of the gomemcache and go-redis-ring dialects are what the
// real modules pick today on dialecttest's fleets (for go-redis the shard
// names are the fleet's addresses, the shards a RESP recorder on them);
// with -update-vectors the files are rewritten instead.
func TestDialectVectors(t *testing.T) {
	keys := dialecttest.Keys
	rec, err := live.StartRecorderAt(dialecttest.Addrs, true)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skipf("skipped: fixed vector addresses: %v", err)
	}
	defer rec.Close()
	routes := map[string]func(nodes []algorithms.Node) []string{
		gomemcache.Name: func(nodes []algorithms.Node) []string {
			var ss memcache.ServerList
			addrs := make([]string, len(nodes))
			for i, n := range nodes {
				addrs[i] = n.ID
			}
			if err := ss.SetServers(addrs...); err != nil {
				t.Fatal(err)
			}
			out := make([]string, len(keys))
			for i, k := range keys {
				a, err := ss.PickServer(k)
				if err != nil {
					t.Fatal(err)
				}
				out[i] = a.String()
			}
			return out
		},
		goredis.Name: func(nodes []algorithms.Node) []string {
			addrs := map[string]string{}
			for _, n := range nodes {
				addrs[n.ID] = n.ID
			}
			ring := redis.NewRing(&redis.RingOptions{Addrs: addrs, DialTimeout: 5 * time.Second, Protocol: 2, DisableIdentity: true})
			defer ring.Close()
			rec.Reset()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := ring.Pipelined(ctx, func(p redis.Pipeliner) error {
				for _, k := range keys {
					p.Get(ctx, k)
				}
				return nil
			}); err != nil && err != redis.Nil {
				t.Fatal(err)
			}
			out := make([]string, len(keys))
			for i, k := range keys {
				w, err := rec.Where(k)
				if err != nil || w < 0 {
					t.Fatalf("key %q: listener %d, %v", k, w, err)
				}
				out[i] = dialecttest.Addrs[w]
			}
			return out
		},
	}
	for _, name := range []string{gomemcache.Name, goredis.Name} {
		var got []dialecttest.Vector
		for _, f := range []string{dialecttest.Equal, dialecttest.Left} {
			for i, s := range routes[name](dialecttest.Fleet(f)) {
				got = append(got, dialecttest.Vector{Dialect: name, Fleet: f, Key: keys[i], Server: s})
			}
		}
		path := filepath.Join("..", "algorithms", "dialect", strings.ReplaceAll(strings.TrimSuffix(name, "-ring"), "-", ""), "testdata", "vectors.tsv")
		if *updateVectors {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			src := goredis.Version + " (a Ring over RESP recorder listeners)"
			if name == gomemcache.Name {
				src = gomemcache.Version + " (ServerList.PickServer)"
			}
			if err := dialecttest.Write(path, src, got); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %d vectors to %s", len(got), path)
			continue
		}
		want, err := dialecttest.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: the real module no longer routes the recorded vectors as recorded", path)
		}
		t.Logf("%s: %d vectors as the real module routes them", path, len(got))
	}
}
