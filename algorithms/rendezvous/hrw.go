package rendezvous

import "github.com/chbench/chbench/algorithms"

// maxMix8Generic is the portable statement of the AVX-512 kernel maxMix8.
// It splits seeds (len(seeds) a multiple of 8, >= 8) into eight lanes,
// lane l holding seeds l, l+8, l+16, ..., and for each lane finds the
// highest Mix64(seed ^ h), the first one on ties. It writes lane l's score
// to out[l] and its seed index to out[8+l].
func maxMix8Generic(seeds []uint64, h uint64, out *[16]uint64) {
	for l := range 8 {
		out[l], out[8+l] = algorithms.Mix64(seeds[l]^h), uint64(l)
		for i := l + 8; i < len(seeds); i += 8 {
			if sc := algorithms.Mix64(seeds[i] ^ h); sc > out[l] {
				out[l], out[8+l] = sc, uint64(i)
			}
		}
	}
}

// minKernelSeeds is the membership size from which the eight-lane kernel
// pays for its setup and final reduction.
const minKernelSeeds = 16

// maxUniform returns the index into seeds of the highest Mix64(seed ^ h),
// the first one on ties. With seeds ordered by node ID that is the
// equal-weight HRW owner, ties going to the smaller ID.
func maxUniform(seeds []uint64, h uint64) int {
	best, bestScore, i := 0, algorithms.Mix64(seeds[0]^h), 1
	if useMaxMix8 && len(seeds) >= minKernelSeeds {
		var out [16]uint64
		m := len(seeds) &^ 7
		maxMix8(&seeds[0], m, h, &out)
		best, bestScore = int(out[8]), out[0]
		for l := 1; l < 8; l++ {
			if sc, j := out[l], int(out[8+l]); sc > bestScore || (sc == bestScore && j < best) {
				best, bestScore = j, sc
			}
		}
		i = m
	}
	for ; i < len(seeds); i++ {
		if sc := algorithms.Mix64(seeds[i] ^ h); sc > bestScore {
			best, bestScore = i, sc
		}
	}
	return best
}
