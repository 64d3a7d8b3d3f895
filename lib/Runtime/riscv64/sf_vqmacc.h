/*===- sf_vqmacc.h - SiFive XSfvqmacc semantics as callable functions -----===*
 *
 * coopvec_sf_<op>_<shape>_i32m<L>: what SiFive's sf.vqmacc[u|us|su].4x8x4
 * (XSfvqmaccqoq) and .2x8x2 (XSfvqmaccdod) compute, as external functions
 * with the signature of the intrinsics __riscv_sf_<op>_<shape>_i32m<L>
 * (sifive_vector.h), implemented in sf_vqmacc.c with RVV 1.0 intrinsics.
 * `--convert-coopvec-to-riscv=isa=xsfvqmacc-<shape> emulate-sifive=true`
 * calls them instead of llvm.riscv.sf.vqmacc*, so that the same loop nest
 * runs under qemu-riscv64, which has no XSfvqmacc. LLVM passes the RVV
 * types of these signatures in vector registers, the same way for the C
 * definitions and for the LLVM IR calls.
 *
 * The semantics (docs/RISCV.md, "SiFive XSfvqmacc") for
 * vd = OP(vd, vs1, vs2, vl), (TM, TN) = (4, 4) or (2, 2), K = 8:
 *   vl counts bytes of vs2 (SEW 8 at vs2's LMUL);
 *   A = the first 8*TM bytes of vs1 (LMUL 1): TM x 8, row-major;
 *   B = vs2 as 8*TN-byte tiles, tile t at byte 8*TN*t, each 8 x TN
 *       row-major (B[k][c] at byte TN*k + c of the tile);
 *   C = vd's int32 elements as TM*TN-element tiles, row-major;
 *   for every element i < vl*TM/8 (t = i / (TM*TN), r = (i % (TM*TN)) / TN,
 *   c = i % TN):
 *     vd[i] += sum_{k<8} A[8r + k] * B[8*TN*t + TN*k + c]      (mod 2^32)
 *   with A and B sign- or zero-extended as the operation says (vqmacc s*s,
 *   vqmaccu u*u, vqmaccus u(A)*s(B), vqmaccsu s(A)*u(B)); elements of vd at
 *   or past vl*TM/8 are tail-agnostic; a vl that is not a multiple of 8*TN
 *   is reserved (an illegal instruction, here __builtin_trap).
 * The vd/vs2 LMUL pairing: vs2 at LMUL(vd)/2 for 4x8x4, LMUL(vd) for 2x8x2.
 *===----------------------------------------------------------------------===*/
#ifndef COOPVEC_SF_VQMACC_H
#define COOPVEC_SF_VQMACC_H

#include <riscv_vector.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define COOPVEC_SF_DECLARE(OP, SHAPE, ATY, BTY, L32, L8S)                      \
  vint32##L32##_t coopvec_sf_##OP##_##SHAPE##_i32##L32(                        \
      vint32##L32##_t vd, v##ATY##m1_t vs1, v##BTY##L8S##_t vs2, size_t vl);
#define COOPVEC_SF_DECLARE_OPS(SHAPE, L32, L8S)                                \
  COOPVEC_SF_DECLARE(vqmacc, SHAPE, int8, int8, L32, L8S)                      \
  COOPVEC_SF_DECLARE(vqmaccu, SHAPE, uint8, uint8, L32, L8S)                   \
  COOPVEC_SF_DECLARE(vqmaccus, SHAPE, uint8, int8, L32, L8S)                   \
  COOPVEC_SF_DECLARE(vqmaccsu, SHAPE, int8, uint8, L32, L8S)

COOPVEC_SF_DECLARE_OPS(4x8x4, m1, mf2)
COOPVEC_SF_DECLARE_OPS(4x8x4, m2, m1)
COOPVEC_SF_DECLARE_OPS(4x8x4, m4, m2)
COOPVEC_SF_DECLARE_OPS(4x8x4, m8, m4)
COOPVEC_SF_DECLARE_OPS(2x8x2, m1, m1)
COOPVEC_SF_DECLARE_OPS(2x8x2, m2, m2)
COOPVEC_SF_DECLARE_OPS(2x8x2, m4, m4)
COOPVEC_SF_DECLARE_OPS(2x8x2, m8, m8)

#undef COOPVEC_SF_DECLARE_OPS
#undef COOPVEC_SF_DECLARE

#ifdef __cplusplus
}
#endif

#endif /* COOPVEC_SF_VQMACC_H */
