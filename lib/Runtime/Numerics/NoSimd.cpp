//===- NoSimd.cpp - The SIMD hooks of Bulk.cpp and MX.cpp without SIMD ----===//
//
// Built on architectures without a SIMD folder (x86_64/Avx2.cpp is the x86
// one): every bulk conversion and MX quantization takes the scalar loop.
//
//===----------------------------------------------------------------------===//

#include "NumericsInternal.h"

namespace coopvec {
namespace numerics {

bool cpuHasAvx2() { return false; }
bool avx2ConvertF32(unsigned, const SimdParams &, unsigned, const float *,
                    void *, size_t) {
  return false;
}
bool avx2ConvertF16(unsigned, const SimdParams &, unsigned, const uint16_t *,
                    void *, size_t) {
  return false;
}
size_t avx2MxQuantize(unsigned, const SimdParams &, int, const float *, size_t,
                      uint8_t *, uint8_t *) {
  return 0;
}

} // namespace numerics
} // namespace coopvec
