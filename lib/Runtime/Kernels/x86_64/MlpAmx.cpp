//===- MlpAmx.cpp - The BF16 and I8 fused MLP on AMX tiles ----------------===//
//
// The fused MLP with BF16 weights (tdpbf16ps) or I8 weights (tdpbssd, and
// tdpbusd for u8 inputs) on Intel AMX: per task batches of 128 vectors go
// through every layer with their activations (bf16, or s8/u8) in rows of a
// scratch buffer; 16 vectors x 64 bytes of inputs (32 bf16 or 64 bytes)
// form an A tile, a B tile holds the same inputs (16 pairs, or quads) of 16
// outputs of the weights (packAmxMatrix), and four C tiles accumulate 16
// vectors x 64 outputs (f32, or exact i32). The epilogue runs on the C tiles
// after tilestored: bias and ReLU, then for a hidden layer the next layer's
// input (BF16: rounded to bf16 by floatToBf16's rule, as every BF16 path
// does; I8: requantized by the row's scale to u8 after a ReLU, else s8,
// floatToU8 / floatToS8, as the VNNI path does, so the results are the same
// to the bit), for the last the f32 results (I8: scaled). Only reached after
// Kernels.cpp checked AMX-TILE, AMX-BF16 or AMX-INT8 and AVX-512 (with
// AVX-512 BF16 for BF16; the CPUs with AMX-BF16 all have it) and obtained
// the kernel's permission for the tile data (amxPermitted).
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
                     bool transpose, uint32_t m, uint32_t k, uint32_t elemBytes,
                     std::vector<uint8_t> &buf) {
  // A tile row holds 64 bytes of inputs: 32 bf16 or 64 s8, in groups of 4
  // bytes (a pair or a quad) per output.
  uint32_t depth = kAmxRowBytes / elemBytes, group = 4 / elemBytes;
  uint64_t chunks = layout::ceilDiv(k, depth), blocks = layout::ceilDiv(m, 16);
  uint8_t *base = zeroedLines(buf, blocks * chunks * kAmxTileBytes);
  for (uint32_t r = 0; r < m; ++r)
    for (uint32_t c = 0; c < k; ++c) {
      // Tile (block r / 16, chunk c / depth), row (c % depth) / group: the
      // group of inputs of each of the block's 16 outputs.
      uint64_t tile = (r / 16) * chunks + c / depth;
      uint64_t at = tile * kAmxTileBytes + (c % depth) / group * 64 +
                    (r % 16) * 4 + (c % group) * elemBytes;
      std::memcpy(base + at,
                  src + (transpose ? stored.offset(c, r) : stored.offset(r, c)),
                  elemBytes);
    }
  Panels p;
  p.base = base;
  p.panelBytes = chunks * kAmxTileBytes; // One block of 16 outputs.
  p.stepBytes = kAmxTileBytes;           // One chunk of 64 bytes of inputs.
  return p;
}

} // namespace amx
} // namespace kernels
} // namespace coopvec

#if defined(__clang__)
#pragma clang attribute push(                                                  \
    __attribute__((target("amx-tile,amx-bf16,amx-int8,avx512f,avx512bw,"       \
                          "avx512vl,avx512dq,avx512bf16,avx2,fma,f16c"))),     \
    apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("amx-tile,amx-bf16,amx-int8,avx512f,avx512bw,avx512vl,"     \
                   "avx512dq,avx512bf16,avx2,fma,f16c")
#endif

#include "SimdAvx512.h"

namespace coopvec {
namespace kernels {
namespace amx {
namespace {

using avx512::Isa;

/// Isa::toBf16Wide of two vectors (lo first) for a layer input, with one
/// vcvtne2ps2bf16 unless a lane of either would differ (cvtBf16Differs; a
/// subnormal bf16, which tdpbf16ps would read as zero, comes only from such
/// a lane).
__m512i toBf16Pair(__m512 lo, __m512 hi) {
  if (Isa::cvtBf16Differs(lo) | Isa::cvtBf16Differs(hi))
    return _mm512_inserti64x4(_mm512_castsi256_si512(Isa::toBf16Wide(lo)),
                              Isa::toBf16Wide(hi), 1);
  return (__m512i)_mm512_cvtne2ps_pbh(hi, lo);
}

/// A job's four column blocks of 16 outputs (zero past the layer's blocks).
struct Block {
  uint32_t col, count;
};

/// BF16 weights: bf16 activations, f32 sums.
struct Bf16Tiles {
  using T = uint16_t;
  using Acc = float;
  static constexpr uint32_t kDepth = kAmxRowBytes / 2;
  template <int C, int B> static void dot(bool) { _tile_dpbf16ps(C, 4, B); }
  /// The k inputs at x rounded into q, zero padded to a multiple of 32.
  static void stageRow(const MlpPlan &, const float *x, T *q, uint32_t k) {
    for (uint32_t i = 0; i < k; i += 32) {
      __m512 lo = _mm512_maskz_loadu_ps(Isa::firstLanes(k - i), x + i);
      __m512 hi =
          i + 16 < k
              ? _mm512_maskz_loadu_ps(Isa::firstLanes(k - i - 16), x + i + 16)
              : _mm512_setzero_ps();
      _mm512_storeu_si512(q + i, toBf16Pair(lo, hi));
    }
  }
  /// acc + bias, ReLU: the layer's f32 outputs.
  struct Epilogue {
    __m512 bias[4];
    bool relu;
    /// The lanes of each block below M: the next layer's padding inputs
    /// must be zero, and an output past M is 0 * x for every input x, NaN
    /// where an input is infinite.
    __mmask16 rows[4];
    Epilogue(const MlpLayerPlan &layer, Block block) : relu(layer.relu) {
      for (uint32_t j = 0; j < 4; ++j)
        rows[j] = j < block.count
                      ? Isa::firstLanes(layer.m - block.col - 16 * j)
                      : __mmask16(0);
      for (uint32_t j = 0; j < 4; ++j)
        bias[j] = j < block.count
                      ? _mm512_loadu_ps(layer.biasF + block.col + 16 * j)
                      : _mm512_setzero_ps();
    }
    __m512 value(const Acc *c, uint32_t j) const {
      __m512 v = _mm512_add_ps(_mm512_load_ps(c), bias[j]);
      return relu ? _mm512_max_ps(v, _mm512_setzero_ps()) : v;
    }
    /// Row r of the job's C tiles (c[j]: tile j, 16 x 16) as the next
    /// layer's input at dst: whole pairs of blocks (the missing ones zero).
    void hiddenRow(const Acc (*c)[256], uint32_t r, uint32_t count,
                   T *dst) const {
      for (uint32_t j = 0; j < count; j += 2) {
        __m512 lo = _mm512_maskz_mov_ps(rows[j], value(c[j] + r * 16, j));
        __m512 hi = j + 1 < count
                        ? _mm512_maskz_mov_ps(rows[j + 1],
                                              value(c[j + 1] + r * 16, j + 1))
                        : _mm512_setzero_ps();
        _mm512_storeu_si512(dst + 16 * j, toBf16Pair(lo, hi));
      }
    }
    __m512 last(const Acc *c, uint32_t j) const { return value(c, j); }
  };
};

/// I8 weights: s8 activations (u8 after a ReLU), exact i32 sums (tdpbssd,
/// tdpbusd for u8 inputs), requantized as the VNNI path does (IntSink:
/// acc + bias, ReLU, cvtepi32_ps times the row's scale, then floatToS8 or
/// floatToU8).
struct S8Tiles {
  using T = int8_t;
  using Acc = int32_t;
  static constexpr uint32_t kDepth = kAmxRowBytes;
  template <int C, int B> static void dot(bool unsignedIn) {
    if (unsignedIn)
      _tile_dpbusd(C, 4, B);
    else
      _tile_dpbssd(C, 4, B);
  }
  /// floatToS8 (floatToU8 with u8, for values >= 0) as i32 lanes: NaN 0,
  /// min(v, 127 or 255) rounded to nearest even (MXCSR); below -128 (and
  /// -inf, which vcvtps2dq gives as INT32_MIN) saturates in pack.
  static __m512i quantize(__m512 v, bool u8 = false) {
    return _mm512_maskz_cvtps_epi32(
        _mm512_cmp_ps_mask(v, v, _CMP_ORD_Q),
        _mm512_min_ps(v, _mm512_set1_ps(u8 ? 255.0f : 127.0f)));
  }
  /// Four vectors of quantize's lanes as 64 saturated bytes (s8, or u8),
  /// in order.
  static __m512i pack(const __m512i (&q)[4], bool u8 = false) {
    // Per 128-bit lane L the packs leave dwords [q0, q1, q2, q3] of lanes
    // L; dword 4L + j goes to 4j + L.
    __m512i lo = _mm512_packs_epi32(q[0], q[1]),
            hi = _mm512_packs_epi32(q[2], q[3]);
    __m512i packed =
        u8 ? _mm512_packus_epi16(lo, hi) : _mm512_packs_epi16(lo, hi);
    return _mm512_permutexvar_epi32(
        _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15),
        packed);
  }
  /// The k inputs at x quantized into q, zero padded to a multiple of 64:
  /// the product is rounded to f32 first, then quantized (the scheme in
  /// Kernels.h), as mlpInt8 does.
  static void stageRow(const MlpPlan &plan, const float *x, T *q, uint32_t k) {
    __m512 scale = _mm512_set1_ps(plan.inputScale);
    for (uint32_t i = 0; i < k; i += 64) {
      __m512i v[4];
      for (uint32_t j = 0; j < 4; ++j) {
        uint32_t c = i + 16 * j;
        v[j] = c < k ? quantize(_mm512_mul_ps(
                           _mm512_maskz_loadu_ps(Isa::firstLanes(k - c), x + c),
                           scale))
                     : _mm512_setzero_si512();
      }
      _mm512_storeu_si512(q + i, pack(v));
    }
  }
  struct Epilogue {
    __m512i bias[4];
    __m512 scale[4];
    bool relu, u8;
    Epilogue(const MlpLayerPlan &layer, Block block)
        : relu(layer.relu), u8(layer.unsignedOut) {
      for (uint32_t j = 0; j < 4; ++j) {
        bool in = j < block.count;
        bias[j] = in ? _mm512_loadu_si512(layer.biasI + block.col + 16 * j)
                     : _mm512_setzero_si512();
        scale[j] = in ? _mm512_loadu_ps(layer.requant + block.col + 16 * j)
                      : _mm512_setzero_ps();
      }
    }
    __m512 value(const Acc *c, uint32_t j) const {
      __m512i v = _mm512_add_epi32(_mm512_load_si512(c), bias[j]);
      if (relu)
        v = _mm512_max_epi32(v, _mm512_setzero_si512());
      return _mm512_mul_ps(_mm512_cvtepi32_ps(v), scale[j]);
    }
    /// Row r of the job's C tiles as the next layer's input at dst: the
    /// four blocks (the missing ones zero) in one 64-byte store.
    void hiddenRow(const Acc (*c)[256], uint32_t r, uint32_t count,
                   T *dst) const {
      __m512i q[4];
      for (uint32_t j = 0; j < 4; ++j)
        q[j] = j < count ? quantize(value(c[j] + r * 16, j), u8)
                         : _mm512_setzero_si512();
      _mm512_storeu_si512(dst, pack(q, u8));
    }
    __m512 last(const Acc *c, uint32_t j) const { return value(c, j); }
  };
};

template <class T> struct Scratch {
  std::vector<T> act[2];
  /// Two jobs' C tiles: one in the epilogue while the next multiplies.
  alignas(64) int32_t c[2][4][256];
};

template <class T> Scratch<T> &scratch() {
  static thread_local Scratch<T> s;
  return s;
}

/// Starts a job on the tiles: C tiles 0..3 = 16 rows of `a` (aStride bytes
/// apart) times `count` blocks of B tiles from `w` (panelBytes apart).
template <class Tiles>
void multiplyJob(const uint8_t *a, uint64_t aStride, const uint8_t *w,
                 const Panels &panels, uint32_t count, uint32_t chunks,
                 bool unsignedIn) {
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  for (uint32_t ch = 0; ch < chunks; ++ch) {
    _tile_loadd(4, a + ch * kAmxRowBytes, aStride);
    const uint8_t *wc = w + ch * panels.stepBytes;
    // Tile numbers are immediates: one branch per block count.
    _tile_loadd(6, wc, 64);
    Tiles::template dot<0, 6>(unsignedIn);
    if (count > 1) {
      _tile_loadd(7, wc + panels.panelBytes, 64);
      Tiles::template dot<1, 7>(unsignedIn);
    }
    if (count > 2) {
      _tile_loadd(6, wc + 2 * panels.panelBytes, 64);
      Tiles::template dot<2, 6>(unsignedIn);
    }
    if (count > 3) {
      _tile_loadd(7, wc + 3 * panels.panelBytes, 64);
      Tiles::template dot<3, 7>(unsignedIn);
    }
  }
}

/// The job's C tiles into c.
void storeJob(int32_t (*c)[256], uint32_t count) {
  _tile_stored(0, c[0], 64);
  if (count > 1)
    _tile_stored(1, c[1], 64);
  if (count > 2)
    _tile_stored(2, c[2], 64);
  if (count > 3)
    _tile_stored(3, c[3], 64);
}

/// Vectors [b0, b0 + nb) (nb <= kAmxBatch) through every layer; the input
/// rows [b0 + nb, aheadEnd) are prefetched meanwhile.
template <class Tiles>
void runTile(const MlpPlan &plan, uint32_t b0, uint32_t nb, uint32_t aheadEnd) {
  using T = typename Tiles::T;
  using Acc = typename Tiles::Acc;
  using Epilogue = typename Tiles::Epilogue;
  constexpr uint32_t kDepth = Tiles::kDepth;
  uint32_t rows = uint32_t(layout::roundUp(nb, 16));
  uint64_t hs = layout::roundUp(plan.maxWidth, kDepth);
  Scratch<T> &s = scratch<T>();
  for (auto &a : s.act)
    if (a.size() < rows * hs)
      a.resize(rows * hs);

  // The input rows in the layer's input type, zero padded to whole A tiles
  // (the rows past the batch too: their results are dropped).
  uint32_t k0 = plan.layers[0].k;
  T *in = s.act[0].data();
  for (uint32_t b = 0; b < nb; ++b) {
    const float *x = reinterpret_cast<const float *>(
        reinterpret_cast<const uint8_t *>(plan.input) +
        (b0 + b) * plan.inputStride);
    Tiles::stageRow(plan, x, in + b * hs, k0);
  }
  for (uint32_t b = nb; b < rows; ++b)
    std::memset(in + b * hs, 0, sizeof(T) * hs);

  // While the tiles work, the task's next vectors come into the cache, a
  // share of their lines per job, instead of in one burst when they start.
  const char *input = reinterpret_cast<const char *>(plan.input);
  uint64_t ahead = uint64_t(b0 + nb) * plan.inputStride;
  uint64_t aheadBytes = uint64_t(aheadEnd) * plan.inputStride;
  uint64_t aheadStep = 0;
  if (ahead < aheadBytes) {
    uint64_t jobs = 0;
    for (unsigned l = 0; l < plan.numLayers; ++l)
      jobs += rows / 16 * layout::ceilDiv(plan.layers[l].m, 64);
    aheadStep = layout::roundUp(layout::ceilDiv(aheadBytes - ahead, jobs), 64);
  }

  uint8_t *out = reinterpret_cast<uint8_t *>(plan.output) +
                 uint64_t(b0) * plan.outputStride;
  for (unsigned l = 0; l < plan.numLayers; ++l) {
    const MlpLayerPlan &layer = plan.layers[l];
    bool last = l + 1 == plan.numLayers;
    const T *x = s.act[l % 2].data();
    T *next = s.act[(l + 1) % 2].data();
    uint32_t chunks = uint32_t(layout::ceilDiv(layer.k, kDepth));
    uint32_t blocks = uint32_t(layout::ceilDiv(layer.m, 16));
    uint32_t groups = uint32_t(layout::ceilDiv(blocks, 4));
    uint32_t jobs = rows / 16 * groups;
    // Job i: rows [16 (i / groups), +16), blocks [4 (i % groups), +4).
    auto block = [&](uint32_t i) {
      uint32_t n0 = i % groups * 4;
      return Block{n0 * 16, std::min<uint32_t>(4, blocks - n0)};
    };
    auto start = [&](uint32_t i) {
      Block bl = block(i);
      multiplyJob<Tiles>(
          reinterpret_cast<const uint8_t *>(x + i / groups * 16 * hs),
          hs * sizeof(T),
          layer.panels.base + bl.col / 16 * layer.panels.panelBytes,
          layer.panels, bl.count, chunks, layer.unsignedIn);
    };
    // While the epilogue of job i runs on the vector units, the tiles
    // multiply job i + 1.
    start(0);
    for (uint32_t i = 0; i < jobs; ++i) {
      Block bl = block(i);
      storeJob(s.c[i % 2], bl.count);
      if (i + 1 < jobs)
        start(i + 1);
      for (uint64_t e = std::min(ahead + aheadStep, aheadBytes); ahead < e;
           ahead += 64)
        _mm_prefetch(input + ahead, _MM_HINT_T0);
      const Acc(*c)[256] = reinterpret_cast<const Acc(*)[256]>(s.c[i % 2]);
      Epilogue epilogue(layer, bl);
      uint32_t rt = i / groups * 16;
      if (!last) {
        // Outputs past M are zero (I8: zero weights and bias; BF16: masked,
        // see Bf16Tiles::Epilogue), and hiddenRow writes whole groups (64
        // bytes, or pairs of blocks): the next layer's input is zero padded
        // to whole chunks, roundUp(M, kDepth).
        for (uint32_t r = 0; r < 16; ++r)
          epilogue.hiddenRow(c, r, bl.count, next + (rt + r) * hs + bl.col);
        continue;
      }
      for (uint32_t j = 0; j < bl.count; ++j) {
        __mmask16 valid = Isa::firstLanes(layer.m - bl.col - 16 * j);
        for (uint32_t r = 0; r < 16 && rt + r < nb; ++r)
          _mm512_mask_storeu_ps(
              reinterpret_cast<float *>(out + (rt + r) * plan.outputStride) +
                  bl.col + 16 * j,
              valid, epilogue.last(c[j] + r * 16, j));
      }
    }
  }
  applyOutputExp(plan, out, nb);
}

/// The task's vectors, kAmxBatch at a time.
template <class Tiles> void mlpTiles(const MlpPlan &plan, unsigned task) {
  uint32_t b0 = task * plan.batchTile;
  uint32_t end = std::min(plan.batch, b0 + plan.batchTile);
  TileConfig config;
  for (int t = 0; t < 8; ++t) {
    config.rows[t] = 16;
    config.colsb[t] = 64;
  }
  _tile_loadconfig(&config);
  for (uint32_t b = b0; b < end; b += kAmxBatch) {
    uint32_t nb = std::min(kAmxBatch, end - b);
    runTile<Tiles>(plan, b, nb, std::min(end, b + nb + kAmxBatch));
  }
  _tile_release();
}

} // namespace

void mlpTask(const MlpPlan &plan, unsigned task) {
  if (plan.int8)
    mlpTiles<S8Tiles>(plan, task);
  else
    mlpTiles<Bf16Tiles>(plan, task);
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
