//===- QuantizedAvx2.cpp - The quantized product with AVX2 ----------------===//
//
// The path for x86-64 CPUs without AVX-512 VNNI (or COOPVEC_KERNELS_ISA=avx2),
// in two forms, chosen per 64-output panel from the panel's own weights:
//
// - pairs (any weights): vpmaddubsw would saturate its i16 pair sums
//   (255 * 127 * 2 > 32767), so both operands are widened to i16 instead and
//   multiplied with vpmaddwd: each product is at most 255 * 128 in magnitude
//   and a pair sums to at most 65280, exact in its int32 lane. The panel is
//   packed as [k/2][64 outputs][2 x i16] (256 bytes per K pair).
// - quads (weights of small magnitude: every byte, in the role it plays,
//   within [-64, 64] on the signed side of vpmaddubsw or [0, 127] on the
//   unsigned side; 4-bit weights always, 7-bit ones too): the pair sums are
//   then at most 255 * 64 * 2 = 32640 (127 * 128 * 2 = 32512) in magnitude
//   and cannot saturate, so vpmaddubsw and a vpmaddwd by ones give the
//   int32 sums of 4 K values exactly, 32 multiply-adds per two multiplies
//   where vpmaddwd alone does 16 per one. The panel is packed as for
//   vpdpbusd: [k/4][64 outputs][4 bytes].
//
// Either way the int32 sums of a compute group are those vpdpbusd gives, and
// the plan's bound keeps them exact. A task runs kQuantRows batch rows x 16
// outputs at a time; QuantBody.inc applies the corrections and f32 steps, as
// for AVX-512. Compiled with -ffp-contract=off, as the reference's f32 steps
// need.
//
//===----------------------------------------------------------------------===//

#include "QuantPlan.h"

#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Numerics.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <immintrin.h>
#include <memory>
#include <vector>

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

