/*===- xl_vqmacc.h - Nuclei Xxlvqmacc intrinsics in standard RVV 1.0 ------===*
 *
 * Every intrinsic name of Nuclei's Xxlvqmacc extension
 * (__riscv_xl_vqmacc{,u,us,su}_4x4x4[_i32m{1,2,4,8}][_tu]) implemented
 * with standard RVV 1.0 intrinsics, so that C written for Nuclei's GCC (the
 * code `--convert-coopvec-to-riscv` emits, the seed's example) compiles
 * with any RVV 1.0 compiler and runs on any RVV 1.0 machine or under
 * `qemu-riscv64 -cpu rv64,v=true`. Where the compiler has the extension
 * (`-march=..._xxlvqmacc` defines __riscv_xxlvqmacc) the header defines
 * nothing and the built-in intrinsics are used.
 *
 * The semantics implemented (docs/RISCV.md, "Nuclei Xxlvqmacc") for
 * vd = OP(vd, vs1, vs2, vl):
 *   A  = the first 16 bytes of vs1 (always LMUL 1): a 4x4 row-major tile;
 *   B  = vs2's bytes as vl/16 4x4 row-major tiles, tile t at bytes 16t;
 *   C  = vd's int32 elements as 4x4 row-major tiles, tile t at elements 16t;
 *   for every element i < vl (t = i / 16, r = (i % 16) / 4, c = i % 4):
 *     vd[i] += sum_{k<4} A[4r + k] * B[16t + 4k + c]        (mod 2^32)
 *   with A and B sign- or zero-extended as the operation says
 *   (vqmacc s*s, vqmaccu u*u, vqmaccus u(A)*s(B), vqmaccsu s(A)*u(B)).
 *   Bytes of vs2 at or past vl read as 0, so when vl is not a multiple of 16
 *   the elements of the last, partial tile below vl sum the products of the
 *   B rows present. Elements at and past vl: kept by the _tu forms,
 *   tail-agnostic otherwise.
 *
 * Overloaded names: clang's __attribute__((overloadable)) in C, ordinary
 * overloading in C++; a C compiler without either gets the explicit names
 * only.
 *===----------------------------------------------------------------------===*/
#ifndef COOPVEC_XL_VQMACC_H
#define COOPVEC_XL_VQMACC_H

#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

#ifndef __riscv_xxlvqmacc

/* How the intrinsics are defined: inline by default; bench/riscv/
 * dynamic-counts.py defines it as `static __attribute__((noinline))` so that
 * each vqmacc executes as one call it can count. */
#ifndef COOPVEC_XL_INTRINSIC
#define COOPVEC_XL_INTRINSIC static inline
#endif

#if defined(__clang__)
#define COOPVEC_XL_OVERLOAD static inline __attribute__((overloadable))
#define COOPVEC_XL_HAS_OVERLOADS 1
#elif defined(__cplusplus)
#define COOPVEC_XL_OVERLOAD static inline
#define COOPVEC_XL_HAS_OVERLOADS 1
#else
#define COOPVEC_XL_HAS_OVERLOADS 0
#endif

/* The A tile (vs1, LMUL 1) as a register of vs2's LMUL: only its first 16
 * bytes are read, and every byte an element below vl reads survives the
 * truncation (a fractional register holds a multiple of 4 bytes). */
#define COOPVEC_XL_FIT(E, T)                                                   \
  static inline v##T##mf4_t __coopvec_xl_fit_##E##mf4(v##T##m1_t v) {         \
    return __riscv_vlmul_trunc_v_##E##m1_##E##mf4(v);                          \
  }                                                                            \
  static inline v##T##mf2_t __coopvec_xl_fit_##E##mf2(v##T##m1_t v) {         \
    return __riscv_vlmul_trunc_v_##E##m1_##E##mf2(v);                          \
  }                                                                            \
  static inline v##T##m1_t __coopvec_xl_fit_##E##m1(v##T##m1_t v) { return v; } \
  static inline v##T##m2_t __coopvec_xl_fit_##E##m2(v##T##m1_t v) {           \
    return __riscv_vlmul_ext_v_##E##m1_##E##m2(v);                             \
  }
