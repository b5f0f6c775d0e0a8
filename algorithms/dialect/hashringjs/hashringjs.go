// Package hashringjs reproduces the npm package hashring 3.2.0 (index.js,
// HashRing.prototype.continuum, find and get; Node.js 20): the ketama-style
// ring of many Node.js memcached and Redis clients.
//
// Nodes are the server strings as given to new HashRing(servers) (an
// array of "host:port" strings, or an object of "host:port" -> weight);
// the ring hashes the string itself, so any node ID is taken. With the
// defaults (algorithm md5, 40 vnodes, 4 replicas per digest):
//
//   - A server of weight w among n servers of total weight W gets
//     Math.floor(w/W * 40 * n) digests, computed in double precision, four
//     points each: the MD5 digest of "string-i" read as four little-endian
//     32-bit words. At equal weights that is 40 digests (160 points) for
//     every n, where libmemcached and twemproxy compute the product in
//     float32 and get 156 points at n = 25, 47, 50, ...
//   - A key's hash is word 0 of its MD5 digest; it goes to the first point
//     at or after it, wrapping (find's binary search).
//   - Ties: the ring is sorted with a stable sort (V8's TimSort) and find
//     returns the first of equal points, so the server listed first wins.
//
// Strings are hashed as their UTF-8 bytes. Replicas are HashRing.range(key,
// n, true): the distinct servers met clockwise from the key's point. The
// `default port` and `vnode count` options and per-server vnodes are not
// modelled.
package hashringjs

import (
	"fmt"
	"math"
	"strconv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect"
)

// Name is the registry name of the dialect.
const Name = "hashring-js"

// Version is the npm package this package follows.
const Version = "hashring 3.2.0 (npm), Node.js 20"

// VNodes is hashring's default vnode count: digests per server at equal
// weights.
const VNodes = 40

// Digests returns Math.floor(w/total * 40 * n) as JavaScript computes it.
func Digests(w, total float64, n int) int {
	return int(math.Floor(w / total * VNodes * float64(n)))
}

// New builds hashring's ring of nodes (any server strings, positive
// weights).
func New(nodes []algorithms.Node) (algorithms.Placer, error) {
	if err := dialect.Validate(Name, nodes); err != nil {
		return nil, err
	}
	total := algorithms.TotalWeight(nodes)
	var pts []dialect.Point
	for s, n := range nodes {
		d := Digests(n.Weight, total, len(nodes))
		if d < 1 {
			return nil, fmt.Errorf("%s: node %q: weight %v of total %v among %d servers gives 0 points", Name, n.ID, n.Weight, total, len(nodes))
		}
		for i := range d {
			for _, w := range algorithms.MD5Words(n.ID + "-" + strconv.Itoa(i)) {
				pts = append(pts, dialect.Point{Pos: w, Owner: int32(s)})
			}
		}
	}
	return &dialect.WalkingRing{Ring: dialect.Ring{Name: Name, Members: dialect.Copy(nodes),
		Hash: func(k string) uint32 { return algorithms.MD5Words(k)[0] }, C: dialect.NewContinuum(pts, dialect.KeepAll), Again: New}}, nil
}