/// 8 int32 or f32 lanes.
struct V {
  static constexpr uint32_t kLanes = 8;
  using I = __m256i;
  using F = __m256;
  static I zero() { return _mm256_setzero_si256(); }
  static I set1(int32_t x) { return _mm256_set1_epi32(x); }
  static I load(const int32_t *p) {
    return _mm256_load_si256(reinterpret_cast<const __m256i *>(p));
  }
  static I loadu(const int32_t *p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
  }
  static void store(int32_t *p, I a) {
    _mm256_store_si256(reinterpret_cast<__m256i *>(p), a);
  }
  static I add(I a, I b) { return _mm256_add_epi32(a, b); }
  static I sub(I a, I b) { return _mm256_sub_epi32(a, b); }
  static I mullo(I a, I b) { return _mm256_mullo_epi32(a, b); }
  static I shl7(I a) { return _mm256_slli_epi32(a, 7); }
  static F toFloat(I a) { return _mm256_cvtepi32_ps(a); }
  static F set1f(float x) { return _mm256_set1_ps(x); }
  static F loadf(const float *p) { return _mm256_loadu_ps(p); }
  static void storef(float *p, F a) { _mm256_storeu_ps(p, a); }
  static F mulf(F a, F b) { return _mm256_mul_ps(a, b); }
  static F addf(F a, F b) { return _mm256_add_ps(a, b); }
  /// kLanes f32 -> f16, IEEE round to nearest even (overflow to inf), as
  /// coopvecConvertF32 with COOPVEC_RND_RN and no flags; false, with
  /// nothing stored, if a lane is NaN (the library gives NaN its canonical
  /// form, F16C keeps the payload).
  static bool toHalf(uint16_t *dst, const float *src) {
    F a = _mm256_loadu_ps(src);
    if (_mm256_movemask_ps(_mm256_cmp_ps(a, a, _CMP_UNORD_Q)))
      return false;
    _mm_storeu_si128(
        reinterpret_cast<__m128i *>(dst),
        _mm256_cvtps_ph(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    return true;
  }
};

/// 8 rows x 8 dwords -> 8 dwords x 8 rows.
void transpose8(__m256i r[8]) {
  __m256i t[8], u[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
  }
  for (int i = 0; i < 8; i += 4) {
    u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
    u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
    u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
    u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
  }
  // u[c] and u[c + 4] hold column c (low lane) and c + 4 (high lane) of
  // rows 0-3 and 4-7.
  for (int c = 0; c < 4; ++c) {
    r[c] = _mm256_permute2x128_si256(u[c], u[c + 4], 0x20);
    r[c + 4] = _mm256_permute2x128_si256(u[c], u[c + 4], 0x31);
  }
}

template <uint32_t R> void dotCollect(__m256i[][kQuantPanel / 8]) {}

/// Batch rows per register tile.
constexpr uint32_t kTileRows = kQuantRows;
constexpr uint32_t kBlockTiles = 1;

void beginTask(const QuantPlan &) {}
void endTask() {}

/// The raw sums of one compute group of `steps` packed steps (256 bytes,
/// 64 outputs, each), 16 outputs (two vectors) at a time with R x 2
/// accumulators in registers: per step, `xAt(r, q)` is row r's step q
/// broadcast and `dot(x, w)` its int32 sums with 8 outputs' weights.
template <uint32_t R, class XAt, class Dot>
void panelDot(__m256i acc[][kQuantPanel / 8], const uint8_t *wp, uint32_t steps,
              XAt xAt, Dot dot) {
  for (uint32_t blk = 0; blk < kQuantPanel / 16; ++blk) {
    __m256i a[R][2];
    for (uint32_t r = 0; r < R; ++r)
      a[r][0] = a[r][1] = _mm256_setzero_si256();
    for (uint32_t q = 0; q < steps; ++q) {
      const uint8_t *wq = wp + uint64_t(q) * 256 + blk * 64;
      __m256i w0 = _mm256_load_si256(reinterpret_cast<const __m256i *>(wq));
      __m256i w1 =
          _mm256_load_si256(reinterpret_cast<const __m256i *>(wq + 32));
      for (uint32_t r = 0; r < R; ++r) {
        __m256i xb = xAt(r, q);
        a[r][0] = _mm256_add_epi32(a[r][0], dot(xb, w0));
        a[r][1] = _mm256_add_epi32(a[r][1], dot(xb, w1));
      }
    }
    for (uint32_t r = 0; r < R; ++r) {
      acc[r][2 * blk] = a[r][0];
      acc[r][2 * blk + 1] = a[r][1];
    }
  }
}

/// Writes the panel as [steps][64 outputs][4 bytes]: whole 8-row x 8-step
/// blocks through a dword transpose of `load8(row, q0)` (steps q0..q0 + 7 of
/// matrix row `row` as 8 dwords), the rest step by step with `load1(row,
/// q)`; rows past `valid` are zero.
template <class Load8, class Load1>
void packSteps(uint32_t steps, uint32_t n0, uint32_t valid, uint8_t *packed,
               Load8 load8, Load1 load1) {
  const uint32_t full = steps / 8 * 8;
  for (uint32_t i0 = 0; i0 < kQuantPanel; i0 += 8) {
    for (uint32_t q0 = 0; q0 < full; q0 += 8) {
      __m256i r[8];
      for (uint32_t j = 0; j < 8; ++j)
        r[j] = i0 + j < valid ? load8(n0 + i0 + j, q0) : _mm256_setzero_si256();
      transpose8(r);
      for (uint32_t c = 0; c < 8; ++c)
        _mm256_store_si256(reinterpret_cast<__m256i *>(
                               packed + uint64_t(q0 + c) * 256 + i0 * 4),
                           r[c]);
    }
  }
  for (uint32_t i = 0; i < kQuantPanel; ++i)
    for (uint32_t q = full; q < steps; ++q) {
      uint32_t v = i < valid ? load1(n0 + i, q) : 0;
      std::memcpy(packed + uint64_t(q) * 256 + i * 4, &v, 4);
    }
}

} // namespace

namespace pairs {
namespace {

/// vpmaddwd takes 2 consecutive K values (i16) per int32 lane.
constexpr uint32_t kStepK = 2;

/// 16 bytes widened to 16 x i16, signed or unsigned.
__m256i widen(const uint8_t *p, bool isSigned) {
  __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
  return isSigned ? _mm256_cvtepi8_epi16(b) : _mm256_cvtepu8_epi16(b);
}

/// One byte pair as two i16 in an int32 (the lower K index in the low half).
uint32_t widenPair(uint8_t lo, uint8_t hi, bool isSigned) {
  auto ext = [&](uint8_t v) {
    return uint32_t(uint16_t(isSigned ? int16_t(int8_t(v)) : int16_t(v)));
  };
  return ext(lo) | ext(hi) << 16;
}

/// The x side of vpdpbusd(x, w) is unsigned, of vpdpbusd(w, x) signed.
template <uint32_t R, bool Swap>
void dotIssue(__m256i acc[][kQuantPanel / 8], const uint8_t *wp,
              const uint8_t *const *xr, const uint8_t *, uint32_t group) {
  constexpr bool xSigned = Swap;
  const uint32_t pairs = group / 2;
  // The tile's rows of this group as i16 pairs, one int32 each.
  thread_local std::vector<uint32_t> xwBuf;
  if (xwBuf.size() < size_t(R) * pairs)
    xwBuf.resize(size_t(R) * pairs);
  uint32_t *xw = xwBuf.data();
  for (uint32_t r = 0; r < R; ++r) {
    uint32_t *row = xw + size_t(r) * pairs;
    uint32_t i = 0;
    for (; i + 16 <= group; i += 16)
      _mm256_storeu_si256(reinterpret_cast<__m256i *>(row + i / 2),
                          widen(xr[r] + i, xSigned));
    for (; i < group; i += 2)
      row[i / 2] = widenPair(xr[r][i], xr[r][i + 1], xSigned);
  }
  panelDot<R>(
      acc, wp, pairs,
      [&](uint32_t r, uint32_t q) {
        return _mm256_set1_epi32(int32_t(xw[size_t(r) * pairs + q]));
      },
      [](__m256i xb, __m256i w) { return _mm256_madd_epi16(xb, w); });
}

/// The panel as i16 pairs: [k/2][64 outputs][2 x i16], the weights XORed
/// with the plan's flip and widened as the role they play in vpdpbusd
/// (unsigned for SignedByUnsigned, signed otherwise).
void packPanel(const QuantPlan &p, uint32_t n0, uint32_t valid,
               uint8_t *packed) {
  const bool wSigned = p.mode != QuantMode::SignedByUnsigned;
  const uint8_t flip = p.wFlip;
  const __m128i flipV = _mm_set1_epi8(char(flip));
  packSteps(
      p.k / 2, n0, valid, packed,
      [&](uint32_t n, uint32_t q0) {
        __m128i b =
            _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i *>(
                              p.wRow(n) + uint64_t(q0) * 2)),
                          flipV);
        return wSigned ? _mm256_cvtepi8_epi16(b) : _mm256_cvtepu8_epi16(b);
      },
      [&](uint32_t n, uint32_t q) {
        const uint8_t *row = p.wRow(n);
        return widenPair(row[2 * q] ^ flip, row[2 * q + 1] ^ flip, wSigned);
      });
}

} // namespace

