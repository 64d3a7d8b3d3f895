//===- ExpAvx512.cpp - expf on 16 lanes, bit-identical to glibc's ---------===//
//
// The fused MLP's output exp (MlpPlan::outputExp) on AVX-512: glibc's expf
// (sysdeps/ieee754/flt-32/e_expf.c with the __exp2f_data table, since glibc
// 2.27) evaluated on 8 doubles per register, with the fused multiply-adds
// of __expf_fma, the variant glibc's x86-64 libm runs on every CPU with FMA
// and AVX2 (so on every CPU that reaches this code): the same double
// operations in the same order, so the same float, bit for bit (checked by
// MlpTest against std::exp). Lanes with |x| >= 88 (or NaN), where glibc
// takes its overflow/underflow paths, call std::exp. Its error bound is
// glibc's: at most 0.502 ulp.
//
//===----------------------------------------------------------------------===//

#include "Plan.h"

#include <cmath>
#include <cstdint>
#include <immintrin.h>

#if defined(__x86_64__)

#if defined(__clang__)
#pragma clang attribute push(                                                  \
    __attribute__((target("avx512f,avx512dq,avx512vl,avx2,fma"))),             \
    apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512vl,avx2,fma")
#endif

namespace coopvec {
namespace kernels {
namespace avx512 {
namespace {

/// __exp2f_data.tab: tab[i] = bits(2^(i/32)) - (i << 47).
alignas(64) const uint64_t kTable[32] = {
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f,
    0x3fef9301d0125b51, 0x3fef72b83c7d517b, 0x3fef54873168b9aa,
    0x3fef387a6e756238, 0x3fef1e9df51fdee1, 0x3fef06fe0a31b715,
    0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
    0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429,
    0x3feea47eb03a5585, 0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74,
    0x3feea11473eb0187, 0x3feea589994cce13, 0x3feeace5422aa0db,
    0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
    0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c,
    0x3fef3720dcef9069, 0x3fef5818dcfba487, 0x3fef7c97337b9b5f,
    0x3fefa4afa2a490da, 0x3fefd0765b6e4540};

/// __exp2f_data.invln2_scaled (32 / ln 2), .shift (0x1.8p52) and
/// .poly_scaled.
constexpr double kInvLn2N = 0x1.71547652b82fep+5, kShift = 0x1.8p+52,
                 kC0 = 0x1.c6af84b912394p-20, kC1 = 0x1.ebfce50fac4f3p-13,
                 kC2 = 0x1.62e42ff0c52d6p-6;

/// e_expf.c's main path on 8 lanes (x as double, exactly).
__m256 expHalf(__m512d xd) {
  const __m512d shift = _mm512_set1_pd(kShift),
                invLn2N = _mm512_set1_pd(kInvLn2N);
  // z = x N / ln 2 = k + r: kd = round(z) by the shift, ki its bits.
  __m512d kd = _mm512_fmadd_pd(invLn2N, xd, shift);
  __m512i ki = _mm512_castpd_si512(kd);
  kd = _mm512_sub_pd(kd, shift);
  __m512d r = _mm512_fmsub_pd(invLn2N, xd, kd);
  // s = 2^(k/N): tab[k % N] + (k << 47), the table in four registers.
  __m512i idx = _mm512_and_si512(ki, _mm512_set1_epi64(31));
  __m512i lo = _mm512_permutex2var_epi64(_mm512_load_si512(kTable), idx,
                                         _mm512_load_si512(kTable + 8));
  __m512i hi = _mm512_permutex2var_epi64(_mm512_load_si512(kTable + 16), idx,
                                         _mm512_load_si512(kTable + 24));
  __m512i t = _mm512_mask_blend_epi64(
      _mm512_test_epi64_mask(idx, _mm512_set1_epi64(16)), lo, hi);
  t = _mm512_add_epi64(t, _mm512_slli_epi64(ki, 47));
  __m512d s = _mm512_castsi512_pd(t);
  // exp(x) = s (C0 r^3 + C1 r^2 + C2 r + 1), as __expf_fma orders it.
  __m512d z = _mm512_fmadd_pd(r, _mm512_set1_pd(kC0), _mm512_set1_pd(kC1));
  __m512d r2 = _mm512_mul_pd(r, r);
  __m512d y = _mm512_fmadd_pd(r, _mm512_set1_pd(kC2), _mm512_set1_pd(1.0));
  y = _mm512_fmadd_pd(z, r2, y);
  y = _mm512_mul_pd(y, s);
  return _mm512_cvtpd_ps(y);
}

/// exp of the lanes of p selected by `lanes`, in place.
void exp16(float *p, __mmask16 lanes) {
  __m512 x = _mm512_maskz_loadu_ps(lanes, p);
  __m512d lo = _mm512_cvtps_pd(_mm512_castps512_ps256(x));
  __m512d hi = _mm512_cvtps_pd(
      _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(x), 1)));
  __m512 y =
      _mm512_insertf32x8(_mm512_castps256_ps512(expHalf(lo)), expHalf(hi), 1);
  _mm512_mask_storeu_ps(p, lanes, y);
  // glibc's special cases: |x| >= 88 by the top 12 bits, inf and NaN.
  __m512i magnitude =
      _mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(0x7fffffff));
  __mmask16 special = _mm512_mask_cmpge_epu32_mask(
      lanes, magnitude, _mm512_set1_epi32(0x42b00000));
  for (unsigned i = 0; special; ++i, special >>= 1)
    if (special & 1) {
      float v;
      _mm_store_ss(&v, _mm512_castps512_ps128(_mm512_permutexvar_ps(
                           _mm512_set1_epi32(int(i)), x)));
      p[i] = std::exp(v);
    }
}

} // namespace

void expRows(float *p, uint64_t strideFloats, uint32_t rows, uint32_t m) {
  if (strideFloats == m) { // One run of rows * m values.
    uint64_t n = uint64_t(rows) * m, i = 0;
    for (; i + 16 <= n; i += 16)
      exp16(p + i, 0xffff);
    if (i < n)
      exp16(p + i, __mmask16((1u << (n - i)) - 1));
    return;
  }
  for (uint32_t b = 0; b < rows; ++b)
    for (uint32_t i = 0; i < m; i += 16)
      exp16(p + b * strideFloats + i,
            m - i >= 16 ? __mmask16(0xffff) : __mmask16((1u << (m - i)) - 1));
}

} // namespace avx512
} // namespace kernels
} // namespace coopvec

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif
