package live

import (
	"cmp"
	"slices"
	"sort"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/ketama"
)

// owners stores every key through the proxy at proxyAddr, then asks each
// memcached directly which keys it holds, and returns each key's holder
// (an index into servers). Every key must be on exactly one server.
func owners(t *testing.T, proxyAddr string, servers []TwemServer, keys []string) []int {
	t.Helper()
	proxy, err := DialMemcache(proxyAddr, deadline)
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()
	if err := proxy.SetAll(keys, "1"); err != nil {
		t.Fatal(err)
	}
	holder := make([]int, len(keys))
	for i := range holder {
		holder[i] = -1
	}
	for s, srv := range servers {
		c, err := DialMemcache(Addr(srv.Port), deadline)
		if err != nil {
			t.Fatal(err)
		}
		has, err := c.Has(keys)
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		for i, h := range has {
			if !h {
				continue
			}
			if holder[i] >= 0 {
				t.Fatalf("key %q on both %s and %s", keys[i], servers[holder[i]].KetamaID(), srv.KetamaID())
			}
			holder[i] = s
		}
	}
	for i, h := range holder {
		if h < 0 {
			t.Fatalf("key %q stored through the proxy is on no server", keys[i])
		}
	}
	return holder
}

func flushAll(t *testing.T, servers []TwemServer) {
	t.Helper()
	for _, srv := range servers {
		c, err := DialMemcache(Addr(srv.Port), deadline)
		if err != nil {
			t.Fatal(err)
		}
		err = c.FlushAll()
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
}

func ketamaOf(t *testing.T, servers []TwemServer) *ketama.Ketama {
	t.Helper()
	nodes := make([]algorithms.Node, len(servers))
	for i, s := range servers {
		nodes[i] = algorithms.Node{ID: s.KetamaID(), Weight: float64(s.Weight)}
	}
	k, err := ketama.New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// compareOwners fails on the first keys whose real holder differs from
// chbench's ketama owner, and returns the number that agree.
func compareOwners(t *testing.T, k *ketama.Ketama, servers []TwemServer, keys []string, holder []int) int {
	t.Helper()
	agree, shown := 0, 0
	for i, key := range keys {
		want := k.Locate(key)
		if got := servers[holder[i]].KetamaID(); got == want {
			agree++
		} else if shown++; shown <= 5 {
			t.Errorf("key %q: twemproxy stored it on %s, chbench ketama names %s", key, got, want)
		}
	}
	if agree != len(keys) {
		t.Errorf("%d of %d keys on the server chbench names", agree, len(keys))
	}
	return agree
}

// nutcracker (twemproxy) with `distribution: ketama` and `hash: md5` in
// front of six named memcached instances of weights 1..3: every key
// of the word list lands on the instance chbench's ketama names; then one
// instance leaves the configuration, and the keys that route elsewhere are
// exactly those chbench's ketama moves.
func TestTwemproxyKetama(t *testing.T) {
	t.Parallel()
	need(t, "memcached", "nutcracker")
	keys := words(t)
	// Named servers: twemproxy hashes the names, not the ports chosen at
	// start, so the continuum and every count below are the same in every
	// run. (The 25-server test uses unnamed "127.0.0.1:port" labels.)
	servers := []TwemServer{{Weight: 1, Name: "cache-a"}, {Weight: 2, Name: "cache-b"}, {Weight: 1, Name: "cache-c"},
		{Weight: 1, Name: "cache-d"}, {Weight: 3, Name: "cache-e"}, {Weight: 1, Name: "cache-f"}}
	for i := range servers {
		servers[i].Port = freePort(t)
		started(t, func() (*Process, error) { return StartMemcached(servers[i].Port, 64) })
	}
	dir := t.TempDir()
	proxy := func(servers []TwemServer) string {
		listen := freePort(t)
		p := started(t, func() (*Process, error) {
			return StartNutcracker(dir, NutcrackerConfig(listen, "md5", "ketama", servers), listen, freePort(t))
		})
		return p.Addr
	}

	// All six servers.
	addr := proxy(servers)
	before := owners(t, addr, servers, keys)
	kBefore := ketamaOf(t, servers)
	agree := compareOwners(t, kBefore, servers, keys, before)
	perServer := make([]int, len(servers))
	for _, h := range before {
		perServer[h]++
	}
	t.Logf("%d servers, weights 1,2,1,1,3,1: %d of %d keys on the server chbench's ketama names; keys per server %v",
		len(servers), agree, len(keys), perServer)

	// Server 4 (weight 3) leaves: a new proxy with the other five, on
	// emptied memcached instances.
	const gone = 4
	rest := append(append([]TwemServer(nil), servers[:gone]...), servers[gone+1:]...)
	flushAll(t, servers)
	addr = proxy(rest)
	afterRest := owners(t, addr, rest, keys)
	kAfter := ketamaOf(t, rest)
	agreeAfter := compareOwners(t, kAfter, rest, keys, afterRest)

	realMoved, chbMoved, same, collateral := 0, 0, 0, 0
	for i, key := range keys {
		realBefore, realAfter := servers[before[i]].KetamaID(), rest[afterRest[i]].KetamaID()
		chbBefore, chbAfter := kBefore.Locate(key), kAfter.Locate(key)
		r, c := realBefore != realAfter, chbBefore != chbAfter
		if r {
			realMoved++
			if before[i] != gone {
				collateral++
			}
		}
		if c {
			chbMoved++
		}
		if r == c {
			same++
		}
	}
	if realMoved != chbMoved || same != len(keys) {
		t.Errorf("removal of %s: twemproxy moved %d keys, chbench ketama %d; %d of %d keys agree on moving",
			servers[gone].KetamaID(), realMoved, chbMoved, same, len(keys))
	}
	t.Logf("%s (weight 3 of 9) leaves: %d of %d keys on chbench's owner afterwards; twemproxy moved %d keys (%.2f%%), chbench ketama %d, the same keys; %d of them between servers that stay (their point counts change with the total weight)",
		servers[gone].KetamaID(), agreeAfter, len(keys), realMoved, 100*float64(realMoved)/float64(len(keys)), chbMoved, collateral)
}

// 25 equal servers: twemproxy's float32 point count gives each 156
// points, not 160 (see package ketama). Every fifth word through a real
// nutcracker lands where chbench's 156-point continuum says; a continuum
// of 160 points per server would put some of them elsewhere.
func TestTwemproxyKetama25Servers(t *testing.T) {
	t.Parallel()
	need(t, "memcached", "nutcracker")
	all := words(t)
	var keys []string
	for i := 0; i < len(all); i += 5 {
		keys = append(keys, all[i])
	}
	servers := make([]TwemServer, 25)
	for i := range servers {
		servers[i] = TwemServer{Port: freePort(t), Weight: 1}
		started(t, func() (*Process, error) { return StartMemcached(servers[i].Port, 8) })
	}
	listen := freePort(t)
	p := started(t, func() (*Process, error) {
		return StartNutcracker(t.TempDir(), NutcrackerConfig(listen, "md5", "ketama", servers), listen, freePort(t))
	})
	k := ketamaOf(t, servers)
	if k.Len() != 25*156 {
		t.Fatalf("chbench's continuum of 25 equal servers has %d points, want %d", k.Len(), 25*156)
	}
	holder := owners(t, p.Addr, servers, keys)
	agree := compareOwners(t, k, servers, keys, holder)
	// The same keys on a naive continuum of 40 digests (160 points) per
	// server: the check can tell the two apart.
	type point struct {
		pos   uint32
		owner int
	}
	var naive []point
	for s, srv := range servers {
		for i := 0; i < 40; i++ {
			for _, w := range algorithms.MD5Words(ketama.Label(srv.KetamaID(), i)) {
				naive = append(naive, point{w, s})
			}
		}
	}
	slices.SortStableFunc(naive, func(a, b point) int { return cmp.Compare(a.pos, b.pos) })
	differ := 0
	for i, key := range keys {
		h := algorithms.MD5Words(key)[0]
		j := sort.Search(len(naive), func(j int) bool { return naive[j].pos >= h })
		if j == len(naive) {
			j = 0
		}
		if naive[j].owner != holder[i] {
			differ++
		}
	}
	if differ == 0 {
		t.Error("a 160-point continuum places every key as twemproxy does; the 156-point check tells nothing")
	}
	t.Logf("25 equal servers (156 points each): %d of %d keys on the server chbench's ketama names; a 160-point continuum would misplace %d (%.2f%%)",
		agree, len(keys), differ, 100*float64(differ)/float64(len(keys)))
}
