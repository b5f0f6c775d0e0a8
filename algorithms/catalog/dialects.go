package catalog

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect"
	"github.com/chbench/chbench/algorithms/dialect/gomemcache"
	"github.com/chbench/chbench/algorithms/dialect/goredis"
	"github.com/chbench/chbench/algorithms/dialect/haproxy"
	"github.com/chbench/chbench/algorithms/dialect/hashringjs"
	"github.com/chbench/chbench/algorithms/dialect/libmemcached"
	"github.com/chbench/chbench/algorithms/dialect/nginx"
	"github.com/chbench/chbench/algorithms/dialect/pymemcache"
	"github.com/chbench/chbench/algorithms/dialect/spymemcached"
	"github.com/chbench/chbench/algorithms/dialect/twemproxy"
	"github.com/chbench/chbench/algorithms/dialect/uhashring"
)

// DialectGroup is the name ParseNames expands to every dialect.
const DialectGroup = "dialects"

// DialectFacts are the facts of a dialect: a placement that reproduces one
// named real client or proxy bit for bit, from the server list as that
// system's configuration spells it.
type DialectFacts struct {
	System  string // the real system and its setting, e.g. "twemproxy, distribution: ketama, hash: md5"
	Version string // the version followed (the Debian, npm or Go module version installed)
	Source  string // the source file(s) followed
	Hashed  string // what strings are hashed: keys, server labels
	NodeIDs string // the node ID format the dialect takes
	Checked string // what the live test compares it with
	// Common, when not empty, says why the dialect is one of
	// [CommonDialects]: the setting its system runs with when the
	// configuration names none, or the consistent-hashing setting its
	// users pick instead.
	Common string
	// MaxNodes is the most servers the system accepts (libmemcached's
	// continuum holds 100), or 0 when it sets no limit of its own.
	MaxNodes int
	// Product is the system as its users name it ("libmemcached",
	// "twemproxy", "npm hashring", ...): the dialects of one system share
	// it.
	Product string
	// Default: this is the setting the system uses when its configuration
	// names none (one dialect per system).
	Default bool
}

// dialectPointBytes bounds what a dialect allocates per point or table
// entry: its build record (8 B) and the position and owner kept (8 B), the
// lookup table (4 to 8 B per point), the label hashed for it (up to 32 B)
// and sort scratch; dialectNodeBytes covers the membership copy,
// validation and parsed addresses.
// dialectEntryBytes is the same for HAProxy's map, whose entries are
// 4-byte server indexes built in place (its weight scale of 16 makes them
// many: 16 a server at equal weights).
const (
	dialectPointBytes = 64
	dialectEntryBytes = 16
	dialectNodeBytes  = 256
)

// dialect returns the Info of a dialect built by build, with points(nodes)
// an upper bound of its points or table entries.
func dialectInfo(name string, f DialectFacts, weights string, weighted bool, build dialect.Build, points func([]algorithms.Node) int64) Info {
	return dialectInfoBytes(name, f, weights, weighted, build, points, dialectPointBytes)
}

// dialectInfoBytes is dialectInfo with perPoint bytes a point or entry.
func dialectInfoBytes(name string, f DialectFacts, weights string, weighted bool, build dialect.Build, points func([]algorithms.Node) int64, perPoint int64) Info {
	return Info{Name: name, Family: "dialect", Lookup: "O(1) expected", Memory: fmt.Sprintf("%d B per point or table entry", perPoint),
		Removal: "any; as the real system re-places keys when a server leaves its configuration", Weights: weights,
		Source: f.Source, Weighted: weighted, Dialect: &f,
		build: func(n []algorithms.Node, _ Config, _ algorithms.Hash) (algorithms.Placer, error) { return build(n) },
		cost: func(n []algorithms.Node, _ Config) (Cost, error) {
			p := points(n)
			return Cost{Bytes: fixedBytes + int64(len(n))*dialectNodeBytes + p*perPoint,
				How: fmt.Sprintf("%d points or table entries x %d B + %d nodes x %d B", p, perPoint, len(n), dialectNodeBytes)}, nil
		}}
}

// sharePoints bounds the points of a layout giving each server its share
// of perServer*n points (at least min), plus per-server rounding.
func sharePoints(perServer, least int64) func([]algorithms.Node) int64 {
	return func(n []algorithms.Node) int64 { return perServer*int64(len(n)) + least*int64(len(n)) }
}

// weightPoints bounds the points of a layout giving per points per unit
// of weight.
func weightPoints(per int64) func([]algorithms.Node) int64 {
	return func(n []algorithms.Node) int64 {
		var p float64
		for _, x := range n {
			p += math.Ceil(x.Weight) * float64(per)
		}
		return int64(min(p, math.MaxInt64/2/dialectPointBytes))
	}
}

