//===- QuantizedAvx2.cpp - The quantized product with AVX2 ----------------===//
//
// The path for x86-64 CPUs without AVX-512 VNNI (or COOPVEC_KERNELS_ISA=avx2).
// vpmaddubsw would saturate its i16 pair sums (255 * 127 * 2 > 32767), so
// both operands are widened to i16 instead and multiplied with vpmaddwd:
// each product is at most 255 * 128 in magnitude and a pair sums to at most
// 65280, exact in its int32 lane. The int32 sums of a compute group are
// therefore those vpdpbusd gives, and the plan's bound keeps them exact.
// One task packs its 64-output panel as [k/2][64 outputs][2 x i16] (256
// bytes per K pair), then runs kQuantRows batch rows x 16 outputs at a
// time; QuantBody.inc applies the corrections and f32 steps, as for AVX-512.
// Compiled with -ffp-contract=off, as the reference's f32 steps need.
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
#pragma clang attribute push(__attribute__((target("avx2"))),                 \
                             apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
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
};

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
  // 16 outputs (two vectors) at a time: R x 2 accumulators in registers.
  for (uint32_t blk = 0; blk < kQuantPanel / 16; ++blk) {
    __m256i a[R][2];
    for (uint32_t r = 0; r < R; ++r)
      a[r][0] = a[r][1] = _mm256_setzero_si256();
    for (uint32_t q = 0; q < pairs; ++q) {
      const uint8_t *wq = wp + uint64_t(q) * 256 + blk * 64;
      __m256i w0 = _mm256_load_si256(reinterpret_cast<const __m256i *>(wq));
      __m256i w1 =
          _mm256_load_si256(reinterpret_cast<const __m256i *>(wq + 32));
      for (uint32_t r = 0; r < R; ++r) {
        __m256i xb = _mm256_set1_epi32(int32_t(xw[size_t(r) * pairs + q]));
        a[r][0] = _mm256_add_epi32(a[r][0], _mm256_madd_epi16(xb, w0));
        a[r][1] = _mm256_add_epi32(a[r][1], _mm256_madd_epi16(xb, w1));
      }
    }
    for (uint32_t r = 0; r < R; ++r) {
      acc[r][2 * blk] = a[r][0];
      acc[r][2 * blk + 1] = a[r][1];
    }
  }
}

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

/// The panel as i16 pairs: [k/2][64 outputs][2 x i16], the weights XORed
/// with the plan's flip and widened as the role they play in vpdpbusd
/// (unsigned for SignedByUnsigned, signed otherwise); rows past `valid` are
/// zero.
void packPanel(const QuantPlan &p, uint32_t n0, uint32_t valid,
               uint8_t *packed) {
  const bool wSigned = p.mode != QuantMode::SignedByUnsigned;
  const uint32_t pairs = p.k / 2;
  const uint8_t flip = p.wFlip;
  const __m128i flipV = _mm_set1_epi8(char(flip));
  // Whole 8-row x 8-pair blocks through a dword transpose, the rest by
  // pairs.
  const uint32_t fullPairs = pairs / 8 * 8;
  for (uint32_t i0 = 0; i0 < kQuantPanel; i0 += 8) {
    for (uint32_t q0 = 0; q0 < fullPairs; q0 += 8) {
      __m256i r[8];
      for (uint32_t j = 0; j < 8; ++j) {
        if (i0 + j >= valid) {
          r[j] = _mm256_setzero_si256();
          continue;
        }
        __m128i b = _mm_xor_si128(
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(
                p.w + uint64_t(n0 + i0 + j) * p.wStride + uint64_t(q0) * 2)),
            flipV);
        r[j] = wSigned ? _mm256_cvtepi8_epi16(b) : _mm256_cvtepu8_epi16(b);
      }
      transpose8(r);
      for (uint32_t c = 0; c < 8; ++c)
        _mm256_store_si256(
            reinterpret_cast<__m256i *>(packed + uint64_t(q0 + c) * 256 +
                                        i0 * 4),
            r[c]);
    }
  }
  for (uint32_t i = 0; i < kQuantPanel; ++i) {
    const uint8_t *row = p.w + uint64_t(n0 + i) * p.wStride;
    for (uint32_t q = fullPairs; q < pairs; ++q) {
      uint32_t v = i < valid ? widenPair(row[2 * q] ^ flip,
                                         row[2 * q + 1] ^ flip, wSigned)
                             : 0;
      std::memcpy(packed + uint64_t(q) * 256 + i * 4, &v, 4);
    }
  }
}

template <uint32_t R> void dotCollect(__m256i[][kQuantPanel / 8]) {}

/// Batch rows per register tile.
constexpr uint32_t kTileRows = kQuantRows;
constexpr uint32_t kBlockTiles = 1;

void beginTask(const QuantPlan &) {}
void endTask() {}

} // namespace

#include "QuantBody.inc"

} // namespace avx2
} // namespace kernels
} // namespace coopvec

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif
