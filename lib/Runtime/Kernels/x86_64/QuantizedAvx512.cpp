//===- QuantizedAvx512.cpp - The quantized product with AVX-512 VNNI ------===//
//
// One task computes 64 outputs (a panel of weight rows) for every batch row:
// it packs the panel into VNNI order ([k/4][64][4] bytes, 256 bytes per
// quad step), then runs kQuantRows (6) batch rows x 4 vectors of 16 outputs
// with vpdpbusd per compute group; QuantBody.inc applies the plan's
// corrections and the reference's f32 steps at the end of each group.
// Compiled with -ffp-contract=off: multiplications and additions stay
// separate, as in the reference.
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
#pragma clang attribute push(                                                  \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni"))),  \
    apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni")
#endif

namespace coopvec {
namespace kernels {
namespace avx512 {
namespace {

/// 16 int32 or f32 lanes.
struct V {
  static constexpr uint32_t kLanes = 16;
  using I = __m512i;
  using F = __m512;
  static I zero() { return _mm512_setzero_si512(); }
  static I set1(int32_t x) { return _mm512_set1_epi32(x); }
  static I load(const int32_t *p) { return _mm512_load_si512(p); }
  static I loadu(const int32_t *p) { return _mm512_loadu_si512(p); }
  static void store(int32_t *p, I a) { _mm512_store_si512(p, a); }
  static I add(I a, I b) { return _mm512_add_epi32(a, b); }
  static I sub(I a, I b) { return _mm512_sub_epi32(a, b); }
  static I mullo(I a, I b) { return _mm512_mullo_epi32(a, b); }
  static I shl7(I a) { return _mm512_slli_epi32(a, 7); }
  static F toFloat(I a) { return _mm512_cvtepi32_ps(a); }
  static F set1f(float x) { return _mm512_set1_ps(x); }
  static F loadf(const float *p) { return _mm512_loadu_ps(p); }
  static void storef(float *p, F a) { _mm512_storeu_ps(p, a); }
  static F mulf(F a, F b) { return _mm512_mul_ps(a, b); }
  static F addf(F a, F b) { return _mm512_add_ps(a, b); }
};

/// vpdpbusd takes 4 consecutive K bytes per int32 lane.
constexpr uint32_t kStepK = 4;

template <uint32_t R, bool Swap>
void dotGroup(__m512i acc[][kQuantPanel / 16], const uint8_t *wp,
              const uint8_t *const *xr, uint32_t group) {
  constexpr uint32_t vecs = kQuantPanel / 16;
  for (uint32_t r = 0; r < R; ++r)
    for (uint32_t v = 0; v < vecs; ++v)
      acc[r][v] = _mm512_setzero_si512();
  for (uint32_t q = 0; q < group / 4; ++q) {
    const uint8_t *wq = wp + uint64_t(q) * 256;
    __m512i w[vecs];
    for (uint32_t v = 0; v < vecs; ++v)
      w[v] = _mm512_load_si512(wq + v * 64);
    for (uint32_t r = 0; r < R; ++r) {
      int32_t quad;
      std::memcpy(&quad, xr[r] + q * 4, 4);
      __m512i xb = _mm512_set1_epi32(quad);
      for (uint32_t v = 0; v < vecs; ++v)
        acc[r][v] = Swap ? _mm512_dpbusd_epi32(acc[r][v], w[v], xb)
                         : _mm512_dpbusd_epi32(acc[r][v], xb, w[v]);
    }
  }
}

/// 16 rows x 16 dwords -> 16 dwords x 16 rows.
void transpose16(__m512i r[16]) {
  __m512i t[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
  }
  for (int i = 0; i < 16; i += 4) {
    r[i] = _mm512_unpacklo_epi64(t[i], t[i + 2]);
    r[i + 1] = _mm512_unpackhi_epi64(t[i], t[i + 2]);
    r[i + 2] = _mm512_unpacklo_epi64(t[i + 1], t[i + 3]);
    r[i + 3] = _mm512_unpackhi_epi64(t[i + 1], t[i + 3]);
  }
  // r[4a + c] holds, in 128-bit lane L, dword column 4L + c of rows
  // 4a..4a+3: a 4x4 transpose of 128-bit lanes per c remains.
  for (int i = 0; i < 8; ++i) {
    int a = i / 4 * 8 + i % 4; // pairs (0,4) (1,5) (2,6) (3,7) (8,12) ...
    t[2 * i] = _mm512_shuffle_i32x4(r[a], r[a + 4], 0x88);
    t[2 * i + 1] = _mm512_shuffle_i32x4(r[a], r[a + 4], 0xDD);
  }
  for (int i = 0; i < 4; ++i) {
    // t[2i], t[2i+1] from rows 0-7; t[2i+8], t[2i+9] from rows 8-15.
    r[i] = _mm512_shuffle_i32x4(t[2 * i], t[2 * i + 8], 0x88);
    r[i + 8] = _mm512_shuffle_i32x4(t[2 * i], t[2 * i + 8], 0xDD);
    r[i + 4] = _mm512_shuffle_i32x4(t[2 * i + 1], t[2 * i + 9], 0x88);
    r[i + 12] = _mm512_shuffle_i32x4(t[2 * i + 1], t[2 * i + 9], 0xDD);
  }
}

/// The panel in VNNI order: [k/4][64 outputs][4 bytes], XORed with the
/// plan's flip; rows past `valid` are zero.
void packPanel(const QuantPlan &p, uint32_t n0, uint32_t valid,
               uint8_t *packed) {
  uint32_t quads = p.k / 4;
  uint32_t flip = p.wFlip * 0x01010101u;
  // Whole 16-row x 16-quad blocks through a dword transpose, the rest by
  // quads.
  uint32_t fullQuads = quads / 16 * 16;
  __m512i flipV = _mm512_set1_epi32(int32_t(flip));
  for (uint32_t i0 = 0; i0 < kQuantPanel; i0 += 16) {
    for (uint32_t q0 = 0; q0 < fullQuads; q0 += 16) {
      __m512i r[16];
      for (uint32_t j = 0; j < 16; ++j)
        r[j] = i0 + j < valid
                   ? _mm512_xor_si512(
                         _mm512_loadu_si512(p.w + uint64_t(n0 + i0 + j) *
                                                      p.wStride +
                                            uint64_t(q0) * 4),
                         flipV)
                   : _mm512_setzero_si512();
      transpose16(r);
      for (uint32_t c = 0; c < 16; ++c)
        _mm512_store_si512(packed + uint64_t(q0 + c) * 256 + i0 * 4, r[c]);
    }
  }
  for (uint32_t i = 0; i < kQuantPanel; ++i) {
    if (i >= valid) {
      for (uint32_t q = fullQuads; q < quads; ++q)
        std::memset(packed + uint64_t(q) * 256 + i * 4, 0, 4);
      continue;
    }
    const uint8_t *row = p.w + uint64_t(n0 + i) * p.wStride;
    for (uint32_t q = fullQuads; q < quads; ++q) {
      uint32_t v;
      std::memcpy(&v, row + q * 4, 4);
      v ^= flip;
      std::memcpy(packed + uint64_t(q) * 256 + i * 4, &v, 4);
    }
  }
}

} // namespace

#include "QuantBody.inc"

} // namespace avx512
} // namespace kernels
} // namespace coopvec

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif
