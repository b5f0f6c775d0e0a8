// Package published holds the field's published and analytic values that
// chbench reproduces (the project's REFERENCES.md), each with its source,
// as plain data with no dependencies: the reference table
// (analysis/reference) checks every one of them, and the algorithm
// packages' tests assert the exact vectors from here instead of keeping
// their own copies.
//
// [All] returns a fresh copy on every call, so a test may alter one
// value to check that the table then fails that row.
package published

// KeySlot is a Redis Cluster key slot (Redis Cluster specification, hash
// tags included): Slot = CRC16(hashed part of Key) mod 16384.
type KeySlot struct {
	Key  string
	Slot int
}

// HashSum is a reference output of a key hash with seed 0 (Go hash/fnv
// tests; xxHash64 and MurmurHash3 x86_32 reference outputs), Hash named as
// in algorithms.LookupHash.
type HashSum struct {
	Hash, Input string
	Sum         uint64
}

// JumpBucket is one output of Lamping & Veach's jump consistent hash
// (2014; the Guava and C++ reference outputs): key Key with Buckets
// buckets lands in Bucket.
type JumpBucket struct {
	Key     uint64
	Buckets int
	Bucket  int
}

// ModuloLaw is the moved fraction of modulo placement from From to To
// nodes, 1 - min/lcm, as published: rounded to Digits decimals of a
// fraction (0.909 for 10 -> 11).
type ModuloLaw struct {
	From, To int
	Moved    float64
	Digits   int
}

// ModuloVsRing is a moved-fraction figure from the field's write-ups:
// modulo and ring moved fractions for From -> To nodes, measured on 10,000
// keys averaged over five random key sets, and the ideal fraction.
type ModuloVsRing struct {
	From, To            int
	Modulo, Ring, Ideal float64
}

// RingShares is the smallest and largest share (fractions) of 5 servers
// on one ring with VNodes virtual nodes each and 10,000 keys.
type RingShares struct {
	VNodes   int
	Min, Max float64
}

// RingCV is Karger et al.'s per-node load spread for a ring with K points
// per node, as tabled by Lamping & Veach: the coefficient of variation
// about 1/sqrt(K) and the 99% interval (Lo, Hi) of load/mean.
type RingCV struct {
	K          int
	CV, Lo, Hi float64
}

// SlotsPeak is the exact peak-to-mean ratio ceil(S/N)/(S/N) of S = 16,384
// fixed slots over N equal nodes, as published to Decimals decimals.
type SlotsPeak struct {
	N          int
	PeakToMean float64
	Decimals   int
}

// Cache is the cache fleet example: hash % From -> % To in front of a
// database. Rates are per second, ratios fractions; each "about" figure
// comes with the rounding step it was published at.
type Cache struct {
	From, To   int
	Reads      float64 // reads per second reaching the cache fleet
	OldHit     float64 // hit ratio before the resize
	NewHit     float64 // published "about 20%"
	NewHitStep float64 // rounding step of the published figure
	DBLoad     float64 // published "about 40,000" qps
	DBLoadStep float64
	Factor     float64 // published 16x
	FactorStep float64
}

// MaglevBalance is Maglev's balance promise: with a prime table size M >
// 100 N every one of N nodes' shares is within Within (1%) of the mean.
type MaglevBalance struct {
	N, M   int
	Within float64
}

// MultiProbePeak is multi-probe's balance promise: k = 1 + 1/eps probes
// give a peak-to-mean ratio of about 1 + eps, published to Decimals.
type MultiProbePeak struct {
	Probes, Nodes int
	PeakToMean    float64
	Decimals      int
}

