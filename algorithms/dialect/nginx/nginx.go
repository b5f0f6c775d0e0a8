// Package nginx reproduces how nginx's upstream hash module picks a server
// for a key: nginx 1.22.1 (Debian nginx 1.22.1-9+deb12u11),
// src/http/modules/ngx_http_upstream_hash_module.c, for `hash KEY
// consistent` ([Consistent]: ngx_http_upstream_init_chash,
// find_chash_point, get_chash_peer) and plain `hash KEY` ([Hash]:
// get_hash_peer).
//
// A node is one `server` line of the upstream block: ID "host:port" as
// written there (nginx hashes that text, not the address it resolves to),
// weight= as Node.Weight (whole), in configuration order; each server is
// taken to resolve to one address (a name with several addresses makes
// one peer per address, all hashing the same text).
//
//   - consistent: 160 points per unit of weight. The points of a server
//     are a CRC-32 chain, not hashes of labels: with base = the IEEE CRC-32
//     state after "host", a NUL byte and "port" (the text after the last
//     ':' when it is all digits), point j is crc32(host "\0" port prev)
//     where prev is point j-1 as 4 little-endian bytes (0 for j = 0). The
//     points are sorted (a stable sort) and later duplicates removed, so the
//     first-listed server wins a tie. A key's hash is its full CRC-32; its
//     server is the first point at or after it, wrapping. When that server
//     is down or failed, nginx tries the next points' servers, skipping
//     those tried: [Ring.Replicas] is that order (distinct servers
//     clockwise).
//   - hash: Cache::Memcached's formula, (crc32(key) >> 16) & 0x7fff,
//     modulo the total weight, into the servers in order, each weight
//     times. Its fallback rehashes the key text itself (adding
//     crc32(decimal try number + key)), which no function of the key's hash
//     alone reproduces, so Hash is not a Replicator.
//
// An empty key, a single server or more than 20 failed tries fall back to
// round robin in both modes; a dialect cannot reproduce that (nor
// `backup` servers, which take no keys), and empty keys are routed as
// their hash says.
package nginx

import (
	"encoding/binary"
	"hash/crc32"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect"
	"github.com/chbench/chbench/algorithms/dialect/hashkit"
)

// Version is the nginx release this package follows.
const Version = "nginx 1.22.1 (Debian nginx 1.22.1-9+deb12u11)"

// Registry names of the dialects.
const (
	ConsistentName = "nginx-hash-consistent"
	HashName       = "nginx-hash"
)

// PointsPerWeight is the points per unit of weight of `consistent`.
const PointsPerWeight = 160

// SplitServer splits a server's text as ngx_http_upstream_init_chash
// does: at the last ':' when everything after it is digits, else the host
// is the whole text and the port empty.
func SplitServer(server string) (host, port string) {
	if h, ok := strings.CutPrefix(server, "unix:"); ok {
		return h, ""
	}
	for j := 0; j < len(server); j++ {
		c := server[len(server)-j-1]
		if c == ':' {
			return server[:len(server)-j-1], server[len(server)-j:]
		}
		if c < '0' || c > '9' {
			break
		}
	}
	return server, ""
}

// Points appends the n points of server (its `server` text) to dst, in
// the order nginx computes them.
func Points(dst []uint32, server string, n int) []uint32 {
	host, port := SplitServer(server)
	base := crc32.Update(0, crc32.IEEETable, []byte(host))
	base = crc32.Update(base, crc32.IEEETable, []byte{0})
	base = crc32.Update(base, crc32.IEEETable, []byte(port))
	var prev [4]byte
	for range n {
		h := crc32.Update(base, crc32.IEEETable, prev[:])
		dst = append(dst, h)
		binary.LittleEndian.PutUint32(prev[:], h)
	}
	return dst
}

// Consistent builds `hash KEY consistent` over nodes (IDs host:port as in
// the server lines, whole weights).
func Consistent(nodes []algorithms.Node) (algorithms.Placer, error) {
	if err := dialect.Validate(ConsistentName, nodes); err != nil {
		return nil, err
	}
	if _, err := dialect.HostPorts(ConsistentName, nodes); err != nil {
		return nil, err
	}
	ws, err := dialect.IntWeights(ConsistentName, nodes, 1<<16)
	if err != nil {
		return nil, err
	}
	var pts []dialect.Point
	var buf []uint32
	for s, n := range nodes {
		buf = Points(buf[:0], n.ID, PointsPerWeight*ws[s])
		for _, p := range buf {
			pts = append(pts, dialect.Point{Pos: p, Owner: int32(s)})
		}
	}
	return &dialect.WalkingRing{Ring: dialect.Ring{Name: ConsistentName, Members: dialect.Copy(nodes), Hash: hashkit.CRC32,
		C: dialect.NewContinuum(pts, dialect.KeepFirst), Again: Consistent}}, nil
}

// Hash builds plain `hash KEY` over nodes (IDs host:port as in the server
// lines, whole weights).
func Hash(nodes []algorithms.Node) (algorithms.Placer, error) {
	if err := dialect.Validate(HashName, nodes); err != nil {
		return nil, err
	}
	if _, err := dialect.HostPorts(HashName, nodes); err != nil {
		return nil, err
	}
	ws, err := dialect.IntWeights(HashName, nodes, 1<<16)
	if err != nil {
		return nil, err
	}
	return &dialect.Table{Name: HashName, Members: dialect.Copy(nodes), Hash: hashkit.CRC, Slots: dialect.Expand(ws), Again: Hash}, nil
}
