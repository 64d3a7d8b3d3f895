/*===- sf_vqmacc.c - SiFive XSfvqmacc semantics in RVV 1.0 ----------------===*
 *
 * The functions of sf_vqmacc.h: every operation (vqmacc, vqmaccu, vqmaccus,
 * vqmaccsu) of both shapes (4x8x4, 2x8x2) at every LMUL of vd, with RVV 1.0
 * intrinsics only (rv64gcv; qemu-riscv64 -cpu rv64,v=true runs them). The
 * operands go through memory: vs1 and vs2 are stored, and for each of the
 * 8 k steps one indexed load gathers A[8r + k] and one B[8*TN*t + TN*k + c]
 * into the lane of vd element i, whose widened product xl_vqmacc.h's
 * accumulate helpers add (the same widening as the Nuclei emulation). A vl
 * that is not whole B tiles is a reserved encoding: an illegal instruction
 * here too (__builtin_trap), as in QEMU's XSfvqmacc helper.
 *===----------------------------------------------------------------------===*/
#include "sf_vqmacc.h"

#include <stdint.h>
#include <string.h>

#include "xl_vqmacc.h"

/* vd elements = vl * TM / 8 (TM*TN per 8*TN bytes of vs2); the indices are
 * 32-bit at vd's LMUL, the gathered bytes at LMUL(vd)/4 (the same element
 * count). vs1's bytes past the A tile read as 0. */
#define COOPVEC_SF_DEFINE(OP, KIND, SHAPE, TM, TN, AE, ATY, BE, BTY, L32, L8,  \
                          L8S)                                                 \
  vint32##L32##_t coopvec_sf_##OP##_##SHAPE##_i32##L32(                        \
      vint32##L32##_t vd, v##ATY##m1_t vs1, v##BTY##L8S##_t vs2, size_t vl) {  \
    size_t bmax = __riscv_vsetvlmax_e8##L8S();                                 \
    size_t amax = __riscv_vsetvlmax_e8m1();                                    \
    if (vl > bmax)                                                             \
      vl = bmax;                                                               \
    if (vl % (8 * (TN)))                                                       \
      __builtin_trap();                                                        \
    size_t e = vl * (TM) / 8;                                                  \
    /* Every byte of b that is read is stored (vl whole tiles); a may be       \
     * longer than vs1 at small VLEN, and reads as 0 past it. */               \
    BTY##_t b[bmax];                                                           \
    ATY##_t a[8 * (TM)];                                                       \
    memset(a, 0, sizeof a);                                                    \
    __riscv_vse8_v_##BE##L8S(b, vs2, vl);                                      \
    __riscv_vse8_v_##AE##m1(a, vs1, amax < 8 * (TM) ? amax : 8 * (TM));        \
    vuint32##L32##_t i = __riscv_vid_v_u32##L32(e);                            \
    vuint32##L32##_t t = __riscv_vdivu_vx_u32##L32(i, (TM) * (TN), e);         \
    vuint32##L32##_t r = __riscv_vdivu_vx_u32##L32(                            \
        __riscv_vremu_vx_u32##L32(i, (TM) * (TN), e), (TN), e);                \
    vuint32##L32##_t c = __riscv_vremu_vx_u32##L32(i, (TN), e);                \
    vuint32##L32##_t aAt = __riscv_vmul_vx_u32##L32(r, 8, e);                  \
    vuint32##L32##_t bAt = __riscv_vadd_vv_u32##L32(                           \
        __riscv_vmul_vx_u32##L32(t, 8 * (TN), e), c, e);                       \
    for (unsigned k = 0; k < 8; ++k) {                                         \
      v##ATY##L8##_t ak = __riscv_vluxei32_v_##AE##L8(                         \
          a, __riscv_vadd_vx_u32##L32(aAt, k, e), e);                          \
      v##BTY##L8##_t bk = __riscv_vluxei32_v_##BE##L8(                         \
          b, __riscv_vadd_vx_u32##L32(bAt, k * (TN), e), e);                   \
      vd = __coopvec_xl_acc_##KIND##_##L32(vd, ak, bk, e);                     \
    }                                                                          \
    return vd;                                                                 \
  }

#define COOPVEC_SF_OPS(SHAPE, TM, TN, L32, L8, L8S)                            \
  COOPVEC_SF_DEFINE(vqmacc, ss, SHAPE, TM, TN, i8, int8, i8, int8, L32, L8,    \
                    L8S)                                                       \
  COOPVEC_SF_DEFINE(vqmaccu, uu, SHAPE, TM, TN, u8, uint8, u8, uint8, L32, L8, \
                    L8S)                                                       \
  COOPVEC_SF_DEFINE(vqmaccus, us, SHAPE, TM, TN, u8, uint8, i8, int8, L32, L8, \
                    L8S)                                                       \
  COOPVEC_SF_DEFINE(vqmaccsu, su, SHAPE, TM, TN, i8, int8, u8, uint8, L32, L8, \
                    L8S)

/* vd LMUL, gathered bytes at LMUL(vd)/4, vs2 at LMUL(vd)/2 (4x8x4) or
 * LMUL(vd) (2x8x2). */
COOPVEC_SF_OPS(4x8x4, 4, 4, m1, mf4, mf2)
COOPVEC_SF_OPS(4x8x4, 4, 4, m2, mf2, m1)
COOPVEC_SF_OPS(4x8x4, 4, 4, m4, m1, m2)
COOPVEC_SF_OPS(4x8x4, 4, 4, m8, m2, m4)
COOPVEC_SF_OPS(2x8x2, 2, 2, m1, mf4, m1)
COOPVEC_SF_OPS(2x8x2, 2, 2, m2, mf2, m2)
COOPVEC_SF_OPS(2x8x2, 2, 2, m4, m1, m4)
COOPVEC_SF_OPS(2x8x2, 2, 2, m8, m2, m8)