COOPVEC_XL_FIT(i8, int8)
COOPVEC_XL_FIT(u8, uint8)

/* 16-bit products of one k step: exact for every sign combination except
 * u8*u8 (up to 65025), which the unsigned path widens instead. */
#define COOPVEC_XL_PROD_ss(L16, a, b, vl) __riscv_vwmul_vv_i16##L16(a, b, vl)
#define COOPVEC_XL_PROD_su(L16, a, b, vl) __riscv_vwmulsu_vv_i16##L16(a, b, vl)
#define COOPVEC_XL_PROD_us(L16, a, b, vl) __riscv_vwmulsu_vv_i16##L16(b, a, vl)

/* acc += widen(product), tail-agnostic and tail-undisturbed. */
#define COOPVEC_XL_ACC_SIGNED(KIND, ATY, BTY, L32, L8, L16)                    \
  static inline vint32##L32##_t __coopvec_xl_acc_##KIND##_##L32(              \
      vint32##L32##_t acc, v##ATY##L8##_t a, v##BTY##L8##_t b, size_t vl) {    \
    return __riscv_vwadd_wv_i32##L32(acc, COOPVEC_XL_PROD_##KIND(L16, a, b, vl), \
                                     vl);                                      \
  }                                                                            \
  static inline vint32##L32##_t __coopvec_xl_acc_##KIND##_##L32##_tu(         \
      vint32##L32##_t acc, v##ATY##L8##_t a, v##BTY##L8##_t b, size_t vl) {    \
    return __riscv_vwadd_wv_i32##L32##_tu(                                     \
        acc, acc, COOPVEC_XL_PROD_##KIND(L16, a, b, vl), vl);                  \
  }
/* u8*u8: the product in u16, the sum in u32 (the same bits as i32). */
#define COOPVEC_XL_ACC_UNSIGNED(L32, L8, L16)                                  \
  static inline vint32##L32##_t __coopvec_xl_acc_uu_##L32(                    \
      vint32##L32##_t acc, vuint8##L8##_t a, vuint8##L8##_t b, size_t vl) {    \
    return __riscv_vreinterpret_v_u32##L32##_i32##L32(__riscv_vwaddu_wv_u32##L32( \
        __riscv_vreinterpret_v_i32##L32##_u32##L32(acc),                       \
        __riscv_vwmulu_vv_u16##L16(a, b, vl), vl));                            \
  }                                                                            \
  static inline vint32##L32##_t __coopvec_xl_acc_uu_##L32##_tu(               \
      vint32##L32##_t acc, vuint8##L8##_t a, vuint8##L8##_t b, size_t vl) {    \
    vuint32##L32##_t u = __riscv_vreinterpret_v_i32##L32##_u32##L32(acc);      \
    return __riscv_vreinterpret_v_u32##L32##_i32##L32(                         \
        __riscv_vwaddu_wv_u32##L32##_tu(u, u,                                  \
                                        __riscv_vwmulu_vv_u16##L16(a, b, vl),  \
                                        vl));                                  \
  }

/* One intrinsic: for k = 0..3, gather A[4r + k] and B[16t + 4k + c] into
 * element i's lane (16-bit indices: a group of LMUL 2 at VLEN 1024 holds 256
 * bytes) and accumulate their product. */
