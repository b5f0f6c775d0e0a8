//go:build !amd64 || purego

package rendezvous

import "unsafe"

// useMaxMix8 is false without the AVX-512 kernel (not amd64, or built with
// the purego tag): lookups use the scalar loop alone.
const useMaxMix8 = false

// maxMix8 is maxMix8Generic; it is only reached when useMaxMix8 is true,
// which it never is here.
func maxMix8(seeds *uint64, n int, h uint64, out *[16]uint64) {
	maxMix8Generic(unsafe.Slice(seeds, n), h, out)
}
