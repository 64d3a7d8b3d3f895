//===- QuantizeRowsAvx512.cpp - Dynamic row quantization with AVX-512 -----===//
//
// QuantizeRowsBody.inc on 16 f32 lanes with mask registers: masked loads
// and stores take the group tails.
//
//===----------------------------------------------------------------------===//

#include "../QuantizeRows.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <immintrin.h>

#if defined(__x86_64__)

#if defined(__clang__)
#pragma clang attribute push(                                                  \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,f16c"))),        \
    apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,f16c")
#endif

namespace coopvec {
namespace kernels {
namespace avx512 {
namespace {

struct Q {
  static constexpr uint32_t kLanes = 16;
  using F = __m512;
  using M = __mmask16;
  using I = __m512i;
  static M first(uint32_t n) { return M((1u << n) - 1); }
  static F zero() { return _mm512_setzero_ps(); }
  static I zeroI() { return _mm512_setzero_si512(); }
  static F load(const uint8_t *row, bool f16, uint32_t i, uint32_t n) {
    if (f16)
      return _mm512_cvtph_ps(
          _mm256_maskz_loadu_epi16(first(n), row + uint64_t(i) * 2));
    return _mm512_maskz_loadu_ps(first(n), row + uint64_t(i) * 4);
  }
  /// 2 KiB ahead (the next rows where they are dense): twice the speed of
  /// the hardware's prefetch alone on 64-value rows (Zen 5).
  static void prefetch(const uint8_t *row, bool f16, uint32_t i) {
    _mm_prefetch(reinterpret_cast<const char *>(row) + 2048 +
                     uint64_t(i) * (f16 ? 2 : 4),
                 _MM_HINT_T0);
  }
  static M ordered(F v) { return _mm512_cmp_ps_mask(v, v, _CMP_ORD_Q); }
  static void extremes(F &lo, F &hi, F v, M ok) {
    lo = _mm512_mask_min_ps(lo, ok, lo, v);
    hi = _mm512_mask_max_ps(hi, ok, hi, v);
  }
  static void absMax(F &amax, F v, M ok) {
    amax = _mm512_mask_max_ps(amax, ok, amax, _mm512_abs_ps(v));
  }
  static float minOf(F v) { return _mm512_reduce_min_ps(v); }
  static float maxOf(F v) { return _mm512_reduce_max_ps(v); }
  static I codes(F v, M ok, uint32_t n, float s, bool asym, float z,
                 float lowest, float highest) {
    F t = _mm512_maskz_roundscale_ps(ok, _mm512_div_ps(v, _mm512_set1_ps(s)),
                                     _MM_FROUND_TO_NEAREST_INT |
                                         _MM_FROUND_NO_EXC);
    if (asym)
      t = _mm512_add_ps(t, _mm512_set1_ps(z));
    t = _mm512_min_ps(_mm512_max_ps(t, _mm512_set1_ps(lowest)),
                      _mm512_set1_ps(highest));
    return _mm512_maskz_mov_epi32(first(n), _mm512_cvttps_epi32(t));
  }
  static I add(I a, I b) { return _mm512_add_epi32(a, b); }
  static int32_t sum(I v) { return _mm512_reduce_add_epi32(v); }
  static void store(uint8_t *q, I c, uint32_t n) {
    _mm_mask_storeu_epi8(q, first(n), _mm512_cvtepi32_epi8(c));
  }
};

} // namespace

#include "../QuantizeRowsBody.inc"

} // namespace avx512
} // namespace kernels
} // namespace coopvec

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif
