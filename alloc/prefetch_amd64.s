//go:build !purego

#include "textflag.h"

// func prefetch(p unsafe.Pointer)
TEXT ·prefetch(SB), NOSPLIT|NOFRAME, $0-8
	MOVQ p+0(FP), AX
	PREFETCHT0 (AX)
	RET

// func prefetch2(p, q unsafe.Pointer)
TEXT ·prefetch2(SB), NOSPLIT|NOFRAME, $0-16
	MOVQ p+0(FP), AX
	MOVQ q+8(FP), BX
	PREFETCHT0 (AX)
	PREFETCHT0 (BX)
	RET

// func prefetch3(p, q, r unsafe.Pointer)
TEXT ·prefetch3(SB), NOSPLIT|NOFRAME, $0-24
	MOVQ p+0(FP), AX
	MOVQ q+8(FP), BX
	MOVQ r+16(FP), CX
	PREFETCHT0 (AX)
	PREFETCHT0 (BX)
	PREFETCHT0 (CX)
	RET
