// Package dialect holds what the dialects share. A dialect is a placement
// that reproduces one named real client or proxy bit for bit, from the
// server list as that system's configuration spells it: the packages
// below this one (libmemcached, spymemcached, pymemcache, twemproxy,
// nginx, haproxy, uhashring, hashringjs, goredis, gomemcache), each
// naming the version and source file it follows and what it does that
// the textbook does not. Each is checked against the real system by the
// live package's tests.
//
// The shared pieces are the parsing of `host:port` node IDs ([ParseHostPort]),
// integer weights ([IntWeights]), and two placement shapes: a sorted
// [Continuum] of 32-bit points with the real system's tie rule, wrapped as
// the placer [Ring], and a weight-expanded server table indexed by a key
// hash modulo its length, the placer [Table].
package dialect

import (
	"fmt"
	"math"
	"net"
	"strconv"

	"github.com/chbench/chbench/algorithms"
)

// HostPort is a server address as a configuration spells it.
type HostPort struct {
	Host string // as written: a name or an IP literal, without IPv6 brackets
	Port int    // 1..65535
}

// String returns "host:port" ("[host]:port" for an IPv6 literal).
func (hp HostPort) String() string { return net.JoinHostPort(hp.Host, strconv.Itoa(hp.Port)) }

// ParseHostPort parses a node ID of the form host:port ([v6]:port for an
// IPv6 literal), port 1..65535. The error names the ID and the format.
func ParseHostPort(id string) (HostPort, error) {
	host, port, err := net.SplitHostPort(id)
	if err != nil || host == "" {
		return HostPort{}, fmt.Errorf("node ID %q: want host:port, e.g. 127.0.0.1:11211", id)
	}
	p, err := strconv.Atoi(port)
	if err != nil || p < 1 || p > 65535 || strconv.Itoa(p) != port {
		return HostPort{}, fmt.Errorf("node ID %q: port %q is not a decimal number 1..65535 (want host:port, e.g. 127.0.0.1:11211)", id, port)
	}
	return HostPort{Host: host, Port: p}, nil
}

// HostPorts parses every node's ID with ParseHostPort; the error names
// the dialect and the first bad ID.
func HostPorts(name string, nodes []algorithms.Node) ([]HostPort, error) {
	hps := make([]HostPort, len(nodes))
	for i, n := range nodes {
		hp, err := ParseHostPort(n.ID)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		hps[i] = hp
	}
	return hps, nil
}

// MaxIntWeight is the largest integer weight IntWeights accepts (2^24:
// every such integer is exact in float32, as the C and Java sources
// compute shares in float).
const MaxIntWeight = 1 << 24

// IntWeights returns the nodes' weights as integers, for systems whose
// configuration takes whole weights (twemproxy `host:port:weight`, nginx
// `weight=`, HAProxy `weight`, python-memcached's bucket counts). The
// error names the dialect, the node and the weight.
func IntWeights(name string, nodes []algorithms.Node, max int) ([]int, error) {
	ws := make([]int, len(nodes))
	for i, n := range nodes {
		w := n.Weight
		if w != math.Trunc(w) || w < 1 || w > float64(max) {
			return nil, fmt.Errorf("%s: node %q: weight %v: want a whole number 1..%d", name, n.ID, w, max)
		}
		ws[i] = int(w)
	}
	return ws, nil
}

// UnitWeights returns an error naming the first node whose weight is not
// 1, for systems that take no weights.
func UnitWeights(name string, nodes []algorithms.Node) error {
	for _, n := range nodes {
		if n.Weight != 1 {
			return fmt.Errorf("%s: node %q: weight %v: this system takes no weights (want 1)", name, n.ID, n.Weight)
		}
	}
	return nil
}

// Validate checks a membership with algorithms.ValidateNodes and prefixes
// the dialect's name to the error.
func Validate(name string, nodes []algorithms.Node) error {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// The default fleet: the servers chbench names when a dialect runs on a
// node count without named nodes. Every dialect hashes what the system's
// configuration spells, so its nodes must be server addresses, and
// memcached's port is where such a list conventionally starts (and the
// port libmemcached and twemproxy shorten to the bare host in their
// labels).
const (
	DefaultHost = "127.0.0.1"
	DefaultPort = 11211
	// MaxDefaultNodes is the largest default fleet: ports 11211..65535.
	MaxDefaultNodes = 65535 - DefaultPort + 1
)

// DefaultID returns the address of server i (0-based) of the default
// fleet, "127.0.0.1:<11211+i>"; i must be 0..MaxDefaultNodes-1.
func DefaultID(i int) string {
	return DefaultHost + ":" + strconv.Itoa(DefaultPort+i)
}

// DefaultNodes returns the default fleet of n servers of weight 1,
// 127.0.0.1:11211 ... 127.0.0.1:<11211+n-1>. It returns an error naming n
// when n < 1 or n > MaxDefaultNodes (the ports would run out).
func DefaultNodes(n int) ([]algorithms.Node, error) {
	if n < 1 {
		return nil, fmt.Errorf("nodes %d: need at least 1 server", n)
	}
	if n > MaxDefaultNodes {
		return nil, fmt.Errorf("nodes %d: the default fleet %s:%d.. has ports for at most %d servers; name larger fleets yourself (host:port IDs)", n, DefaultHost, DefaultPort, MaxDefaultNodes)
	}
	nodes := make([]algorithms.Node, n)
	for i := range nodes {
		nodes[i] = algorithms.Node{ID: DefaultID(i), Weight: 1}
	}
	return nodes, nil
}
