// Package spymemcached reproduces how the Java client spymemcached picks a
// server for a key: spymemcached 2.12.3 (Debian libspymemcached-java
// 2.12.3+dfsg-3, whose jar calls itself 2.999.999-SNAPSHOT), following
// net/spy/memcached/KetamaNodeLocator.java with KetamaNodeKeyFormatter.java
// (KetamaConnectionFactory's locator) and ArrayModNodeLocator.java with
// DefaultHashAlgorithm.NATIVE_HASH (DefaultConnectionFactory's).
//
// Servers are listed as AddrUtil.getAddresses parses "host:port host:port
// ...", in that order. The strings spymemcached hashes for a server depend
// on the key format:
//
//   - SPYMEMCACHED (the default, [KetamaSpy]): String.valueOf of the
//     InetSocketAddress without a leading '/': "127.0.0.1:11211" for an IP
//     literal, but "localhost/127.0.0.1:11211" for a name, with the
//     address the JVM resolved. The dialect takes node IDs as that string
//     reads: "ip:port" or "name/ip:port"; a bare "name:port" is an error,
//     since the address it resolves to is part of what is hashed.
//   - LIBMEMCACHED ([KetamaLibmemcached]): InetSocketAddress.getHostName(),
//     plus ":port" unless the port is 11211, i.e. libmemcached's labels,
//     but getHostName() of an IP literal is its reverse-DNS name
//     ("localhost" for 127.0.0.1 on a usual /etc/hosts), so a server given
//     as 127.0.0.1:11212 is hashed as "localhost:11212". The dialect hashes
//     the host of "host:port" as written: give servers by name.
//
// KetamaNodeLocator without weights puts 160 points per server in a
// TreeMap: four per MD5 digest of "label-i", i = 0..39, little-endian
// words; a later server's point at an equal position replaces the earlier
// one (TreeMap.put). A key's hash is word 0 of the MD5 of its UTF-8 bytes;
// its server is the first point at or after it (tailMap), wrapping. The
// weighted form (a weights map) is not modelled: the dialect takes weight
// 1 only.
//
// ArrayModNodeLocator ([ArrayMod]) with NATIVE_HASH takes String.hashCode()
// (over the key's UTF-16 code units), as an unsigned 32-bit value, mod the
// number of servers. Keys here are UTF-8; an invalid byte counts as
// U+FFFD, as Java's decoder reads it. Neither locator's fallback sequence
// (getSequence) is modelled: these placers are not Replicators.
package spymemcached

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect"
)

// Version is the spymemcached release this package follows.
const Version = "spymemcached 2.12.3 (Debian libspymemcached-java 2.12.3+dfsg-3)"

// Registry names of the dialects.
const (
	KetamaSpyName = "spymemcached-ketama"
	KetamaLibName = "spymemcached-ketama-libmemcached"
	ArrayModName  = "spymemcached-arraymod"
)

// NodeRepetitions is DefaultKetamaNodeLocatorConfiguration's 160 points
// per server.
const NodeRepetitions = 160

// SpyLabel returns the SPYMEMCACHED-format node key of a server ID
// "ip:port" or "name/ip:port", or an error naming the ID and the format.
func SpyLabel(id string) (string, error) {
	name, addr, named := strings.Cut(id, "/")
	if !named {
		addr = id
	}
	hp, err := dialect.ParseHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("node ID %q: want ip:port or name/ip:port (the InetSocketAddress as spymemcached prints it)", id)
	}
	if _, err := netip.ParseAddr(hp.Host); err != nil {
		return "", fmt.Errorf("node ID %q: %q is not an IP address: want ip:port or name/ip:port (spymemcached hashes the resolved address)", id, hp.Host)
	}
	if named && name == "" {
		return "", fmt.Errorf("node ID %q: empty host name before '/': want ip:port or name/ip:port", id)
	}
	return id, nil
}

// LibLabel returns the LIBMEMCACHED-format node key of a server ID
// "host:port": "host" for port 11211, else "host:port".
func LibLabel(id string) (string, error) {
	hp, err := dialect.ParseHostPort(id)
	if err != nil {
		return "", err
	}
	if hp.Port == 11211 {
		return hp.Host, nil
	}
	return hp.Host + ":" + strconv.Itoa(hp.Port), nil
}

func ketamaHash(k string) uint32 { return algorithms.MD5Words(k)[0] }

func ketama(name string, label func(string) (string, error), again dialect.Build, nodes []algorithms.Node) (algorithms.Placer, error) {
	if err := dialect.Validate(name, nodes); err != nil {
		return nil, err
	}
	if err := dialect.UnitWeights(name, nodes); err != nil {
		return nil, err
	}
	pts := make([]dialect.Point, 0, NodeRepetitions*len(nodes))
	for s, n := range nodes {
		l, err := label(n.ID)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for i := range NodeRepetitions / 4 {
			for _, w := range algorithms.MD5Words(l + "-" + strconv.Itoa(i)) {
				pts = append(pts, dialect.Point{Pos: w, Owner: int32(s)})
			}
		}
	}
	return &dialect.Ring{Name: name, Members: dialect.Copy(nodes), Hash: ketamaHash,
		C: dialect.NewContinuum(pts, dialect.KeepLast), Again: again}, nil
}

// KetamaSpy builds KetamaNodeLocator with KETAMA_HASH and the SPYMEMCACHED
// key format of nodes (IDs ip:port or name/ip:port, weight 1).
func KetamaSpy(nodes []algorithms.Node) (algorithms.Placer, error) {
	return ketama(KetamaSpyName, SpyLabel, KetamaSpy, nodes)
}

// KetamaLibmemcached builds KetamaNodeLocator with KETAMA_HASH and the
// LIBMEMCACHED key format of nodes (IDs host:port, weight 1).
func KetamaLibmemcached(nodes []algorithms.Node) (algorithms.Placer, error) {
	return ketama(KetamaLibName, LibLabel, KetamaLibmemcached, nodes)
}

// NativeHash is DefaultHashAlgorithm.NATIVE_HASH: Java's String.hashCode
// of key (decoded from UTF-8 into UTF-16 code units), as an unsigned
// 32-bit value.
func NativeHash(key string) uint32 {
	var h uint32
	for i := 0; i < len(key); {
		r, size := utf8.DecodeRuneInString(key[i:])
		i += size
		if r >= 0x10000 {
			r -= 0x10000
			h = 31*h + uint32(0xd800+(r>>10))
			h = 31*h + uint32(0xdc00+(r&0x3ff))
			continue
		}
		h = 31*h + uint32(r)
	}
	return h
}

// ArrayMod builds ArrayModNodeLocator with NATIVE_HASH of nodes (IDs
// ip:port or name/ip:port as for the SPYMEMCACHED format, or host:port:
// the IDs are not hashed; weight 1).
func ArrayMod(nodes []algorithms.Node) (algorithms.Placer, error) {
	if err := dialect.Validate(ArrayModName, nodes); err != nil {
		return nil, err
	}
	if err := dialect.UnitWeights(ArrayModName, nodes); err != nil {
		return nil, err
	}
	for _, n := range nodes {
		addr := n.ID
		if _, a, named := strings.Cut(n.ID, "/"); named {
			addr = a
		}
		if _, err := dialect.ParseHostPort(addr); err != nil {
			return nil, fmt.Errorf("%s: %w", ArrayModName, err)
		}
	}
	return &dialect.Table{Name: ArrayModName, Members: dialect.Copy(nodes), Hash: NativeHash,
		Slots: dialect.Identity(len(nodes)), Again: ArrayMod}, nil
}
