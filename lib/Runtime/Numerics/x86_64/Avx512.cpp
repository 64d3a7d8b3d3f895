//===- Avx512.cpp - AVX-512 kernels for bulk conversion and MX ------------===//
//
// The AVX2 kernels' algorithm (Avx2.cpp: round-to-nearest-even in integer
// arithmetic on the raw f32 bits for normal results, one FPU addition at the
// subnormal quantum for subnormal results) on 16 lanes, with mask registers
// for the selections and the AVX-512 down-converting moves (vpmovdb, vpmovdw,
// vpmovqb) for the packing. Results are bit-identical to the scalar
// reference; test/lib/Numerics compares every level with it. Functions carry
// their own target attribute and run only after the run-time CPU check.
//
//===----------------------------------------------------------------------===//

#include "NumericsInternal.h"

#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include "X86.h"

namespace coopvec {
namespace numerics {

bool cpuHasAvx512() {
  static const bool has = [] {
    // AVX2 and the OS saving opmask, ZMM0-15 upper halves and ZMM16-31.
    if (!cpuHasAvx2() || (x86::xcr0() & 0xE6) != 0xE6)
      return false;
    unsigned ebx = x86::leaf7Ebx();
    bool f = ebx & (1u << 16), bw = ebx & (1u << 30), vl = ebx & (1u << 31);
    return f && bw && vl;
  }();
  return has;
}

#define COOPVEC_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,f16c")))

namespace {

/// The f32 source lines `kPrefetchAhead` values (4 KiB) past src[0..lines * 16)
/// are requested now: the conversions stream their input from memory, and
/// one core's hardware prefetchers alone leave them at 35-47% of copy
/// bandwidth on an Emerald Rapids Xeon (2.4 instead of 1.5 G values/s for
/// f32 -> E4M3 with it; bench/numerics/README.md).
constexpr size_t kPrefetchAhead = 1024;

__attribute__((always_inline)) inline void prefetchAhead(const float *src,
                                                         unsigned lines) {
  // An address past the array is fine for a prefetch, but not as a pointer
  // computed from src.
  uintptr_t at = reinterpret_cast<uintptr_t>(src) + 4 * kPrefetchAhead;
  for (unsigned l = 0; l < lines; ++l)
    _mm_prefetch(reinterpret_cast<const char *>(at + 64 * l), _MM_HINT_T0);
}

/// Broadcast constants of one conversion, loaded once per call.
struct Avx512Consts {
  __m512i absMask, one, manShift, expAdjust, roundBias, normalBelow;
  __m512i overflowAbove, nanAbove, nanEnc, ovfEnc, signMask;
  __m512 subnormalMagic;
  unsigned signShift;
  bool isSigned, nanKeepsSign, relu;
};

COOPVEC_AVX512 Avx512Consts makeConsts(const SimdParams &p, unsigned flags) {
  SimdLaneConsts lane(p, flags);
  Avx512Consts c;
  c.absMask = _mm512_set1_epi32(0x7FFFFFFF);
  c.signMask = _mm512_set1_epi32(int32_t(0x80000000u));
  c.one = _mm512_set1_epi32(1);
  c.manShift = _mm512_set1_epi32(p.manShift);
  c.expAdjust = _mm512_set1_epi32(p.expAdjust);
  c.roundBias = _mm512_set1_epi32(lane.roundBias);
  c.normalBelow = _mm512_set1_epi32(lane.normalBelow);
  c.subnormalMagic = _mm512_castsi512_ps(_mm512_set1_epi32(lane.subnormalMagic));
  c.overflowAbove = _mm512_set1_epi32(p.overflowAbove);
  c.nanAbove = _mm512_set1_epi32(0x7F800000);
  c.nanEnc = _mm512_set1_epi32(p.nanEncoding);
  c.ovfEnc = _mm512_set1_epi32(lane.overflowCode);
  c.signShift = unsigned(p.signShift);
  c.isSigned = p.isSigned;
  c.nanKeepsSign = p.nanKeepsSign;
  c.relu = lane.relu;
  return c;
}

/// Converts 16 f32 lanes to right-aligned codes of the destination format
/// (Avx2.cpp's convert8 on 16 lanes). `Specials` = false drops the NaN and
/// relu handling, for callers (MX) that guarantee finite inputs and no relu.
template <bool Specials = true>
__attribute__((always_inline)) COOPVEC_AVX512 inline __m512i
convert16(const Avx512Consts &c, __m512i x) {
  __m512i a = _mm512_and_si512(x, c.absMask);

  // Normal result: round the raw bits to nearest even.
  __m512i lsb = _mm512_and_si512(_mm512_srlv_epi32(a, c.manShift), c.one);
  __m512i rn = _mm512_add_epi32(_mm512_add_epi32(a, c.roundBias), lsb);
  rn = _mm512_sub_epi32(_mm512_srlv_epi32(rn, c.manShift), c.expAdjust);

  // Subnormal result: one FPU addition rounds at the subnormal quantum.
  __m512 sum = _mm512_add_ps(_mm512_castsi512_ps(a), c.subnormalMagic);
  __m512i rs = _mm512_sub_epi32(_mm512_castps_si512(sum),
                                _mm512_castps_si512(c.subnormalMagic));

  __mmask16 isNormal = _mm512_cmpgt_epi32_mask(a, c.normalBelow);
  __m512i r = _mm512_mask_blend_epi32(isNormal, rs, rn);
  __mmask16 ovf = _mm512_cmpgt_epi32_mask(a, c.overflowAbove);
  r = _mm512_mask_blend_epi32(ovf, r, c.ovfEnc);
  __m512i signBits =
      c.isSigned ? _mm512_srl_epi32(_mm512_and_si512(x, c.signMask),
                                    _mm_cvtsi32_si128(int(c.signShift)))
                 : _mm512_setzero_si512();
  r = _mm512_or_si512(r, signBits);
  if (!Specials)
    return r;
  if (c.relu) {
    // Negative non-NaN lanes become +0.
    __mmask16 negative = _mm512_cmplt_epi32_mask(x, _mm512_setzero_si512());
    r = _mm512_maskz_mov_epi32(_knot_mask16(negative), r);
  }
  __mmask16 nan = _mm512_cmpgt_epi32_mask(a, c.nanAbove);
  __m512i nanCode =
      c.nanKeepsSign ? _mm512_or_si512(c.nanEnc, signBits) : c.nanEnc;
  return _mm512_mask_blend_epi32(nan, r, nanCode);
}

/// Packs 16 four-bit codes (one per 32-bit lane) into the low 8 bytes,
/// element 2i in the low nibble: each 64-bit lane holds a pair.
__attribute__((always_inline)) COOPVEC_AVX512 inline __m128i
packNibbles(__m512i codes) {
  __m512i pairs = _mm512_or_si512(codes, _mm512_srli_epi64(codes, 28));
  return _mm512_cvtepi64_epi8(pairs);
}

/// 32 four-bit codes as 16 bytes.
__attribute__((always_inline)) COOPVEC_AVX512 inline __m128i
packNibbles32(__m512i r0, __m512i r1) {
  return _mm_unpacklo_epi64(packNibbles(r0), packNibbles(r1));
}

/// Stores 16 codes in the destination's storage (bytes: 1, 2 or 4; two
/// codes per byte go through packNibbles32) at element `i`.
__attribute__((always_inline)) COOPVEC_AVX512 inline void
storeCodes(unsigned bytes, uint8_t *o, size_t i, __m512i r) {
  switch (bytes) {
  case 1:
    _mm_storeu_si128(reinterpret_cast<__m128i *>(o + i),
                     _mm512_cvtepi32_epi8(r));
    return;
  case 2:
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(o + 2 * i),
                        _mm512_cvtepi32_epi16(r));
    return;
  default:
    _mm512_storeu_si512(o + 4 * i, _mm512_slli_epi32(r, 13));
    return;
  }
}

COOPVEC_AVX512 size_t convertF32Kernel(unsigned dst, const SimdParams &p,
                                       unsigned flags, const float *src,
                                       void *out, size_t n) {
  x86::DefaultMxcsr mxcsr;
  Avx512Consts c = makeConsts(p, flags);
  unsigned bytes = storageBytes(dst);
  uint8_t *o = static_cast<uint8_t *>(out);
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    prefetchAhead(src + i, 4);
    __m512i r0 = convert16(c, _mm512_loadu_si512(src + i));
    __m512i r1 = convert16(c, _mm512_loadu_si512(src + i + 16));
    __m512i r2 = convert16(c, _mm512_loadu_si512(src + i + 32));
    __m512i r3 = convert16(c, _mm512_loadu_si512(src + i + 48));
    if (bytes == 0) {
      __m256i packed = _mm256_inserti128_si256(
          _mm256_castsi128_si256(packNibbles32(r0, r1)), packNibbles32(r2, r3),
          1);
      _mm256_storeu_si256(reinterpret_cast<__m256i *>(o + i / 2), packed);
      continue;
    }
    storeCodes(bytes, o, i, r0);
    storeCodes(bytes, o, i + 16, r1);
    storeCodes(bytes, o, i + 32, r2);
    storeCodes(bytes, o, i + 48, r3);
  }
  return i;
}

/// x * mul on f32 lanes held as integers.
__attribute__((always_inline)) COOPVEC_AVX512 inline __m512i
scaleBy(__m512i x, __m512 mul) {
  return _mm512_castps_si512(_mm512_mul_ps(_mm512_castsi512_ps(x), mul));
}

/// Quantizes one block from its two vectors and its f32 multiplier 2^-s
/// (every lane), storing the 32 element codes.
__attribute__((always_inline)) COOPVEC_AVX512 inline void
mxStoreBlock(const Avx512Consts &c, unsigned bytes, uint8_t *elems, size_t i,
             __m512i x0, __m512i x1, __m512 mul) {
  // v * 2^-s is exact whenever the result is >= 2^-126; smaller products
  // round to +-0 in every element format either way.
  __m512i r0 = convert16<false>(c, scaleBy(x0, mul));
  __m512i r1 = convert16<false>(c, scaleBy(x1, mul));
  if (bytes == 0) {
    _mm_storeu_si128(reinterpret_cast<__m128i *>(elems + i / 2),
                     packNibbles32(r0, r1));
  } else {
    storeCodes(bytes, elems, i, r0);
    storeCodes(bytes, elems, i + 16, r1);
  }
}

COOPVEC_AVX512 size_t mxKernel(unsigned elem, const SimdParams &p, int emax,
                               const float *src, size_t n, uint8_t *elems,
                               uint8_t *scales) {
  x86::DefaultMxcsr mxcsr;
  Avx512Consts c = makeConsts(p, COOPVEC_CVT_SATFINITE);
  unsigned bytes = storageBytes(elem);
  const __m512i finiteMax = _mm512_set1_epi32(0x7F7FFFFF);
  // s = clamp(biasedExp(amax) - 127 - emax, -127), as in the reference.
  const __m512i sOffset = _mm512_set1_epi32(127 + emax);
  const __m512i sMin = _mm512_set1_epi32(-127);
  const __m512i c127 = _mm512_set1_epi32(127);
  size_t i = 0;
  // Four blocks at a time: their maxima are reduced together (two
  // cross-lane shuffles per block) and stay in vector registers; 128-bit
  // lane k of `amax` holds block k's maximum in every dword.
  for (; i + 128 <= n; i += 128) {
    __m512i x[8], m[4];
    prefetchAhead(src + i, 8);
    for (unsigned j = 0; j < 8; ++j)
      x[j] = _mm512_loadu_si512(src + i + 16 * j);
    // |x| as integers orders like the magnitudes (NaN above inf).
    for (unsigned b = 0; b < 4; ++b)
      m[b] = _mm512_max_epi32(_mm512_and_si512(x[2 * b], c.absMask),
                              _mm512_and_si512(x[2 * b + 1], c.absMask));
    __m512i s01 = _mm512_max_epi32(_mm512_shuffle_i32x4(m[0], m[1], 0x44),
                                   _mm512_shuffle_i32x4(m[0], m[1], 0xEE));
    __m512i s23 = _mm512_max_epi32(_mm512_shuffle_i32x4(m[2], m[3], 0x44),
                                   _mm512_shuffle_i32x4(m[2], m[3], 0xEE));
    __m512i amax = _mm512_max_epi32(_mm512_shuffle_i32x4(s01, s23, 0x88),
                                    _mm512_shuffle_i32x4(s01, s23, 0xDD));
    amax = _mm512_max_epi32(amax, _mm512_shuffle_epi32(amax, _MM_PERM_BADC));
    amax = _mm512_max_epi32(amax, _mm512_shuffle_epi32(amax, _MM_PERM_CDAB));
    if (_mm512_cmpgt_epi32_mask(amax, finiteMax))
      break; // an inf/NaN block: the one-block loop stops at it
    __m512i sv = _mm512_max_epi32(
        _mm512_sub_epi32(_mm512_srli_epi32(amax, 23), sOffset), sMin);
    // Scale bytes s + 127: dword 0 of each 128-bit lane.
    __m128i sb = _mm512_cvtepi32_epi8(_mm512_add_epi32(sv, c127));
    uint32_t four = uint32_t(_mm_cvtsi128_si32(_mm_shuffle_epi8(
        sb, _mm_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                          -1, -1))));
    std::memcpy(scales + i / 32, &four, 4);
    __m512 mul = _mm512_castsi512_ps(
        _mm512_slli_epi32(_mm512_sub_epi32(c127, sv), 23));
    mxStoreBlock(c, bytes, elems, i, x[0], x[1],
                 _mm512_shuffle_f32x4(mul, mul, 0x00));
    mxStoreBlock(c, bytes, elems, i + 32, x[2], x[3],
                 _mm512_shuffle_f32x4(mul, mul, 0x55));
    mxStoreBlock(c, bytes, elems, i + 64, x[4], x[5],
                 _mm512_shuffle_f32x4(mul, mul, 0xAA));
    mxStoreBlock(c, bytes, elems, i + 96, x[6], x[7],
                 _mm512_shuffle_f32x4(mul, mul, 0xFF));
  }
  for (; i + 32 <= n; i += 32) {
    __m512i x0 = _mm512_loadu_si512(src + i);
    __m512i x1 = _mm512_loadu_si512(src + i + 16);
    int32_t amax = _mm512_reduce_max_epi32(_mm512_max_epi32(
        _mm512_and_si512(x0, c.absMask), _mm512_and_si512(x1, c.absMask)));
    if (amax > 0x7F7FFFFF)
      return i; // inf/NaN block: the scalar reference handles it
    int s = (amax >> 23) - 127 - emax;
    if (s < -127)
      s = -127;
    scales[i / 32] = uint8_t(s + 127);
    mxStoreBlock(c, bytes, elems, i, x0, x1,
                 _mm512_castsi512_ps(_mm512_set1_epi32((127 - s) << 23)));
  }
  return i;
}

