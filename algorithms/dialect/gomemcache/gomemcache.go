// Package gomemcache reproduces how the Go client gomemcache (module
// github.com/bradfitz/gomemcache v0.0.0-20260422231931-4d751bb6e37c)
// picks a server for a key: memcache/selector.go, ServerList.PickServer.
//
// Nodes are the addresses given to ServerList.SetServers (IDs host:port),
// in that order, weight 1 (gomemcache has no weights). A key goes to
// server crc32(key) mod n, with the IEEE CRC-32 of at most the first 256
// bytes of the key (PickServer copies the key into a 256-byte pooled
// buffer first, so longer keys hash by their first 256 bytes; memcached
// refuses keys over 250 bytes anyway). A list of one server takes every
// key unhashed. gomemcache has no fallback: not a Replicator.
package gomemcache

import (
	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect"
	"github.com/chbench/chbench/algorithms/dialect/hashkit"
)

// Name is the registry name of the dialect.
const Name = "gomemcache"

// Version is the module version this package follows.
const Version = "github.com/bradfitz/gomemcache v0.0.0-20260422231931-4d751bb6e37c"

// KeyBuf is the size of PickServer's key buffer: the most key bytes hashed.
const KeyBuf = 256

// Hash is PickServer's key hash: the IEEE CRC-32 of the first 256 bytes
// of key.
func Hash(key string) uint32 { return hashkit.CRC32(key[:min(len(key), KeyBuf)]) }

// New builds the ServerList choice over nodes (IDs host:port, weight 1).
func New(nodes []algorithms.Node) (algorithms.Placer, error) {
	if err := dialect.Validate(Name, nodes); err != nil {
		return nil, err
	}
	if err := dialect.UnitWeights(Name, nodes); err != nil {
		return nil, err
	}
	if _, err := dialect.HostPorts(Name, nodes); err != nil {
		return nil, err
	}
	return &dialect.Table{Name: Name, Members: dialect.Copy(nodes), Hash: Hash, Slots: dialect.Identity(len(nodes)), Again: New}, nil
}
