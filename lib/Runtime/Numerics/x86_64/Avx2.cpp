//===- Avx2.cpp - AVX2/FMA/F16C kernels for bulk conversion and MX --------===//
//
// Round-to-nearest-even conversion of f32 to every narrow float format in
// integer arithmetic on 8 lanes: the same bit-level algorithm as the scalar
// reference (normal results round the raw f32 bits, subnormal results round
// the significand after a variable right shift), so results are identical,
// including ties, subnormals, overflow and NaN. Functions carry their own
// target attribute, so this file is compiled for the baseline ISA and only
// runs after the run-time CPU check.
//
//===----------------------------------------------------------------------===//

#include "NumericsInternal.h"

#if defined(__x86_64__) || defined(__i386__)
#include "X86.h"
#define COOPVEC_HAVE_X86 1
#else
#define COOPVEC_HAVE_X86 0
#endif

namespace coopvec {
namespace numerics {

#if COOPVEC_HAVE_X86

bool cpuHasAvx2() {
  // cpuid directly: not every compiler's __builtin_cpu_supports knows "f16c".
  static const bool has = [] {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
      return false;
    bool fma = ecx & (1u << 12), osxsave = ecx & (1u << 27),
         avx = ecx & (1u << 28), f16c = ecx & (1u << 29);
    if (!(fma && osxsave && avx && f16c))
      return false;
    if ((x86::xcr0() & 0x6) != 0x6) // the OS saves XMM and YMM state
      return false;
    return (x86::leaf7Ebx() & (1u << 5)) != 0; // AVX2
  }();
  return has;
}

#define COOPVEC_AVX2 __attribute__((target("avx2,fma,f16c")))

namespace {

/// Broadcast constants of one conversion, loaded once per call.
struct Avx2Consts {
  __m256i absMask, one, zero, manShift, expAdjust, roundBias, normalBelow;
  __m256i maxEnc, overflowAbove, nanAbove, nanEnc, ovfEnc;
  __m256 subnormalMagic;
  int signShift;
  bool isSigned, nanKeepsSign, relu;
};

COOPVEC_AVX2 Avx2Consts makeConsts(const SimdParams &p, unsigned flags) {
  SimdLaneConsts lane(p, flags);
  Avx2Consts c;
  c.absMask = _mm256_set1_epi32(0x7FFFFFFF);
  c.one = _mm256_set1_epi32(1);
  c.zero = _mm256_setzero_si256();
  c.manShift = _mm256_set1_epi32(p.manShift);
  c.expAdjust = _mm256_set1_epi32(p.expAdjust);
  c.roundBias = _mm256_set1_epi32(lane.roundBias);
  c.normalBelow = _mm256_set1_epi32(lane.normalBelow);
  c.subnormalMagic = _mm256_castsi256_ps(_mm256_set1_epi32(lane.subnormalMagic));
  c.maxEnc = _mm256_set1_epi32(p.maxEncoding);
  c.overflowAbove = _mm256_set1_epi32(p.overflowAbove);
  c.nanAbove = _mm256_set1_epi32(0x7F800000);
  c.nanEnc = _mm256_set1_epi32(p.nanEncoding);
  c.ovfEnc = _mm256_set1_epi32(lane.overflowCode);
  c.signShift = p.signShift;
  c.isSigned = p.isSigned;
  c.nanKeepsSign = p.nanKeepsSign;
  c.relu = lane.relu;
  return c;
}

/// Converts 8 f32 lanes to right-aligned codes of the destination format.
/// `Specials` = false drops the NaN and relu handling, for callers (MX) that
/// guarantee finite inputs and no relu. Requires the default MXCSR (see
/// x86::DefaultMxcsr).
template <bool Specials = true>
__attribute__((always_inline)) COOPVEC_AVX2 inline __m256i
convert8(const Avx2Consts &c, __m256i x) {
  __m256i a = _mm256_and_si256(x, c.absMask);

  // Normal result: round the raw bits to nearest even; a carry walks into
  // the exponent field, which is then rebased.
  __m256i lsb = _mm256_and_si256(_mm256_srlv_epi32(a, c.manShift), c.one);
  __m256i rn = _mm256_add_epi32(_mm256_add_epi32(a, c.roundBias), lsb);
  rn = _mm256_sub_epi32(_mm256_srlv_epi32(rn, c.manShift), c.expAdjust);

  // Subnormal result: |x| + 2^(emin - manBits + 23) is rounded by the FPU
  // (to nearest even, one rounding) at exactly the subnormal quantum, so the
  // low bits of the sum are the code (2^manBits: the smallest normal).
  __m256 sum = _mm256_add_ps(_mm256_castsi256_ps(a), c.subnormalMagic);
  __m256i rs = _mm256_sub_epi32(_mm256_castps_si256(sum),
                                _mm256_castps_si256(c.subnormalMagic));

  __m256i isNormal = _mm256_cmpgt_epi32(a, c.normalBelow);
  __m256i r = _mm256_blendv_epi8(rs, rn, isNormal);

  __m256i ovf = _mm256_cmpgt_epi32(a, c.overflowAbove);
  r = _mm256_blendv_epi8(r, c.ovfEnc, ovf);
  __m256i signBits = c.isSigned
                         ? _mm256_srli_epi32(
                               _mm256_andnot_si256(c.absMask, x), c.signShift)
                         : c.zero;
  r = _mm256_or_si256(r, signBits);
  if (!Specials)
    return r;
  __m256i nan = _mm256_cmpgt_epi32(a, c.nanAbove);
  __m256i nanCode =
      c.nanKeepsSign ? _mm256_or_si256(c.nanEnc, signBits) : c.nanEnc;
  if (c.relu) {
    // Negative non-NaN lanes become +0.
    __m256i negative = _mm256_cmpgt_epi32(c.zero, x);
    r = _mm256_andnot_si256(negative, r);
  }
  return _mm256_blendv_epi8(r, nanCode, nan);
}

/// Packs four vectors of codes (each < 256) into 32 bytes in element order.
__attribute__((always_inline)) COOPVEC_AVX2 inline __m256i
packBytes(__m256i v0, __m256i v1, __m256i v2, __m256i v3) {
  __m256i w0 = _mm256_packus_epi32(v0, v1);
  __m256i w1 = _mm256_packus_epi32(v2, v3);
  __m256i b = _mm256_packus_epi16(w0, w1);
  return _mm256_permutevar8x32_epi32(b,
                                     _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

/// Combines 32 nibble codes (one per byte) into 16 bytes, element 2i in the
/// low nibble.
__attribute__((always_inline)) COOPVEC_AVX2 inline __m128i
packNibbles(__m256i bytes) {
  __m256i weights = _mm256_set1_epi16(0x1001); // bytes (1, 16)
  __m256i pairs = _mm256_maddubs_epi16(bytes, weights);
  __m256i packed = _mm256_packus_epi16(pairs, pairs);
  packed = _mm256_permute4x64_epi64(packed, 0x08); // qwords 0, 2
  return _mm256_castsi256_si128(packed);
}

COOPVEC_AVX2 size_t convertF32Kernel(unsigned dst, const SimdParams &p,
                                     unsigned flags, const float *src,
                                     void *out, size_t n) {
  x86::DefaultMxcsr mxcsr;
  Avx2Consts c = makeConsts(p, flags);
  unsigned bytes = storageBytes(dst);
  uint8_t *o = static_cast<uint8_t *>(out);
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i *in = reinterpret_cast<const __m256i *>(src + i);
    __m256i r0 = convert8(c, _mm256_loadu_si256(in));
    __m256i r1 = convert8(c, _mm256_loadu_si256(in + 1));
    __m256i r2 = convert8(c, _mm256_loadu_si256(in + 2));
    __m256i r3 = convert8(c, _mm256_loadu_si256(in + 3));
    if (bytes == 1) {
      _mm256_storeu_si256(reinterpret_cast<__m256i *>(o + i),
                          packBytes(r0, r1, r2, r3));
    } else if (bytes == 0) {
      _mm_storeu_si128(reinterpret_cast<__m128i *>(o + i / 2),
                       packNibbles(packBytes(r0, r1, r2, r3)));
    } else if (bytes == 2) {
      __m256i h0 = _mm256_permute4x64_epi64(_mm256_packus_epi32(r0, r1), 0xD8);
      __m256i h1 = _mm256_permute4x64_epi64(_mm256_packus_epi32(r2, r3), 0xD8);
      __m256i *d = reinterpret_cast<__m256i *>(o + 2 * i);
      _mm256_storeu_si256(d, h0);
      _mm256_storeu_si256(d + 1, h1);
    } else {
      __m256i *d = reinterpret_cast<__m256i *>(o + 4 * i);
      _mm256_storeu_si256(d, _mm256_slli_epi32(r0, 13));
      _mm256_storeu_si256(d + 1, _mm256_slli_epi32(r1, 13));
      _mm256_storeu_si256(d + 2, _mm256_slli_epi32(r2, 13));
      _mm256_storeu_si256(d + 3, _mm256_slli_epi32(r3, 13));
    }
  }
  return i;
}

/// x * mul on f32 lanes held as integers.
__attribute__((always_inline)) COOPVEC_AVX2 inline __m256i scaleBy(__m256i x,
                                                                  __m256 mul) {
  return _mm256_castps_si256(_mm256_mul_ps(_mm256_castsi256_ps(x), mul));
}

COOPVEC_AVX2 size_t mxKernel(unsigned elem, const SimdParams &p, int emax,
                             const float *src, size_t n, uint8_t *elems,
                             uint8_t *scales) {
  x86::DefaultMxcsr mxcsr;
  Avx2Consts c = makeConsts(p, COOPVEC_CVT_SATFINITE);
  const __m256i finiteMax = _mm256_set1_epi32(0x7F7FFFFF);
  // s = clamp(biasedExp(amax) - 127 - emax, -127): a zero or subnormal amax
  // (biased exponent 0) lands below -127 and clamps, as in the reference.
  const __m256i sOffset = _mm256_set1_epi32(127 + emax);
  const __m256i sMin = _mm256_set1_epi32(-127);
  const __m256i c127 = _mm256_set1_epi32(127);
  bool nibbles = elem == COOPVEC_FMT_E2M1;
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i *in = reinterpret_cast<const __m256i *>(src + i);
    __m256i x0 = _mm256_loadu_si256(in), x1 = _mm256_loadu_si256(in + 1);
    __m256i x2 = _mm256_loadu_si256(in + 2), x3 = _mm256_loadu_si256(in + 3);
    // |x| as integers orders like the magnitudes (NaN above inf). The block
    // maximum is reduced and broadcast without leaving the vector domain.
    __m256i a = _mm256_max_epi32(
        _mm256_max_epi32(_mm256_and_si256(x0, c.absMask),
                         _mm256_and_si256(x1, c.absMask)),
        _mm256_max_epi32(_mm256_and_si256(x2, c.absMask),
                         _mm256_and_si256(x3, c.absMask)));
    a = _mm256_max_epi32(a, _mm256_permute2x128_si256(a, a, 1));
    a = _mm256_max_epi32(a, _mm256_shuffle_epi32(a, 0x4E));
    a = _mm256_max_epi32(a, _mm256_shuffle_epi32(a, 0xB1));
    if (_mm256_movemask_epi8(_mm256_cmpgt_epi32(a, finiteMax)))
      return i; // inf/NaN block: the scalar reference handles it
    __m256i s = _mm256_max_epi32(
        _mm256_sub_epi32(_mm256_srli_epi32(a, 23), sOffset), sMin);
    scales[i / 32] = uint8_t(_mm256_cvtsi256_si32(s) + 127);
    // v * 2^-s is exact whenever the result is >= 2^-126; smaller products
    // round to +-0 in every element format either way.
    __m256 mul = _mm256_castsi256_ps(
        _mm256_slli_epi32(_mm256_sub_epi32(c127, s), 23));
    __m256i r0 = convert8<false>(c, scaleBy(x0, mul));
    __m256i r1 = convert8<false>(c, scaleBy(x1, mul));
    __m256i r2 = convert8<false>(c, scaleBy(x2, mul));
    __m256i r3 = convert8<false>(c, scaleBy(x3, mul));
    __m256i bytes = packBytes(r0, r1, r2, r3);
    if (nibbles)
      _mm_storeu_si128(reinterpret_cast<__m128i *>(elems + i / 2),
                       packNibbles(bytes));
    else
      _mm256_storeu_si256(reinterpret_cast<__m256i *>(elems + i), bytes);
  }
  return i;
}

/// table[c] for the codes c (0..15) of each lane, the table's 16 floats in
/// `low` (0..7) and `high` (8..15).
COOPVEC_AVX2 inline __m256 lookup16(__m256 low, __m256 high, __m256i c) {
  return _mm256_blendv_ps(_mm256_permutevar8x32_ps(low, c),
                          _mm256_permutevar8x32_ps(high, c),
                          _mm256_castsi256_ps(_mm256_slli_epi32(c, 28)));
}

/// The E4M3 values of the codes (0..255) of each lane, exactly: the
/// magnitude bits moved to an f32's exponent and mantissa fields and scaled
/// by 2^120 (E4M3's bias 7 against f32's 127; codes with exponent 0 become
/// f32 subnormals, which the scaling makes exact normals: the default MXCSR
/// keeps them), the sign or'ed in; |code| 0x7F is NaN, `nanPos` or `nanNeg`
/// (the table's values, so the bits are the table's).
COOPVEC_AVX2 inline __m256 decodeE4M3(__m256i c, __m256 nanPos, __m256 nanNeg) {
  const __m256i magMask = _mm256_set1_epi32(0x7F);
  __m256i mag = _mm256_and_si256(c, magMask);
  __m256 v = _mm256_mul_ps(
      _mm256_castsi256_ps(_mm256_slli_epi32(mag, 20)),
      _mm256_castsi256_ps(_mm256_set1_epi32(int32_t((127 + 120) << 23))));
  __m256 sign = _mm256_castsi256_ps(
      _mm256_slli_epi32(_mm256_and_si256(c, _mm256_set1_epi32(0x80)), 24));
  v = _mm256_or_ps(v, sign);
  __m256 nan = _mm256_blendv_ps(nanPos, nanNeg, sign);
  return _mm256_blendv_ps(
      v, nan, _mm256_castsi256_ps(_mm256_cmpeq_epi32(mag, magMask)));
}

COOPVEC_AVX2 size_t mxDequantizeKernel(unsigned elem, const float *table,
                                       const uint8_t *bytes,
                                       const uint8_t *scales, size_t n,
                                       float *dst) {
  // As Avx512.cpp's: exact element value times the exact scale, one rounding.
  x86::DefaultMxcsr mxcsr;
  const __m256 nan = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FC00000));
  bool nibbles = elem == COOPVEC_FMT_E2M1;
  // E2M1's 16 values live in two registers: vpermps by the low 3 bits of
  // the code in each, bit 3 picks one (a gather per 8 values is several
  // times slower on AMD Zen 3: MXFP4 dequantize 38% -> see
  // bench/numerics/README.md). E4M3 is computed from its bits; the other
  // formats go through the gather.
  const __m256 low = nibbles ? _mm256_loadu_ps(table) : _mm256_setzero_ps();
  const __m256 high =
      nibbles ? _mm256_loadu_ps(table + 8) : _mm256_setzero_ps();
  // E4M3 is decoded from its bits (decodeE4M3), its NaNs taken from the
  // table.
  bool e4m3 = elem == COOPVEC_FMT_E4M3;
  const __m256 nanPos = _mm256_broadcast_ss(table + 0x7F);
  const __m256 nanNeg = _mm256_broadcast_ss(table + 0xFF);
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    uint8_t s = scales[i / 32];
    if (s == 0xFF) {
      for (unsigned j = 0; j < 32; j += 8)
        _mm256_storeu_ps(dst + i + j, nan);
      continue;
    }
    __m128i codes[2];
    x86::load32Codes(bytes, i, nibbles, codes[0], codes[1]);
    __m256 mul =
        _mm256_castsi256_ps(_mm256_set1_epi32(int32_t(mxScaleBits(s))));
    for (unsigned h = 0; h < 2; ++h) {
      __m256i c0 = _mm256_cvtepu8_epi32(codes[h]);
      __m256i c1 = _mm256_cvtepu8_epi32(_mm_srli_si128(codes[h], 8));
      __m256 v0 = nibbles ? lookup16(low, high, c0)
                  : e4m3  ? decodeE4M3(c0, nanPos, nanNeg)
                          : _mm256_i32gather_ps(table, c0, 4);
      __m256 v1 = nibbles ? lookup16(low, high, c1)
                  : e4m3  ? decodeE4M3(c1, nanPos, nanNeg)
                          : _mm256_i32gather_ps(table, c1, 4);
      _mm256_storeu_ps(dst + i + 16 * h, _mm256_mul_ps(v0, mul));
      _mm256_storeu_ps(dst + i + 16 * h + 8, _mm256_mul_ps(v1, mul));
    }
  }
  return i;
}