/// Looks up 16 element codes of a sign-magnitude format `width` bits wide
/// (8, 6 or 4) in the magnitude half of its decode table (at most 128
/// entries, held in `t`) and applies the sign bit: register permutes instead
/// of gathers.
struct MxDecoder {
  __m512 t[8];
  __m512i magMask, signBit;
  unsigned signShift;
  bool wide; // 128 magnitudes: four permutes and a two-bit select

  COOPVEC_AVX512 MxDecoder(const float *table, unsigned width) {
    for (unsigned k = 0; k < 8; ++k)
      t[k] = _mm512_loadu_ps(table + 16 * k);
    magMask = _mm512_set1_epi32((1 << (width - 1)) - 1);
    signBit = _mm512_set1_epi32(1 << (width - 1));
    signShift = 32 - width;
    wide = width == 8;
  }

  __attribute__((always_inline)) COOPVEC_AVX512 inline __m512
  decode(__m512i codes) const {
    __m512i idx = _mm512_and_si512(codes, magMask);
    __m512 v = _mm512_permutex2var_ps(t[0], idx, t[1]);
    if (wide) {
      __m512 p1 = _mm512_permutex2var_ps(t[2], idx, t[3]);
      __m512 p2 = _mm512_permutex2var_ps(t[4], idx, t[5]);
      __m512 p3 = _mm512_permutex2var_ps(t[6], idx, t[7]);
      __mmask16 b5 = _mm512_test_epi32_mask(idx, _mm512_set1_epi32(32));
      __mmask16 b6 = _mm512_test_epi32_mask(idx, _mm512_set1_epi32(64));
      v = _mm512_mask_blend_ps(b6, _mm512_mask_blend_ps(b5, v, p1),
                               _mm512_mask_blend_ps(b5, p2, p3));
    }
    __m512i sign = _mm512_sll_epi32(_mm512_and_si512(codes, signBit),
                                    _mm_cvtsi32_si128(int(signShift)));
    return _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(v), sign));
  }
};

