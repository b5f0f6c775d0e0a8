//go:build amd64 && !purego

package rendezvous

import "golang.org/x/sys/cpu"

// useMaxMix8 reports whether the AVX-512 kernel runs: it needs AVX-512F
// (64-bit lanes, masks) and AVX-512DQ (VPMULLQ, the 64-bit multiply).
var useMaxMix8 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

// maxMix8 is maxMix8Generic in AVX-512 (hrw_amd64.s): eight seeds per
// step. Preconditions as for maxMix8Generic; the CPU must have AVX-512F
// and AVX-512DQ (useMaxMix8).
//
//go:noescape
func maxMix8(seeds *uint64, n int, h uint64, out *[16]uint64)