#include "QuantBody.inc"

} // namespace pairs

namespace quads {
namespace {

/// vpmaddubsw + vpmaddwd take 4 consecutive K values (bytes) per int32
/// lane.
constexpr uint32_t kStepK = 4;

/// The raw sums as dpbusd(x, w) (dpbusd(w, x) if Swap) gives them, from
/// vpmaddubsw(unsigned side, signed side), whose pair sums the panel's
/// small weights keep from saturating (see the file comment), and a
/// vpmaddwd by ones that adds the pairs into the int32 lanes.
template <uint32_t R, bool Swap>
void dotIssue(__m256i acc[][kQuantPanel / 8], const uint8_t *wp,
              const uint8_t *const *xr, const uint8_t *, uint32_t group) {
  const __m256i ones = _mm256_set1_epi16(1);
  panelDot<R>(
      acc, wp, group / 4,
      [&](uint32_t r, uint32_t q) {
        int32_t quad;
        std::memcpy(&quad, xr[r] + 4 * q, 4);
        return _mm256_set1_epi32(quad);
      },
      [&](__m256i xb, __m256i w) {
        return _mm256_madd_epi16(Swap ? _mm256_maddubs_epi16(w, xb)
                                      : _mm256_maddubs_epi16(xb, w),
                                 ones);
      });
}

/// The panel as byte quads: [k/4][64 outputs][4 bytes], the weights XORed
/// with the plan's flip.
void packPanel(const QuantPlan &p, uint32_t n0, uint32_t valid,
               uint8_t *packed) {
  const uint8_t flip = p.wFlip;
  const __m256i flipV = _mm256_set1_epi8(char(flip));
  const uint32_t flip4 = 0x01010101u * flip;
  packSteps(
      p.k / 4, n0, valid, packed,
      [&](uint32_t n, uint32_t q0) {
        return _mm256_xor_si256(
            _mm256_loadu_si256(reinterpret_cast<const __m256i *>(
                p.wRow(n) + uint64_t(q0) * 4)),
            flipV);
      },
      [&](uint32_t n, uint32_t q) {
        uint32_t v;
        std::memcpy(&v, p.wRow(n) + uint64_t(q) * 4, 4);
        return v ^ flip4;
      });
}

} // namespace

#include "QuantBody.inc"

} // namespace quads

