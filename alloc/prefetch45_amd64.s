//go:build !purego

#include "textflag.h"

// func prefetch4(p, q, r, s unsafe.Pointer)
// It prefetches s and goes on to prefetch3, whose arguments sit at the
// same offsets (neither has a frame).
TEXT ·prefetch4(SB), NOSPLIT|NOFRAME, $0-32
	MOVQ s+24(FP), DX
	PREFETCHT0 (DX)
	JMP ·prefetch3(SB)

// func prefetch5(p, q, r, s, t unsafe.Pointer)
TEXT ·prefetch5(SB), NOSPLIT|NOFRAME, $0-40
	MOVQ t+32(FP), SI
	PREFETCHT0 (SI)
	JMP ·prefetch4(SB)
