// Package hashkit holds the 32-bit key hash functions of the memcached
// client family as their C sources compute them on x86-64 Linux, where
// `char` is signed: libmemcached's libhashkit (libmemcached-awesome 1.1.4,
// src/libhashkit/*.cc, Debian libhashkit2 1.1.4-1) and twemproxy's
// src/hashkit/nc_*.c (nutcracker 0.5.0), which copied them.
//
// They are not the textbook functions of the same names:
//
//   - Sign extension: one_at_a_time, fnv1_32, fnv1a_32, fnv1_64 and
//     fnv1a_64 read each byte through a signed char, so a byte >= 0x80
//     enters as 0xFFFFFFxx (or 0xFFFFFFFFFFFFFFxx for fnv1_64); hsieh does
//     so for the third byte of a 3-byte tail. ASCII keys are unaffected.
//   - "fnv1a_64" is computed in 32 bits, with the 64-bit offset basis and
//     prime cut to their low 32 bits (0x84222325 and 0x1B3); "fnv1_64" is
//     64-bit FNV-1 cut to its low 32 bits.
//   - "crc" (libmemcached) and "crc32" (twemproxy) are bits 16..30 of the
//     IEEE CRC-32: (crc32(key) >> 16) & 0x7FFF, 0..32767; twemproxy's
//     "crc32a" is the whole CRC-32.
//   - twemproxy's "crc16" runs the CRC-16/XMODEM recurrence in a 32-bit
//     variable without masking, so its low 16 bits are CRC-16/XMODEM and
//     the high 16 bits are the register's earlier bytes, shifted up.
//   - "md5" is word 0 of the MD5 digest, read little-endian (libketama's
//     reading), as [algorithms.MD5Words] returns it.
//   - "murmur" is MurmurHash2 with seed 0xDEADBEEF*len; "jenkins" is Bob
//     Jenkins' lookup3 hashlittle with initval 13 (read byte by byte here;
//     the C reads aligned words, with the same result on little-endian).
//
// Every function takes the key's bytes, returns a value in [0, 2^32) and
// does not allocate.
package hashkit

import (
	"fmt"
	"hash/crc32"
	"math/bits"
	"strings"

	"github.com/chbench/chbench/algorithms"
)

// Func is one key hash function: the bytes of a key to a 32-bit value.
type Func func(key string) uint32

// signed returns byte b as C's (uint32_t) of a signed char.
func signed(b byte) uint32 { return uint32(int32(int8(b))) }

// OneAtATime is Bob Jenkins' one-at-a-time hash over sign-extended bytes
// (libhashkit one_at_a_time.cc, the libmemcached default; twemproxy
// nc_one_at_a_time.c).
func OneAtATime(key string) uint32 {
	var v uint32
	for i := 0; i < len(key); i++ {
		v += signed(key[i])
		v += v << 10
		v ^= v >> 6
	}
	v += v << 3
	v ^= v >> 11
	v += v << 15
	return v
}

// MD5 is word 0 of the MD5 digest of key, little-endian.
func MD5(key string) uint32 { return algorithms.MD5Words(key)[0] }

// CRC is (crc32(key) >> 16) & 0x7FFF with the IEEE CRC-32 (libhashkit
// crc32.cc "crc", twemproxy "crc32"): 15 bits, 0..32767.
func CRC(key string) uint32 { return (crc32.ChecksumIEEE(bytesOf(key)) >> 16) & 0x7fff }

// CRC32 is the IEEE CRC-32 of key (twemproxy "crc32a").
func CRC32(key string) uint32 { return crc32.ChecksumIEEE(bytesOf(key)) }

// crc16Table is the CRC-16/XMODEM table (polynomial 0x1021), twemproxy's
// crc16tab.
var crc16Table = func() (t [256]uint32) {
	for i := range t {
		c := uint16(i) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
		t[i] = uint32(c)
	}
	return t
}()

// CRC16 is twemproxy's "crc16" (nc_crc16.c): the CRC-16/XMODEM recurrence
// crc = (crc << 8) ^ table[((crc >> 8) ^ b) & 0xFF] in a 32-bit register
// that is never masked, so the high 16 bits keep earlier register bytes.
func CRC16(key string) uint32 {
	var crc uint32
	for i := 0; i < len(key); i++ {
		crc = crc<<8 ^ crc16Table[(crc>>8^signed(key[i]))&0xff]
	}
	return crc
}

// FNV parameters (twemproxy nc_fnv.c, libhashkit fnv_32.cc, fnv_64.cc).
const (
	fnv32Init  = 2166136261
	fnv32Prime = 16777619
	fnv64Init  = 0xcbf29ce484222325
	fnv64Prime = 0x100000001b3
)

// FNV1_32 is FNV-1, 32-bit, over sign-extended bytes.
func FNV1_32(key string) uint32 {
	h := uint32(fnv32Init)
	for i := 0; i < len(key); i++ {
		h *= fnv32Prime
		h ^= signed(key[i])
	}
	return h
}

// FNV1a_32 is FNV-1a, 32-bit, over sign-extended bytes.
func FNV1a_32(key string) uint32 {
	h := uint32(fnv32Init)
	for i := 0; i < len(key); i++ {
		h ^= signed(key[i])
		h *= fnv32Prime
	}
	return h
}

// FNV1_64 is FNV-1, 64-bit, over bytes sign-extended to 64 bits, cut to
// its low 32 bits.
func FNV1_64(key string) uint32 {
	h := uint64(fnv64Init)
	for i := 0; i < len(key); i++ {
		h *= fnv64Prime
		h ^= uint64(int64(int8(key[i])))
	}
	return uint32(h)
}

// FNV1a_64 is the C sources' "fnv1a_64": FNV-1a computed in 32 bits with
// the 64-bit offset basis and prime cut to 32 bits, over sign-extended
// bytes.
func FNV1a_64(key string) uint32 {
	h := uint32(fnv64Init & 0xffffffff)
	for i := 0; i < len(key); i++ {
		h ^= signed(key[i])
		h *= uint32(fnv64Prime & 0xffffffff)
	}
	return h
}

// get16 reads two bytes little-endian, unsigned (hsieh's get16bits).
func get16(s string, i int) uint32 { return uint32(s[i]) | uint32(s[i+1])<<8 }

// Hsieh is Paul Hsieh's SuperFastHash as nc_hsieh.c and hsieh.cc compute
// it; an empty key hashes to 0.
func Hsieh(key string) uint32 {
	if len(key) == 0 {
		return 0
	}
	var h uint32
	rem := len(key) & 3
	i := 0
	for n := len(key) >> 2; n > 0; n-- {
		h += get16(key, i)
		tmp := get16(key, i+2)<<11 ^ h
		h = h<<16 ^ tmp
		i += 4
		h += h >> 11
	}
	switch rem {
	case 3:
		h += get16(key, i)
		h ^= h << 16
		h ^= signed(key[i+2]) << 18
		h += h >> 11
	case 2:
		h += get16(key, i)
		h ^= h << 11
		h += h >> 17
	case 1:
		h += uint32(key[i])
		h ^= h << 10
		h += h >> 1
	}
	h ^= h << 3
	h += h >> 5
	h ^= h << 4
	h += h >> 17
	h ^= h << 25
	h += h >> 6
	return h
}

// Murmur is MurmurHash2 (32-bit) with seed 0xDEADBEEF*len, as nc_murmur.c
// and libhashkit murmur.cc seed it.
func Murmur(key string) uint32 {
	const m = 0x5bd1e995
	n := len(key)
	h := uint32(0xdeadbeef*uint32(n)) ^ uint32(n)
	i := 0
	for ; n-i >= 4; i += 4 {
		k := uint32(key[i]) | uint32(key[i+1])<<8 | uint32(key[i+2])<<16 | uint32(key[i+3])<<24
		k *= m
		k ^= k >> 24
		k *= m
		h *= m
		h ^= k
	}
	switch n - i {
	case 3:
		h ^= uint32(key[i+2]) << 16
		fallthrough
	case 2:
		h ^= uint32(key[i+1]) << 8
		fallthrough
	case 1:
		h ^= uint32(key[i])
		h *= m
	}
	h ^= h >> 13
	h *= m
	h ^= h >> 15
	return h
}

// Jenkins is lookup3's hashlittle with initval 13 (nc_jenkins.c,
// libhashkit jenkins.cc); an empty key hashes to 0xDEADBEEF + 13.
func Jenkins(key string) uint32 {
	n := len(key)
	a := uint32(0xdeadbeef) + uint32(n) + 13
	b, c := a, a
	i := 0
	for ; n-i > 12; i += 12 {
		a += le32(key, i)
		b += le32(key, i+4)
		c += le32(key, i+8)
		a, b, c = jmix(a, b, c)
	}
	rest := n - i
	if rest == 0 {
		return c
	}
	var tail [12]byte
	copy(tail[:], key[i:])
	t := string(tail[:])
	a += le32(t, 0)
	if rest > 4 {
		b += le32(t, 4)
	}
	if rest > 8 {
		c += le32(t, 8)
	}
	_, _, c = jfinal(a, b, c)
	return c
}

func le32(s string, i int) uint32 {
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}

func jmix(a, b, c uint32) (uint32, uint32, uint32) {
	a -= c
	a ^= bits.RotateLeft32(c, 4)
	c += b
	b -= a
	b ^= bits.RotateLeft32(a, 6)
	a += c
	c -= b
	c ^= bits.RotateLeft32(b, 8)
	b += a
	a -= c
	a ^= bits.RotateLeft32(c, 16)
	c += b
	b -= a
	b ^= bits.RotateLeft32(a, 19)
	a += c
	c -= b
	c ^= bits.RotateLeft32(b, 4)
	b += a
	return a, b, c
}

func jfinal(a, b, c uint32) (uint32, uint32, uint32) {
	c ^= b
	c -= bits.RotateLeft32(b, 14)
	a ^= c
	a -= bits.RotateLeft32(c, 11)
	b ^= a
	b -= bits.RotateLeft32(a, 25)
	c ^= b
	c -= bits.RotateLeft32(b, 16)
	a ^= c
	a -= bits.RotateLeft32(c, 4)
	b ^= a
	b -= bits.RotateLeft32(a, 14)
	c ^= b
	c -= bits.RotateLeft32(b, 24)
	return a, b, c
}

// Named is one hash function under the name a configuration gives it.
type Named struct {
	Name string // the configuration's spelling, e.g. "fnv1a_64"
	Func Func
}

// Lookup returns the function registered under name in table, or an
// error naming name and the known names.
func Lookup(table []Named, name string) (Func, error) {
	for _, n := range table {
		if n.Name == name {
			return n.Func, nil
		}
	}
	names := make([]string, len(table))
	for i, n := range table {
		names[i] = n.Name
	}
	return nil, fmt.Errorf("unknown hash %q (known: %s)", name, strings.Join(names, ", "))
}