func countNodes(n []algorithms.Node) int64 { return int64(len(n)) }

// must panics on an error from a dialect builder made of a constant name
// (every one in the tables below).
func must(b dialect.Build, err error) dialect.Build {
	if err != nil {
		panic(err)
	}
	return b
}

// dialectInfos is the registry of dialects, in the order Dialects lists
// them.
var dialectInfos = func() []Info {
	const (
		lmVersion  = libmemcached.Version
		lmLive     = "pylibmc 1.6.3 routing to recorder listeners (live.TestDialectLibmemcached)"
		twVersion  = twemproxy.Version
		twSource   = "src/hashkit/nc_ketama.c, nc_modula.c, nc_*.c hashes; src/nc_conf.c (server names, sort)"
		twLive     = "nutcracker in front of recorder listeners (live.TestDialectTwemproxy)"
		twIDs      = `host:port or "host:port name", whole weights`
		lmIDs      = "host:port"
		equalOnly  = "no (weight 1)"
		wholeTimes = "whole weights: the server listed w times"
	)
	var out []Info
	out = append(out,
		dialectInfo(libmemcached.KetamaWeightedName, DialectFacts{
			System: "libmemcached, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED", Version: lmVersion,
			Source:  "src/libmemcached/hosts.cc update_continuum, hash.cc dispatch_host",
			Hashed:  `keys: MD5 word 0; points: MD5 of "host-i" (port 11211) or "host:port-i", 4 per digest`,
			NodeIDs: lmIDs + ", positive weights (at most 100 servers)", Checked: lmLive},
			"4*floor(float32(40*n*w/W)) points", true, libmemcached.KetamaWeighted, sharePoints(160, 4)),
		dialectInfo(libmemcached.KetamaName, DialectFacts{
			System: "libmemcached, MEMCACHED_BEHAVIOR_KETAMA", Version: lmVersion,
			Source:  "src/libmemcached/hosts.cc update_continuum, hash.cc dispatch_host",
			Hashed:  `keys and points: one-at-a-time; 100 points of "host-i" (port 11211) or "host:port-i"`,
			NodeIDs: lmIDs + " (at most 100 servers)", Checked: lmLive},
			equalOnly, false, libmemcached.Ketama, sharePoints(libmemcached.PointsPerServer, 0)),
	)
	for _, h := range libmemcached.Hashes {
		out = append(out, dialectInfo(libmemcached.ModulaName(h.Name), DialectFacts{
			System: "libmemcached, MEMCACHED_DISTRIBUTION_MODULA, hash " + h.Name, Version: lmVersion,
			Source: "src/libmemcached/hash.cc dispatch_host, src/libhashkit/",
			Hashed: "keys: " + h.Name + " (libhashkit, signed-char bytes), mod the server count", NodeIDs: lmIDs, Checked: lmLive},
			equalOnly, false, must(libmemcached.Modula(h.Name)), countNodes))
	}
	for _, h := range twemproxy.Hashes {
		out = append(out, dialectInfo(twemproxy.Name("ketama", h.Name), DialectFacts{
			System: "twemproxy, distribution: ketama, hash: " + h.Name, Version: twVersion, Source: twSource,
			Hashed:  `keys: ` + h.Name + `; points: MD5 of "name-i", name = given name, else host:port, host for port 11211`,
			NodeIDs: twIDs, Checked: twLive},
			"4*floor(float32(40*n*w/W)) points", true, must(twemproxy.Ketama(h.Name)), sharePoints(160, 4)))
	}
	for _, h := range twemproxy.Hashes {
		out = append(out, dialectInfo(twemproxy.Name("modula", h.Name), DialectFacts{
			System: "twemproxy, distribution: modula, hash: " + h.Name, Version: twVersion, Source: twSource,
			Hashed:  "keys: " + h.Name + ", mod the total weight, servers sorted by name",
			NodeIDs: twIDs, Checked: twLive},
			wholeTimes, true, must(twemproxy.Modula(h.Name)), weightPoints(1)))
	}
	out = append(out,
		dialectInfo(pymemcache.Name, DialectFacts{
			System: "python-memcached Client", Version: pymemcache.Version, Source: "memcache.py Client._get_server, cmemcache_hash, _init_buckets",
			Hashed:  "keys: (crc32 >> 16) & 0x7fff, or 1 for 0; on a down server str(hash)+str(retry)",
			NodeIDs: "host:port, whole weights", Checked: "memcache.Client._get_server under /usr/bin/python3 (live.TestDialectPythonMemcached)"},
			wholeTimes, true, pymemcache.New, weightPoints(1)),
		dialectInfo(uhashring.MetaName, DialectFacts{
			System: "uhashring HashRing (default ring)", Version: uhashring.Version, Source: "uhashring/ring.py, ring_meta.py",
			Hashed:  `keys and points: MD5 as a 128-bit number; 160 points of "name-i" per unit of weight; first point after the key`,
			NodeIDs: "any names, whole weights", Checked: "HashRing.get_node and range under /usr/bin/python3 (live.TestDialectUhashring)"},
			"160*w points", true, uhashring.NewMeta, weightPoints(uhashring.MetaVNodes)),
		dialectInfo(uhashring.KetamaName, DialectFacts{
			System: `uhashring HashRing(hash_fn="ketama")`, Version: uhashring.Version, Source: "uhashring/ring.py, ring_ketama.py",
			Hashed:  `keys: MD5 word 0; points: MD5 of "name-i", 4 per digest, 40*n*w//W digests; first point after the key`,
			NodeIDs: "any names, whole weights", Checked: "HashRing.get_node and range under /usr/bin/python3 (live.TestDialectUhashring)"},
			"4*(40*n*w//W) points", true, uhashring.Ketama, sharePoints(160, 4)),
		dialectInfo(hashringjs.Name, DialectFacts{
			System: "npm hashring HashRing", Version: hashringjs.Version, Source: "index.js continuum, find, get",
			Hashed:  `keys: MD5 word 0; points: MD5 of "server-i", 4 per digest, floor(40*n*w/W) digests in double`,
			NodeIDs: "any server strings, positive weights", Checked: "HashRing#get and #range under node (live.TestDialectHashringJS)"},
			"4*floor(40*n*w/W) points", true, hashringjs.New, sharePoints(160, 4)),
	)
	const spyLive = "KetamaNodeLocator / ArrayModNodeLocator of the installed jar, from a Java program compiled by the test (live.TestDialectSpymemcached)"
	out = append(out,
		dialectInfo(spymemcached.KetamaSpyName, DialectFacts{
			System: "spymemcached KetamaNodeLocator, KETAMA_HASH, key format SPYMEMCACHED", Version: spymemcached.Version,
			Source:  "net/spy/memcached/KetamaNodeLocator.java, KetamaNodeKeyFormatter.java",
			Hashed:  `keys: MD5 word 0; points: MD5 of "ip:port-i" or "name/ip:port-i" (the InetSocketAddress), 4 per digest, 160 a server`,
			NodeIDs: "ip:port or name/ip:port", Checked: spyLive},
			equalOnly, false, spymemcached.KetamaSpy, sharePoints(spymemcached.NodeRepetitions, 0)),
		dialectInfo(spymemcached.KetamaLibName, DialectFacts{
			System: "spymemcached KetamaNodeLocator, KETAMA_HASH, key format LIBMEMCACHED", Version: spymemcached.Version,
			Source:  "net/spy/memcached/KetamaNodeLocator.java, KetamaNodeKeyFormatter.java",
			Hashed:  `keys: MD5 word 0; points: MD5 of "host-i" (port 11211) or "host:port-i", host = getHostName() (reverse DNS of an IP)`,
			NodeIDs: "host:port (by name)", Checked: spyLive},
			equalOnly, false, spymemcached.KetamaLibmemcached, sharePoints(spymemcached.NodeRepetitions, 0)),
		dialectInfo(spymemcached.ArrayModName, DialectFacts{
			System: "spymemcached ArrayModNodeLocator, NATIVE_HASH (DefaultConnectionFactory)", Version: spymemcached.Version,
			Source:  "net/spy/memcached/ArrayModNodeLocator.java, DefaultHashAlgorithm.java",
			Hashed:  "keys: String.hashCode() (UTF-16) as unsigned 32 bits, mod the server count",
			NodeIDs: "host:port, ip:port or name/ip:port", Checked: spyLive},
			equalOnly, false, spymemcached.ArrayMod, countNodes),
	)
	const ngLive = "nginx proxying to HTTP backends that answer with their port (live.TestDialectNginx)"
	out = append(out,
		dialectInfo(nginx.ConsistentName, DialectFacts{
			System: "nginx upstream, hash $key consistent", Version: nginx.Version,
			Source:  "src/http/modules/ngx_http_upstream_hash_module.c (init_chash, find_chash_point, get_chash_peer)",
			Hashed:  `keys: CRC-32; points: CRC-32 chain over "host\0port" + the previous point, 160 per unit of weight`,
			NodeIDs: "host:port as in the server line, whole weights", Checked: ngLive},
			"160*w points", true, nginx.Consistent, weightPoints(nginx.PointsPerWeight)),
		dialectInfo(nginx.HashName, DialectFacts{
			System: "nginx upstream, hash $key", Version: nginx.Version,
			Source:  "src/http/modules/ngx_http_upstream_hash_module.c (get_hash_peer)",
			Hashed:  "keys: (crc32 >> 16) & 0x7fff mod the total weight, servers in order",
			NodeIDs: "host:port as in the server line, whole weights", Checked: ngLive},
			wholeTimes, true, nginx.Hash, weightPoints(1)),
	)
	const haLive = "HAProxy balance hdr() proxying to HTTP backends that answer with their port (live.TestDialectHAProxy)"
	for _, method := range []string{"consistent", "map-based"} {
		for _, v := range []struct {
			f string
			a bool
		}{{"sdbm", false}, {"djb2", false}, {"wt6", false}, {"crc32", false}, {"sdbm", true}} {
			mod, build, how, src, bytes := "", must(haproxy.Consistent(v.f, v.a)), "16*w points at full_hash(puid*4096+j), the nearer of the points around the key",
				"src/lb_chash.c chash_init_server_tree, chash_get_server_hash", int64(dialectPointBytes)
			if v.a {
				mod = " avalanche"
			}
			if method == "map-based" {
				build, how, src, bytes = must(haproxy.MapBased(v.f, v.a)), "mod the map of 16*w/gcd entries a server in HAProxy's smooth weighted order",
					"src/lb_map.c init_server_map, recalc_server_map, map_get_server_hash", dialectEntryBytes
			}
			keyHash := v.f
			if v.a {
				keyHash = "full_hash(" + v.f + ")"
			}
			out = append(out, dialectInfoBytes(haproxy.Name(method, v.f, v.a), DialectFacts{
				System: "HAProxy hash-type " + method + " " + v.f + mod, Version: haproxy.Version,
				Source:  src + "; src/hash.c, src/backend.c gen_hash (v2.6.0 sources)",
				Hashed:  "keys: " + keyHash + "; servers: nothing, their position (puid) in the backend; " + how,
				NodeIDs: "server lines in order (any IDs), whole weights 1..256", Checked: haLive},
				"16*w points or entries", true, build, weightPoints(haproxy.BEWeightScale), bytes))
		}
	}
	out = append(out,
		dialectInfo(goredis.Name, DialectFacts{
			System: "go-redis Ring, default NewConsistentHash (rendezvous)", Version: goredis.Version,
			Source:  "ring.go newRendezvous; internal/hashtag/rendezvous.go, hashtag.go",
			Hashed:  "keys: xxHash64 of the {hash tag} or whole key; shards: xxHash64 of the name; highest mix64(key ^ shard) wins",
			NodeIDs: "shard names (RingOptions.Addrs keys)", Checked: "a Ring over RESP recorder listeners, in the peers module (peers.TestDialectGoRedisRing)"},
			equalOnly, false, goredis.New, countNodes),
		dialectInfo(gomemcache.Name, DialectFacts{
			System: "gomemcache ServerList.PickServer", Version: gomemcache.Version, Source: "memcache/selector.go PickServer",
			Hashed:  "keys: CRC-32 (IEEE) of the first 256 bytes, mod the server count",
			NodeIDs: "host:port", Checked: "ServerList.PickServer of the module, in the peers module (peers.TestDialectGomemcache)"},
			equalOnly, false, gomemcache.New, countNodes),
	)
	for i := range out {
		// Ordered: the modulo tables and HAProxy's positions depend on the
		// order servers are listed in; the continuums only in breaking
		// ties of equal points, and twemproxy sorts its servers by name.
		n := out[i].Name
		out[i].Ordered = strings.Contains(n, "modula") || strings.HasPrefix(n, "haproxy-") ||
			n == pymemcache.Name || n == nginx.HashName || n == spymemcached.ArrayModName || n == gomemcache.Name
		if strings.HasPrefix(n, "twemproxy-") {
			out[i].Ordered = false
		}
		switch {
		case strings.HasPrefix(n, "haproxy-consistent"):
			out[i].Lookup = "O(log n) (binary search of 16 points a unit of weight)"
		case n == uhashring.MetaName:
			out[i].Lookup = "O(log n) (binary search of 128-bit points)"
		case n == goredis.Name:
			out[i].Lookup, out[i].Memory = "O(n) (one score per shard)", "8 B per shard + IDs"
		}
		if n == libmemcached.KetamaWeightedName || n == libmemcached.KetamaName {
			out[i].Dialect.MaxNodes = libmemcached.MaxContinuumServers
		}
	}
	for _, c := range commonDialects {
		i := slices.IndexFunc(out, func(in Info) bool { return in.Name == c.name })
		if i < 0 {
			panic("common dialect " + c.name + " is not registered")
		}
		out[i].Dialect.Common, out[i].Dialect.Default = c.why, c.isDefault
	}
	for i := range out {
		for _, p := range products {
			if strings.HasPrefix(out[i].Name, p.prefix) {
				out[i].Dialect.Product = p.product
				break
			}
		}
		if out[i].Dialect.Product == "" {
			panic("dialect " + out[i].Name + " belongs to no product")
		}
	}
	return out
}()

// commonDialects are the dialects of CommonDialects, in its order, with
// the reason each is there (DialectFacts.Common): for every system its
// default setting, and where that default is not consistent hashing
// (libmemcached, spymemcached, nginx, HAProxy) also the consistent
// setting; twemproxy's default hash beside md5, the hash of libketama.
var commonDialects = []struct {
	name, why string
	isDefault bool // the system's default setting (DialectFacts.Default)
}{
	{libmemcached.ModulaName("default"), "libmemcached's default: MEMCACHED_DISTRIBUTION_MODULA with the default hash (one-at-a-time)", true},
	{libmemcached.KetamaWeightedName, "libmemcached's libketama layout (MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED): MD5 points and keys, as twemproxy's ketama with hash md5", false},
	{twemproxy.Name("ketama", "fnv1a_64"), "twemproxy's default: distribution ketama, hash fnv1a_64 (src/nc_conf.h CONF_DEFAULT_DIST, CONF_DEFAULT_HASH)", true},
	{twemproxy.Name("ketama", "md5"), "twemproxy's libketama setting: distribution ketama, hash md5", false},
	{pymemcache.Name, "python-memcached's only distribution", true},
	{uhashring.MetaName, "uhashring's default ring (HashRing without hash_fn)", true},
	{hashringjs.Name, "npm hashring's only distribution", true},
	{spymemcached.ArrayModName, "spymemcached's default (DefaultConnectionFactory: ArrayModNodeLocator, NATIVE_HASH)", true},
	{spymemcached.KetamaSpyName, "spymemcached's consistent setting (KetamaConnectionFactory: KetamaNodeLocator, KETAMA_HASH, key format SPYMEMCACHED)", false},
	{nginx.HashName, "nginx's default: upstream hash without the consistent parameter", true},
	{nginx.ConsistentName, "nginx's consistent setting: upstream hash with the consistent parameter (ketama-like)", false},
	{haproxy.Name("map-based", "sdbm", false), "HAProxy's default: hash-type map-based, hash function sdbm", true},
	{haproxy.Name("consistent", "sdbm", false), "HAProxy's consistent setting: hash-type consistent, sdbm", false},
	{goredis.Name, "go-redis Ring's default (NewConsistentHash: rendezvous)", true},
	{gomemcache.Name, "gomemcache's only distribution (ServerList.PickServer)", true},
}