#define COOPVEC_XL_DEFINE(OP, KIND, AE, ATY, BE, BTY, L32, L8, L16, POL)       \
  COOPVEC_XL_INTRINSIC vint32##L32##_t __riscv_xl_##OP##_4x4x4_i32##L32##POL( \
      vint32##L32##_t vd, v##ATY##m1_t vs1, v##BTY##L8##_t vs2, size_t vl) {   \
    vuint16##L16##_t i = __riscv_vid_v_u16##L16(vl);                           \
    vuint16##L16##_t arow = __riscv_vand_vx_u16##L16(i, 12, vl);               \
    vuint16##L16##_t bcol = __riscv_vadd_vv_u16##L16(                          \
        __riscv_vand_vx_u16##L16(i, (uint16_t)0xfff0u, vl),                    \
        __riscv_vand_vx_u16##L16(i, 3, vl), vl);                               \
    v##ATY##L8##_t a = __coopvec_xl_fit_##AE##L8(vs1);                         \
    v##BTY##L8##_t b = __riscv_vmv_v_v_##BE##L8##_tu(                          \
        __riscv_vmv_v_x_##BE##L8(0, __riscv_vsetvlmax_e8##L8()), vs2, vl);     \
    for (unsigned k = 0; k < 4; ++k) {                                         \
      v##ATY##L8##_t ak = __riscv_vrgatherei16_vv_##AE##L8(                    \
          a, __riscv_vadd_vx_u16##L16(arow, k, vl), vl);                       \
      v##BTY##L8##_t bk = __riscv_vrgatherei16_vv_##BE##L8(                    \
          b, __riscv_vadd_vx_u16##L16(bcol, 4 * k, vl), vl);                   \
      vd = __coopvec_xl_acc_##KIND##_##L32##POL(vd, ak, bk, vl);               \
    }                                                                          \
    return vd;                                                                 \
  }

#if COOPVEC_XL_HAS_OVERLOADS
#define COOPVEC_XL_DEFINE_OVERLOAD(OP, ATY, BTY, L32, L8, POL)                 \
  COOPVEC_XL_OVERLOAD vint32##L32##_t __riscv_xl_##OP##_4x4x4##POL(            \
      vint32##L32##_t vd, v##ATY##m1_t vs1, v##BTY##L8##_t vs2, size_t vl) {   \
    return __riscv_xl_##OP##_4x4x4_i32##L32##POL(vd, vs1, vs2, vl);            \
  }
#else
#define COOPVEC_XL_DEFINE_OVERLOAD(OP, ATY, BTY, L32, L8, POL)
#endif

#define COOPVEC_XL_OPERATION(OP, KIND, AE, ATY, BE, BTY, L32, L8, L16)         \
  COOPVEC_XL_DEFINE(OP, KIND, AE, ATY, BE, BTY, L32, L8, L16, )                \
  COOPVEC_XL_DEFINE(OP, KIND, AE, ATY, BE, BTY, L32, L8, L16, _tu)             \
  COOPVEC_XL_DEFINE_OVERLOAD(OP, ATY, BTY, L32, L8, )                          \
  COOPVEC_XL_DEFINE_OVERLOAD(OP, ATY, BTY, L32, L8, _tu)

/* The seed's LMUL pairings: vd i32 LMUL L32, vs2 i8 LMUL L32/4 (the same
 * element count), indices and products 16-bit at LMUL L32/2. */
#define COOPVEC_XL_LMUL(L32, L8, L16)                                          \
  COOPVEC_XL_ACC_SIGNED(ss, int8, int8, L32, L8, L16)                          \
  COOPVEC_XL_ACC_SIGNED(su, int8, uint8, L32, L8, L16)                         \
  COOPVEC_XL_ACC_SIGNED(us, uint8, int8, L32, L8, L16)                         \
  COOPVEC_XL_ACC_UNSIGNED(L32, L8, L16)                                        \
  COOPVEC_XL_OPERATION(vqmacc, ss, i8, int8, i8, int8, L32, L8, L16)           \
  COOPVEC_XL_OPERATION(vqmaccu, uu, u8, uint8, u8, uint8, L32, L8, L16)        \
  COOPVEC_XL_OPERATION(vqmaccus, us, u8, uint8, i8, int8, L32, L8, L16)        \
  COOPVEC_XL_OPERATION(vqmaccsu, su, i8, int8, u8, uint8, L32, L8, L16)

COOPVEC_XL_LMUL(m1, mf4, mf2)
COOPVEC_XL_LMUL(m2, mf2, m1)
COOPVEC_XL_LMUL(m4, m1, m2)
COOPVEC_XL_LMUL(m8, m2, m4)

#endif /* __riscv_xxlvqmacc */
#endif /* COOPVEC_XL_VQMACC_H */
