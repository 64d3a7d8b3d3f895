//===- QuantizedAvx512.cpp - The quantized product with AVX-512 VNNI ------===//
//
// One task computes 64 outputs (a panel of weight rows) for every batch row:
// it packs the panel into VNNI order ([k/4][64][4] bytes, 256 bytes per
// quad step), then runs 4 batch rows x 4 vectors of 16 outputs with
// vpdpbusd per compute group and applies the plan's corrections and the
// reference's f32 steps at the end of each group. Compiled with
// -ffp-contract=off: multiplications and additions stay separate, as in the
// reference.
//
//===----------------------------------------------------------------------===//

#include "QuantPlan.h"

#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Numerics.h"

#include <algorithm>
#include <cstring>
#include <immintrin.h>
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

constexpr uint32_t kRows = 4; // batch rows per tile
constexpr uint32_t kVecs = kQuantPanel / 16;

struct Panel {
  const QuantPlan &p;
  uint32_t n0, valid;
  const uint8_t *packed;
  const int32_t *cols; // [k / zxGroup][64] column sums, or null
};

/// Stores one output row's panel: bias, saturation or conversion.
void storeRow(const Panel &pn, uint32_t b, const float *yf,
              const int64_t *yi) {
  const QuantPlan &p = pn.p;
  uint8_t *out = p.out + uint64_t(b) * p.outStride;
  if (p.outType == COOPVEC_TYPE_I32) {
    for (uint32_t i = 0; i < pn.valid; ++i) {
      uint32_t n = pn.n0 + i;
      int64_t v = yi[i] + (p.biasI ? p.biasI[n] : 0);
      int32_t s = int32_t(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
      std::memcpy(out + uint64_t(n) * 4, &s, 4);
    }
    return;
  }
  alignas(64) float y[kQuantPanel];
  for (uint32_t i = 0; i < pn.valid; ++i)
    y[i] = p.biasF ? yf[i] + p.biasF[pn.n0 + i] : yf[i];
  if (p.outType == COOPVEC_TYPE_F32) {
    std::memcpy(out + uint64_t(pn.n0) * 4, y, size_t(pn.valid) * 4);
    return;
  }
  // The numerics library's bulk conversion: bit-identical to the scalar
  // coopvecConvertF32 the reference uses.
  coopvecConvertF32Buffer(p.outType == COOPVEC_TYPE_F16 ? COOPVEC_FMT_F16
                                                        : COOPVEC_FMT_BF16,
                          y, out + uint64_t(pn.n0) * 2, pn.valid,
                          COOPVEC_RND_RN, 0, nullptr);
}

template <uint32_t R, bool Swap>
void tile(const Panel &pn, uint32_t b0) {
  const QuantPlan &p = pn.p;
  alignas(64) float yf[R][kQuantPanel];
  int64_t yi[R][kQuantPanel];
  for (uint32_t r = 0; r < R; ++r)
    for (uint32_t i = 0; i < kQuantPanel; ++i)
      yf[r][i] = 0.0f, yi[r][i] = 0;
  const uint32_t quads = p.group / 4;
  const uint32_t subPerGroup = p.zxGroup ? p.group / p.zxGroup : 0;
  const uint32_t redPerGroup = p.rGroup ? p.group / p.rGroup : 0;
  for (uint32_t j = 0; j < p.groups; ++j) {
    __m512i acc[R][kVecs];
    for (uint32_t r = 0; r < R; ++r)
      for (uint32_t v = 0; v < kVecs; ++v)
        acc[r][v] = _mm512_setzero_si512();
    const uint8_t *wp = pn.packed + uint64_t(j) * quads * 256;
    const uint8_t *xr[R];
    for (uint32_t r = 0; r < R; ++r)
      xr[r] = p.x + uint64_t(b0 + r) * p.xStride + uint64_t(j) * p.group;
    for (uint32_t q = 0; q < quads; ++q) {
      const uint8_t *wq = wp + uint64_t(q) * 256;
      __m512i w[kVecs];
      for (uint32_t v = 0; v < kVecs; ++v)
        w[v] = _mm512_load_si512(wq + v * 64);
      for (uint32_t r = 0; r < R; ++r) {
        int32_t quad;
        std::memcpy(&quad, xr[r] + q * 4, 4);
        __m512i xb = _mm512_set1_epi32(quad);
        for (uint32_t v = 0; v < kVecs; ++v)
          acc[r][v] = Swap ? _mm512_dpbusd_epi32(acc[r][v], w[v], xb)
                           : _mm512_dpbusd_epi32(acc[r][v], xb, w[v]);
      }
    }
    // Corrections and the f32 steps of compute group j.
    for (uint32_t r = 0; r < R; ++r) {
      uint32_t b = b0 + r;
      for (uint32_t v = 0; v < kVecs; ++v) {
        __m512i a = acc[r][v];
        uint32_t nl = v * 16, n = pn.n0 + nl;
        if (p.mode == QuantMode::SignedBySigned) {
          __m512i cs = _mm512_setzero_si512();
          for (uint32_t s = 0; s < subPerGroup; ++s)
            cs = _mm512_add_epi32(
                cs, _mm512_load_si512(pn.cols + uint64_t(j * subPerGroup + s) *
                                                    kQuantPanel +
                                      nl));
          a = _mm512_sub_epi32(a, _mm512_slli_epi32(cs, 7));
        } else if (p.mode == QuantMode::UnsignedByUnsigned) {
          a = _mm512_add_epi32(
              a, _mm512_set1_epi32(p.xsum[uint64_t(b) * p.groups + j] * 128));
        }
        if (p.zx) {
          for (uint32_t s = 0; s < subPerGroup; ++s) {
            uint32_t sub = j * subPerGroup + s;
            __m512i z = _mm512_set1_epi32(
                p.zx[uint64_t(b) * (p.k / p.zxGroup) + sub]);
            __m512i cs = _mm512_load_si512(pn.cols +
                                           uint64_t(sub) * kQuantPanel + nl);
            a = _mm512_sub_epi32(a, _mm512_mullo_epi32(z, cs));
          }
        }
        if (p.zwT) {
          uint32_t rGroups = p.k / p.rGroup;
          uint64_t mPad = (uint64_t(p.m) + kQuantPanel - 1) / kQuantPanel *
                          kQuantPanel;
          for (uint32_t g = 0; g < redPerGroup; ++g) {
            uint32_t rg = j * redPerGroup + g;
            __m512i z = _mm512_loadu_si512(p.zwT + rg * mPad + n);
            __m512i ra = _mm512_set1_epi32(p.radj[uint64_t(b) * rGroups + rg]);
            a = _mm512_sub_epi32(a, _mm512_mullo_epi32(z, ra));
          }
        }
        if (p.outType == COOPVEC_TYPE_I32) {
          alignas(64) int32_t lanes[16];
          _mm512_store_si512(lanes, a);
          for (uint32_t i = 0; i < 16; ++i)
            yi[r][nl + i] += lanes[i];
          continue;
        }
        __m512 f = _mm512_cvtepi32_ps(a);
        if (p.sx)
          f = _mm512_mul_ps(f, _mm512_set1_ps(p.sx[uint64_t(b) * p.groups + j]));
        if (p.swT) {
          uint64_t mPad = (uint64_t(p.m) + kQuantPanel - 1) / kQuantPanel *
                          kQuantPanel;
          f = _mm512_mul_ps(f, _mm512_loadu_ps(p.swT + j * mPad + n));
        }
        _mm512_store_ps(&yf[r][nl],
                        _mm512_add_ps(_mm512_load_ps(&yf[r][nl]), f));
      }
    }
  }
  for (uint32_t r = 0; r < R; ++r)
    storeRow(pn, b0 + r, yf[r], yi[r]);
}

template <bool Swap> void rows(const Panel &pn, uint32_t b, uint32_t end) {
  for (; b + kRows <= end; b += kRows)
    tile<kRows, Swap>(pn, b);
  switch (end - b) {
  case 3:
    tile<3, Swap>(pn, b);
    break;
  case 2:
    tile<2, Swap>(pn, b);
    break;
  case 1:
    tile<1, Swap>(pn, b);
    break;
  default:
    break;
  }
}


} // namespace

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

void quantPanelTask(const QuantPlan &p, unsigned panel, uint32_t bBegin,
                    uint32_t bEnd) {
  uint32_t n0 = panel * kQuantPanel;
  uint32_t valid = std::min(kQuantPanel, p.m - n0);
  uint32_t quads = p.k / 4;
  // The packed panel: [k/4][64 outputs][4 bytes], rows past m are zero.
  thread_local uint8_t *packed = nullptr;
  thread_local size_t packedBytes = 0;
  size_t need = size_t(quads) * 256;
  if (packedBytes < need) {
    std::free(packed);
    packed = static_cast<uint8_t *>(std::aligned_alloc(64, (need + 63) / 64 * 64));
    packedBytes = need;
  }
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
  // Column sums of the stored weights over the zero-point sub-groups.
  thread_local std::vector<int32_t> colBuf;
  const int32_t *cols = nullptr;
  if (p.needColSums) {
    uint32_t subs = p.k / p.zxGroup;
    colBuf.assign(size_t(subs) * kQuantPanel + 16, 0);
    // 64-byte alignment of the rows for the aligned loads.
    int32_t *base = colBuf.data();
    while (reinterpret_cast<uintptr_t>(base) % 64)
      ++base;
    bool wSigned = p.mode == QuantMode::UnsignedBySigned ||
                   p.mode == QuantMode::SignedBySigned;
    for (uint32_t i = 0; i < valid; ++i) {
      const uint8_t *row = p.w + uint64_t(n0 + i) * p.wStride;
      for (uint32_t s = 0; s < subs; ++s) {
        int32_t sum = 0;
        const uint8_t *e = row + uint64_t(s) * p.zxGroup;
        if (wSigned)
          for (uint32_t t = 0; t < p.zxGroup; ++t)
            sum += int8_t(e[t]);
        else
          for (uint32_t t = 0; t < p.zxGroup; ++t)
            sum += e[t];
        base[uint64_t(s) * kQuantPanel + i] = sum;
      }
    }
    cols = base;
  }
  Panel pn{p, n0, valid, packed, cols};
  if (p.mode == QuantMode::SignedByUnsigned)
    rows<true>(pn, bBegin, bEnd);
  else
    rows<false>(pn, bBegin, bEnd);
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
