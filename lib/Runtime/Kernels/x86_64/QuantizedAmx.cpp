//===- QuantizedAmx.cpp - The quantized product on AMX tiles --------------===//
//
// The AVX-512 VNNI panel task (QuantizedAvx512.cpp) with the raw sums of a
// compute group from AMX-INT8 tiles: 16 batch rows x 64 outputs per tile,
// four C tiles of 16 x 16 int32. The A tile holds 16 rows of up to 64 bytes
// of inputs (from the plan's copy in A-tile order, xTiles), a B tile 16
// outputs of the VNNI-packed panel (its quad steps are 256 bytes apart, so
// the packing is the same), and tdpbusd (x unsigned, w signed) or tdpbsud
// (x signed, w unsigned: the Swap mode) accumulate exactly what vpdpbusd
// does. Four tiles of rows take each group in turn, so its B tiles come
// from L1 after the first, and the next product is started before the
// current one's corrections (QuantBody.inc), which run on the stored C
// tiles meanwhile. A tail of 8 to 15 rows is staged into a zero-padded A
// tile; shorter tails take vpdpbusd. Only reached after Quantized.cpp
// checked AMX-TILE, AMX-INT8 and AVX-512 VNNI and obtained the tile data
// (amxPermitted). Compiled with -ffp-contract=off, as the VNNI file: the
// f32 steps are the reference's.
//
//===----------------------------------------------------------------------===//

#include "Plan.h"
#include "QuantPlan.h"

#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Numerics.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <immintrin.h>
#include <memory>
#include <numeric>
#include <vector>

#if defined(__x86_64__)

#if defined(__clang__)
#pragma clang attribute push(                                                  \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,"     \
                          "amx-tile,amx-int8"))),                              \
    apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target(                                                            \
    "avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,amx-tile,amx-int8")
#endif

namespace coopvec {
namespace kernels {
namespace amx {
namespace {

#include "QuantAvx512.inc"

/// Batch rows per tile: an A tile's 16 rows.
constexpr uint32_t kTileRows = kQuantAmxRows;
/// Tiles that take each group in turn: the group's B tiles (8 KiB for a
/// group of 128) are then read from L1 after the first. tileloadd of a B
/// tile from L2 (16 lines, 256 bytes apart) is the bottleneck otherwise.
constexpr uint32_t kBlockTiles = 4;
/// Tails shorter than this take vpdpbusd (measured with coopvec-bench-quant;
/// bench/quant/README.md).
constexpr uint32_t kMinAmxRows = 8;

/// Bytes of K per A tile row: 64, or the largest power of two dividing the
/// compute group (a multiple of 4).
uint32_t chunkBytes(uint32_t group) { return std::gcd(group, 64u); }

/// Tiles 0-3: C (16 rows x 16 int32), 4: A (16 rows x chunk bytes), 5-7: B
/// (chunk / 4 quads x 16 outputs).
void beginTask(const QuantPlan &p) {
  uint32_t kc = chunkBytes(p.group);
  TileConfig config;
  for (int t = 0; t < 4; ++t) {
    config.rows[t] = 16;
    config.colsb[t] = 64;
  }
  config.rows[4] = 16;
  config.colsb[4] = uint16_t(kc);
  for (int t = 5; t < 8; ++t) {
    config.rows[t] = uint8_t(kc / 4);
    config.colsb[t] = 64;
  }
  _tile_loadconfig(&config);
}

void endTask() { _tile_release(); }

/// Starts the raw sums of one compute group in C tiles 0-3 (vpdpbusd
/// computes short tails into `acc` at once).
template <uint32_t R, bool Swap>
void dotIssue(__m512i acc[][kQuantPanel / 16], const uint8_t *wp,
              const uint8_t *const *xr, const uint8_t *xt, uint32_t group) {
  if constexpr (R < kMinAmxRows) {
    dotGroupVnni<R, Swap>(acc, wp, xr, group);
  } else {
    const uint32_t kc = chunkBytes(group);
    alignas(64) uint8_t stage[16 * 64];
    if constexpr (R < 16)
      std::memset(stage, 0, sizeof(stage));
    _tile_zero(0);
    _tile_zero(1);
    _tile_zero(2);
    _tile_zero(3);
// Tile 4 (x) times tile b (w) into C tile c.
#define COOPVEC_QUANT_DP(c, b)                                                 \
  do {                                                                         \
    if constexpr (Swap)                                                        \
      _tile_dpbsud(c, 4, b);                                                   \
    else                                                                       \
      _tile_dpbusd(c, 4, b);                                                   \
  } while (0)
    for (uint32_t kk = 0; kk < group; kk += kc) {
      if constexpr (R == 16) {
        _tile_loadd(4, xt + uint64_t(kk) * 16, kc);
      } else {
        for (uint32_t r = 0; r < R; ++r)
          std::memcpy(stage + r * 64, xr[r] + kk, kc);
        // GCC's tile loads are asm without a memory clobber.
        asm volatile("" ::: "memory");
        _tile_loadd(4, stage, 64);
      }
      const uint8_t *wk = wp + uint64_t(kk / 4) * 256;
      _tile_loadd(5, wk, 256);
      _tile_loadd(6, wk + 64, 256);
      COOPVEC_QUANT_DP(0, 5);
      _tile_loadd(7, wk + 128, 256);
      COOPVEC_QUANT_DP(1, 6);
      _tile_loadd(5, wk + 192, 256);
      COOPVEC_QUANT_DP(2, 7);
      COOPVEC_QUANT_DP(3, 5);
    }
#undef COOPVEC_QUANT_DP
  }
}

/// Stores C tiles 0-3 into `acc`: acc[r][v] is row r of tile v (rows 256
/// bytes apart).
template <uint32_t R> void dotCollect(__m512i acc[][kQuantPanel / 16]) {
  if constexpr (R >= kMinAmxRows) {
    alignas(64) __m512i full[16][kQuantPanel / 16];
    __m512i(*c)[kQuantPanel / 16] = R == 16 ? acc : full;
    _tile_stored(0, &c[0][0], 256);
    _tile_stored(1, &c[0][1], 256);
    _tile_stored(2, &c[0][2], 256);
    _tile_stored(3, &c[0][3], 256);
    if constexpr (R < 16)
      std::memcpy(acc, full, sizeof(acc[0]) * R);
  }
}

} // namespace

#include "QuantBody.inc"

} // namespace amx
} // namespace kernels
} // namespace coopvec

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif
