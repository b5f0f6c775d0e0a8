package crush

// The Jenkins hash of CRUSH, rjenkins1 (Ceph src/crush/hash.c, v16.2;
// Robert Jenkins' 96-bit mix of "evahash"): CRUSH_HASH_RJENKINS1, hash
// type 0, the only type Ceph defines and the one every bucket uses.
// Hash2 decides whether a device marked partly out keeps an input, Hash3
// draws straw2's per-item random number, Hash4 and Hash5 are the forms
// list and tree buckets use (provided for completeness and tested
// against Ceph's library).

// hashSeed is the initial value crush_hash_seed of every rjenkins1 hash.
const hashSeed = 1315423911

// The two constants the rjenkins1 variants mix in after their arguments.
const (
	mixX = 231232
	mixY = 1232
)

// mix is Jenkins' 96-bit mix of (a, b, c), returned in the same order.
func mix(a, b, c uint32) (uint32, uint32, uint32) {
	a -= b
	a -= c
	a ^= c >> 13
	b -= c
	b -= a
	b ^= a << 8
	c -= a
	c -= b
	c ^= b >> 13
	a -= b
	a -= c
	a ^= c >> 12
	b -= c
	b -= a
	b ^= a << 16
	c -= a
	c -= b
	c ^= b >> 5
	a -= b
	a -= c
	a ^= c >> 3
	b -= c
	b -= a
	b ^= a << 10
	c -= a
	c -= b
	c ^= b >> 15
	return a, b, c
}

// Hash1 is crush_hash32_rjenkins1(a).
func Hash1(a uint32) uint32 {
	h := hashSeed ^ a
	_, _, h = mix(a, mixX, h) // (b = a, x) mixed into h
	_, _, h = mix(mixY, a, h)
	return h
}

// Hash2 is crush_hash32_rjenkins1_2(a, b).
func Hash2(a, b uint32) uint32 {
	h := hashSeed ^ a ^ b
	x, y := uint32(mixX), uint32(mixY)
	a, b, h = mix(a, b, h)
	x, a, h = mix(x, a, h)
	b, y, h = mix(b, y, h)
	return h
}

// Hash3 is crush_hash32_rjenkins1_3(a, b, c): straw2 draws with
// Hash3(x, item id, r).
func Hash3(a, b, c uint32) uint32 {
	h := hashSeed ^ a ^ b ^ c
	x, y := uint32(mixX), uint32(mixY)
	a, b, h = mix(a, b, h)
	c, x, h = mix(c, x, h)
	y, a, h = mix(y, a, h)
	b, x, h = mix(b, x, h)
	y, c, h = mix(y, c, h)
	return h
}

// Hash4 is crush_hash32_rjenkins1_4(a, b, c, d).
func Hash4(a, b, c, d uint32) uint32 {
	h := hashSeed ^ a ^ b ^ c ^ d
	x, y := uint32(mixX), uint32(mixY)
	a, b, h = mix(a, b, h)
	c, d, h = mix(c, d, h)
	a, x, h = mix(a, x, h)
	y, b, h = mix(y, b, h)
	c, x, h = mix(c, x, h)
	y, d, h = mix(y, d, h)
	return h
}

// Hash5 is crush_hash32_rjenkins1_5(a, b, c, d, e).
func Hash5(a, b, c, d, e uint32) uint32 {
	h := hashSeed ^ a ^ b ^ c ^ d ^ e
	x, y := uint32(mixX), uint32(mixY)
	a, b, h = mix(a, b, h)
	c, d, h = mix(c, d, h)
	e, x, h = mix(e, x, h)
	y, a, h = mix(y, a, h)
	b, x, h = mix(b, x, h)
	y, c, h = mix(y, c, h)
	d, x, h = mix(d, x, h)
	y, e, h = mix(y, e, h)
	return h
}
