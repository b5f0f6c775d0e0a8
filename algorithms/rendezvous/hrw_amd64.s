//go:build amd64 && !purego

#include "textflag.h"

// Lane numbers 0..7 of the first block.
DATA lanes<>+0(SB)/8, $0
DATA lanes<>+8(SB)/8, $1
DATA lanes<>+16(SB)/8, $2
DATA lanes<>+24(SB)/8, $3
DATA lanes<>+32(SB)/8, $4
DATA lanes<>+40(SB)/8, $5
DATA lanes<>+48(SB)/8, $6
DATA lanes<>+56(SB)/8, $7
GLOBL lanes<>(SB), RODATA|NOPTR, $64

// MIX applies the splitmix64 finalizer (algorithms.Mix64) to the eight
// lanes of x, using t as scratch; Z8 and Z9 hold its two multipliers.
#define MIX(x, t) \
	VPSRLQ  $30, x, t \
	VPXORQ  t, x, x   \
	VPMULLQ Z8, x, x  \
	VPSRLQ  $27, x, t \
	VPXORQ  t, x, x   \
	VPMULLQ Z9, x, x  \
	VPSRLQ  $31, x, t \
	VPXORQ  t, x, x

// func maxMix8(seeds *uint64, n int, h uint64, out *[16]uint64)
TEXT ·maxMix8(SB), NOSPLIT, $0-32
	MOVQ seeds+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ h+16(FP), AX
	MOVQ out+24(FP), DI
	VPBROADCASTQ AX, Z0
	MOVQ $0xBF58476D1CE4E5B9, AX
	VPBROADCASTQ AX, Z8
	MOVQ $0x94D049BB133111EB, AX
	VPBROADCASTQ AX, Z9
	MOVQ $8, AX
	VPBROADCASTQ AX, Z7
	VMOVDQU64 lanes<>(SB), Z6

	// The first block initialises the per-lane best scores (Z3) and
	// their seed indexes (Z5).
	VPXORQ (SI), Z0, Z1
	MIX(Z1, Z2)
	VMOVDQA64 Z1, Z3
	VMOVDQA64 Z6, Z5
	ADDQ $64, SI
	SUBQ $8, CX
	JZ   done

loop:
	VPADDQ Z7, Z6, Z6
	VPXORQ (SI), Z0, Z1
	MIX(Z1, Z2)
	// K1 = lanes whose score is strictly greater (unsigned): an equal
	// score keeps the earlier, smaller index.
	VPCMPUQ   $6, Z3, Z1, K1
	VMOVDQA64 Z1, K1, Z3
	VMOVDQA64 Z6, K1, Z5
	ADDQ $64, SI
	SUBQ $8, CX
	JNZ  loop

done:
	VMOVDQU64 Z3, (DI)
	VMOVDQU64 Z5, 64(DI)
	VZEROUPPER
	RET
