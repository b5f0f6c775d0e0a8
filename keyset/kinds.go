package keyset

import (
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// KeyKind is the shape of generated keys. Hash functions that spread
// random strings well can fail on structured ones (FNV-1a on keys that
// differ only in their last bytes, modulo a power of two), so every
// analysis can run on each shape.
type KeyKind string

// Key kinds. Key i (0-based) of set s with K keys per set:
const (
	// KindRandom: "user:" and 16 lower-case hex digits of a pseudo-random
	// uint64 (the default; see [Generator]).
	KindRandom KeyKind = "random"
	// KindSequential: "user:" and the decimal number s*K + i + 1, so the
	// sets are disjoint runs user:1 ... user:K, user:K+1 ...
	KindSequential KeyKind = "sequential"
	// KindUUID: a UUID version 4 string (RFC 9562: 8-4-4-4-12 lower-case
	// hex digits, version nibble 4, variant bits 10) from 128 pseudo-random
	// bits.
	KindUUID KeyKind = "uuid"
	// KindURL: a URL path "/<section>/<id>/<page>" with section one of 8
	// words, id a pseudo-random number below 10^7 and page one of 4 words,
	// e.g. "/products/4821337/reviews".
	KindURL KeyKind = "url"
	// KindNumeric: a pseudo-random 10-digit decimal ID in [10^9, 10^10),
	// like an account or order number.
	KindNumeric KeyKind = "numeric"
)

// KeyKinds returns the key kinds in a fixed order, the default first.
func KeyKinds() []KeyKind {
	return []KeyKind{KindRandom, KindSequential, KindUUID, KindURL, KindNumeric}
}

// ParseKeyKind returns the kind named s, or an error naming s and the
// known kinds.
func ParseKeyKind(s string) (KeyKind, error) {
	for _, k := range KeyKinds() {
		if string(k) == s {
			return k, nil
		}
	}
	names := make([]string, 0, 5)
	for _, k := range KeyKinds() {
		names = append(names, string(k))
	}
	return "", fmt.Errorf("unknown key kind %q (known: %s)", s, strings.Join(names, ", "))
}

// WithKind returns a copy of g that generates keys of kind k (see
// [KeyKind]), with the same sizes and seed. The pseudo-random kinds draw
// from the same per-chunk PCG streams as KindRandom, so key i of set s is
// still a pure function of (seed, s, i, kind). An unknown kind is an error.
func (g *Generator) WithKind(k KeyKind) (*Generator, error) {
	if _, err := ParseKeyKind(string(k)); err != nil {
		return nil, err
	}
	c := *g
	c.kind = k
	return &c, nil
}

// Kind returns the kind of keys g generates.
func (g *Generator) Kind() KeyKind {
	if g.kind == "" {
		return KindRandom
	}
	return g.kind
}

var (
	urlSections = [8]string{"users", "products", "articles", "search", "images", "orders", "api/v1/items", "blog"}
	urlPages    = [4]string{"view", "reviews", "edit", "comments"}
)

// appendKindKey appends key i (0-based within its set) of set s, of kind
// k, drawing what it needs from r. k is not KindRandom (see Generator.fill).
func (g *Generator) appendKindKey(arena []byte, k KeyKind, s, i int, r *rand.PCG) []byte {
	switch k {
	case KindSequential:
		arena = append(arena, "user:"...)
		return strconv.AppendUint(arena, uint64(s)*uint64(g.keys)+uint64(i)+1, 10)
	case KindUUID:
		var b [16]byte
		hi, lo := r.Uint64(), r.Uint64()
		for j := range 8 {
			b[j], b[8+j] = byte(hi>>(56-8*j)), byte(lo>>(56-8*j))
		}
		b[6] = b[6]&0x0f | 0x40 // version 4
		b[8] = b[8]&0x3f | 0x80 // variant 10
		arena = hex.AppendEncode(arena, b[0:4])
		arena = append(arena, '-')
		arena = hex.AppendEncode(arena, b[4:6])
		arena = append(arena, '-')
		arena = hex.AppendEncode(arena, b[6:8])
		arena = append(arena, '-')
		arena = hex.AppendEncode(arena, b[8:10])
		arena = append(arena, '-')
		return hex.AppendEncode(arena, b[10:16])
	case KindURL:
		x := r.Uint64()
		arena = append(arena, '/')
		arena = append(arena, urlSections[x&7]...)
		arena = append(arena, '/')
		arena = strconv.AppendUint(arena, (x>>5)%10_000_000, 10)
		arena = append(arena, '/')
		return append(arena, urlPages[(x>>3)&3]...)
	case KindNumeric:
		return strconv.AppendUint(arena, 1_000_000_000+r.Uint64()%9_000_000_000, 10)
	}
	panic("keyset: unknown key kind " + string(k)) // WithKind rejects unknown kinds
}
