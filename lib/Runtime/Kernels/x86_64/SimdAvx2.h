//===- SimdAvx2.h - The `Isa` interface on AVX2 + FMA + F16C --------------===//
//
// Included only from KernelsAvx2.cpp, inside its target("avx2,fma,f16c")
// region, so every function here is compiled for that ISA and has internal
// linkage (no ODR merging with the portable instantiation).
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_LIB_RUNTIME_KERNELS_SIMDAVX2_H
#define LINALGCOOP_LIB_RUNTIME_KERNELS_SIMDAVX2_H

#include <cstdint>
#include <cstring>
#include <immintrin.h>

namespace coopvec {
namespace kernels {
namespace avx2 {
namespace {

struct Isa {
  static constexpr const char *kName = "avx2";
  static constexpr unsigned kRegs = 16;
  using F = __m256;
  using I = __m256i;
  using W16 = __m256i;
  using X2 = __m256i;

  static F zeroF() { return _mm256_setzero_ps(); }
  static F setF(float s) { return _mm256_set1_ps(s); }
  static F loadF32(const void *p) {
    return _mm256_loadu_ps(static_cast<const float *>(p));
  }
  static F loadF16(const void *p) {
    return _mm256_cvtph_ps(
        _mm_loadu_si128(static_cast<const __m128i *>(p)));
  }
  static F bcastF(const float *p) { return _mm256_broadcast_ss(p); }
  static F fma(F a, F b, F c) { return _mm256_fmadd_ps(a, b, c); }
  static F addF(F a, F b) { return _mm256_add_ps(a, b); }
  static F mulF(F a, F b) { return _mm256_mul_ps(a, b); }
  static F reluF(F a) { return _mm256_max_ps(a, _mm256_setzero_ps()); }
  /// Each lane rounded to bf16 by floatToBf16's rule (RTNE on the bits, a
  /// finite value beyond the range to +-MAX_NORM, +-inf kept, NaN quiet) and
  /// widened back, in integer operations.
  static F roundBf16F(F v) {
    __m256i bits = _mm256_castps_si256(v);
    __m256i a = _mm256_and_si256(bits, _mm256_set1_epi32(0x7fffffff));
    __m256i lsb =
        _mm256_and_si256(_mm256_srli_epi32(a, 16), _mm256_set1_epi32(1));
    __m256i r = _mm256_and_si256(
        _mm256_add_epi32(_mm256_add_epi32(a, _mm256_set1_epi32(0x7fff)), lsb),
        _mm256_set1_epi32(int(0xffff0000u)));
    __m256i inf = _mm256_set1_epi32(0x7f800000);
    __m256i finite = _mm256_cmpgt_epi32(inf, a);
    __m256i nan = _mm256_cmpgt_epi32(a, inf);
    r = _mm256_blendv_epi8(
        _mm256_blendv_epi8(
            a,
            _mm256_and_si256(_mm256_or_si256(a, _mm256_set1_epi32(0x400000)),
                             _mm256_set1_epi32(int(0xffff0000u))),
            nan),
        _mm256_min_epi32(r, _mm256_set1_epi32(0x7f7f0000)), finite);
    __m256i sign = _mm256_and_si256(bits, _mm256_set1_epi32(int(0x80000000u)));
    return _mm256_castsi256_ps(_mm256_or_si256(r, sign));
  }
  static void storeF32(void *p, F a) {
    _mm256_storeu_ps(static_cast<float *>(p), a);
  }
  /// Finite values clamped to +-65504 (NaN and +-inf kept), so that F16C's
  /// RTNE gives floatToHalf's DXIL rule instead of overflowing to inf.
  static F saturateHalf(F a) {
    F clamped = _mm256_min_ps(_mm256_set1_ps(65504.0f),
                              _mm256_max_ps(_mm256_set1_ps(-65504.0f), a));
    F isInf = _mm256_cmp_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), a),
                            _mm256_set1_ps(__builtin_inff()), _CMP_EQ_OQ);
    return _mm256_blendv_ps(clamped, a, isInf);
  }
  static void storeF16(void *p, F a) {
    _mm_storeu_si128(static_cast<__m128i *>(p),
                     _mm256_cvtps_ph(saturateHalf(a),
                                     _MM_FROUND_TO_NEAREST_INT |
                                         _MM_FROUND_NO_EXC));
  }

  static I zeroI() { return _mm256_setzero_si256(); }
  static I loadI32(const void *p) {
    return _mm256_loadu_si256(static_cast<const __m256i *>(p));
  }
  static void storeI32(void *p, I a) {
    _mm256_storeu_si256(static_cast<__m256i *>(p), a);
  }
  static I addI(I a, I b) { return _mm256_add_epi32(a, b); }
  static I reluI(I a) { return _mm256_max_epi32(a, _mm256_setzero_si256()); }
  static F cvtIF(I a) { return _mm256_cvtepi32_ps(a); }
  /// RTNE (MXCSR default), saturating, NaN -> 0, as floatToS8 (floatToU8
  /// with u8).
  static void storeS8AsI16(void *p, F a, bool u8 = false) {
    a = _mm256_and_ps(a, _mm256_cmp_ps(a, a, _CMP_ORD_Q));
    a = _mm256_min_ps(_mm256_max_ps(a, _mm256_set1_ps(u8 ? 0.0f : -128.0f)),
                      _mm256_set1_ps(u8 ? 255.0f : 127.0f));
    __m256i q = _mm256_cvtps_epi32(a);
    __m128i packed = _mm_packs_epi32(_mm256_castsi256_si128(q),
                                     _mm256_extracti128_si256(q, 1));
    _mm_storeu_si128(static_cast<__m128i *>(p), packed);
  }

  static W16 loadS8Pairs(const void *p) {
    return _mm256_cvtepi8_epi16(
        _mm_loadu_si128(static_cast<const __m128i *>(p)));
  }
  static W16 loadU8Pairs(const void *p) {
    return _mm256_cvtepu8_epi16(
        _mm_loadu_si128(static_cast<const __m128i *>(p)));
  }
  static W16 loadS16Pairs(const void *p) {
    return _mm256_loadu_si256(static_cast<const __m256i *>(p));
  }
  static X2 bcastPair(const int16_t *p) {
    int32_t pair;
    std::memcpy(&pair, p, 4);
    return _mm256_set1_epi32(pair);
  }
  /// vpmaddwd: exact for 8-bit operands widened to 16 bits (|w*x| <= 2^15,
  /// so the pair sum cannot hit the one overflowing case -2^15 * -2^15 * 2).
  static I maddPairs(I acc, W16 w, X2 x) {
    return _mm256_add_epi32(acc, _mm256_madd_epi16(w, x));
  }
  /// The 4 bytes at p in every 32-bit lane.
  static I bcastQuad(const uint8_t *p) {
    int32_t quad;
    std::memcpy(&quad, p, 4);
    return _mm256_set1_epi32(quad);
  }
  /// vpmaddubsw(x unsigned, w signed) and a vpmaddwd by ones: each lane
  /// adds the 4 products of its bytes. Exact only where no pair of
  /// products leaves i16 (vpmaddubsw saturates): x in [0, 127] against any
  /// signed byte keeps every pair within 2 * 127 * 128 = 32512.
  static I dotQuads(I acc, I w, I x) {
    return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w),
                                                   _mm256_set1_epi16(1)));
  }
};

} // namespace
} // namespace avx2
} // namespace kernels
} // namespace coopvec

#endif // LINALGCOOP_LIB_RUNTIME_KERNELS_SIMDAVX2_H
