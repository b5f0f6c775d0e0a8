// Package twemproxy reproduces how twemproxy (nutcracker 0.5.0, Debian
// nutcracker 0.5.0+dfsg-2) routes a key to a server of a pool, for
// `distribution: ketama` (src/hashkit/nc_ketama.c) and `distribution:
// modula` (src/hashkit/nc_modula.c) with each `hash:` it offers
// (src/hashkit/nc_*.c: md5, crc16, crc32, crc32a, fnv1_64, fnv1a_64,
// fnv1_32, fnv1a_32, hsieh, murmur, jenkins, one_at_a_time; see
// [hashkit]). `distribution: random` is not deterministic and is left out.
//
// A node is one `servers:` line without its weight: ID "host:port", or
// "host:port name" when the line names the server, and the weight as
// Node.Weight (a whole number, as twemproxy parses it). twemproxy derives
// each server's name (src/nc_conf.c, conf_add_server): the given name,
// else "host:port", or "host" alone when the port is 11211 (for
// libmemcached compatibility), and sorts the pool's servers by name
// (shorter first, then bytewise: conf_validate_server sorts them to find
// duplicates and keeps that order). The name, not the address, is what
// ketama hashes, and the sorted order, not the configuration's, is the
// order modula counts in.
//
//   - ketama: the continuum of package [ketama] (which reproduces
//     nc_ketama.c point for point: 160 points per server at equal weights,
//     156 for n = 25, 47, 50, ... from float rounding; four points per MD5
//     digest of "name-i"), searched at the key's hash under the configured
//     `hash:` (md5 is the ketama default of most configurations, fnv1a_64
//     that of twemproxy's README). The continuum's points are MD5 whatever
//     the key hash is.
//   - modula: hash mod W, W the total weight, into the sorted servers each
//     repeated weight times.
//
// A pool of one server sends every key to it unhashed; `hash_tag:` and
// `auto_eject_hosts:` (which rebuilds the distribution without a failing
// server) are not modelled. twemproxy has no replicas.
package twemproxy

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect"
	"github.com/chbench/chbench/algorithms/dialect/hashkit"
	"github.com/chbench/chbench/algorithms/ketama"
)

// Version is the twemproxy release this package follows.
const Version = "twemproxy 0.5.0 (Debian nutcracker 0.5.0+dfsg-2)"

// Hashes are twemproxy's `hash:` functions under their configuration names,
// in the order of src/hashkit/nc_hashkit.h.
var Hashes = []hashkit.Named{
	{Name: "one_at_a_time", Func: hashkit.OneAtATime},
	{Name: "md5", Func: hashkit.MD5},
	{Name: "crc16", Func: hashkit.CRC16},
	{Name: "crc32", Func: hashkit.CRC},
	{Name: "crc32a", Func: hashkit.CRC32},
	{Name: "fnv1_64", Func: hashkit.FNV1_64},
	{Name: "fnv1a_64", Func: hashkit.FNV1a_64},
	{Name: "fnv1_32", Func: hashkit.FNV1_32},
	{Name: "fnv1a_32", Func: hashkit.FNV1a_32},
	{Name: "hsieh", Func: hashkit.Hsieh},
	{Name: "murmur", Func: hashkit.Murmur},
	{Name: "jenkins", Func: hashkit.Jenkins},
}

// DefaultPort is the port whose servers twemproxy names by host alone.
const DefaultPort = 11211

// ServerName returns twemproxy's name for the server of node ID id
// ("host:port" or "host:port name").
func ServerName(id string) (string, error) {
	addr, name, named := strings.Cut(id, " ")
	hp, err := dialect.ParseHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("%w (or \"host:port name\")", err)
	}
	switch {
	case named && name == "":
		return "", fmt.Errorf("node ID %q: empty server name after the address", id)
	case named:
		return name, nil
	case hp.Port == DefaultPort:
		return hp.Host, nil
	default:
		return addr, nil
	}
}

// Name returns the registry name of a distribution and hash:
// "twemproxy-" + distribution + "-" + hash with '_' written '-'
// ("twemproxy-ketama-fnv1a-64").
func Name(distribution, hash string) string {
	return "twemproxy-" + distribution + "-" + strings.ReplaceAll(hash, "_", "-")
}