namespace {

/// Whether every weight of the panel, XORed with the plan's flip, is small
/// enough for vpmaddubsw not to saturate (see the file comment): within
/// [-64, 64] as a signed byte, or [0, 127] as an unsigned one when the
/// weights are vpmaddubsw's unsigned operand (SignedByUnsigned).
bool fitsMaddubs(const QuantPlan &p, uint32_t n0, uint32_t valid) {
  const bool unsignedSide = p.mode == QuantMode::SignedByUnsigned;
  // Biased so that the allowed bytes are those <= limit as unsigned:
  // signed w + 64 in [0, 128], or unsigned w in [0, 127].
  const uint8_t bias = unsignedSide ? 0 : 64;
  const uint8_t limit = unsignedSide ? 127 : 128;
  const __m256i flipV = _mm256_set1_epi8(char(p.wFlip));
  const __m256i biasV = _mm256_set1_epi8(char(bias));
  const __m256i limitV = _mm256_set1_epi8(char(limit));
  for (uint32_t i = 0; i < valid; ++i) {
    const uint8_t *row = p.wRow(n0 + i);
    uint32_t c = 0;
    __m256i over = _mm256_setzero_si256();
    for (; c + 32 <= p.k; c += 32) {
      __m256i v = _mm256_add_epi8(
          _mm256_xor_si256(
              _mm256_loadu_si256(reinterpret_cast<const __m256i *>(row + c)),
              flipV),
          biasV);
      // v > limit (unsigned) iff max(v, limit) != limit.
      over = _mm256_or_si256(
          over, _mm256_xor_si256(_mm256_max_epu8(v, limitV), limitV));
    }
    if (!_mm256_testz_si256(over, over))
      return false;
    for (; c < p.k; ++c)
      if (uint8_t(uint8_t(row[c] ^ p.wFlip) + bias) > limit)
        return false;
  }
  return true;
}
} // namespace

void quantPanelTask(const QuantPlan &p, unsigned panel, uint32_t bBegin,
                    uint32_t bEnd) {
  uint32_t n0 = panel * kQuantPanel;
  if (fitsMaddubs(p, n0, std::min(kQuantPanel, p.m - n0)))
    quads::quantPanelTask(p, panel, bBegin, bEnd);
  else
    pairs::quantPanelTask(p, panel, bBegin, bEnd);
}

} // namespace avx2
} // namespace kernels
} // namespace coopvec

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif
