//===- QuantizeRowsAvx2.cpp - Dynamic row quantization with AVX2 ----------===//
//
// QuantizeRowsBody.inc on 8 f32 lanes: masks are all-ones lanes, group
// tails are loaded with vmaskmovps (F32) or through a zeroed copy (F16),
// and codes are stored through a copy.
//
//===----------------------------------------------------------------------===//

#include "../QuantizeRows.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <immintrin.h>

#if defined(__x86_64__)

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,f16c"))),             \
                             apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,f16c")
#endif

namespace coopvec {
namespace kernels {
namespace avx2 {
namespace {

struct Q {
  static constexpr uint32_t kLanes = 8;
  using F = __m256;
  using M = __m256;
  using I = __m256i;
  /// All-ones lanes below n.
  static __m256i first(uint32_t n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(int32_t(n)),
                              _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  static F zero() { return _mm256_setzero_ps(); }
  static I zeroI() { return _mm256_setzero_si256(); }
  static F load(const uint8_t *row, bool f16, uint32_t i, uint32_t n) {
    if (f16) {
      __m128i h;
      if (n == kLanes) {
        h = _mm_loadu_si128(
            reinterpret_cast<const __m128i *>(row + uint64_t(i) * 2));
      } else {
        alignas(16) uint16_t tail[kLanes] = {};
        std::memcpy(tail, row + uint64_t(i) * 2, size_t(n) * 2);
        h = _mm_load_si128(reinterpret_cast<const __m128i *>(tail));
      }
      return _mm256_cvtph_ps(h);
    }
    const float *at = reinterpret_cast<const float *>(row + uint64_t(i) * 4);
    return n == kLanes ? _mm256_loadu_ps(at) : _mm256_maskload_ps(at, first(n));
  }
  /// As the AVX-512 level does.
  static void prefetch(const uint8_t *row, bool f16, uint32_t i) {
    _mm_prefetch(reinterpret_cast<const char *>(row) + 2048 +
                     uint64_t(i) * (f16 ? 2 : 4),
                 _MM_HINT_T0);
  }
  static M ordered(F v) { return _mm256_cmp_ps(v, v, _CMP_ORD_Q); }
  static void extremes(F &lo, F &hi, F v, M ok) {
    lo = _mm256_blendv_ps(lo, _mm256_min_ps(lo, v), ok);
    hi = _mm256_blendv_ps(hi, _mm256_max_ps(hi, v), ok);
  }
  static void absMax(F &amax, F v, M ok) {
    F abs = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), v);
    amax = _mm256_blendv_ps(amax, _mm256_max_ps(amax, abs), ok);
  }
  static float minOf(F v) {
    alignas(32) float l[kLanes];
    _mm256_store_ps(l, v);
    return *std::min_element(l, l + kLanes);
  }
  static float maxOf(F v) {
    alignas(32) float l[kLanes];
    _mm256_store_ps(l, v);
    return *std::max_element(l, l + kLanes);
  }
  static I codes(F v, M ok, uint32_t n, float s, bool asym, float z,
                 float lowest, float highest) {
    F t = _mm256_round_ps(_mm256_div_ps(v, _mm256_set1_ps(s)),
                          _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    t = _mm256_and_ps(t, ok); // NaN -> +0
    if (asym)
      t = _mm256_add_ps(t, _mm256_set1_ps(z));
    t = _mm256_min_ps(_mm256_max_ps(t, _mm256_set1_ps(lowest)),
                      _mm256_set1_ps(highest));
    return _mm256_and_si256(_mm256_cvttps_epi32(t), first(n));
  }
  static I add(I a, I b) { return _mm256_add_epi32(a, b); }
  static int32_t sum(I v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v),
                              _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
    return _mm_cvtsi128_si32(s);
  }
  static void store(uint8_t *q, I c, uint32_t n) {
    // The low byte of each lane: bytes 0, 4, 8, 12 of each 128-bit half.
    const __m256i pick = _mm256_setr_epi8(
        0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8,
        12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    __m256i b = _mm256_shuffle_epi8(c, pick);
    __m128i bytes = _mm_unpacklo_epi32(_mm256_castsi256_si128(b),
                                       _mm256_extracti128_si256(b, 1));
    if (n == kLanes) {
      _mm_storel_epi64(reinterpret_cast<__m128i *>(q), bytes);
      return;
    }
    alignas(16) uint8_t tail[16];
    _mm_store_si128(reinterpret_cast<__m128i *>(tail), bytes);
    std::memcpy(q, tail, n);
  }
};

} // namespace

#include "../QuantizeRowsBody.inc"

} // namespace avx2
} // namespace kernels
} // namespace coopvec

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif
