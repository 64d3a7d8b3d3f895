//===- MlpAmx.cpp - The BF16 fused MLP on AMX tiles -----------------------===//
//
// The fused MLP with BF16 weights on Intel AMX (tdpbf16ps): per task a batch
// tile of vectors goes through every layer with its activations in bf16
// rows of a scratch buffer; 16 vectors x 32 inputs form an A tile, a B tile
// holds 32 inputs (16 pairs) x 16 outputs of the weights (packAmxMatrix),
// and four C tiles accumulate 16 vectors x 64 outputs in f32. The bias, ReLU
// and the bf16 rounding of the next layer's input (floatToBf16's rule, as
// every BF16 path does) run on the C tiles after tilestored; the last layer
// stores f32 (and exp). Only reached after Kernels.cpp checked AMX-TILE,
// AMX-BF16 and AVX-512 and obtained the kernel's permission for the tile
// data (amxPermitted); the CPUs with AMX-BF16 all have AVX-512 BF16, which
// Kernels.cpp checks too.
//
//===----------------------------------------------------------------------===//

#include "Plan.h"

#include "Convert.h"

#include <cmath>
#include <cstring>
#include <immintrin.h>
#include <vector>

#if defined(__x86_64__)

#include <sys/syscall.h>
#include <unistd.h>

namespace coopvec {
namespace kernels {
namespace amx {

bool amxPermitted() {
  // Linux keeps the 8 KiB tile data out of a process's signal frames until
  // it asks (arch_prctl ARCH_REQ_XCOMP_PERM for XTILEDATA, feature 18).
  static const bool permitted = [] {
    constexpr long kReqXcompPerm = 0x1023, kXtiledata = 18;
    return syscall(SYS_arch_prctl, kReqXcompPerm, kXtiledata) == 0;
  }();
  return permitted;
}

Panels packAmxMatrix(const uint8_t *src, const layout::LayoutParams &stored,
                     bool transpose, uint32_t m, uint32_t k,
                     std::vector<uint8_t> &buf) {
  uint64_t chunks = layout::ceilDiv(k, kAmxK), blocks = layout::ceilDiv(m, 16);
  buf.assign(blocks * chunks * kAmxTileBytes + 64, 0);
  auto addr = reinterpret_cast<uintptr_t>(buf.data());
  uint8_t *base = buf.data() + (layout::roundUp(addr, 64) - addr);
  for (uint32_t r = 0; r < m; ++r)
    for (uint32_t c = 0; c < k; ++c) {
      // Tile (block r / 16, chunk c / 32), row (c % 32) / 2: the pair of
      // inputs of each of the block's 16 outputs.
      uint64_t tile = (r / 16) * chunks + c / kAmxK;
      uint64_t at = tile * kAmxTileBytes + (c % kAmxK) / 2 * 64 + (r % 16) * 4 +
                    (c % 2) * 2;
      std::memcpy(base + at,
                  src + (transpose ? stored.offset(c, r) : stored.offset(r, c)),
                  2);
    }
  Panels p;
  p.base = base;
  p.panelBytes = chunks * kAmxTileBytes; // One block of 16 outputs.
  p.stepBytes = kAmxTileBytes;           // One chunk of 32 inputs.
  return p;
}

} // namespace amx
} // namespace kernels
} // namespace coopvec

#if defined(__clang__)
#pragma clang attribute push(                                                  \
    __attribute__((target("amx-tile,amx-bf16,avx512f,avx512bw,avx512vl,"       \
                          "avx512dq,avx512bf16,avx2,fma,f16c"))),              \
    apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("amx-tile,amx-bf16,avx512f,avx512bw,avx512vl,avx512dq,"     \
                   "avx512bf16,avx2,fma,f16c")
#endif

#include "SimdAvx512.h"

namespace coopvec {
namespace kernels {
namespace amx {
namespace {

/// The palette-1 tile configuration: every tile 16 rows of 64 bytes.
struct alignas(64) TileConfig {
  uint8_t palette = 1, startRow = 0;
  uint8_t reserved[14] = {};
  uint16_t colsb[16] = {};
  uint8_t rows[16] = {};
};

/// 16 f32 rounded to bf16 by floatToBf16's rule (roundBf16WideF, in
/// integer operations), as 16 bf16.
__m256i toBf16Exact(__m512 v) {
  return _mm512_cvtepi32_epi16(_mm512_srli_epi32(
      _mm512_castps_si512(avx512::Isa::roundBf16WideF(v)), 16));
}

/// toBf16Exact for a layer input, with vcvtneps2bf16 where both give the
/// same bf16: that instruction rounds to nearest even too, but reads f32
/// subnormals as zero (the exact rule may round one up to the smallest
/// normal bf16) and rounds values beyond the bf16 range to inf. A vector
/// with any lane of magnitude in (0, 2^-126), or 0x7f7f8000 (the first
/// that rounds past MAX_NORM) and above, inf and NaN included, takes the
/// exact sequence. (A subnormal bf16 result, which the exact rule gives
/// and tdpbf16ps would read as zero, comes only from such a lane.)
__m256i toBf16(__m512 v) {
  __m512i magnitude =
      _mm512_and_si512(_mm512_castps_si512(v), _mm512_set1_epi32(0x7fffffff));
  __mmask16 huge =
      _mm512_cmpge_epu32_mask(magnitude, _mm512_set1_epi32(0x7f7f8000));
  __mmask16 tiny =
      _mm512_mask_cmplt_epu32_mask(_mm512_test_epi32_mask(magnitude, magnitude),
                                   magnitude, _mm512_set1_epi32(0x00800000));
  if (huge | tiny)
    return toBf16Exact(v);
  return (__m256i)_mm512_cvtneps_pbh(v);
}

struct Scratch {
  std::vector<uint16_t> act[2];
  alignas(64) float c[4][16 * 16];
};

Scratch &scratch() {
  static thread_local Scratch s;
  return s;
}

/// Rows [0, rows) of `a` (16-bit elements, `stride` per row) columns
/// [from, to) set to zero.
void zeroColumns(uint16_t *a, uint64_t stride, uint32_t rows, uint32_t from,
                 uint32_t to) {
  if (from < to)
    for (uint32_t b = 0; b < rows; ++b)
      std::memset(a + b * stride + from, 0, 2ull * (to - from));
}

} // namespace

void mlpBf16Task(const MlpPlan &plan, unsigned task) {
  uint32_t b0 = task * plan.batchTile;
  uint32_t nb = std::min(plan.batchTile, plan.batch - b0);
  uint32_t rows = uint32_t(layout::roundUp(nb, 16));
  uint64_t hs = layout::roundUp(plan.maxWidth, kAmxK);
  Scratch &s = scratch();
  for (auto &a : s.act)
    if (a.size() < rows * hs)
      a.resize(rows * hs);

  // The input rows rounded to bf16, zero padded to whole A tiles (the rows
  // past the batch too: their results are dropped).
  uint32_t k0 = plan.layers[0].k;
  uint16_t *in = s.act[0].data();
  for (uint32_t b = 0; b < nb; ++b) {
    const float *x = reinterpret_cast<const float *>(
        reinterpret_cast<const uint8_t *>(plan.input) +
        (b0 + b) * plan.inputStride);
    uint16_t *q = in + b * hs;
    for (uint32_t i = 0; i < k0; i += 16) {
      __mmask16 lanes =
          k0 - i >= 16 ? __mmask16(0xffff) : __mmask16((1u << (k0 - i)) - 1);
      _mm256_mask_storeu_epi16(q + i, lanes,
                               toBf16(_mm512_maskz_loadu_ps(lanes, x + i)));
    }
  }
  zeroColumns(in, hs, nb, k0, uint32_t(layout::roundUp(k0, kAmxK)));
  for (uint32_t b = nb; b < rows; ++b)
    std::memset(in + b * hs, 0, 2 * hs);

  TileConfig config;
  for (int t = 0; t < 8; ++t) {
    config.rows[t] = 16;
    config.colsb[t] = 64;
  }
  _tile_loadconfig(&config);

  uint8_t *out = reinterpret_cast<uint8_t *>(plan.output) +
                 uint64_t(b0) * plan.outputStride;
  for (unsigned l = 0; l < plan.numLayers; ++l) {
    const MlpLayerPlan &layer = plan.layers[l];
    bool last = l + 1 == plan.numLayers;
    const uint16_t *x = s.act[l % 2].data();
    uint16_t *next = s.act[(l + 1) % 2].data();
    uint32_t chunks = uint32_t(layout::ceilDiv(layer.k, kAmxK));
    uint32_t blocks = uint32_t(layout::ceilDiv(layer.m, 16));
    for (uint32_t rt = 0; rt < rows; rt += 16) {
      const uint16_t *a = x + rt * hs;
      for (uint32_t n0 = 0; n0 < blocks; n0 += 4) {
        uint32_t nq = std::min<uint32_t>(4, blocks - n0);
        _tile_zero(0);
        _tile_zero(1);
        _tile_zero(2);
        _tile_zero(3);
        const uint8_t *w = layer.panels.base + n0 * layer.panels.panelBytes;
        for (uint32_t c = 0; c < chunks; ++c) {
          _tile_loadd(4, a + c * kAmxK, hs * 2);
          const uint8_t *wc = w + c * layer.panels.stepBytes;
          // Tile numbers are immediates: one branch per block count.
          _tile_loadd(6, wc, 64);
          _tile_dpbf16ps(0, 4, 6);
          if (nq > 1) {
            _tile_loadd(7, wc + layer.panels.panelBytes, 64);
            _tile_dpbf16ps(1, 4, 7);
          }
          if (nq > 2) {
            _tile_loadd(6, wc + 2 * layer.panels.panelBytes, 64);
            _tile_dpbf16ps(2, 4, 6);
          }
          if (nq > 3) {
            _tile_loadd(7, wc + 3 * layer.panels.panelBytes, 64);
            _tile_dpbf16ps(3, 4, 7);
          }
        }
        _tile_stored(0, s.c[0], 64);
        if (nq > 1)
          _tile_stored(1, s.c[1], 64);
        if (nq > 2)
          _tile_stored(2, s.c[2], 64);
        if (nq > 3)
          _tile_stored(3, s.c[3], 64);
        for (uint32_t j = 0; j < nq; ++j) {
          uint32_t col = (n0 + j) * 16;
          __m512 bias = _mm512_loadu_ps(layer.biasF + col);
          uint32_t valid = std::min<uint32_t>(16, layer.m - col);
          for (uint32_t r = 0; r < 16; ++r) {
            uint32_t b = rt + r;
            __m512 v = _mm512_add_ps(_mm512_load_ps(s.c[j] + r * 16), bias);
            if (layer.relu)
              v = _mm512_max_ps(v, _mm512_setzero_ps());
            if (!last) {
              // Outputs past M are zero (zero weights and bias, no ReLU
              // needed): the next layer's padding columns.
              _mm256_storeu_si256(
                  reinterpret_cast<__m256i *>(next + b * hs + col), toBf16(v));
            } else if (b < nb) {
              _mm512_mask_storeu_ps(
                  reinterpret_cast<float *>(out + b * plan.outputStride) + col,
                  __mmask16((1u << valid) - 1), v);
            }
          }
        }
      }
    }
    if (!last) {
      // A layer's input is padded to whole chunks of 32 with zeros.
      uint32_t written = blocks * 16;
      zeroColumns(next, hs, rows, written,
                  uint32_t(layout::roundUp(layer.m, kAmxK)));
    }
  }
  _tile_release();

  if (plan.outputExp) {
    uint32_t m = plan.layers[plan.numLayers - 1].m;
    for (uint32_t b = 0; b < nb; ++b) {
      float *o = reinterpret_cast<float *>(out + b * plan.outputStride);
      for (uint32_t i = 0; i < m; ++i)
        o[i] = std::exp(o[i]);
    }
  }
}

} // namespace amx
} // namespace kernels
} // namespace coopvec

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif
