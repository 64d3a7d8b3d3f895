//===- SimdAvx512.h - The `Isa` interface on AVX-512 (F/BW/VL/DQ + VNNI) --===//
//
// Included only from KernelsAvx512.cpp, inside its AVX-512 target region.
// The 8-lane operations are the AVX2 ones (SimdAvx2.h, included in the same
// region, so they compile to EVEX code with 32 registers); this adds the
// register count that widens the register blocks and the 512-bit
// operations of the wide weight policies (VNNI, 16-row f32).
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_LIB_RUNTIME_KERNELS_SIMDAVX512_H
#define LINALGCOOP_LIB_RUNTIME_KERNELS_SIMDAVX512_H

#include "SimdAvx2.h"

#include <cstdint>
#include <cstring>
#include <immintrin.h>

namespace coopvec {
namespace kernels {
namespace avx512 {
namespace {

struct Isa : avx2::Isa {
  static constexpr const char *kName = "avx512";
  static constexpr unsigned kRegs = 32;
  using WideI = __m512i;
  using WideF = __m512;

  static WideF zeroWideF() { return _mm512_setzero_ps(); }
  static WideF loadWideF(const void *p) {
    return _mm512_loadu_ps(static_cast<const float *>(p));
  }
  static WideF bcastWideF(const float *p) { return _mm512_set1_ps(*p); }
  static WideF fmaWide(WideF a, WideF b, WideF c) {
    return _mm512_fmadd_ps(a, b, c);
  }

  static WideF setWideF(float s) { return _mm512_set1_ps(s); }
  static WideF addWideF(WideF a, WideF b) { return _mm512_add_ps(a, b); }
  static WideF mulWideF(WideF a, WideF b) { return _mm512_mul_ps(a, b); }
  static WideF reluWideF(WideF a) {
    return _mm512_max_ps(a, _mm512_setzero_ps());
  }
  /// roundBf16F on 16 lanes.
  static WideF roundBf16WideF(WideF v) {
    __m512i bits = _mm512_castps_si512(v);
    __m512i a = _mm512_and_si512(bits, _mm512_set1_epi32(0x7fffffff));
    __m512i lsb =
        _mm512_and_si512(_mm512_srli_epi32(a, 16), _mm512_set1_epi32(1));
    __m512i r = _mm512_and_si512(
        _mm512_add_epi32(_mm512_add_epi32(a, _mm512_set1_epi32(0x7fff)), lsb),
        _mm512_set1_epi32(int(0xffff0000u)));
    __mmask16 finite =
        _mm512_cmplt_epi32_mask(a, _mm512_set1_epi32(0x7f800000));
    __mmask16 nan = _mm512_cmpgt_epi32_mask(a, _mm512_set1_epi32(0x7f800000));
    r = _mm512_mask_blend_epi32(
        finite,
        _mm512_mask_blend_epi32(
            nan, a,
            _mm512_and_si512(_mm512_or_si512(a, _mm512_set1_epi32(0x400000)),
                             _mm512_set1_epi32(int(0xffff0000u)))),
        _mm512_min_epi32(r, _mm512_set1_epi32(0x7f7f0000)));
    __m512i sign = _mm512_and_si512(bits, _mm512_set1_epi32(int(0x80000000u)));
    return _mm512_castsi512_ps(_mm512_or_si512(r, sign));
  }
  /// 16 f32 rounded to bf16 by floatToBf16's rule (roundBf16WideF, in
  /// integer operations: vcvtneps2bf16 flushes subnormals and rounds
  /// overflow to inf), as 16 bf16.
  static __m256i toBf16Wide(WideF v) {
    return _mm512_cvtepi32_epi16(
        _mm512_srli_epi32(_mm512_castps_si512(roundBf16WideF(v)), 16));
  }
  /// The lanes of v on which vcvtneps2bf16 gives another bf16 than
  /// toBf16Wide: it rounds to nearest even too, but reads f32 subnormals as
  /// zero (the exact rule may round one up to the smallest normal bf16) and
  /// rounds values beyond the bf16 range to inf. So magnitudes in
  /// (0, 2^-126), and 0x7f7f8000 (the first that rounds past MAX_NORM) and
  /// above, inf and NaN included. (A subnormal bf16 result comes only from
  /// such a lane.)
  static __mmask16 cvtBf16Differs(WideF v) {
    __m512i a =
        _mm512_and_si512(_mm512_castps_si512(v), _mm512_set1_epi32(0x7fffffff));
    return _mm512_cmpge_epu32_mask(a, _mm512_set1_epi32(0x7f7f8000)) |
           _mm512_cmplt_epu32_mask(_mm512_sub_epi32(a, _mm512_set1_epi32(1)),
                                   _mm512_set1_epi32(0x007fffff));
  }
  static void storeWideF32(void *p, WideF a) {
    _mm512_storeu_ps(static_cast<float *>(p), a);
  }
  static void storeWideF16(void *p, WideF a) {
    // Finite values clamped to +-65504, NaN and +-inf kept (storeF16).
    WideF clamped = _mm512_min_ps(_mm512_set1_ps(65504.0f),
                                  _mm512_max_ps(_mm512_set1_ps(-65504.0f), a));
    __mmask16 isInf = _mm512_cmp_ps_mask(
        _mm512_abs_ps(a), _mm512_set1_ps(__builtin_inff()), _CMP_EQ_OQ);
    _mm256_storeu_si256(static_cast<__m256i *>(p),
                        _mm512_cvtps_ph(_mm512_mask_blend_ps(isInf, clamped, a),
                                        _MM_FROUND_TO_NEAREST_INT |
                                            _MM_FROUND_NO_EXC));
  }

  /// Non-temporal stores of a whole 64-byte line (p 64-byte aligned), and
  /// the fence that orders them before later stores (the pool's "done").
  static void streamWideF32(void *p, WideF a) {
    _mm512_stream_ps(static_cast<float *>(p), a);
  }
  static void streamWide(void *p, WideI a) {
    _mm512_stream_si512(static_cast<__m512i *>(p), a);
  }
  static void fenceStreams() { _mm_sfence(); }

  static WideI zeroWide() { return _mm512_setzero_si512(); }
  static void storeWide(void *p, WideI a) { _mm512_storeu_si512(p, a); }
  static WideI addWide(WideI a, WideI b) { return _mm512_add_epi32(a, b); }
  static WideI reluWide(WideI a) {
    return _mm512_max_epi32(a, _mm512_setzero_si512());
  }
  static WideF cvtWideIF(WideI a) { return _mm512_cvtepi32_ps(a); }
  /// 16 lanes as s8 bytes: RTNE (MXCSR default), saturating, NaN -> 0, as
  /// floatToS8 (u8 bytes as floatToU8 with u8). `flip`: the s8 bytes with
  /// their top bit flipped, i.e. s8 + 128 as u8, the operand form vpdpbusd
  /// reads for signed inputs (VnniS8Weights).
  /// NaN needs no test of its own: vminps and vmaxps return their second
  /// operand when either is NaN, so the clamp passes NaN on, vcvtps2dq
  /// turns it into 0x80000000 and the truncating vpmovdb keeps its low
  /// byte, 0 (in-range lanes are already clamped, so truncation is exact).
  static __m128i wideS8Bytes(WideF a, bool u8, bool flip) {
    a = _mm512_max_ps(_mm512_set1_ps(u8 ? 0.0f : -128.0f),
                      _mm512_min_ps(_mm512_set1_ps(u8 ? 255.0f : 127.0f), a));
    __m128i bytes = _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(a));
    return flip ? _mm_xor_si128(bytes, _mm_set1_epi8(char(0x80))) : bytes;
  }
  /// wideS8Bytes stored at p.
  static void storeWideS8(void *p, WideF a, bool u8 = false,
                          bool flip = false) {
    _mm_storeu_si128(static_cast<__m128i *>(p), wideS8Bytes(a, u8, flip));
  }
  /// 8 lanes as s8 (u8) bytes, as storeWideS8 (the register widened with
  /// zero lanes, whose bytes are dropped).
  static void storeS8(void *p, F a, bool u8 = false, bool flip = false) {
    _mm_storel_epi64(static_cast<__m128i *>(p),
                     wideS8Bytes(_mm512_zextps256_ps512(a), u8, flip));
  }
  /// Lanes [0, n) of the 16 at p and zero above them, n <= 16; nothing past
  /// lane n is read (or, for the stores, written).
  static WideF loadWideFFirst(const void *p, unsigned n) {
    return _mm512_maskz_loadu_ps(firstLanes(n), p);
  }
  static WideI loadWideFirst(const void *p, unsigned n) {
    return _mm512_maskz_loadu_epi32(firstLanes(n), p);
  }
  static void storeWideF32First(void *p, WideF a, unsigned n) {
    _mm512_mask_storeu_ps(p, firstLanes(n), a);
  }
  static __mmask16 firstLanes(unsigned n) {
    return __mmask16(n >= 16 ? 0xffff : (1u << n) - 1);
  }
  static WideI loadWide(const void *p) { return _mm512_loadu_si512(p); }
  /// The 4 bytes at p in every 32-bit lane.
  static WideI bcastQuad(const uint8_t *p) {
    int32_t quad;
    std::memcpy(&quad, p, 4);
    return _mm512_set1_epi32(quad);
  }
  /// The 8 bytes at p in every 64-bit lane.
  static WideI bcastOctet(const uint8_t *p) {
    int64_t octet;
    std::memcpy(&octet, p, 8);
    return _mm512_set1_epi64(octet);
  }
  /// vpshufb: bytes of `a` picked within each 128-bit lane by `ctl` (a set
  /// top bit gives 0).
  static WideI shuffleBytes(WideI a, WideI ctl) {
    return _mm512_shuffle_epi8(a, ctl);
  }
  /// `c` in the four 32-bit lanes of the low 128-bit lane, 0 elsewhere.
  static WideI firstLane(int32_t c) { return _mm512_maskz_set1_epi32(0xf, c); }
  /// Rows 0..7 from accumulators whose 128-bit lanes each hold rows
  /// 0, 2, 4, 6 (even) or 1, 3, 5, 7 (odd): the lanes summed, interleaved.
  static I interleaveRowSums(WideI even, WideI odd) {
    I e8 = _mm256_add_epi32(lowHalf(even), highHalf(even));
    I o8 = _mm256_add_epi32(lowHalf(odd), highHalf(odd));
    __m128i e = _mm_add_epi32(_mm256_castsi256_si128(e8),
                              _mm256_extracti128_si256(e8, 1));
    __m128i o = _mm_add_epi32(_mm256_castsi256_si128(o8),
                              _mm256_extracti128_si256(o8, 1));
    return _mm256_set_m128i(_mm_unpackhi_epi32(e, o), _mm_unpacklo_epi32(e, o));
  }
  /// Every byte with its top bit flipped (+-128 across u8 and s8).
  /// The empty asm keeps a broadcast operand a load-only broadcast from
  /// memory followed by one xor; otherwise clang xors the scalar first and
  /// broadcasts from a register (a shuffle per input group; measured 2%
  /// slower on 64 x 64, batch 4096).
  static WideI flipBytes(WideI a) {
    __asm__("" : "+v"(a));
    return _mm512_xor_si512(a, _mm512_set1_epi32(int32_t(0x80808080u)));
  }
  /// acc += sum over the 4 byte pairs of each lane of u8(a) * s8(b), exact
  /// (no saturation: vpdpbusd, not vpdpbusds).
  static WideI dpbusd(WideI acc, WideI a, WideI b) {
    return _mm512_dpbusd_epi32(acc, a, b);
  }
  /// Halves by vector shuffles rather than _mm512_castsi512_si256 /
  /// _mm512_extracti64x4_epi64: GCC implements those with an undefined
  /// pass-through operand and warns (-Wmaybe-uninitialized) at every use.
  static I lowHalf(WideI a) {
    __v8di v = (__v8di)a;
    return (I)__builtin_shufflevector(v, v, 0, 1, 2, 3);
  }
  static I highHalf(WideI a) {
    __v8di v = (__v8di)a;
    return (I)__builtin_shufflevector(v, v, 4, 5, 6, 7);
  }
  static F lowHalf(WideF a) {
    __v16sf v = (__v16sf)a;
    return (F)__builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7);
  }
  static F highHalf(WideF a) {
    __v16sf v = (__v16sf)a;
    return (F)__builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15);
  }
};

} // namespace
} // namespace avx512
} // namespace kernels
} // namespace coopvec

#endif // LINALGCOOP_LIB_RUNTIME_KERNELS_SIMDAVX512_H
