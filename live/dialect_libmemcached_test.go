package live

import (
	"fmt"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect/libmemcached"
)

// pylibmc (python3-pylibmc 1.6.3 on Debian's libmemcached 1.1.4) routes
// every key to the server the libmemcached dialects name: ketama weighted
// and unweighted and modula with the default hash at 10, 25 and 300
// servers (100 for ketama, the most libmemcached's continuum holds), modula
// with each other key hash at 25 servers (every third key); each also
// after one server leaves. The servers are a Recorder's
// listeners: pylibmc's get_multi sends each key to the server libmemcached
// picks, and the listener that receives it is the answer.
func TestDialectLibmemcached(t *testing.T) {
	t.Parallel()
	py := startPython(t, "pylibmc_route.py", "pylibmc", "python3-pylibmc")
	keys := dialectKeys(t)
	rec, ids := recorder(t, fleetSizes[len(fleetSizes)-1])
	type mode struct {
		behaviors map[string]any
		build     func([]algorithms.Node) (algorithms.Placer, error)
		name      string
		max       int // most servers the mode takes
	}
	modes := []mode{
		{map[string]any{"ketama_weighted": true}, libmemcached.KetamaWeighted, libmemcached.KetamaWeightedName, libmemcached.MaxContinuumServers},
		{map[string]any{"ketama": true}, libmemcached.Ketama, libmemcached.KetamaName, libmemcached.MaxContinuumServers},
	}
	for _, h := range libmemcached.Hashes {
		b, err := libmemcached.Modula(h.Name)
		if err != nil {
			t.Fatal(err)
		}
		modes = append(modes, mode{map[string]any{"hash": h.Name, "distribution": "modula"}, b, libmemcached.ModulaName(h.Name), len(ids)})
	}
	for mi, m := range modes {
		sizes, keys := fleetSizes, keys
		if mi > 2 {
			sizes, keys = []int{25}, every(keys, 3)
		}
		for _, n := range sizes {
			n = min(n, m.max)
			route := func(nodes []algorithms.Node) []string {
				servers := make([]string, len(nodes))
				for i, nd := range nodes {
					servers[i] = nd.ID
				}
				rec.Reset()
				var reply struct{ Behaviors map[string]any }
				if err := py.Call(map[string]any{"servers": servers, "behaviors": m.behaviors, "keys": keys}, &reply, scriptTimeout); err != nil {
					t.Fatal(err)
				}
				return recorded(t, rec, ids, keys)
			}
			checkFleet(t, fmt.Sprintf("pylibmc %v", m.behaviors), dialectCase{nodesOf(ids[:n], nil), m.build}, keys, route)
		}
	}
}

// The installed libhashkit (Debian libhashkit2, called through ctypes)
// hashes every dialect key as package hashkit does, for each algorithm of
// libmemcached's modula; hsieh, which Debian leaves out, hashes every key
// to 1 and reports itself missing.
func TestDialectLibhashkit(t *testing.T) {
	t.Parallel()
	py := startPython(t, "libhashkit_digest.py", "ctypes; ctypes.CDLL('libhashkit.so.2')", "libhashkit2")
	keys := dialectKeys(t)
	// hashkit_hash_algorithm_t: DEFAULT 0, MD5 1, CRC 2, FNV1_64 3,
	// FNV1A_64 4, FNV1_32 5, FNV1A_32 6, HSIEH 7, MURMUR 8, JENKINS 9.
	algs := map[string]int{"default": 0, "md5": 1, "crc": 2, "fnv1_64": 3, "fnv1a_64": 4, "fnv1_32": 5, "fnv1a_32": 6, "murmur": 8, "jenkins": 9}
	ids := []int{7}
	for _, h := range libmemcached.Hashes {
		ids = append(ids, algs[h.Name])
	}
	var reply struct {
		Has     []bool
		Digests [][]uint32
	}
	if err := py.Call(map[string]any{"keys": keys, "algorithms": ids}, &reply, scriptTimeout); err != nil {
		t.Fatal(err)
	}
	if len(reply.Has) != len(ids) || len(reply.Digests) != len(ids) {
		t.Fatalf("reply for %d of %d algorithms", len(reply.Digests), len(ids))
	}
	if reply.Has[0] {
		t.Error("libhashkit reports hsieh available; libmemcached.Hashes leaves it out")
	}
	for i, d := range reply.Digests[0] {
		if d != 1 {
			t.Fatalf("libhashkit hsieh(%q) = %d; without hsieh it returns 1", keys[i], d)
		}
	}
	for j, h := range libmemcached.Hashes {
		got := reply.Digests[j+1]
		bad := 0
		for i, k := range keys {
			if want := h.Func(k); got[i] != want {
				if bad++; bad <= 5 {
					t.Errorf("%s(%q): libhashkit %d, hashkit %d", h.Name, k, got[i], want)
				}
			}
		}
		if !reply.Has[j+1] {
			t.Errorf("libhashkit reports %s missing", h.Name)
		}
		t.Logf("%s: %d/%d keys hash as libhashkit hashes them", h.Name, len(keys)-bad, len(keys))
	}
}