// names returns the servers' names, checking IDs and that the names are
// unique (twemproxy refuses a pool with two servers of one name).
func names(name string, nodes []algorithms.Node) ([]string, error) {
	if err := dialect.Validate(name, nodes); err != nil {
		return nil, err
	}
	out := make([]string, len(nodes))
	seen := map[string]int{}
	for i, n := range nodes {
		s, err := ServerName(n.ID)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if j, dup := seen[s]; dup {
			return nil, fmt.Errorf("%s: nodes %q and %q have the same server name %q", name, nodes[j].ID, n.ID, s)
		}
		seen[s] = i
		out[i] = s
	}
	return out, nil
}

// Ketama returns the builder of `distribution: ketama` with the named
// `hash:` (one of [Hashes]).
func Ketama(hash string) (dialect.Build, error) {
	f, err := hashkit.Lookup(Hashes, hash)
	if err != nil {
		return nil, fmt.Errorf("twemproxy ketama: %w", err)
	}
	name := Name("ketama", hash)
	var build dialect.Build
	build = func(nodes []algorithms.Node) (algorithms.Placer, error) {
		srv, err := names(name, nodes)
		if err != nil {
			return nil, err
		}
		if _, err := dialect.IntWeights(name, nodes, dialect.MaxIntWeight); err != nil {
			return nil, err
		}
		labelled := make([]algorithms.Node, len(nodes))
		for i, n := range nodes {
			labelled[i] = algorithms.Node{ID: srv[i], Weight: n.Weight}
		}
		k, err := ketama.New(labelled)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return &Continuum{name: name, nodes: dialect.Copy(nodes), hash: single(len(nodes), f), k: k, again: build}, nil
	}
	return build, nil
}

// single returns h, or for a pool of one server a hash that is always 0
// (twemproxy does not hash then; the owner is the same).
func single(n int, h hashkit.Func) hashkit.Func {
	if n == 1 {
		return func(string) uint32 { return 0 }
	}
	return h
}

// Continuum is twemproxy's ketama distribution: package ketama's
// continuum of the servers' names, searched at the configured key hash.
// It is immutable and safe for concurrent use; lookups do not allocate.
type Continuum struct {
	name  string
	nodes []algorithms.Node
	hash  hashkit.Func
	k     *ketama.Ketama
	again dialect.Build
}

// Algorithm returns the dialect's registry name.
func (c *Continuum) Algorithm() string { return c.name }

// Nodes returns the membership in configuration order.
func (c *Continuum) Nodes() []algorithms.Node { return c.nodes }

// HashKey returns the configured hash of key, zero-extended.
func (c *Continuum) HashKey(key string) uint64 { return uint64(c.hash(key)) }

// LocateHash returns the index in Nodes() of the server of the first
// point at or after h (< 2^32), wrapping.
func (c *Continuum) LocateHash(h uint64) int { return c.k.LocateHash(h) }

// Locate returns the ID of the node that owns key.
func (c *Continuum) Locate(key string) string { return c.nodes[c.LocateHash(c.HashKey(key))].ID }

// Rebalance builds the pool's distribution of nodes afresh, as twemproxy
// does when its configuration changes.
func (c *Continuum) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	return c.again(nodes)
}

// ExactShares returns each server's share of the 2^32 key hashes.
func (c *Continuum) ExactShares() []float64 { return c.k.ExactShares() }

// Modula returns the builder of `distribution: modula` with the named
// `hash:` (one of [Hashes]).
func Modula(hash string) (dialect.Build, error) {
	f, err := hashkit.Lookup(Hashes, hash)
	if err != nil {
		return nil, fmt.Errorf("twemproxy modula: %w", err)
	}
	name := Name("modula", hash)
	var build dialect.Build
	build = func(nodes []algorithms.Node) (algorithms.Placer, error) {
		srv, err := names(name, nodes)
		if err != nil {
			return nil, err
		}
		ws, err := dialect.IntWeights(name, nodes, dialect.MaxIntWeight)
		if err != nil {
			return nil, err
		}
		order := make([]int, len(nodes))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int {
			if c := cmp.Compare(len(srv[a]), len(srv[b])); c != 0 {
				return c
			}
			return cmp.Compare(srv[a], srv[b])
		})
		var slots []int32
		for _, s := range order {
			for range ws[s] {
				slots = append(slots, int32(s))
			}
		}
		return &dialect.Table{Name: name, Members: dialect.Copy(nodes), Hash: single(len(nodes), f), Slots: slots, Again: build}, nil
	}
	return build, nil
}