COOPVEC_AVX2 void widenF16(const uint16_t *src, float *out, size_t n) {
  size_t i = 0;
  const __m256 canonicalNaN = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FC00000));
  const __m256 signMask = _mm256_castsi256_ps(_mm256_set1_epi32(0x80000000));
  for (; i + 8 <= n; i += 8) {
    __m256 f = _mm256_cvtph_ps(
        _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i)));
    // NaN payloads are not preserved: match the reference's canonical NaN.
    __m256 isNaN = _mm256_cmp_ps(f, f, _CMP_UNORD_Q);
    __m256 canon = _mm256_or_ps(canonicalNaN, _mm256_and_ps(f, signMask));
    _mm256_storeu_ps(out + i, _mm256_blendv_ps(f, canon, isNaN));
  }
  for (; i < n; ++i)
    out[i] = coopvecDecodeToF32(COOPVEC_FMT_F16, src[i]);
}

} // namespace

bool avx2ConvertF32(unsigned dst, const SimdParams &p, unsigned flags,
                    const float *src, void *out, size_t n) {
  // The tail (fewer than 32 values) goes through the reference.
  convertTailScalar(dst, flags, src, out,
                    convertF32Kernel(dst, p, flags, src, out, n), n);
  return true;
}

bool avx2WidenF16(const uint16_t *src, float *out, size_t n) {
  widenF16(src, out, n);
  return true;
}

size_t avx2MxQuantize(unsigned elem, const SimdParams &p, int emax,
                      const float *src, size_t n, uint8_t *elems,
                      uint8_t *scales) {
  return mxKernel(elem, p, emax, src, n, elems, scales);
}

size_t avx2MxDequantize(unsigned elem, const float *table, const void *elems,
                        const uint8_t *scales, size_t n, float *dst) {
  return mxDequantizeKernel(elem, table, static_cast<const uint8_t *>(elems),
                            scales, n, dst);
}

#endif

} // namespace numerics
} // namespace coopvec