// products names each system by the prefix of its dialects' names.
var products = []struct{ prefix, product string }{
	{"libmemcached-", "libmemcached"}, {"twemproxy-", "twemproxy"}, {pymemcache.Name, "python-memcached"},
	{uhashring.MetaName, "uhashring"}, {hashringjs.Name, "npm hashring"}, {"spymemcached-", "spymemcached"},
	{"nginx-", "nginx"}, {"haproxy-", "HAProxy"}, {goredis.Name, "go-redis"}, {gomemcache.Name, "gomemcache"},
}

// CommonDialectGroup is the name ParseNames expands to [CommonDialects].
const CommonDialectGroup = "common-dialects"

// CommonDialects returns the dialects fleets commonly run, in a fixed
// order: every system's default setting, and its consistent-hashing
// setting where the default is not one (see DialectFacts.Common for
// each). The switching matrix and the lookup benchmarks use this set
// rather than all dialects.
func CommonDialects() []string {
	names := make([]string, len(commonDialects))
	for i, c := range commonDialects {
		names[i] = c.name
	}
	return names
}

// Dialects returns the registered dialect names in a fixed order. They are
// not among Names() (nor "-algo all"): select them by name or with the
// group "dialects" in ParseNames.
func Dialects() []string {
	names := make([]string, len(dialectInfos))
	for i, in := range dialectInfos {
		names[i] = in.Name
	}
	return names
}

// IsDialect reports whether name is a registered dialect.
func IsDialect(name string) bool {
	in, err := Describe(name)
	return err == nil && in.Dialect != nil
}
