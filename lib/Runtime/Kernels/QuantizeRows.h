//===- QuantizeRows.h - Dynamic row quantization's kernels ----------------===//
//
// coopvecKernelsQuantizeRows (QuantizeRows.cpp) checks the parameters and
// hands blocks of rows to the level's kernel (QuantizeRowsBody.inc, in
// x86_64/QuantizeRowsAvx512.cpp and x86_64/QuantizeRowsAvx2.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_LIB_RUNTIME_KERNELS_QUANTIZEROWS_H
#define LINALGCOOP_LIB_RUNTIME_KERNELS_QUANTIZEROWS_H

#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Numerics.h"
#include "LinAlgCoop/Runtime/ParamStructs.h"

#include <cstdint>
#include <vector>

namespace coopvec {
namespace kernels {

/// A block's per-group values between the two sweeps, kept per thread
/// between calls unless they grew past 1 Mi groups (16 MiB: a block of one
/// row of very many small groups).
struct QuantizeRowsScratch {
  std::vector<float> raw, lo, scale;
  std::vector<uint8_t> bits;
  void trim() {
    if (raw.capacity() > (size_t(1) << 20))
      *this = QuantizeRowsScratch();
  }
};

/// The numerics format of a scale type (F32, F16 or BF16).
inline unsigned quantizeRowsScaleFormat(uint32_t scaleType) {
  return scaleType == COOPVEC_TYPE_F32   ? COOPVEC_FMT_F32
         : scaleType == COOPVEC_TYPE_F16 ? COOPVEC_FMT_F16
                                         : COOPVEC_FMT_BF16;
}

#if defined(__x86_64__)
/// Quantizes rows [b0, b1) of checked parameters.
using QuantizeRowBlock = void (*)(const CoopVecQuantizeRowsParams &p,
                                  uint32_t b0, uint32_t b1,
                                  QuantizeRowsScratch &scratch);
namespace avx512 {
void quantizeRowBlock(const CoopVecQuantizeRowsParams &p, uint32_t b0,
                      uint32_t b1, QuantizeRowsScratch &scratch);
} // namespace avx512
namespace avx2 {
void quantizeRowBlock(const CoopVecQuantizeRowsParams &p, uint32_t b0,
                      uint32_t b1, QuantizeRowsScratch &scratch);
} // namespace avx2
#endif

} // namespace kernels
} // namespace coopvec

#endif // LINALGCOOP_LIB_RUNTIME_KERNELS_QUANTIZEROWS_H