// Values is every published value chbench checks, grouped by source.
type Values struct {
	// Exact vectors.
	KeySlots []KeySlot // Redis Cluster specification
	CRC16    uint16    // CRC-16/XMODEM("123456789"), Redis src/crc16.c
	Hashes   []HashSum
	// Jump100[k] is the bucket of key k = 0..19 with 100 buckets; Jump1[n-1]
	// the bucket of key 1 with n = 1..19 buckets; JumpLarge a single
	// vector with many buckets.
	Jump100   []int
	Jump1     []int
	JumpLarge JumpBucket
	// HarmonicJump1024 is H_1024 = 7.509, jump's expected loop count with
	// 1024 buckets, to three decimals.
	HarmonicJump1024 float64

	// Analytic values.
	ModuloLaw  []ModuloLaw
	Maglev     []MaglevBalance
	MultiProbe MultiProbePeak
	RingCV     []RingCV
	Slots      []SlotsPeak

	// Figures from the field's write-ups.
	ModuloVsRing []ModuloVsRing
	RingShares   []RingShares
	Cache        Cache
}

// All returns a fresh copy of every published value.
func All() Values {
	return Values{
		KeySlots: []KeySlot{{"123456789", 12739}, {"foo", 12182}, {"bar", 5061}, {"hello", 866},
			{"user:1000", 1649}, {"", 0}, {"foo{bar}zap", 5061}, {"{bar}zap", 5061},
			{"foo{bar}{zap}", 5061}, {"foo{{bar}}zap", 4015}, {"foo{}{bar}", 8363},
			{"{user1000}.following", 3443}, {"{user1000}.followers", 3443}},
		CRC16: 0x31C3,
		Hashes: []HashSum{{"fnv1a32", "a", 0xE40C292C}, {"fnv1a64", "a", 0xAF63DC4C8601EC8C},
			{"xxhash", "", 0xEF46DB3751D8E999}, {"xxhash", "abc", 0x44BC2CF5AD770999},
			{"murmur3", "hello", 0x248BFA47}, {"murmur3", "", 0},
			// RFC 1321 appendix A.5 digests, bytes 0-3 read little-endian
			// (libketama's key hash): MD5("") = d41d8cd9..., MD5("a") =
			// 0cc175b9..., MD5("abc") = 90015098..., MD5("message digest")
			// = f96b697d...
			{"md5", "", 0xD98C1DD4}, {"md5", "a", 0xB975C10C},
			{"md5", "abc", 0x98500190}, {"md5", "message digest", 0x7D696BF9}},
		Jump100:          []int{0, 55, 62, 8, 45, 59, 86, 97, 82, 59, 73, 37, 17, 56, 86, 21, 90, 37, 38, 83},
		Jump1:            []int{0, 0, 0, 0, 0, 0, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 17, 17},
		JumpLarge:        JumpBucket{Key: 256, Buckets: 1024, Bucket: 520},
		HarmonicJump1024: 7.509,

		ModuloLaw: []ModuloLaw{{3, 4, 0.75, 2}, {4, 5, 0.80, 2}, {9, 10, 0.90, 2},
			{10, 11, 0.909, 3}, {1000, 1010, 0.9901, 4}},
		RingCV:     []RingCV{{10, 0.315, 0.37, 1.98}, {100, 0.0997, 0.76, 1.28}, {1000, 0.0316, 0.92, 1.09}},
		Slots:      []SlotsPeak{{10, 1.0004, 4}, {1000, 1.0376, 4}, {10000, 1.22, 2}},
		Maglev:     []MaglevBalance{{100, 65537, 0.01}, {655, 65537, 0.01}},
		MultiProbe: MultiProbePeak{Probes: 21, Nodes: 1000, PeakToMean: 1.05, Decimals: 2},

		ModuloVsRing: []ModuloVsRing{
			{3, 4, 0.748, 0.267, 0.25},
			{4, 5, 0.801, 0.196, 0.20},
			{9, 10, 0.899, 0.104, 0.10},
		},
		RingShares: []RingShares{{1, 0.017, 0.357}, {10, 0.133, 0.265}, {50, 0.188, 0.215},
			{100, 0.184, 0.211}, {200, 0.169, 0.221}},
		Cache: Cache{From: 4, To: 5, Reads: 50000, OldHit: 0.95, NewHit: 0.20, NewHitStep: 0.05,
			DBLoad: 40000, DBLoadStep: 5000, Factor: 16, FactorStep: 1},
	}
}
