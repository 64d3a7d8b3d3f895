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

#include "QuantAvx512.inc"

/// Batch rows per register tile.
constexpr uint32_t kTileRows = kQuantRows;
constexpr uint32_t kBlockTiles = 1;

template <uint32_t R, bool Swap>
void dotIssue(__m512i acc[][kQuantPanel / 16], const uint8_t *wp,
              const uint8_t *const *xr, const uint8_t *, uint32_t group) {
  dotGroupVnni<R, Swap>(acc, wp, xr, group);
}
template <uint32_t R> void dotCollect(__m512i[][kQuantPanel / 16]) {}

void beginTask(const QuantPlan &) {}
void endTask() {}

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
