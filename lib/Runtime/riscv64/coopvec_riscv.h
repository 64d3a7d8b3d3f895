/*===- coopvec_riscv.h - what C from --convert-coopvec-to-riscv includes --===*
 *
 * RVV intrinsics, Nuclei's vqmacc intrinsics (built in with Nuclei's GCC,
 * else xl_vqmacc.h) and the error hook of the generated code, which the
 * program linking it defines (coopvec-rv-run's harness prints
 * "coopvec runtime error: <site>: <what>" and exits with status 1). It
 * must not return. The conversions the generated code calls are here, as
 * the CPU runtime defines them (bit-exact, no libm).
 *===----------------------------------------------------------------------===*/
#ifndef COOPVEC_RISCV_H
#define COOPVEC_RISCV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "xl_vqmacc.h"

#ifdef __cplusplus
extern "C"
#endif
    void
    coopvec_rv_error(const char *site, const char *what);

/* f32 read as an 8-bit integer interpretation [lo, hi]: rounded to nearest
 * even and saturated, NaN 0 (DXIL's rule, as lib/Runtime/Kernels/Convert.h). */
static inline int64_t coopvec_rv_f32_to_int(float x, int64_t lo, int64_t hi) {
  if (x != x)
    return 0;
  if (x <= (float)lo)
    return lo;
  if (x >= (float)hi)
    return hi;
  /* |x| < 2^8: adding and taking away 2^23 rounds to an integer in the
   * default (nearest even) rounding mode. */
  float r = x >= 0 ? (x + 0x1p23f) - 0x1p23f : -((-x + 0x1p23f) - 0x1p23f);
  return (int64_t)r;
}

/* The f32 value (exact) of f16 bits. */
static inline float coopvec_rv_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1Fu, man = h & 0x3FFu, bits;
  if (exp == 0x1F) {
    bits = sign | 0x7F800000u | (man << 13);
  } else if (exp) {
    bits = sign | ((exp + 112) << 23) | (man << 13);
  } else {
    /* Zero or subnormal: man * 2^-24, exact in f32. */
    float f = (float)man * 0x1p-24f;
    return sign ? -f : f;
  }
  union {
    uint32_t u;
    float f;
  } v = {bits};
  return v.f;
}

/* The f32 value of bf16 bits. */
static inline float coopvec_rv_bf16_to_f32(uint16_t h) {
  union {
    uint32_t u;
    float f;
  } v = {(uint32_t)h << 16};
  return v.f;
}

/* f32 rounded to nearest even to f16 bits: beyond the range inf, NaN the
 * quiet NaN of its sign (as coopvecConvertF32 in lib/Runtime/Numerics). */
static inline uint16_t coopvec_rv_f32_to_f16(float f) {
  union {
    float f;
    uint32_t u;
  } v = {f};
  uint32_t sign = (v.u >> 16) & 0x8000u, mag = v.u & 0x7FFFFFFFu;
  if (mag > 0x7F800000u)
    return (uint16_t)(sign | 0x7E00u);
  if (mag >= 0x477FF000u) /* 65520 and above round to inf */
    return (uint16_t)(sign | 0x7C00u);
  if (mag < 0x38800000u) {
    /* Below 2^-14: a multiple of 2^-24, rounded in f32 (exact scaling, then
     * the 2^23 trick); 1024 is the smallest normal's encoding. */
    union {
      uint32_t u;
      float f;
    } a = {mag};
    float r = (a.f * 0x1p24f + 0x1p23f) - 0x1p23f;
    return (uint16_t)(sign | (uint32_t)r);
  }
  uint32_t m = mag - 0x38000000u; /* rebias the exponent: 127 -> 15 */
  return (uint16_t)(sign | ((m + 0x0FFFu + ((m >> 13) & 1u)) >> 13));
}

/* f32 rounded to nearest even to bf16 bits; NaN the quiet NaN of its sign. */
static inline uint16_t coopvec_rv_f32_to_bf16(float f) {
  union {
    float f;
    uint32_t u;
  } v = {f};
  if ((v.u & 0x7FFFFFFFu) > 0x7F800000u)
    return (uint16_t)(((v.u >> 16) & 0x8000u) | 0x7FC0u);
  return (uint16_t)((v.u + 0x7FFFu + ((v.u >> 16) & 1u)) >> 16);
}

#endif /* COOPVEC_RISCV_H */