COOPVEC_AVX512 size_t mxDequantizeKernel(unsigned elem, const float *table,
                                         const uint8_t *bytes,
                                         const uint8_t *scales, size_t n,
                                         float *dst) {
  // The element value is exact in f32 and one f32 multiplication by the
  // (exact) scale rounds the product once, like the reference's double
  // product converted to float.
  x86::DefaultMxcsr mxcsr;
  MxDecoder decoder(table, coopvecFormatBits(elem));
  const __m512 nan = _mm512_castsi512_ps(_mm512_set1_epi32(0x7FC00000));
  bool nibbles = elem == COOPVEC_FMT_E2M1;
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    uint8_t s = scales[i / 32];
    if (s == 0xFF) {
      _mm512_storeu_ps(dst + i, nan);
      _mm512_storeu_ps(dst + i + 16, nan);
      continue;
    }
    __m128i c0, c1;
    x86::load32Codes(bytes, i, nibbles, c0, c1);
    __m512 mul =
        _mm512_castsi512_ps(_mm512_set1_epi32(int32_t(mxScaleBits(s))));
    _mm512_storeu_ps(dst + i, _mm512_mul_ps(decoder.decode(
                                                _mm512_cvtepu8_epi32(c0)),
                                            mul));
    _mm512_storeu_ps(dst + i + 16, _mm512_mul_ps(decoder.decode(
                                                     _mm512_cvtepu8_epi32(c1)),
                                                 mul));
  }
  return i;
}

