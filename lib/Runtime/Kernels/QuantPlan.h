//===- QuantPlan.h - The quantized product as the kernels take it -*- C++ -*-===//
//
// coopvecKernelsQuantizedMatMul (Quantized.cpp) turns the parameters into
// this plan: the integer product split into the raw sum P = sum x * w that
// vpdpbusd (or the AVX2 kernel's vpmaddwd) computes and correction terms
// (zero points, reductions, the offsets of the unsigned-by-signed trick),
// everything per compute group and in
// int32, which is exact because the plan is only made when every value
// provably fits (Quantized.cpp checks the bound). The float steps are those
// of the reference, in its order, so results are bit-identical.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_LIB_RUNTIME_KERNELS_QUANTPLAN_H
#define LINALGCOOP_LIB_RUNTIME_KERNELS_QUANTPLAN_H

#include <cstdint>

namespace coopvec {
namespace kernels {

/// How the signed/unsigned operands reach vpdpbusd (u8 x s8).
enum class QuantMode : uint32_t {
  UnsignedBySigned, ///< x U8, w I8: dpbusd(x, w).
  SignedBySigned,   ///< x I8, w I8: x + 128 is U8; P -= 128 * colsum(w).
  SignedByUnsigned, ///< x I8, w U8: dpbusd(w, x), the roles swapped.
  UnsignedByUnsigned ///< x U8, w U8: w - 128 is I8; P += 128 * rowsum(x).
};

struct QuantPlan {
  uint32_t batch, m, k;
  uint32_t group;   ///< Compute group (the finer scale grouping).
  uint32_t groups;  ///< k / group.
  QuantMode mode;
  const uint8_t *x; ///< Input rows (x ^ 0x80 for SignedBySigned).
  uint64_t xStride;
  /// AMX: the same inputs of each whole tile of 16 rows, [k / chunk][16]
  /// [chunk] bytes with chunk = gcd(group, 64), 16 * k bytes per tile;
  /// null for the vector kernels.
  const uint8_t *xTiles;
  const uint8_t *w; ///< Row-major weights, m rows of k bytes.
  uint64_t wStride;
  /// The matrix row `w` starts at: 0, or for 4-bit weights the first row
  /// of the panel a task unpacked into bytes.
  uint32_t wRow0;
  uint8_t wFlip;    ///< XORed into every weight byte while packing.

  /// Input zero points: per (b, sub-group of zxGroup), with the weights'
  /// column sums over the same sub-groups; null when absent.
  const int32_t *zx;
  uint32_t zxGroup;
  /// Whether the packer computes column sums over zxGroup sub-groups (zero
  /// points or the SignedBySigned offset need them).
  bool needColSums;
  /// Weight zero points transposed to [k / rGroup][m], zwStep elements
  /// from one reduction group to the next (0: the same m values for all),
  /// and the reductions minus the input zero points' sums, [b][k / rGroup];
  /// null when absent.
  const int32_t *zwT;
  uint64_t zwStep;
  const int32_t *radj;
  uint32_t rGroup;
  /// Row sums of x per compute group [b][groups] (UnsignedByUnsigned).
  const int32_t *xsum;
  /// Scales: [b][groups] and [groups][m] (swStep elements from one group
  /// to the next, 0: the same for all); null when absent.
  const float *sx;
  const float *swT;
  uint64_t swStep;
  /// Bias: floats or int32 per n; null when absent.
  const float *biasF;
  const int32_t *biasI;
  /// Output: f32, or the element code to convert to; row stride in bytes.
  uint8_t *out;
  uint64_t outStride;
  uint32_t outType;

  /// Matrix row n's k weight bytes.
  const uint8_t *wRow(uint32_t n) const {
    return w + uint64_t(n - wRow0) * wStride;
  }
};

/// Panel width (outputs per task) of the kernels.
constexpr uint32_t kQuantPanel = 64;
/// Batch rows per tile: 6 x 4 vectors of accumulators (AVX-512: 24 of 32
/// registers; AVX2: 6 x 2 of 16, a 16-output block at a time).
constexpr uint32_t kQuantRows = 6;

/// Computes outputs [panel * 64, panel * 64 + 64) of batch rows
/// [bBegin, bEnd): AMX tiles, AVX-512 VNNI (vpdpbusd) and AVX2 (i16
/// vpmaddwd).
using QuantPanelTask = void (*)(const QuantPlan &plan, unsigned panel,
                                uint32_t bBegin, uint32_t bEnd);
namespace avx512 {
void quantPanelTask(const QuantPlan &plan, unsigned panel, uint32_t bBegin,
                    uint32_t bEnd);
} // namespace avx512
/// AMX tiles for 16-row tiles, vpdpbusd for short tails
/// (x86_64/QuantizedAmx.cpp).
namespace amx {
constexpr uint32_t kQuantAmxRows = 16;
void quantPanelTask(const QuantPlan &plan, unsigned panel, uint32_t bBegin,
                    uint32_t bEnd);
} // namespace amx
namespace avx2 {
void quantPanelTask(const QuantPlan &plan, unsigned panel, uint32_t bBegin,
                    uint32_t bEnd);
} // namespace avx2

} // namespace kernels
} // namespace coopvec

#endif // LINALGCOOP_LIB_RUNTIME_KERNELS_QUANTPLAN_H
