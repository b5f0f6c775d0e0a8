package algorithms

import (
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"strings"
	"unsafe"

	"github.com/cespare/xxhash/v2"
	"github.com/spaolacci/murmur3"
)

// HashKind identifies one of the key hash functions chbench offers.
type HashKind uint8

// The hash functions, by their registry names.
const (
	FNV1a32    HashKind = iota // "fnv1a32": FNV-1a, 32-bit (FNV spec; Go hash/fnv New32a)
	FNV1a64                    // "fnv1a64": FNV-1a, 64-bit (Go hash/fnv New64a)
	Murmur3                    // "murmur3": MurmurHash3 x86_32, seed 0
	Murmur3x64                 // "murmur3-64": first 64-bit half of MurmurHash3 x64_128, seed 0
	XXHash                     // "xxhash": xxHash64, seed 0 (the default)
	MD5                        // "md5": MD5 digest bytes 0-3 little-endian, 32-bit (libketama, twemproxy "hash: md5")
	numHashKinds
)

// DefaultHash is the name of the hash used when none is configured.
const DefaultHash = "xxhash"

var hashNames = [numHashKinds]string{"fnv1a32", "fnv1a64", "murmur3", "murmur3-64", "xxhash", "md5"}

// Hash is a key hash function chosen by name. Keys, node IDs and
// virtual-node labels are all hashed with the configured Hash. The zero
// value is fnv1a32; use [LookupHash].
type Hash struct{ kind HashKind }

// LookupHash returns the hash function registered under name (see
// [HashNames]); "" selects [DefaultHash]. An unknown name is an error that
// names it and lists the known ones.
func LookupHash(name string) (Hash, error) {
	if name == "" {
		name = DefaultHash
	}
	for k, n := range hashNames {
		if n == name {
			return Hash{kind: HashKind(k)}, nil
		}
	}
	return Hash{}, fmt.Errorf("unknown hash %q (known: %s)", name, strings.Join(HashNames(), ", "))
}

// MustHash is LookupHash for names known to be valid (tests, benchmarks);
// it panics on an unknown name.
func MustHash(name string) Hash {
	h, err := LookupHash(name)
	if err != nil {
		panic(err)
	}
	return h
}

// HashNames returns the registered hash names in a fixed order.
func HashNames() []string { return append([]string(nil), hashNames[:]...) }

// Name returns the registry name of h.
func (h Hash) Name() string { return hashNames[h.kind] }

// Bits returns the width of h's output: 32 or 64. A 32-bit hash's values
// are zero-extended to uint64 and lie in [0, 2^32).
func (h Hash) Bits() int {
	if h.kind == FNV1a32 || h.kind == Murmur3 || h.kind == MD5 {
		return 32
	}
	return 64
}

// Sum returns the hash of s. It does not allocate.
func (h Hash) Sum(s string) uint64 {
	switch h.kind {
	case XXHash:
		return xxhash.Sum64String(s)
	case FNV1a64:
		return fnv1a64(s)
	case FNV1a32:
		return uint64(fnv1a32(s))
	case Murmur3:
		return uint64(murmur3.Sum32(bytesOf(s)))
	case MD5:
		return uint64(MD5Words(s)[0])
	default:
		return murmur3.Sum64(bytesOf(s))
	}
}

// MD5Words returns the MD5 digest (RFC 1321) of s as four 32-bit words,
// word w being digest bytes 4w..4w+3 read little-endian. This is
// libketama's reading of a digest, which twemproxy and libmemcached share:
// word 0 is the "md5" key hash, and the four words of the digest of a
// server label are four continuum points. It does not allocate.
func MD5Words(s string) [4]uint32 {
	d := md5.Sum(bytesOf(s))
	return [4]uint32{
		binary.LittleEndian.Uint32(d[0:]), binary.LittleEndian.Uint32(d[4:]),
		binary.LittleEndian.Uint32(d[8:]), binary.LittleEndian.Uint32(d[12:]),
	}
}

// bytesOf views s as a byte slice without copying. The hash functions only
// read their input, so the string's immutability is preserved.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// FNV-1a parameters (FNV spec, as in Go's hash/fnv).
const (
	fnvOffset32 = 0x811C9DC5
	fnvPrime32  = 0x01000193
	fnvOffset64 = 0xCBF29CE484222325
	fnvPrime64  = 0x100000001B3
)

// fnv1a32 is FNV-1a over the bytes of s; it equals hash/fnv's New32a
// without the interface allocation.
func fnv1a32(s string) uint32 {
	h := uint32(fnvOffset32)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= fnvPrime32
	}
	return h
}

// fnv1a64 is FNV-1a 64-bit over the bytes of s (hash/fnv New64a).
func fnv1a64(s string) uint64 {
	h := uint64(fnvOffset64)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime64
	}
	return h
}

// Mix64 is the splitmix64 finalizer (Steele, Lea, Flood 2014): a bijection
// on uint64 whose output bits each depend on every input bit. Placers use it
// to combine two hashes (a node's and a key's) without hashing a string per
// pair.
func Mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	x ^= x >> 31
	return x
}