COOPVEC_AVX512 void widenF16(const uint16_t *src, float *out, size_t n) {
  const __m512 canonicalNaN =
      _mm512_castsi512_ps(_mm512_set1_epi32(0x7FC00000));
  const __m512i signMask = _mm512_set1_epi32(int32_t(0x80000000u));
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m512 f = _mm512_cvtph_ps(
        _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + i)));
    // NaN payloads are not preserved: match the reference's canonical NaN.
    __mmask16 isNaN = _mm512_cmp_ps_mask(f, f, _CMP_UNORD_Q);
    __m512 canon = _mm512_castsi512_ps(_mm512_or_si512(
        _mm512_castps_si512(canonicalNaN),
        _mm512_and_si512(_mm512_castps_si512(f), signMask)));
    _mm512_storeu_ps(out + i, _mm512_mask_blend_ps(isNaN, f, canon));
  }
  for (; i < n; ++i)
    out[i] = coopvecDecodeToF32(COOPVEC_FMT_F16, src[i]);
}

} // namespace

bool avx512ConvertF32(unsigned dst, const SimdParams &p, unsigned flags,
                      const float *src, void *out, size_t n) {
  // The tail (fewer than 64 values) goes through the reference.
  convertTailScalar(dst, flags, src, out,
                    convertF32Kernel(dst, p, flags, src, out, n), n);
  return true;
}

bool avx512WidenF16(const uint16_t *src, float *out, size_t n) {
  widenF16(src, out, n);
  return true;
}

size_t avx512MxQuantize(unsigned elem, const SimdParams &p, int emax,
                        const float *src, size_t n, uint8_t *elems,
                        uint8_t *scales) {
  return mxKernel(elem, p, emax, src, n, elems, scales);
}

size_t avx512MxDequantize(unsigned elem, const float *table,
                          const void *elems, const uint8_t *scales, size_t n,
                          float *dst) {
  return mxDequantizeKernel(elem, table, static_cast<const uint8_t *>(elems),
                            scales, n, dst);
}

} // namespace numerics
} // namespace coopvec

#endif // defined(__x86_64__)
